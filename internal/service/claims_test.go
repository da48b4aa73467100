package service_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

func TestClaimPicksTheBestFreeTask(t *testing.T) {
	ctx := context.Background()
	p := service.New(openStore(t), service.Options{}).Plan
	mk := func(title string, pr task.Priority, deps ...string) string {
		d, err := p.Create(ctx, plan.NewTask{Title: title, Priority: pr, Deps: deps})
		if err != nil {
			t.Fatal(err)
		}
		return d.ID.String()
	}
	first := mk("first", task.PriorityCritical)
	second := mk("second", task.PriorityHigh)
	mk("after first", task.PriorityCritical, first)
	low := mk("low", task.PriorityLow)

	claim := func(agent, ref string) plan.ClaimResult {
		t.Helper()
		r, err := p.Claim(ctx, plan.ClaimRequest{Agent: agent, Ref: ref})
		if err != nil {
			t.Fatalf("%s claims %q: %v", agent, ref, err)
		}
		return r
	}
	if r := claim("ann", ""); r.Task.ID.String() != first || r.Skipped != 0 {
		t.Errorf("ann got %v (skipped %d); want %s", r.Task.ID, r.Skipped, first)
	}
	// bob passes over ann's, and the task that waits on it.
	if r := claim("bob", ""); r.Task.ID.String() != second || r.Skipped != 1 {
		t.Errorf("bob got %v (skipped %d); want %s, skipping 1", r.Task.ID, r.Skipped, second)
	}
	// get_next_task for carl leaves both out and says so; for ann, hers is next.
	if n, _ := p.Next(ctx, plan.NextQuery{Agent: "carl"}); n.Task == nil || n.Task.ID.String() != low || n.Skipped != 2 {
		t.Errorf("next for carl = %+v; want %s with 2 skipped", n, low)
	}
	if n, _ := p.Next(ctx, plan.NextQuery{Agent: "ann"}); n.Task == nil || n.Task.ID.String() != first {
		t.Errorf("next for ann = %+v; want her own %s", n, first)
	}
	// Claiming ann's task names her and the end of her lease.
	_, err := p.Claim(ctx, plan.ClaimRequest{Agent: "bob", Ref: first})
	if c, ok := task.ClaimOf(err); !ok || c.Agent != "ann" || c.ExpiresAt.Sub(c.ClaimedAt) != task.DefaultLease {
		t.Errorf("bob claims ann's task: %v", err)
	}
	// Claiming one's own again renews it.
	if r := claim("ann", first); !r.Renewed {
		t.Errorf("ann claims her own task again: %+v; want a renewal", r)
	}
	// Completing ends the claim, and the task that waited becomes free.
	if _, err := p.Release(ctx, plan.ReleaseRequest{Agent: "ann", Ref: first, Status: "done"}); err != nil {
		t.Fatal(err)
	}
	if d, _ := p.Get(ctx, first); d.Claim != nil || d.Status != task.StatusDone {
		t.Errorf("after release with done: claim %+v, status %s", d.Claim, d.Status)
	}
	if r := claim("carl", ""); r.Task.Title != "after first" {
		t.Errorf("carl got %q; want the task that waited on the done one", r.Task.Title)
	}
}

func TestClaimLeaseBounds(t *testing.T) {
	ctx := context.Background()
	p := service.New(openStore(t), service.Options{}).Plan
	d, _ := p.Create(ctx, plan.NewTask{Title: "t"})
	for _, lease := range []int{-1, int(task.MaxLease/time.Second) + 1} {
		_, err := p.Claim(ctx, plan.ClaimRequest{Agent: "ann", Ref: d.ID.String(), LeaseSeconds: lease})
		var fe *problem.FieldError
		if !errors.As(err, &fe) || fe.Field != "lease_seconds" {
			t.Errorf("lease %v: %v; want a lease_seconds error", lease, err)
		}
	}
	if _, err := p.Renew(ctx, plan.ClaimRequest{Agent: "ann", Ref: d.ID.String()}); err == nil {
		t.Error("renewing a claim nobody holds succeeded")
	}
}
