package tool

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/task"
)

// ClaimOut is a claim as results show it.
type ClaimOut struct {
	Agent string `json:"agent"`
	Since string `json:"since,omitempty"`
	Until string `json:"until"`
	// Expired is set when the lease has run out: anyone may claim the task.
	Expired bool `json:"expired,omitempty"`
}

func ClaimOf(c *task.Claim, expired bool) *ClaimOut {
	if c == nil {
		return nil
	}
	return &ClaimOut{Agent: c.Agent, Since: Stamp(c.ClaimedAt), Until: Stamp(c.ExpiresAt), Expired: expired}
}

// ClaimText is a claim in a task's line.
func ClaimText(c *ClaimOut) string {
	if c == nil {
		return ""
	}
	if c.Expired {
		return fmt.Sprintf(" [claim by %s expired %s]", c.Agent, c.Until)
	}
	return fmt.Sprintf(" [claimed by %s until %s]", c.Agent, c.Until)
}

// BodyPreview is how much of a body a list shows before it is clipped.
const BodyPreview = 2000

func Stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Preview clips a body for a list; the flag says it was clipped.
func Preview(body string) (string, bool) { return ClipAt(body, BodyPreview) }

// ClipAt clips a body at n bytes; the flag says it was clipped.
func ClipAt(body string, n int) (string, bool) {
	if len(body) <= n {
		return body, false
	}
	return problem.Clip(body, n), true
}

func Label(t task.Task) string { return fmt.Sprintf("[%s] %s", t.ID, t.Title) }

// TaskLink is another task named in a result.
type TaskLink struct {
	ID     string `json:"id"`
	Ref    string `json:"ref,omitempty"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

func Link(t task.Task) TaskLink {
	l := TaskLink{ID: t.ID.String(), Title: t.Title, Status: string(t.Status)}
	if t.ParentID != 0 {
		l.Ref = task.RefString(t)
	}
	return l
}
