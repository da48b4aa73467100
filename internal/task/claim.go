package task

import (
	"errors"
	"fmt"
	"time"
)

// Claims: when several agents pull work from one plan, an agent claims a
// task for a lease; while the lease runs no other agent can claim it, and
// get_next_task passes it over for them. A lease that runs out without
// renewal frees the task for anyone.

// DefaultLease is a claim's lease when the caller names none.
const DefaultLease = 15 * time.Minute

// MaxLease bounds a lease: a forgotten claim must expire within a day.
const MaxLease = 24 * time.Hour

// ErrClaimed means another agent holds a live claim on the task.
var ErrClaimed = errors.New("task is claimed by another agent")

// Claim is an agent's hold on a task until ExpiresAt.
type Claim struct {
	TaskID    ID
	Agent     string
	ClaimedAt time.Time
	ExpiresAt time.Time
}

// Live reports whether the claim still holds at now.
func (c Claim) Live(now time.Time) bool { return c.Agent != "" && now.Before(c.ExpiresAt) }

// ClaimedError refuses a claim on a task another agent holds.
type ClaimedError struct {
	Claim Claim
}

func (e *ClaimedError) Error() string {
	return fmt.Sprintf("task %s is claimed by %s until %s", e.Claim.TaskID, e.Claim.Agent, e.Claim.ExpiresAt.UTC().Format(time.RFC3339))
}

// Unwrap makes every ClaimedError an ErrClaimed.
func (e *ClaimedError) Unwrap() error { return ErrClaimed }
