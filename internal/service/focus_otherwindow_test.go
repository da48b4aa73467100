package service_test

import (
	"context"
	"testing"

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
