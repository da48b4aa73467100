// Package task holds Cairn's one task model and its pure rules: the tree the
// focus stack walks, the statuses and priorities the plan uses, and the limits
// every surface enforces. It does no I/O.
package task

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/problem"
)

// ID identifies a task within a project. IDs are small integers, assigned in
// increasing order and never reused, so they stay cheap in tokens.
type ID int64

// String renders the ID as agents see it: a plain decimal.
func (id ID) String() string { return strconv.FormatInt(int64(id), 10) }

// ParseID parses the decimal form of an ID. It accepts surrounding blanks and
// an optional leading '#', the way people write task numbers.
func ParseID(s string) (ID, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, &problem.Error{Kind: problem.Invalid, Problem: "invalid argument: not a task id"}
	}
	return ID(n), nil
}

// Status is a task's state in the plan. The focus view shows open tasks as
// pending or current and done tasks as completed.
type Status string

// The statuses, spelled as in the plan specification.
const (
	StatusPending    Status = "pending"
	StatusInProgress Status = "in-progress"
	StatusBlocked    Status = "blocked"
	StatusDone       Status = "done"
	StatusDeferred   Status = "deferred"
	StatusCancelled  Status = "cancelled"
)

// Statuses lists every valid status in the order people read them.
var Statuses = []Status{StatusPending, StatusInProgress, StatusBlocked, StatusDone, StatusDeferred, StatusCancelled}

// Valid reports whether s is one of Statuses.
func (s Status) Valid() bool {
	for _, v := range Statuses {
		if s == v {
			return true
		}
	}
	return false
}

// Open reports whether work on a task with this status is still to be done.
// Done and cancelled tasks are closed: they no longer hold focus, and they do
// not keep their parent from being completed.
func (s Status) Open() bool { return s != StatusDone && s != StatusCancelled }

// OpenStatuses are the statuses Open admits, for a store to filter on.
var OpenStatuses = func() []Status {
	var out []Status
	for _, s := range Statuses {
		if s.Open() {
			out = append(out, s)
		}
	}
	return out
}()

// Priority orders tasks in the plan.
type Priority string

// The priorities, highest first.
const (
	PriorityCritical Priority = "critical"
	PriorityHigh     Priority = "high"
	PriorityMedium   Priority = "medium"
	PriorityLow      Priority = "low"
)

// Limits on what a task may hold. They are checked before anything is stored.
const (
	MaxTitleLen = 256     // characters (runes), as in the focus specification
	MaxBodyLen  = 1 << 20 // bytes: a large document, but bounded
)

// Task is one node of the project's task tree. The same record is the focus
// stack's entry, the plan's task and (later) a loop's carrier.
type Task struct {
	ID          ID
	ParentID    ID  // zero for a root task
	Position    int // order among siblings
	Num         int // number among its parent's children, stable: "parent.num" names a subtask
	Title       string
	Body        string
	Status      Status
	Priority    Priority
	CreatedAt   time.Time
	UpdatedAt   time.Time
	CompletedAt time.Time // zero while the task is open
}

// New returns a new task as the model starts one: pending, of medium
// priority, created and updated at at. The store gives it its ID and place.
func New(title, body string, at time.Time) Task {
	return Task{Title: title, Body: body, Status: StatusPending, Priority: PriorityMedium, CreatedAt: at, UpdatedAt: at}
}

// Completion is the archived record of a task at the moment it was completed.
// The archive outlives removal from the visible structure.
type Completion struct {
	Seq         int64 // order of completion, increasing
	TaskID      ID
	ParentID    ID
	Title       string
	Body        string
	CreatedAt   time.Time
	CompletedAt time.Time
}

// ValidateTitle checks a title against the limits: present, not blank, at most
// MaxTitleLen characters, on one line.
func ValidateTitle(title string) error {
	switch {
	case !utf8.ValidString(title):
		return &problem.FieldError{Field: "title", Problem: "is not valid UTF-8", Fix: "send the title as UTF-8 text"}
	case strings.TrimSpace(title) == "":
		return &problem.FieldError{Field: "title", Problem: "is empty", Fix: "give the task a short title"}
	case utf8.RuneCountInString(title) > MaxTitleLen:
		return &problem.FieldError{Field: "title", Problem: fmt.Sprintf("is %d characters, over the limit of %d", utf8.RuneCountInString(title), MaxTitleLen),
			Fix: "shorten the title and put the detail in body"}
	case strings.ContainsAny(title, "\r\n"):
		return &problem.FieldError{Field: "title", Problem: "contains a line break", Fix: "keep the title on one line and put the detail in body"}
	}
	return nil
}

// ValidateBody checks a body against the limits.
func ValidateBody(body string) error {
	switch {
	case !utf8.ValidString(body):
		return &problem.FieldError{Field: "body", Problem: "is not valid UTF-8", Fix: "send the body as UTF-8 text"}
	case len(body) > MaxBodyLen:
		return &problem.FieldError{Field: "body", Problem: fmt.Sprintf("is %d bytes, over the limit of %d (1 MiB)", len(body), MaxBodyLen),
			Fix: "store a summary and keep large material in files"}
	}
	return nil
}

// Ref names a task as the plan does: an id ("12"), or a subtask by its
// number under a task ("12.3", and deeper: "12.3.1").
type Ref struct {
	ID   ID
	Path []int // subtask numbers below ID, outermost first
}

// ParseRef parses a task reference.
func ParseRef(s string) (Ref, error) {
	parts := strings.Split(strings.TrimPrefix(strings.TrimSpace(s), "#"), ".")
	id, err := ParseID(parts[0])
	if err != nil {
		return Ref{}, err
	}
	r := Ref{ID: id}
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || len(p) > 9 {
			return Ref{}, &problem.Error{Kind: problem.Invalid, Problem: "invalid argument: not a task reference"}
		}
		r.Path = append(r.Path, n)
	}
	return r, nil
}

// RefString names t the plan's way: "parent.num" for a subtask, else its id.
func RefString(t Task) string {
	if t.ParentID == 0 {
		return t.ID.String()
	}
	return t.ParentID.String() + "." + strconv.Itoa(t.Num)
}
