package proc

import (
	"os"
	"os/exec"
	"runtime"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
)

func TestAncestorsAndAlive(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no process tree on " + runtime.GOOS)
	}
	as := Ancestors()
	if len(as) == 0 || as[0].PID != os.Getppid() {
		t.Fatalf("ancestors %v: want the parent %d first", as, os.Getppid())
	}
	if !Alive(as[0]) {
		t.Errorf("the parent %v is not alive", as[0])
	}
	// A process that ended is not alive, and neither is its pid with
	// another start time.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	gone := memory.Proc{PID: cmd.ProcessState.Pid()}
	if Alive(gone) {
		t.Errorf("%v ended but is alive", gone)
	}
	wrong := as[0]
	wrong.Start++
	if Alive(wrong) {
		t.Errorf("%v with another start time is alive", wrong)
	}
}

func TestLauncher(t *testing.T) {
	for name, want := range map[string]bool{"sh": true, "/bin/bash": true, "node": false, "claude": false, "gemini": false, "NPX": true, "cursor": false} {
		if got := launcher(name); got != want {
			t.Errorf("launcher(%q) = %v, want %v", name, got, want)
		}
	}
}
