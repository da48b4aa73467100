// Package problem holds the one error type Cairn refuses a call with: an
// Error of a Kind from a closed set, saying what is wrong and what to do in
// words a person or a model can act on, without naming any surface. What to
// do is words every surface shares (Fix) and typed Actions (Hint, Next) that
// each surface renders in its own words: a tool name over MCP, a command in
// the CLI, a page or a button on the board. Each surface keeps one table
// from Kind to its code, status or exit status and one from Action to its
// words; the surfaces' tests run every Kind and every Action through them.
package problem

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// Kind is what a call was refused for. Surfaces map each kind to a stable
// code (MCP), status (HTTP, the board) or exit status (the CLI).
type Kind uint8

// The kinds. Invalid is the zero Kind, so that a FieldError literal, which
// names no kind, is one.
const (
	// Invalid: an argument breaks a rule; Field names it when one does.
	Invalid Kind = iota
	// NotFound: no task, memory entry, session, lifecycle… has the id.
	NotFound
	// Cycle: a dependency change would close a cycle.
	Cycle
	// NoProject: no project root could be found.
	NoProject
	// Zen: the call needs a current task and the agent has none.
	Zen
	// OpenChildren: a task cannot be completed before its children.
	OpenChildren
	// Closed: the task is completed or cancelled, or the session has ended.
	Closed
	// Transition: the loop's state does not allow the operation.
	Transition
	// OpenDeps: a task cannot be done while a task it depends on is open.
	OpenDeps
	// Claimed: another agent holds a live claim on the task.
	Claimed
	// CriteriaMissing: a phase's exit criteria lack evidence.
	CriteriaMissing
	// Malformed: a definition file could not be read.
	Malformed
	// Unavailable: the call could not be served now but may be if it is
	// retried (the store was busy past its timeout, the server is full).
	Unavailable
	// Storage: what lies under the store failed (a full disk, a read-only
	// file system, a corrupt database); a person must act.
	Storage
	// Cancelled: the call was cancelled or timed out before it finished.
	Cancelled
	// Unauthorized: the caller did not show a token the server knows.
	Unauthorized
	// Forbidden: the caller may not do this (its token's scope, a
	// read-only board, a request from another origin).
	Forbidden
	// TooLarge: a request is over the size limit.
	TooLarge
	// UnsupportedMedia: a request's body is not of a type the server reads.
	UnsupportedMedia
	// TooMany: the caller holds as much as it may (sessions per token).
	TooMany
	// Internal is not a refusal: a bug or an I/O failure. Surfaces log it
	// and answer without its internals.
	Internal

	// NumKinds is the number of kinds; surfaces size their tables by it.
	NumKinds = iota
)

var kindNames = [NumKinds]string{
	Invalid:          "invalid argument",
	NotFound:         "not found",
	Cycle:            "dependency cycle",
	NoProject:        "no project root",
	Zen:              "no current task",
	OpenChildren:     "task has incomplete children",
	Closed:           "closed",
	Transition:       "illegal loop transition",
	OpenDeps:         "task has open dependencies",
	Claimed:          "task is claimed by another agent",
	CriteriaMissing:  "exit criteria not met",
	Malformed:        "malformed definition",
	Unavailable:      "unavailable",
	Storage:          "storage fault",
	Cancelled:        "cancelled",
	Unauthorized:     "unauthorized",
	Forbidden:        "forbidden",
	TooLarge:         "too large",
	UnsupportedMedia: "unsupported media type",
	TooMany:          "too many",
	Internal:         "internal error",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind " + strconv.Itoa(int(k))
}

// Action is what the user can do next, named by the domain. Each surface
// words every action in its own terms.
type Action uint8

// The actions a refusal can point to. The zero Action is none.
const (
	NoAction Action = iota

	CreateTask
	ListTasks
	ListOutline
	ListBlocked
	ForceDone
	StartLoop
	ListLoops
	ListCheckpoint
	ControlLoop
	SearchMemory
	ListSessions
	StartSession
	ListBranches
	ExportMemory
	ClaimTask
	ClaimFree
	OverrideClaim
	ListLifecycles
	StartLifecycle
	AdvanceOpen
	FixDefinition
	CheckChanged
	ListCandidates
	ListDrafts
	ListChanges
	ReviewChange

	// The operations of a loop, named in a refusal's list of what is legal
	// next.
	LoopRecord
	LoopCheckpoint
	LoopPause
	LoopResume
	LoopCancel
	LoopComplete
	LoopFail

	// NumActions is the number of actions, NoAction included; surfaces
	// size their tables by it.
	NumActions = iota
)

var actionWords = [NumActions]string{
	CreateTask:     "create a task",
	ListTasks:      "list the tasks",
	ListOutline:    "look at the outline for an open task",
	ListBlocked:    "look at the blocked tasks and what they wait on",
	ForceDone:      "or mark it done anyway with force",
	StartLoop:      "start a new loop",
	ListLoops:      "list the loops",
	ListCheckpoint: "list the loop's checkpoints",
	ControlLoop:    "pause, resume, complete, fail or cancel it as a loop",
	SearchMemory:   "search the memory",
	ListSessions:   "list the sessions",
	StartSession:   "start a session",
	ListBranches:   "list the saved branch contexts",
	ExportMemory:   "export the memory first",
	ClaimTask:      "claim the task first",
	ClaimFree:      "claim a free task instead",
	OverrideClaim:  "or write anyway with force",
	ListLifecycles: "list the lifecycles",
	StartLifecycle: "start a new lifecycle",
	AdvanceOpen:    "advance the open lifecycle instead",
	FixDefinition:  "fix the file",
	CheckChanged:   "nothing was changed unless a later read shows it",
	ListCandidates: "analyze the sessions again to list the open candidates",
	ListDrafts:     "list the drafts",
	ListChanges:    "list the logged changes",
	ReviewChange:   "review the change and the drafts",
	LoopRecord:     "record",
	LoopCheckpoint: "checkpoint",
	LoopPause:      "pause",
	LoopResume:     "resume",
	LoopCancel:     "cancel",
	LoopComplete:   "complete",
	LoopFail:       "fail",
}

// String is the action's neutral wording, for logs and tests.
func (a Action) String() string {
	if int(a) < len(actionWords) {
		return actionWords[a]
	}
	return "action " + strconv.Itoa(int(a))
}

// Renderer words an action for one surface: a tool call over MCP, a command
// in the CLI. nil words every action neutrally (Action.String).
type Renderer func(Action) string

func (r Renderer) render(a Action) string {
	switch {
	case a == NoAction:
		return ""
	case r == nil:
		return a.String()
	}
	return r(a)
}

// Error is a refusal: what is wrong (Field and Problem), what to do (Fix,
// Hint), and what may be done instead (Next). Domain packages construct it
// (task.NotFound, task.Cycle, …) with the structure behind the words in
// Detail, so a caller that needs that structure reads it from there.
type Error struct {
	Kind Kind
	// Field names the argument at fault in an Invalid refusal, if one is.
	Field string
	// Problem says what is wrong (after Field, when set).
	Problem string
	// Fix says what to do, in words every surface shares.
	Fix string
	// Hint is what to do in each surface's words, after Fix.
	Hint Action
	// Next lists the operations that are legal instead ("legal next: …").
	Next []Action
	// Detail is the structure behind the words (the claim, the cycle's
	// path, the open dependencies), read with DetailOf.
	Detail any
	// Err is the cause, for logs; it is never shown.
	Err error
}

// FieldError is an invalid argument written as a literal:
// &problem.FieldError{Field, Problem, Fix, Hint}. It is an Error whose Kind
// is the zero Kind, Invalid.
type FieldError = Error

// New returns an Error of kind with what is wrong and the action to take.
func New(kind Kind, problem string, hint Action) *Error {
	return &Error{Kind: kind, Problem: problem, Hint: hint}
}

// Fault returns a Storage Error: what is wrong under the store, what a
// person must do, and the driver's error for the logs.
func Fault(problem, fix string, err error) *Error {
	return &Error{Kind: Storage, Problem: problem + ": " + fix, Err: err}
}

func (e *Error) Error() string { return e.Render(nil) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Render writes the error as one sentence, rendering its actions with r.
func (e *Error) Render(r Renderer) string {
	msg := e.Problem
	if e.Field != "" {
		msg = e.Field + " " + e.Problem
	}
	if len(e.Next) > 0 {
		names := make([]string, len(e.Next))
		for i, a := range e.Next {
			names[i] = r.render(a)
		}
		msg += "; legal next: " + strings.Join(names, ", ")
	}
	fix := join(e.Fix, r.render(e.Hint))
	switch {
	case fix == "":
		return msg
	case e.Field != "":
		return msg + ": " + fix
	}
	return msg + "; " + fix
}

// With returns a copy of e that says fix after its own.
func (e *Error) With(fix string) *Error {
	c := *e
	c.Fix = join(e.Fix, fix)
	return &c
}

func join(fix, hint string) string {
	switch {
	case fix == "":
		return hint
	case hint == "":
		return fix
	}
	return fix + "; " + hint
}

// As returns the first Error in err's chain.
func As(err error) (*Error, bool) { return errors.AsType[*Error](err) }

// cancelled is what a call cut short by its context is refused with.
var cancelled = &Error{Kind: Cancelled, Problem: "the call was cancelled or timed out before it finished", Hint: CheckChanged}

// Of returns the refusal err is: its first Error; for a call cut short by
// its context, a Cancelled one; for anything else, an Internal one whose
// Problem is err's text, which only the CLI shows (its user runs the
// process); the MCP server and the board log it and say less.
func Of(err error) *Error {
	if e, ok := As(err); ok {
		return e
	}
	if KindOf(err) == Cancelled {
		c := *cancelled
		c.Err = err
		return &c
	}
	return &Error{Kind: Internal, Problem: err.Error(), Err: err}
}

// KindOf returns the kind of refusal err is (see Of).
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Cancelled
	}
	return Internal
}

// Is reports whether err is a refusal of kind k.
func Is(err error, k Kind) bool { return err != nil && KindOf(err) == k }

// DetailOf returns the first Detail of type T along err's chain of Errors.
func DetailOf[T any](err error) (T, bool) {
	for {
		e, ok := As(err)
		if !ok {
			var zero T
			return zero, false
		}
		if d, ok := e.Detail.(T); ok {
			return d, true
		}
		err = e.Err
	}
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
