package tool

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/task"
)

// ClaimView is a claim as results show it.
type ClaimView struct {
	Agent string `json:"agent"`
	Since string `json:"since,omitempty"`
	Until string `json:"until"`
	// Expired is set when the lease has run out: anyone may claim the task.
	Expired bool `json:"expired,omitempty"`
}

// ClaimViewOf is a task's claim as answers show it (nil when it has none);
// expired says its lease has run out.
func ClaimViewOf(c *task.Claim, expired bool) *ClaimView {
	if c == nil {
		return nil
	}
	return &ClaimView{Agent: c.Agent, Since: Timestamp(c.ClaimedAt), Until: Timestamp(c.ExpiresAt), Expired: expired}
}

// ClaimText is a claim in a task's line.
func ClaimText(c *ClaimView) string {
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

// Timestamp is t as answers send it: RFC 3339 in UTC, "" for the zero time.
func Timestamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// PreviewBody clips a body for a list; the flag says it was clipped.
func PreviewBody(body string) (string, bool) { return ClipBody(body, BodyPreview) }

// ClipBody clips a body at n bytes; the flag says it was clipped.
func ClipBody(body string, n int) (string, bool) {
	if len(body) <= n {
		return body, false
	}
	return problem.Clip(body, n), true
}

// TaskLabel is a task as text names it: "[id] title".
func TaskLabel(t task.Task) string { return fmt.Sprintf("[%s] %s", t.ID, t.Title) }

// TaskLink is another task named in a result.
type TaskLink struct {
	ID     string `json:"id"`
	Ref    string `json:"ref,omitempty"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

// TaskLinkOf is t as another task's answer names it.
func TaskLinkOf(t task.Task) TaskLink {
	l := TaskLink{ID: t.ID.String(), Title: t.Title, Status: string(t.Status)}
	if t.ParentID != 0 {
		l.Ref = task.RefString(t)
	}
	return l
}
