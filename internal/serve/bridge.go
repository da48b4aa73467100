package serve

import (
	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/bridge"
	"github.com/cairn-dev/cairn/internal/mcpserver"
)

func bridgeCmd(version string) *cobra.Command {
	var (
		token          string
		headers        []string
		cacheDir       string
		noCache        bool
		retryMin       time.Duration
		retryMax       time.Duration
		connectTimeout time.Duration
		logLevel       string
		caps           bridgeCaps
	)
	cmd := &cobra.Command{
		Use:   "bridge URL",
		Short: "Serve MCP over stdio, forwarding to a remote Cairn (or any Streamable HTTP MCP server)",
		Long: `Serve MCP over stdio for an editor that only speaks stdio, forwarding every request
to the Streamable HTTP MCP server at URL (such as a team's "cairn serve --http").

The remote's tools, prompts and resources are discovered from it and cached on
disk, so while it is unreachable the bridge still starts, lists what it last saw,
and answers each call with an error that says since when and why; it reconnects
with backoff and announces changed lists with list_changed. stdout carries only
the protocol; logs go to stderr.`,
		Example: `  cairn bridge https://cairn.example.com/mcp --token "$CAIRN_TOKEN"
  claude mcp add cairn -- cairn bridge http://127.0.0.1:8080/mcp`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			log, err := app.NewLogger(logLevel)
			if err != nil {
				return err
			}
			h := http.Header{}
			for _, kv := range headers {
				k, v, ok := strings.Cut(kv, ":")
				k = strings.TrimSpace(k)
				if !ok || k == "" || strings.ContainsAny(k, " \t") {
					return fmt.Errorf("--header %q: use Name:value, such as --header 'X-Team: core'", kv)
				}
				h.Add(k, strings.TrimSpace(v))
			}
			if err := caps.check(); err != nil {
				return err
			}
			tools, prompts, instr, err := mcpserver.Lists(nil, false)
			if err != nil {
				return err
			}
			b, err := bridge.New(bridge.Options{
				Builtin: &bridge.Builtin{ServerInfo: &mcp.Implementation{Name: "cairn", Title: "Cairn", Version: version},
					Instructions: instr, Tools: tools, Prompts: prompts},
				URL: args[0], Token: token, Header: h,
				CacheDir: cacheDir, NoCache: noCache,
				RetryMin: retryMin, RetryMax: retryMax, ConnectTimeout: connectTimeout,
				Version: version, Logger: log,
				MaxListPages: caps.pages, MaxListItems: caps.items,
				MaxListBytes: caps.listBytes, MaxResponseBytes: caps.responseBytes,
			})
			if err != nil {
				return err
			}
			if _, set := os.LookupEnv("GOGC"); !set {
				// The SDK's JSON decoder allocates a 32 KiB buffer per
				// message, so with a live heap of a few MB the default
				// GOGC=100 collects every few calls. 200 costs ~4 MB of
				// RSS and saves ~20% of the CPU per forwarded call.
				debug.SetGCPercent(200)
			}
			return b.Run(cmd.Context(), &mcpserver.StdioTransport{In: os.Stdin, Out: os.Stdout, Logger: log})
		},
	}
	f := cmd.Flags()
	f.StringVar(&token, "token", app.EnvDefault("CAIRN_BRIDGE_TOKEN", ""), "bearer token for the remote (env CAIRN_BRIDGE_TOKEN, which keeps it out of the process list)")
	f.StringArrayVar(&headers, "header", nil, "extra HTTP header for the remote, Name:value; repeatable")
	f.StringVar(&cacheDir, "cache-dir", app.EnvDefault("CAIRN_BRIDGE_CACHE_DIR", ""), "where to cache the remote's lists (default: the user cache directory, under cairn/bridge)")
	f.BoolVar(&noCache, "no-cache", false, "do not read or write the list cache")
	f.DurationVar(&retryMin, "retry-min", 500*time.Millisecond, "first reconnect delay; it doubles up to --retry-max, with jitter")
	f.DurationVar(&retryMax, "retry-max", 30*time.Second, "longest reconnect delay")
	f.DurationVar(&connectTimeout, "connect-timeout", 10*time.Second, "bound on one connection attempt")
	f.StringVar(&logLevel, "log-level", app.EnvDefault("CAIRN_LOG_LEVEL", "warn"), "debug, info, warn or error (to stderr)")
	f.IntVar(&caps.pages, "max-list-pages", bridge.DefaultMaxListPages, "most pages the bridge reads of each of the remote's lists")
	f.IntVar(&caps.items, "max-list-items", bridge.DefaultMaxListItems, "most items it accepts in each of the remote's lists")
	f.IntVar(&caps.listBytes, "max-list-bytes", bridge.DefaultMaxListBytes, "most bytes of JSON it accepts in each of the remote's lists")
	f.Int64Var(&caps.responseBytes, "max-response-bytes", bridge.DefaultMaxResponseBytes, "most bytes it accepts in one of the remote's answers")
	return cmd
}

// bridgeCaps are the bridge's caps on what it accepts from the remote, as
// flags: a remote with a long resource list needs them raised.
type bridgeCaps struct {
	pages, items, listBytes int
	responseBytes           int64
}

func (c bridgeCaps) check() error {
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"--max-list-pages", int64(c.pages)},
		{"--max-list-items", int64(c.items)},
		{"--max-list-bytes", int64(c.listBytes)},
		{"--max-response-bytes", c.responseBytes},
	} {
		if f.v <= 0 {
			return fmt.Errorf("%s %d: must be a positive number; leave it out for the default", f.name, f.v)
		}
	}
	return nil
}
