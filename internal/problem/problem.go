// Package problem holds the errors Cairn's domains and services refuse a call
// with, in words a person or a model can act on, and without naming any
// surface: a FieldError says which argument is wrong and how to fix it; an
// Error says what is wrong and carries a typed Hint (an Action) that each
// surface renders in its own words (a tool name over MCP, a command in the
// CLI, a button on the board).
package problem

import (
	"errors"
	"strconv"
	"strings"
)

// ErrInvalid means an argument breaks a rule; a *FieldError says which.
var ErrInvalid = errors.New("invalid argument")

// ErrUnavailable means a call could not be served now, but may be if it is
// retried: the store was busy past its timeout.
var ErrUnavailable = errors.New("unavailable")

// ErrFault is wrapped by every *FaultError.
var ErrFault = errors.New("storage fault")

// FaultError is a failure of what lies under a store rather than of the
// request: the disk is full, the file system is read-only, the database is
// corrupt or is not one. Problem says what is wrong and Fix what a person
// must do; Err is the driver's error, for logs.
type FaultError struct {
	Problem string
	Fix     string
	Err     error
}

func (e *FaultError) Error() string { return e.Problem + ": " + e.Fix }

// Unwrap makes a FaultError both ErrFault and its cause.
func (e *FaultError) Unwrap() []error { return []error{ErrFault, e.Err} }

// FieldError is an invalid argument: which field, what is wrong, how to fix
// it. Hint, when set, is rendered after Fix by the surface.
type FieldError struct {
	Field   string
	Problem string
	Fix     string
	Hint    Action
}

func (e *FieldError) Error() string { return e.Render(nil) }

// Render writes the error as one sentence, rendering its hint with r (nil:
// the hint's neutral wording).
func (e *FieldError) Render(r Renderer) string {
	msg := e.Field + " " + e.Problem
	if fix := join(e.Fix, r.render(e.Hint)); fix != "" {
		msg += ": " + fix
	}
	return msg
}

// Unwrap makes every FieldError an ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// Action is what the user can do next, named by the domain. Surfaces map
// each to their own words; an action a surface does not know is rendered
// by its neutral wording (Action.String).
type Action string

// The actions a refusal can point to.
const (
	CreateTask     Action = "create a task"
	ListTasks      Action = "list the tasks"
	ListOutline    Action = "look at the outline for an open task"
	ListBlocked    Action = "look at the blocked tasks and what they wait on"
	NextTask       Action = "ask for the next task"
	StartLoop      Action = "start a new loop"
	ListLoops      Action = "list the loops"
	ListCheckpoint Action = "list the loop's checkpoints"
	ControlLoop    Action = "pause, resume, complete, fail or cancel it as a loop"
	SearchMemory   Action = "search the memory"
	ListSessions   Action = "list the sessions"
	StartSession   Action = "start a session"
	ListBranches   Action = "list the saved branch contexts"
	ExportMemory   Action = "export the memory first"
	RetryEmbedding Action = "retry the embeddings later (memory backfill)"
	ForceDone      Action = "or mark it done anyway with force"
	ClaimTask      Action = "claim the task first"
	ClaimFree      Action = "claim a free task instead"
	ListLifecycles Action = "list the lifecycles"
	StartLifecycle Action = "start a new lifecycle"
	AdvanceOpen    Action = "advance the open lifecycle instead"
)

func (a Action) String() string { return string(a) }

// Renderer words an action for one surface: a tool call over MCP, a command
// in the CLI. It returns "" for an action it does not know.
type Renderer func(Action) string

func (r Renderer) render(a Action) string {
	if a == "" {
		return ""
	}
	if r != nil {
		if s := r(a); s != "" {
			return s
		}
	}
	return string(a)
}

// Error is a refusal: Kind is the sentinel callers test (task.ErrZen,
// task.ErrClosed, …), What says what is wrong, Fix and Hint what to do.
type Error struct {
	Kind error
	What string
	Fix  string
	Hint Action
}

// New returns an Error of kind with what is wrong and the action to take.
func New(kind error, what string, hint Action) *Error {
	return &Error{Kind: kind, What: what, Hint: hint}
}

func (e *Error) Error() string { return e.Render(nil) }

// Render writes the error as one sentence, rendering its hint with r.
func (e *Error) Render(r Renderer) string {
	if fix := join(e.Fix, r.render(e.Hint)); fix != "" {
		return e.What + "; " + fix
	}
	return e.What
}

// Unwrap returns the error's kind.
func (e *Error) Unwrap() error { return e.Kind }

func join(fix, hint string) string {
	switch {
	case fix == "":
		return hint
	case hint == "":
		return fix
	}
	return fix + "; " + hint
}

// Refusal is implemented by a domain's own error types (task not found,
// dependency cycle) whose message is already the one sentence a user reads,
// so Message shows it without the wrapping around it.
type Refusal interface {
	error
	Refusal()
}

// Message is what a user reads for err: the innermost refusal (an Error or
// a FieldError) rendered with r, without the wrapping its callers added for
// their logs; any other error is err.Error(). ok reports whether a refusal
// was found.
func Message(err error, r Renderer) (msg string, ok bool) {
	if fe, found := errors.AsType[*FieldError](err); found {
		return fe.Render(r), true
	}
	if pe, found := errors.AsType[*Error](err); found {
		return pe.Render(r), true
	}
	if rf, found := errors.AsType[Refusal](err); found {
		return rf.Error(), true
	}
	return err.Error(), false
}

// Clip shortens s to at most n bytes on a rune boundary, marking the cut
// with "…". Error messages clip what they echo, so a large input is never
// sent back.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Quote quotes s for an error message, clipped to 40 bytes.
func Quote(s string) string {
	c := Clip(s, 40)
	if c == s {
		return strconv.Quote(s)
	}
	return strconv.Quote(strings.TrimSuffix(c, "…")) + "…"
}
