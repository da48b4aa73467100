package e2e

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// openPTY returns a pseudo-terminal's controller and its terminal end.
func openPTY(t *testing.T) (ctl, tty *os.File) {
	t.Helper()
	ctl, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(ctl.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlock pty: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ctl.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pty number: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pty: %v", err)
	}
	return ctl, tty
}

// TestServeInATerminal: `cairn serve` typed at a terminal says on stderr
// what it is and how to add it to a client, instead of looking hung; over
// a pipe (a client) it says nothing.
func TestServeInATerminal(t *testing.T) {
	ctl, tty := openPTY(t)
	defer ctl.Close()
	cmd := exec.Command(cairntest.Binary(t), "serve")
	cmd.Dir = cairntest.Project(t)
	cmd.Stdin = tty
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	got := make(chan string, 1)
	go func() {
		var b strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			b.WriteString(sc.Text() + "\n")
			if strings.Contains(b.String(), "cairn serve") && strings.Contains(b.String(), "claude mcp add") {
				break
			}
		}
		got <- b.String()
	}()
	select {
	case s := <-got:
		for _, want := range []string{"MCP", "stdio", "claude mcp add cairn -- cairn serve"} {
			if !strings.Contains(s, want) {
				t.Fatalf("terminal hint lacks %q:\n%s", want, s)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("cairn serve in a terminal printed no hint on stderr")
	}

	// A client's pipe: nothing on stderr.
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	s.OK("get_current_task", args{})
	if log := s.Log(); strings.Contains(log, "claude mcp add") {
		t.Fatalf("the terminal hint was printed to a client:\n%s", log)
	}
}
