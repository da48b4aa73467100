package task

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Claims: when several agents pull work from one plan, an agent claims a
// task for a lease; while the lease runs no other agent can claim it, and
// get_next_task passes it over for them. A lease that runs out without
// renewal frees the task for anyone.

// DefaultLease is a claim's lease when the caller names none.
const DefaultLease = 15 * time.Minute

// MaxLease bounds a lease: a forgotten claim must expire within a day.
const MaxLease = 24 * time.Hour

// Claim is an agent's hold on a task until ExpiresAt.
type Claim struct {
	TaskID    ID
	Agent     string
	ClaimedAt time.Time
	ExpiresAt time.Time
}

// Live reports whether the claim still holds at now.
func (c Claim) Live(now time.Time) bool { return c.Agent != "" && now.Before(c.ExpiresAt) }

// Claimed refuses a claim on, or a write to, a task another agent holds
// with c; c is the Error's Detail.
func Claimed(c Claim) error {
	return &problem.Error{Kind: problem.Claimed,
		Problem: fmt.Sprintf("task %s is claimed by %s until %s", c.TaskID, c.Agent, c.ExpiresAt.UTC().Format(time.RFC3339)),
		Hint:    problem.ClaimFree, Detail: c}
}

// ClaimOf returns the claim err is refused for.
func ClaimOf(err error) (Claim, bool) { return problem.DetailOf[Claim](err) }

// Held refuses a write to a task another agent holds with c, unless the
// writer overrides the claim; c is the Error's Detail.
func Held(c Claim) error {
	return &problem.Error{Kind: problem.Claimed,
		Problem: fmt.Sprintf("task %s is claimed by %s until %s", c.TaskID, c.Agent, c.ExpiresAt.UTC().Format(time.RFC3339)),
		Fix:     "wait for the lease to end or ask " + c.Agent + " to release it",
		Hint:    problem.OverrideClaim, Detail: c}
}

// HeldBy returns a test for the tasks claims (live ones) give to an agent
// other than agent; nil when none do, or agent is empty.
func HeldBy(claims map[ID]Claim, agent string) func(ID) bool {
	if agent == "" || len(claims) == 0 {
		return nil
	}
	return func(id ID) bool {
		c, ok := claims[id]
		return ok && c.Agent != agent
	}
}
