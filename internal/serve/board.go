package serve

import (
	"fmt"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/agent"
	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/httpserver"
)

func boardCmd(version string) *cobra.Command {
	var (
		addr     string
		noOpen   bool
		readOnly bool
		logLevel string
	)
	cmd := &cobra.Command{
		Use:   "board",
		Short: "Open the live web board of the project in the working directory",
		Long: `Serve the web board (and MCP at /mcp) for the project in the working
directory on a free loopback port, print its URL and open it in the browser
when xdg-open (or open) is there. The board shows the outline with every
agent's YOU ARE HERE, the plan by status, loops, memory and sessions, and
follows changes from agents, the CLI and other processes live. Loopback
needs no token; for a shared server use cairn serve --http with tokens.
Ctrl-C stops it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := app.NewLogger(logLevel)
			if err != nil {
				return err
			}
			// No project here: say so now, not in the browser.
			probe, err := app.Open(cmd.Context(), app.Config{Logger: log})
			if err != nil {
				return err
			}
			_ = probe.Close()
			out := cmd.OutOrStdout()
			hf := httpFlags{addr: addr, sessionTimeout: httpserver.DefaultSessionTimeout, drainTimeout: httpserver.DefaultDrainTimeout,
				maxBody: httpserver.DefaultMaxBodyBytes}
			hf.onListen = func(a string) {
				url := "http://" + a + "/"
				fmt.Fprintf(out, "Cairn board: %s (Ctrl-C to stop)\n", url)
				if !noOpen {
					openBrowser(url)
				}
			}
			return serveHTTP(cmd.Context(), log, hf, httpserver.Config{
				Version:  version,
				Toolsets: []string{"default"},
				ReadOnly: readOnly,
				Agent:    agent.Default,
				Logger:   log,
			}, app.Config{Logger: log, Embed: app.EmbedFromEnv(), Upkeep: true})
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "loopback HOST:PORT to serve on; port 0 picks a free one")
	f.BoolVar(&noOpen, "no-open", false, "print the URL without opening a browser")
	f.BoolVar(&readOnly, "read-only", false, "a board that shows but cannot change the project")
	f.StringVar(&logLevel, "log-level", app.EnvDefault("CAIRN_LOG_LEVEL", "warn"), "debug, info, warn or error (to stderr)")
	return cmd
}

// openBrowser opens url with the desktop's opener, if there is one; the
// URL is printed either way.
func openBrowser(url string) {
	for _, name := range []string{"xdg-open", "open"} {
		if p, err := exec.LookPath(name); err == nil {
			c := exec.Command(p, url)
			if err := c.Start(); err == nil {
				go func() { _ = c.Wait() }()
			}
			return
		}
	}
}
