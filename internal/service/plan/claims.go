package plan

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// ClaimRequest is what claim_task and renew_claim take.
type ClaimRequest struct {
	Agent string
	// Ref names the task; empty picks the best ready task (as Next ranks
	// them) that no agent holds.
	Ref string
	// LeaseSeconds is how long the claim holds; zero means task.DefaultLease.
	LeaseSeconds int
}

// ClaimResult is a claim taken or renewed.
type ClaimResult struct {
	Task  task.Task  // zero when a pick found nothing free
	Claim task.Claim // the claim now held
	// Expired is another agent's claim that had run out and was taken over.
	Expired *task.Claim
	Renewed bool // the agent already held it
	// Skipped counts the ready tasks a pick passed over because agents hold
	// them; Message says why nothing was picked.
	Skipped int
	Message string
}

// ReleaseRequest is what release_task takes.
type ReleaseRequest struct {
	Agent  string
	Ref    string
	Status string // set through the plan's status rules; empty keeps it
	Force  bool   // status done although a dependency is open
}

// ReleaseResult is a released claim.
type ReleaseResult struct {
	Task  task.Task
	Claim task.Claim // the claim that ended
}

func validLease(secs int) (time.Duration, error) {
	d := time.Duration(secs) * time.Second
	switch {
	case secs == 0:
		return task.DefaultLease, nil
	case secs < 1 || d > task.MaxLease:
		return 0, &problem.FieldError{Field: "lease_seconds", Problem: fmt.Sprintf("is %d", secs),
			Fix: fmt.Sprintf("use 1 to %d seconds, or omit it for %d", int64(task.MaxLease/time.Second), int64(task.DefaultLease/time.Second))}
	}
	return d, nil
}

func requireAgent(agent string) error {
	if agent == "" {
		return errors.New("claim: no agent named") // the surfaces always name one
	}
	return nil
}

// Claim takes a claim for r.Agent: on the task r.Ref names, or on the best
// ready task nobody holds. Claiming a task another agent holds is refused
// with a task.Claimed refusal; claiming one's own renews it.
func (p *Plan) Claim(ctx context.Context, r ClaimRequest) (ClaimResult, error) {
	lease, err := validLease(r.LeaseSeconds)
	if err != nil {
		return ClaimResult{}, err
	}
	if err := requireAgent(r.Agent); err != nil {
		return ClaimResult{}, err
	}
	var (
		b    *task.Board
		held map[task.ID]task.Claim
	)
	if r.Ref == "" {
		// The board and the claims are read before the write transaction,
		// which holds the store's write lock: inside it, each pick costs one
		// compare-and-set, and a pick another agent took meanwhile is
		// refused by it and passed over.
		if b, err = p.Board(ctx); err != nil {
			return ClaimResult{}, fmt.Errorf("claim task: %w", err)
		}
		if err := p.store.View(ctx, func(tx store.Tx) (err error) {
			held, err = tx.Claims(ctx, store.ClaimQuery{Now: p.now()})
			return err
		}); err != nil {
			return ClaimResult{}, fmt.Errorf("claim task: %w", err)
		}
		if held == nil {
			held = map[task.ID]task.Claim{}
		}
	}
	var res ClaimResult
	err = p.store.Update(ctx, func(tx store.Tx) error {
		now := p.now()
		c := task.Claim{Agent: r.Agent, ClaimedAt: now, ExpiresAt: now.Add(lease)}
		if r.Ref != "" {
			t, err := tasks.ResolveRef(ctx, tx, r.Ref, "id")
			if err != nil {
				return err
			}
			if !t.Status.Open() {
				return &problem.Error{Kind: problem.Closed, Problem: fmt.Sprintf("task %s is %s", t.ID, t.Status), Fix: "use an open task"}
			}
			res, err = claimOne(ctx, tx, t, c)
			return err
		}
		res = ClaimResult{}
		gone := map[task.ID]bool{} // closed or removed since the board was read
		for {
			pick, skipped, ok := b.NextExcept(task.NextFilter{}, func(id task.ID) bool {
				_, h := held[id]
				return h || gone[id]
			})
			res.Skipped = skipped - len(gone)
			if !ok {
				res.Message = "No ready task is free to claim."
				switch {
				case res.Skipped == 1:
					res.Message = "No ready task is free to claim: an agent holds the one there is."
				case res.Skipped > 1:
					res.Message = "No ready task is free to claim: agents hold all of them."
				}
				return nil
			}
			one, err := claimOne(ctx, tx, *pick, c)
			switch hc, claimed := task.ClaimOf(err); {
			case claimed:
				held[pick.ID] = hc
				continue
			case tasks.IsNotFound(err):
				gone[pick.ID] = true
				continue
			}
			one.Skipped = res.Skipped
			res = one
			return err
		}
	})
	if err != nil {
		return ClaimResult{}, fmt.Errorf("claim task: %w", err)
	}
	return res, nil
}

// claimOne gives c to t; a pending t starts (in progress) with it.
func claimOne(ctx context.Context, tx store.Tx, t task.Task, c task.Claim) (ClaimResult, error) {
	c.TaskID = t.ID
	prev, err := tx.ClaimTask(ctx, c)
	if err != nil {
		return ClaimResult{}, err
	}
	if t.Status == task.StatusPending {
		// Read whole (a board's task has no body) with its loop state.
		full, loopState, err := store.Loop(ctx, tx, t.ID)
		if err != nil {
			return ClaimResult{}, err
		}
		if t, err = tasks.Start(ctx, tx, full, loopState, c.ClaimedAt); err != nil {
			return ClaimResult{}, err
		}
	}
	res := ClaimResult{Task: t, Claim: c}
	switch {
	case prev.Agent == c.Agent:
		res.Renewed = true
		if prev.ExpiresAt.After(c.ClaimedAt) {
			res.Claim.ClaimedAt = prev.ClaimedAt
		}
	case prev.Agent != "":
		res.Expired = &prev
	}
	return res, nil
}

// Renew extends the claim r.Agent holds on r.Ref by r.Lease from now. A
// claim that ran out is renewed too, unless another agent took it over.
func (p *Plan) Renew(ctx context.Context, r ClaimRequest) (ClaimResult, error) {
	lease, err := validLease(r.LeaseSeconds)
	if err != nil {
		return ClaimResult{}, err
	}
	if err := requireAgent(r.Agent); err != nil {
		return ClaimResult{}, err
	}
	var res ClaimResult
	err = p.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, r.Ref, "id")
		if err != nil {
			return err
		}
		if err := holds(ctx, tx, t, r.Agent, p.now()); err != nil {
			return err
		}
		now := p.now()
		res, err = claimOne(ctx, tx, t, task.Claim{Agent: r.Agent, ClaimedAt: now, ExpiresAt: now.Add(lease)})
		return err
	})
	if err != nil {
		return ClaimResult{}, fmt.Errorf("renew claim: %w", err)
	}
	return res, nil
}

// holds refuses unless agent has the claim on t (live, or run out and not
// taken over).
func holds(ctx context.Context, tx store.Tx, t task.Task, agent string, now time.Time) error {
	c, ok, err := store.TaskClaim(ctx, tx, t.ID)
	switch {
	case err != nil:
		return err
	case !ok:
		return &problem.FieldError{Field: "id", Problem: fmt.Sprintf("names task %s, which nobody has claimed", t.ID), Hint: problem.ClaimTask}
	case c.Agent != agent && c.Live(now):
		return task.Claimed(c)
	case c.Agent != agent:
		return &problem.FieldError{Field: "id", Problem: fmt.Sprintf("names task %s, claimed by %s (expired %s), not by you", t.ID, c.Agent, c.ExpiresAt.Format(time.RFC3339)),
			Hint: problem.ClaimTask}
	}
	return nil
}

// Release ends the claim r.Agent holds on r.Ref, setting the task's status
// first when r.Status is given (done and cancelled end any claim anyway).
func (p *Plan) Release(ctx context.Context, r ReleaseRequest) (ReleaseResult, error) {
	var status *task.Status
	if strings.TrimSpace(r.Status) != "" {
		st, err := task.ParseStatuses("status", []string{r.Status})
		if err != nil {
			return ReleaseResult{}, err
		}
		status = &st[0]
	}
	if err := requireAgent(r.Agent); err != nil {
		return ReleaseResult{}, err
	}
	var res ReleaseResult
	err := p.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, r.Ref, "id")
		if err != nil {
			return err
		}
		now := p.now()
		if err := holds(ctx, tx, t, r.Agent, now); err != nil {
			return err
		}
		if res.Claim, _, err = store.TaskClaim(ctx, tx, t.ID); err != nil {
			return err
		}
		if status != nil && *status != t.Status {
			if _, loopState, err := store.Loop(ctx, tx, t.ID); err != nil {
				return err
			} else if loopState != nil {
				return &problem.FieldError{Field: "status", Problem: fmt.Sprintf("cannot be set on task %s, which is a loop", t.ID),
					Fix: "release without status", Hint: problem.ControlLoop}
			}
			if t, err = tasks.SetStatus(ctx, tx, t, *status, now, r.Force); err != nil {
				return err
			}
		}
		res.Task = t
		return tx.DropClaim(ctx, t.ID)
	})
	if err != nil {
		return ReleaseResult{}, fmt.Errorf("release task: %w", err)
	}
	return res, nil
}
