package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/embedding"
	"github.com/cairn-dev/cairn/internal/httpserver"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service"
)

func serveCmd(version string) *cobra.Command {
	var (
		toolsets string
		readOnly bool
		agent    string
		sync     string
		logLevel string
		hf       httpFlags
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
			log, err := newLogger(logLevel)
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
			if cmd.Flags().Changed("http") || hf.addr != "" {
				return serveHTTP(cmd.Context(), log, hf, httpserver.Config{
					Version:  version,
					Toolsets: strings.Split(toolsets, ","),
					ReadOnly: readOnly,
					Agent:    agent,
					Logger:   log,
				}, app.Config{Durability: durability, Logger: log, Embed: embedCfg})
			}
			if err := hf.stdioOnly(cmd); err != nil {
				return err
			}
			lazy := app.NewLazy(app.Config{Durability: durability, Logger: log, Embed: embedCfg})
			defer lazy.Close()
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
				Agent:   func(mcp.Request) string { return agent },
				Logger:  log,
				Context: cmd.Context(),
			})
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			// Open the project while the client initializes, so the first call
			// is fast; a failure here is reported by each tool call instead.
			go func() {
				if _, err := lazy.Get(ctx); err != nil {
					if errors.Is(err, project.ErrNoProject) {
						log.Warn("no project yet; tools will answer with how to fix it", "error", err)
					} else {
						log.Error("open project", "error", err)
					}
				}
			}()
			t := &mcpserver.StdioTransport{In: os.Stdin, Out: os.Stdout, Logger: log}
			if err := srv.Run(ctx, t); err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&toolsets, "toolsets", envDefault("CAIRN_TOOLSETS", "default"),
		"toolsets to serve, comma-separated: "+strings.Join(mcpserver.ToolsetNames(), ", ")+", default, all (env CAIRN_TOOLSETS)")
	f.BoolVar(&readOnly, "read-only", envDefault("CAIRN_READ_ONLY", "") == "true" || envDefault("CAIRN_READ_ONLY", "") == "1",
		"serve only tools that do not write (env CAIRN_READ_ONLY=1)")
	f.StringVar(&agent, "agent", envDefault("CAIRN_AGENT", mcpserver.DefaultAgent),
		"agent name; each agent keeps its own focus (env CAIRN_AGENT)")
	f.StringVar(&sync, "sync", envDefault("CAIRN_SYNC", "normal"),
		"normal: survives a killed process; full: also survives power loss, one fsync per write (env CAIRN_SYNC)")
	f.StringVar(&logLevel, "log-level", envDefault("CAIRN_LOG_LEVEL", "warn"), "debug, info, warn or error (to stderr)")
	hf.register(cmd)
	return cmd
}

func initCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create .cairn/ in the current directory, making it a Cairn project root",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			dir, err := project.Init(wd)
			if err != nil {
				return err
			}
			s, err := app.Open(cmd.Context(), app.Config{Dir: wd, InitEmpty: true})
			if err != nil {
				return err
			}
			defer s.Close()
			fmt.Fprintf(cmd.OutOrStdout(), "Initialized Cairn in %s\nAdd it to your agent: claude mcp add cairn -- cairn serve\n", dir)
			return nil
		},
	}
}
