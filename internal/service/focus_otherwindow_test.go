package service_test

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestFocusRulesPassOverAnotherWindowsTask: when an agent completes its
// task, the focus rules do not move it onto the task another agent is at
// while that agent has an open session (a client window at work: two
// windows must not share a YOU ARE HERE); an agent with no open session
// holds nothing, and once a session ends its task is free again.
func TestFocusRulesPassOverAnotherWindowsTask(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		set := service.New(s, service.Options{})
		f := set.Focus
		create := func(agent, title string) task.ID {
			t.Helper()
			tk, err := f.CreateNewTask(ctx, agent, title, "")
			if err != nil {
				t.Fatal(err)
			}
			return tk.ID
		}
		current := func(agent string) task.ID {
			t.Helper()
			v, err := f.Current(ctx, agent)
			if err != nil {
				t.Fatal(err)
			}
			return v.Task.ID
		}
		complete := func(agent string) {
			t.Helper()
			if _, err := f.CompleteCurrentTask(ctx, agent, false); err != nil {
				t.Fatal(err)
			}
		}
		create("ann", "ann's")
		bobs := create("bob", "bob's")
		carls := create("carl", "carl's")
		if _, err := set.Memory.StartSession(ctx, "bob", "", "", memories.SessionPatch{}); err != nil {
			t.Fatal(err)
		}
		// bob is at work on his task: ann passes over it to carl's, whose
		// agent has no session.
		complete("ann")
		if got := current("ann"); got != carls {
			t.Fatalf("ann moved to %v; want %v (bob's %v is his while his session is open)", got, carls, bobs)
		}
		if got := current("bob"); got != bobs {
			t.Fatalf("bob was moved to %v", got)
		}
		// With bob's session ended, his task is the next for ann.
		if _, err := set.Memory.EndSession(ctx, "bob", "", memories.SessionPatch{}); err != nil {
			t.Fatal(err)
		}
		complete("ann")
		if got := current("ann"); got != bobs {
			t.Fatalf("ann moved to %v; want %v, free once bob's session ended", got, bobs)
		}
	})
}

// TestClientWindowsKeepTheirAgents: the second window of a client speaks
// as an agent of its own; a new client session in a window (/clear) keeps
// the window's agent, whichever window it is, so its YOU ARE HERE stays;
// a new window in a process that has gone is not taken for the old one.
func TestClientWindowsKeepTheirAgents(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		alive := map[int]bool{101: true, 202: true}
		m := service.New(s, service.Options{Memory: memories.MemoryOptions{Alive: func(p memory.Proc) bool { return alive[p.PID] }}}).Memory
		start := func(pid int, sid string) string {
			t.Helper()
			r, err := m.StartClient(ctx, memories.ClientStart{Agent: "claude-code", Source: "startup",
				Client: memory.Client{Name: "claude-code", SessionID: sid, Proc: memory.Proc{PID: pid, Start: uint64(pid) * 10}}})
			if err != nil {
				t.Fatal(err)
			}
			return r.Session.Agent
		}
		end := func(pid int, sid string) {
			t.Helper()
			if _, err := m.EndClient(ctx, "claude-code", memory.Client{Name: "claude-code", SessionID: sid, Proc: memory.Proc{PID: pid, Start: uint64(pid) * 10}}); err != nil {
				t.Fatal(err)
			}
		}
		a, b := start(101, "aaaaaaaa-1"), start(202, "bbbbbbbb-1")
		if a != "claude-code" || b != "claude-code/bbbbbbbb" {
			t.Fatalf("windows' agents: %q, %q", a, b)
		}
		// /clear in each window: the same agent as before.
		end(202, "bbbbbbbb-1")
		if got := start(202, "cccccccc-2"); got != b {
			t.Errorf("B after /clear speaks as %q, want %q", got, b)
		}
		end(101, "aaaaaaaa-1")
		if got := start(101, "dddddddd-2"); got != a {
			t.Errorf("A after /clear speaks as %q, want %q", got, a)
		}
		// B's process goes; a new window (another process) while A is open
		// is a window of its own, not B.
		alive[202] = false
		if got := start(303, "eeeeeeee-1"); got != "claude-code/eeeeeeee" {
			t.Errorf("a new window speaks as %q", got)
		}
	})
}
