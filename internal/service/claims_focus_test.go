package service_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// focusState is every agent's focus and every live claim, for telling
// whether a refused write changed them.
func focusState(t *testing.T, s store.Store) string {
	t.Helper()
	var b strings.Builder
	err := s.View(context.Background(), func(tx store.Tx) error {
		fs, err := tx.Focuses(context.Background())
		if err != nil {
			return err
		}
		for _, a := range []string{"ann", "bob"} {
			fmt.Fprintf(&b, "focus %s=%s\n", a, fs[a])
		}
		var id task.ID
		for id = 1; id < 20; id++ {
			c, ok, err := store.TaskClaim(context.Background(), tx, id)
			if err != nil {
				return err
			}
			if ok {
				fmt.Fprintf(&b, "claim %s %s until %s\n", id, c.Agent, c.ExpiresAt)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestClaimsSteerFocusAndRefuseWrites: bob claims a task; ann's completion
// passes over it (and says so) instead of moving her onto it; ann's
// writes to it (complete, update, delete, remove, a subtask's update and a
// parent's delete) are refused naming bob and changing nothing, until she
// passes force; YOU ARE HERE names bob's claim. On both stores.
func TestClaimsSteerFocusAndRefuseWrites(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		set := service.New(s, service.Options{})
		mk := func(title string, deps ...string) string {
			t.Helper()
			d, err := set.Plan.Create(ctx, plan.NewTask{Title: title, Description: title + " notes", Deps: deps})
			if err != nil {
				t.Fatal(err)
			}
			return d.ID.String()
		}
		ci := mk("Set up CI")
		deploy := mk("Deploy to staging")
		announce := mk("Announce", deploy)
		docs := mk("Docs")

		// Claiming a pending task starts it, body kept.
		r, err := set.Plan.Claim(ctx, plan.ClaimRequest{Agent: "bob", Ref: deploy})
		if err != nil {
			t.Fatal(err)
		}
		if r.Task.Status != task.StatusInProgress {
			t.Errorf("claimed task is %s; want in-progress", r.Task.Status)
		}
		if d, _ := set.Plan.Get(ctx, deploy); d.Body != "Deploy to staging notes" || d.Status != task.StatusInProgress {
			t.Errorf("claimed task as stored: %s %q", d.Status, d.Body)
		}

		// ann completes CI: the next ready sibling is bob's; she passes
		// over it (announce waits on it) to Docs, which starts.
		sw, err := set.Focus.SwitchFocus(ctx, "ann", ci)
		if err != nil {
			t.Fatal(err)
		}
		if !sw.Started || sw.Task.Status != task.StatusInProgress || len(sw.Waits) != 0 || sw.Held != nil {
			t.Errorf("switch to a pending free task: %+v", sw)
		}
		c, err := set.Focus.CompleteCurrentTask(ctx, "ann", false)
		if err != nil {
			t.Fatal(err)
		}
		if c.Next.ID.String() != docs {
			t.Errorf("after completing %s ann is on %s; want %s (passing over bob's %s)", ci, c.Next.ID, docs, deploy)
		}
		if len(c.Passed) != 1 || c.Passed[0].Task.ID.String() != deploy || c.Passed[0].Claim.Agent != "bob" || c.Passed[0].Task.Title != "Deploy to staging" {
			t.Errorf("passed over = %+v; want bob's %s", c.Passed, deploy)
		}
		if d, _ := set.Plan.Get(ctx, docs); d.Status != task.StatusInProgress {
			t.Errorf("the task focus moved to is %s; want in-progress", d.Status)
		}
		// bob, who holds it, would be moved onto it.
		if _, err := set.Focus.SwitchFocus(ctx, "bob", docs); err != nil {
			t.Fatal(err)
		}

		// ann's writes to bob's task are refused, naming him, and change
		// nothing.
		sub, _, err := set.Plan.AddSubtask(ctx, deploy, plan.NewTask{Title: "Smoke test"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := set.Plan.Claim(ctx, plan.ClaimRequest{Agent: "bob", Ref: sub.ID.String()}); err != nil {
			t.Fatal(err)
		}
		if _, err := set.Focus.SwitchFocus(ctx, "ann", deploy); err != nil {
			t.Fatal(err)
		}
		title, done := "Deploy (ann's)", task.StatusDone
		before, beforeFocus := dump(t, s), focusState(t, s)
		for name, write := range map[string]func() error{
			"complete": func() error { _, err := set.Focus.CompleteCurrentTask(ctx, "ann", false); return err },
			"update title": func() error {
				_, err := set.Plan.Update(ctx, deploy, plan.Change{Title: &title, Agent: "ann"})
				return err
			},
			"update status": func() error {
				_, err := set.Plan.Update(ctx, deploy, plan.Change{Status: &done, Agent: "ann"})
				return err
			},
			"update subtask": func() error {
				_, err := set.Plan.UpdateSubtask(ctx, deploy+".1", plan.Change{Title: &title, Agent: "ann"})
				return err
			},
			"delete": func() error { _, err := set.Plan.Delete(ctx, deploy, plan.Writer{Agent: "ann"}); return err },
			"delete subtask": func() error {
				_, err := set.Plan.DeleteSubtask(ctx, deploy+".1", plan.Writer{Agent: "ann"})
				return err
			},
			"remove": func() error { _, err := set.Focus.RemoveTask(ctx, "ann", deploy, false); return err },
		} {
			err := write()
			cl, ok := task.ClaimOf(err)
			if !problem.Is(err, problem.Claimed) || !ok || cl.Agent != "bob" {
				t.Errorf("%s of bob's task: %v; want a Claimed refusal naming bob", name, err)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, "claimed by bob until") || !strings.Contains(msg, "force") {
				t.Errorf("%s refused as %q: want the holder, the lease and force", name, msg)
			}
		}
		if after := dump(t, s); after != before {
			t.Errorf("refused writes changed the plan:\nbefore:\n%s\nafter:\n%s", before, after)
		}
		if after := focusState(t, s); after != beforeFocus {
			t.Errorf("refused writes changed focus or claims:\nbefore:\n%s\nafter:\n%s", beforeFocus, after)
		}
		// A person (no agent) is not stopped by claims; bob is not by his own.
		if _, err := set.Plan.Update(ctx, sub.ID.String(), plan.Change{Title: &title, Agent: "bob"}); err != nil {
			t.Errorf("bob updates his own task: %v", err)
		}

		// YOU ARE HERE names bob's claim.
		v, err := set.Focus.Current(ctx, "ann")
		if err != nil {
			t.Fatal(err)
		}
		if v.Held == nil || v.Held.Agent != "bob" || v.Task.ID.String() != deploy {
			t.Errorf("ann's YOU ARE HERE on bob's task: held=%+v", v.Held)
		}
		if v, _ := set.Focus.Current(ctx, "bob"); v.Held != nil {
			t.Errorf("bob's YOU ARE HERE names a claim: %+v", v.Held)
		}

		// With force the write goes through.
		if _, err := set.Plan.Update(ctx, deploy, plan.Change{Title: &title, Agent: "ann", Force: true}); err != nil {
			t.Fatalf("forced update: %v", err)
		}
		if _, err := set.Plan.DeleteSubtask(ctx, deploy+".1", plan.Writer{Agent: "ann", Force: true}); err != nil {
			t.Fatalf("forced delete of the subtask: %v", err)
		}
		if _, err := set.Focus.CompleteCurrentTask(ctx, "ann", true); err != nil {
			t.Fatalf("forced completion: %v", err)
		}
		if d, _ := set.Plan.Get(ctx, deploy); d.Title != title || d.Status != task.StatusDone || d.Claim != nil {
			t.Errorf("after the forced writes: %q %s claim=%v", d.Title, d.Status, d.Claim)
		}
		_ = announce
	})
}

// TestFocusStartsTasksAndNamesWhatTheyWaitOn: switch_focus on a pending
// task makes it in progress in the same write; on a task with open
// dependencies it says which, the same ones complete_current_task then
// refuses it for. On both stores.
func TestFocusStartsTasksAndNamesWhatTheyWaitOn(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		set := service.New(s, service.Options{})
		mk := func(title string, st task.Status, deps ...string) string {
			t.Helper()
			d, err := set.Plan.Create(ctx, plan.NewTask{Title: title, Status: st, Deps: deps})
			if err != nil {
				t.Fatal(err)
			}
			return d.ID.String()
		}
		schema := mk("Schema", "")
		done := mk("Spec", task.StatusDone)
		deferred := mk("Later", task.StatusDeferred)
		api := mk("API", "", schema, done, deferred)

		sw, err := set.Focus.SwitchFocus(ctx, "ann", api)
		if err != nil {
			t.Fatal(err)
		}
		var waits []string
		for _, w := range sw.Waits {
			waits = append(waits, w.ID.String()+" "+w.Title)
		}
		if want := []string{schema + " Schema", deferred + " Later"}; strings.Join(waits, "|") != strings.Join(want, "|") {
			t.Errorf("waits on %v; want %v", waits, want)
		}
		if !sw.Started || sw.Task.Status != task.StatusInProgress {
			t.Errorf("switch: started=%v status=%s", sw.Started, sw.Task.Status)
		}
		page, err := set.Plan.List(ctx, plan.TaskQuery{Statuses: []string{"in-progress"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 || page.Items[0].ID.String() != api {
			t.Errorf("in-progress tasks: %+v; want only %s", page.Items, api)
		}
		_, err = set.Focus.CompleteCurrentTask(ctx, "ann", false)
		if !problem.Is(err, problem.OpenDeps) {
			t.Fatalf("completing a task that waits: %v", err)
		}
		for _, w := range waits {
			if id, _, _ := strings.Cut(w, " "); !strings.Contains(err.Error(), id) {
				t.Errorf("the refusal %q does not name %s, which switch_focus named", err, id)
			}
		}
		// A deferred or blocked task keeps its status; an in-progress one
		// is not started again.
		sw, err = set.Focus.SwitchFocus(ctx, "ann", deferred)
		if err != nil || sw.Started || sw.Task.Status != task.StatusDeferred {
			t.Errorf("switch to a deferred task: %+v, %v", sw, err)
		}
		sw, err = set.Focus.SwitchFocus(ctx, "ann", api)
		if err != nil || sw.Started {
			t.Errorf("switch back to an in-progress task: started=%v, %v", sw.Started, err)
		}
		// Tasks made where focus is start in progress.
		n, err := set.Focus.CreateNewTask(ctx, "ann", "Handler", "")
		if err != nil || n.Status != task.StatusInProgress {
			t.Errorf("create_new_task: %s, %v", n.Status, err)
		}
		e, err := set.Focus.ExtendCurrentTask(ctx, "ann", "Tests", "")
		if err != nil || e.Status != task.StatusInProgress {
			t.Errorf("extend_current_task: %s, %v", e.Status, err)
		}
	})
}
