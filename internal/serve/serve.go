// Package serve hosts Cairn's surfaces as servers: `cairn serve` (the MCP
// server over stdio, or Streamable HTTP with the board), `cairn bridge`
// (stdio to a remote Cairn) and `cairn board`. It wires the surfaces
// (mcpserver, board, bridge) to the project's services; the surfaces do
// not know each other.
package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/agent"
	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/embedding"
	"github.com/cairn-dev/cairn/internal/httpserver"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/proc"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/brief"
)

// Register adds the servers' commands to root.
func Register(root *cobra.Command, version string) {
	root.AddCommand(serveCmd(version), bridgeCmd(version), boardCmd(version))
}

func serveCmd(version string) *cobra.Command {
	var (
		toolsets  string
		readOnly  bool
		agentName string
		sync      string
		logLevel  string
		hf        httpFlags
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve MCP over stdio (or Streamable HTTP with --http) for the project in the working directory",
		Long: `Serve MCP over stdio. The project is $CAIRN_PROJECT_ROOT, else the first directory
from the working directory upward that has a .cairn or .git; its data is in
<root>/.cairn/cairn.db. stdout carries only the protocol; logs go to stderr.

With --http ADDR, serve MCP over Streamable HTTP instead: /mcp is that project
(named "default"), /p/NAME/mcp (or the X-Cairn-Project header) a project named
with --project NAME=DIR. Each agent (X-Cairn-Agent, else the client's name)
keeps its own focus. A non-loopback address needs bearer tokens
(CAIRN_TOKENS or --tokens-file, each SECRET:PROJECTS:rw|ro). /healthz and
/readyz are probes; SIGTERM drains calls in flight and exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := app.NewLogger(logLevel)
			if err != nil {
				return err
			}
			durability, err := app.ParseDurability(sync)
			if err != nil {
				return fmt.Errorf("--sync %q: use normal or full", sync)
			}
			embedCfg := app.EmbedFromEnv()
			if embedCfg.URL != "" {
				if _, err := embedding.New(embedCfg); err != nil {
					return fmt.Errorf("CAIRN_EMBED_URL / CAIRN_EMBED_MODEL: %w", err)
				}
			}
			// The toolsets and read-only come from the flags, else the
			// environment, else .cairn/config.toml (over HTTP: the default
			// project's, the working directory's), else the user's file.
			flags := changedFlags(cmd, "toolsets", "read-only")
			rs, problems := serveSettings(flags)
			if r, ok := project.Lookup(rs, "server.toolsets"); ok {
				toolsets = r.Value
			}
			if r, ok := project.Lookup(rs, "server.read_only"); ok {
				readOnly, _ = strconv.ParseBool(r.Value)
			}
			if cmd.Flags().Changed("http") || hf.addr != "" {
				for _, p := range problems {
					log.Warn("configuration refused; serving with the defaults for that file", "problem", p)
				}
				return serveHTTP(cmd.Context(), log, hf, httpserver.Config{
					Version:  version,
					Toolsets: strings.Split(toolsets, ","),
					ReadOnly: readOnly,
					Agent:    agentName,
					Logger:   log,
				}, app.Config{Durability: durability, Logger: log, Embed: embedCfg, Upkeep: true, Flags: flags})
			}
			if err := hf.stdioOnly(cmd); err != nil {
				return err
			}
			if err := app.CheckStore(app.Config{}); err != nil {
				return err // an empty database: refuse to start rather than make a new store
			}
			stopProfiles, err := startProfiles(log)
			if err != nil {
				return err
			}
			defer stopProfiles()
			lazy := app.NewLazy(app.Config{Durability: durability, Logger: log, Embed: embedCfg, Upkeep: true, Flags: flags})
			defer lazy.Close()
			ctx := cmd.Context()
			trimCtx, stopTrim := context.WithCancel(ctx)
			defer stopTrim()
			go trimWhenIdle(trimCtx)
			// Until the client is initialized, nothing but the answer to
			// initialize is on the path.
			initialized, stopOpening := openWhenInitialized(ctx, lazy, log)
			defer stopOpening() // before lazy.Close: a load in flight ends first
			// A client that sends nothing after its first message gets both
			// a moment later.
			time.AfterFunc(initializedGrace, initialized)
			srv, err := mcpserver.New(mcpserver.Options{
				Version:  version,
				Toolsets: strings.Split(toolsets, ","),
				ReadOnly: readOnly,
				Services: func(ctx context.Context) (*service.Set, error) {
					s, err := lazy.Get(ctx)
					if err != nil {
						return nil, err
					}
					return &s.Set, nil
				},
				Agent:          stdioAgent(cmd, agentName),
				Procs:          proc.Ancestors(),
				Logger:         log,
				Context:        ctx,
				Initialized:    initialized,
				ConfigProblems: problems,
				Settings: []brief.Setting{
					{Name: "agent", Value: agentName, Source: brief.EnvSource(cmd.Flags().Changed("agent"), "agent", "CAIRN_AGENT")},
					{Name: "sync", Value: sync, Source: brief.EnvSource(cmd.Flags().Changed("sync"), "sync", "CAIRN_SYNC")},
					{Name: "transport", Value: "stdio", Source: "default (--http not set)"},
				},
			})
			if err != nil {
				return err
			}
			if isTerminal(os.Stdin.Fd()) {
				fmt.Fprint(cmd.ErrOrStderr(), terminalHint)
			}
			t := &mcpserver.StdioTransport{In: os.Stdin, Out: os.Stdout, Logger: log}
			if err := srv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&toolsets, "toolsets", app.EnvDefault("CAIRN_TOOLSETS", "default"),
		"toolsets to serve, comma-separated: "+strings.Join(mcpserver.ToolsetNames(), ", ")+", default, all (env CAIRN_TOOLSETS)")
	f.BoolVar(&readOnly, "read-only", app.EnvDefault("CAIRN_READ_ONLY", "") == "true" || app.EnvDefault("CAIRN_READ_ONLY", "") == "1",
		"serve only tools that do not write (env CAIRN_READ_ONLY=1)")
	f.StringVar(&agentName, "agent", app.EnvDefault("CAIRN_AGENT", agent.Default),
		"agent name; each agent keeps its own focus (env CAIRN_AGENT; default: the client's name from initialize, else default)")
	f.StringVar(&sync, "sync", app.EnvDefault("CAIRN_SYNC", "normal"),
		"normal: survives a killed process; full: also survives power loss, one fsync per write (env CAIRN_SYNC)")
	f.StringVar(&logLevel, "log-level", app.EnvDefault("CAIRN_LOG_LEVEL", "warn"), "debug, info, warn or error (to stderr)")
	hf.register(cmd)
	return cmd
}

// openWhenInitialized defers what need not happen before initialize (or
// server/discover) is answered, opening the project (and loading its plan)
// and collecting the garbage of building the tool list, until the returned
// function is called, once the client is initialized. The project is
// opened then, so the first call is fast; a failure is reported by each
// tool call instead. stop cancels what is still under way and waits for it, so that the
// store closes with no read of the plan in flight (and checkpoints its WAL).
func openWhenInitialized(ctx context.Context, lazy *app.Lazy, log *slog.Logger) (initialized, stop func()) {
	restoreGC := deferGC()
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	stop = func() {
		cancel()
		wg.Wait()
	}
	return sync.OnceFunc(func() {
		restoreGC()
		wg.Go(func() {
			s, err := lazy.Get(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return // the server is stopping
				}
				if problem.Is(err, problem.NoProject) {
					log.Warn("no project yet; tools will answer with how to fix it", "error", err)
				} else {
					log.Error("open project", "error", err)
				}
				return
			}
			// The plan's board too: loading it is most of a first call's
			// time on a large plan (about 50 ms for 10,000 tasks), and a
			// call that comes while it loads waits for this load rather
			// than making its own.
			if _, err := s.Plan.Board(ctx); err != nil {
				log.Debug("load the plan ahead of the first call", "error", err)
			}
		})
	}), stop
}

// initializedGrace is how long a stdio server waits for the client's second
// message (notifications/initialized, or a request after server/discover)
// before it opens the project anyway.
const initializedGrace = 500 * time.Millisecond

// deferGC turns the garbage collector off until the returned function is
// called, which restores the collector's setting (GOGC). Building the tool
// list leaves a few MB of short-lived garbage (the SDK checks every schema
// by marshaling and decoding it); collecting it while initialize waits for
// its answer costs about a millisecond of a 2-core machine.
func deferGC() (restore func()) {
	old := debug.SetGCPercent(-1)
	return sync.OnceFunc(func() { debug.SetGCPercent(old) })
}

// terminalHint is what `cairn serve` says when a person starts it in a
// terminal, where it would otherwise wait silently for protocol messages.
const terminalHint = `cairn serve speaks MCP (JSON-RPC) on stdio: an MCP client starts it and talks
to it; it is waiting for such a client on stdin now (Ctrl-C stops it).
Add it to a client, run from the project directory:
  claude mcp add cairn -- cairn serve
  or in a client's JSON config: {"command": "cairn", "args": ["serve"]}
For people: cairn tasks, cairn show ID, cairn loops (cairn --help lists all).
`

// stdioAgent names the agent of a stdio session: --agent or CAIRN_AGENT
// when given, else the client's name from initialize (so two editors on
// one project keep their own focus), else "default".
func stdioAgent(cmd *cobra.Command, name string) func(mcp.Request) string {
	if cmd.Flags().Changed("agent") || os.Getenv("CAIRN_AGENT") != "" {
		return func(mcp.Request) string { return name }
	}
	return func(req mcp.Request) string {
		if n := mcpserver.ClientAgent(req); n != "" {
			return n
		}
		return name
	}
}

// changedFlags are the named flags the command was given, by name.
func changedFlags(cmd *cobra.Command, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if f := cmd.Flags().Lookup(n); f != nil && f.Changed {
			out[n] = f.Value.String()
		}
	}
	return out
}

// serveSettings resolves the settings of the project in the working
// directory (none found: the environment, the user's file and the
// defaults), and the refusals of malformed files.
func serveSettings(flags map[string]string) ([]project.Resolved, []string) {
	root := ""
	if wd, err := os.Getwd(); err == nil {
		if r, err := project.FindRoot(wd); err == nil {
			root = r
		}
	}
	rs, _, problems := project.Settings(root, flags)
	return rs, problems
}
