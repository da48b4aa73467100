// Package loop is the state machine of an iterative agent loop: a task that
// carries an objective, completion criteria and an iteration budget, and
// moves through pending, running, paused, completed, failed and cancelled by
// the rules below. It does no I/O.
package loop

import (
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Status is where a loop is in its life.
type Status string

// The statuses.
const (
	Pending   Status = "pending"
	Running   Status = "running"
	Paused    Status = "paused"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// Statuses lists every status.
var Statuses = []Status{Pending, Running, Paused, Completed, Failed, Cancelled}

// Valid reports whether s is a status.
func (s Status) Valid() bool { return slices.Contains(Statuses, s) }

// Finished reports whether the loop is over for good: completed or
// cancelled, or failed beyond recovery.
func (st *State) Finished() bool {
	switch st.Status {
	case Completed, Cancelled:
		return true
	case Failed:
		return st.Error == nil || !st.Error.Recoverable
	}
	return false
}

// DefaultMaxIterations is the iteration budget when none is given.
const DefaultMaxIterations = 200

// CodeMaxIterations is the error code of a loop stopped by its budget.
const CodeMaxIterations = "MAX_ITERATIONS"

// Progress is how far a loop has come.
type Progress struct {
	Percentage        float64 `json:"percentage"`
	Message           string  `json:"message,omitempty"`
	ArtifactsCreated  int     `json:"artifacts_created"`
	ArtifactsModified int     `json:"artifacts_modified"`
	Checkpoints       int     `json:"checkpoints"`
}

// Error is why a loop failed.
type Error struct {
	Message     string `json:"message"`
	Code        string `json:"code,omitempty"`
	Recoverable bool   `json:"recoverable"`
}

// Metadata describes a loop.
type Metadata struct {
	CreatedBy     string   `json:"created_by,omitempty"`
	Priority      string   `json:"priority"`
	Tags          []string `json:"tags,omitempty"`
	ExecutionMode string   `json:"execution_mode"`
	// Extra is the free-form metadata, encoded beside the fields above
	// (ValidateMetadata bounds it).
	Extra map[string]any `json:"-"`
}

// State is everything a loop carries; it is stored with its task as JSON.
type State struct {
	Objective          string   `json:"objective"`
	CompletionCriteria string   `json:"completion_criteria"`
	Description        string   `json:"description,omitempty"`
	Iteration          int      `json:"iteration"`
	MaxIterations      int      `json:"max_iterations"`
	Status             Status   `json:"status"`
	Progress           Progress `json:"progress"`
	LastAction         string   `json:"last_action,omitempty"`
	NextSteps          []string `json:"next_steps,omitempty"`
	// NextStepsFrom is the iteration whose report gave NextSteps: an
	// iteration reported without next steps keeps the earlier ones, and
	// says whose they are.
	NextStepsFrom int       `json:"next_steps_from,omitempty"`
	Error         *Error    `json:"error,omitempty"`
	Evidence      string    `json:"evidence,omitempty"`
	Metadata      Metadata  `json:"metadata"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Limits on what a loop may hold.
const (
	MaxText      = 64 << 10 // bytes of a field such as last_action or evidence
	MaxNextSteps = 50
	MaxTags      = 20
	MaxBudget    = 100000
)

// Op names an operation that changes a loop's state. Surfaces name them in
// their own words (over MCP, each is a tool: loop_ and the op).
type Op string

// The operations that change a loop's state.
const (
	OpRecord     Op = "record"
	OpCheckpoint Op = "checkpoint"
	OpPause      Op = "pause"
	OpResume     Op = "resume"
	OpCancel     Op = "cancel"
	OpComplete   Op = "complete"
	OpFail       Op = "fail"
)

var ops = []Op{OpRecord, OpCheckpoint, OpPause, OpResume, OpCancel, OpComplete, OpFail}

var actions = map[Op]problem.Action{
	OpRecord: problem.LoopRecord, OpCheckpoint: problem.LoopCheckpoint, OpPause: problem.LoopPause,
	OpResume: problem.LoopResume, OpCancel: problem.LoopCancel, OpComplete: problem.LoopComplete, OpFail: problem.LoopFail,
}

// Action is the operation as an action, which each surface words.
func (op Op) Action() problem.Action { return actions[op] }

// refuse refuses operation what on a loop in st's state (why, if set, says
// more): a Transition Error naming the operations legal instead, or, for a
// finished loop, saying to start a new one.
func refuse(what string, st *State, why string) error {
	e := &problem.Error{Kind: problem.Transition, Problem: fmt.Sprintf("cannot %s: the loop is %s", what, st.Status)}
	if why != "" {
		e.Problem += " (" + why + ")"
	}
	legal := st.Legal()
	if len(legal) == 0 {
		e.Fix, e.Hint = "it is finished", problem.StartLoop
	}
	for _, op := range legal {
		e.Next = append(e.Next, op.Action())
	}
	return e
}

// allowed reports whether op is legal in the loop's current state.
func (st *State) allowed(op Op) (bool, string) {
	switch op {
	case OpRecord:
		return st.Status == Pending || st.Status == Running, ""
	case OpCheckpoint:
		return !st.Finished(), ""
	case OpPause:
		return st.Status == Pending || st.Status == Running, ""
	case OpResume:
		switch {
		case st.Status == Paused:
			return true, ""
		case st.Status == Failed && st.Error != nil && st.Error.Recoverable:
			return true, ""
		case st.Status == Failed:
			return false, "its failure was not recoverable"
		}
		return false, ""
	case OpCancel, OpFail:
		return st.Status == Pending || st.Status == Running || st.Status == Paused ||
			(st.Status == Failed && !st.Finished() && op == OpCancel), ""
	case OpComplete:
		return st.Status == Running || st.Status == Paused || st.Status == Pending, ""
	}
	return false, ""
}

// Legal lists the operations the loop's state allows.
func (st *State) Legal() []Op {
	var out []Op
	for _, op := range ops {
		if ok, _ := st.allowed(op); ok {
			out = append(out, op)
		}
	}
	return out
}

func (st *State) check(op Op, what string) error {
	ok, why := st.allowed(op)
	if ok {
		return nil
	}
	return refuse(what, st, why)
}

// New returns a loop in its pending state.
func New(objective, criteria string, maxIterations int, meta Metadata, now time.Time) State {
	if maxIterations == 0 {
		maxIterations = DefaultMaxIterations
	}
	if meta.Priority == "" {
		meta.Priority = "medium"
	}
	if meta.ExecutionMode == "" {
		meta.ExecutionMode = "default"
	}
	return State{Objective: objective, CompletionCriteria: criteria, MaxIterations: maxIterations,
		Status: Pending, Metadata: meta, CreatedAt: now, UpdatedAt: now}
}

// Iteration is what one recorded iteration reports.
type Iteration struct {
	LastAction string
	NextSteps  []string // nil keeps the previous ones
	Progress   *Progress
}

// Record records one iteration: the loop runs, its count advances, and when
// the count reaches the budget the loop stops as failed with
// CodeMaxIterations (recoverable: resume with a higher max_iterations).
func (st *State) Record(it Iteration, now time.Time) error {
	if err := st.check(OpRecord, "record an iteration"); err != nil {
		return err
	}
	st.Status = Running
	st.Iteration++
	st.LastAction = it.LastAction
	if it.NextSteps != nil {
		st.NextSteps, st.NextStepsFrom = it.NextSteps, st.Iteration
		if len(it.NextSteps) == 0 {
			st.NextSteps, st.NextStepsFrom = nil, 0
		}
	}
	if it.Progress != nil {
		checkpoints := st.Progress.Checkpoints
		st.Progress = *it.Progress
		st.Progress.Checkpoints = checkpoints // counted by Checkpoint, not reported
	} else {
		st.Progress.Message = "" // it said how the last iteration went, not this one
	}
	st.UpdatedAt = now
	if st.Iteration >= st.MaxIterations {
		st.Status = Failed
		st.Error = &Error{Code: CodeMaxIterations, Recoverable: true,
			Message: fmt.Sprintf("reached max_iterations (%d) before the completion criteria were met; resume it with a higher max_iterations to go on", st.MaxIterations)}
	}
	return nil
}

// Checkpoint counts a checkpoint; the caller stores the snapshot.
func (st *State) Checkpoint(now time.Time) error {
	if err := st.check(OpCheckpoint, "checkpoint"); err != nil {
		return err
	}
	st.Progress.Checkpoints++
	st.UpdatedAt = now
	return nil
}

// Pause stops a pending or running loop until it is resumed.
func (st *State) Pause(now time.Time) error {
	if err := st.check(OpPause, "pause"); err != nil {
		return err
	}
	st.Status, st.UpdatedAt = Paused, now
	return nil
}

// Resume sets a paused loop (or one failed recoverably) running again,
// optionally from a checkpoint's state and with a new budget (zero keeps
// it). The budget must leave room for another iteration.
func (st *State) Resume(from *State, maxIterations int, now time.Time) error {
	if err := st.check(OpResume, "resume"); err != nil {
		return err
	}
	next := *st
	if from != nil {
		next.Iteration = from.Iteration
		next.Progress = from.Progress
		next.Progress.Checkpoints = st.Progress.Checkpoints
		next.LastAction = from.LastAction
		next.NextSteps, next.NextStepsFrom = slices.Clone(from.NextSteps), from.NextStepsFrom
	}
	if maxIterations != 0 {
		next.MaxIterations = maxIterations
	}
	if next.Iteration >= next.MaxIterations {
		return refuse("resume", st, fmt.Sprintf("iteration %d has used up max_iterations %d; pass a higher max_iterations", next.Iteration, next.MaxIterations))
	}
	next.Status, next.Error, next.UpdatedAt = Running, nil, now
	*st = next
	return nil
}

// Cancel stops the loop for good.
func (st *State) Cancel(now time.Time) error {
	if err := st.check(OpCancel, "cancel"); err != nil {
		return err
	}
	st.Status, st.UpdatedAt = Cancelled, now
	st.dropNextSteps()
	return nil
}

// Complete finishes the loop; evidence says how the criteria were met.
func (st *State) Complete(evidence string, now time.Time) error {
	if err := st.check(OpComplete, "complete"); err != nil {
		return err
	}
	st.Status, st.Evidence, st.Error, st.UpdatedAt = Completed, evidence, nil, now
	st.Progress.Percentage = 100
	st.dropNextSteps()
	return nil
}

// Fail stops the loop with an error; a recoverable one can be resumed.
func (st *State) Fail(e Error, now time.Time) error {
	if err := st.check(OpFail, "fail"); err != nil {
		return err
	}
	st.Status, st.Error, st.UpdatedAt = Failed, &e, now
	if st.Finished() {
		st.dropNextSteps()
	}
	return nil
}

// dropNextSteps forgets the next steps of a loop that is over: whatever
// surface shows it, a finished loop has no next step.
func (st *State) dropNextSteps() { st.NextSteps, st.NextStepsFrom = nil, 0 }
