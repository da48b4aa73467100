// Command cairn is Cairn's one binary: the servers (cairn serve, bridge,
// board) and the human commands on the same store.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cairn-dev/cairn/internal/cli"
	"github.com/cairn-dev/cairn/internal/serve"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// the module version from the build info is used.
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	v := cli.Version(version)
	root := cli.Root(v)
	serve.Register(root, v)
	if err := root.ExecuteContext(ctx); err != nil {
		if msg := cli.Message(err); msg != "" {
			fmt.Fprintln(os.Stderr, "cairn:", msg)
		}
		os.Exit(cli.ExitStatus(err))
	}
}
