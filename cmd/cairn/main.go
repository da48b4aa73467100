// Command cairn is Cairn's one binary: the MCP server (cairn serve) and the
// human commands on the same store.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/cairn-dev/cairn/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=…"; otherwise
// the module version from the build info is used.
var version = ""

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := cli.Root(version).ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "cairn:", cli.Message(err))
		os.Exit(cli.ExitStatus(err))
	}
}
