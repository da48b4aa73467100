package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// Loops runs iterative agent loops. A loop is a task that carries loop
// state: the plan and the focus stack see it as a task whose status follows
// the loop's (running is in-progress, paused deferred, failed blocked,
// completed done, cancelled cancelled).
type Loops struct {
	store store.Store
	now   func() time.Time
}

// NewLoops returns the loops service over s.
// now is the clock; nil is time.Now in UTC (a test fixes it).
func NewLoops(s store.Store, now func() time.Time) *Loops {
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	return &Loops{store: s, now: now}
}

// Loop is a loop's task and state.
type Loop struct {
	ID    task.ID
	Task  task.Task
	State loop.State
}

// Start is what loop_start takes.
type Start struct {
	Objective     string
	Criteria      string
	MaxIterations int
	ExecutionMode string
	Priority      string
	Tags          []string
	Parent        string // a task reference, or empty for a root loop
	CreatedBy     string
	// Description says more than the objective's line; Metadata is
	// free-form (loop.ValidateMetadata bounds it).
	Description string
	Metadata    map[string]any
}

var (
	executionModes = []string{"strict", "seeded", "logged", "default"}
)

func checkText(field, s string, max int) error {
	if !utf8.ValidString(s) {
		return &problem.FieldError{Field: field, Problem: "is not valid UTF-8", Fix: "send it as UTF-8 text"}
	}
	if len(s) > max {
		return &problem.FieldError{Field: field, Problem: fmt.Sprintf("is %d bytes, over the limit of %d", len(s), max), Fix: "shorten it"}
	}
	return nil
}

func (in *Start) validate() error {
	if strings.TrimSpace(in.Objective) == "" {
		return &problem.FieldError{Field: "objective", Problem: "is empty", Fix: "say what the loop is to achieve, in one line"}
	}
	if err := task.ValidateTitle(in.Objective); err != nil {
		fe := *err.(*problem.FieldError)
		fe.Field = "objective"
		return &fe
	}
	if strings.TrimSpace(in.Criteria) == "" {
		return &problem.FieldError{Field: "completion_criteria", Problem: "is empty", Fix: `say how to tell the loop is done, e.g. "go test ./... passes"`}
	}
	if err := checkText("completion_criteria", in.Criteria, loop.MaxText); err != nil {
		return err
	}
	if in.MaxIterations < 0 || in.MaxIterations > loop.MaxBudget {
		return &problem.FieldError{Field: "max_iterations", Problem: fmt.Sprintf("is %d", in.MaxIterations), Fix: fmt.Sprintf("use 1 to %d (default %d)", loop.MaxBudget, loop.DefaultMaxIterations)}
	}
	if in.ExecutionMode == "" {
		in.ExecutionMode = "default"
	}
	if !contains(executionModes, in.ExecutionMode) {
		return &problem.FieldError{Field: "execution_mode", Problem: fmt.Sprintf("is %q", problem.Clip(in.ExecutionMode, 40)), Fix: "use strict, seeded, logged or default"}
	}
	in.Priority = string(loopPriority(in.Priority))
	if err := tasks.ValidPriority(task.Priority(in.Priority)); err != nil {
		return err
	}
	if err := checkText("description", in.Description, loop.MaxDescription); err != nil {
		return err
	}
	if err := loop.ValidateMetadata(in.Metadata); err != nil {
		return err
	}
	if len(in.Tags) > loop.MaxTags {
		return &problem.FieldError{Field: "tags", Problem: fmt.Sprintf("has %d tags", len(in.Tags)), Fix: fmt.Sprintf("keep at most %d", loop.MaxTags)}
	}
	for _, t := range in.Tags {
		if err := checkText("tags", t, 100); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Start creates a loop in the pending state.
func (l *Loops) Start(ctx context.Context, in Start) (Loop, error) {
	redact.Scrub(&in)
	if err := in.validate(); err != nil {
		return Loop{}, err
	}
	in.Metadata = scrubMetadata(in.Metadata).(map[string]any)
	var out Loop
	err := l.store.Update(ctx, func(tx store.Tx) error {
		var parent task.ID
		if in.Parent != "" {
			p, err := tasks.ResolveRef(ctx, tx, in.Parent, "parent")
			if err != nil {
				return err
			}
			if !p.Status.Open() {
				return &problem.Error{Kind: problem.Closed, Problem: fmt.Sprintf("task %s is %s", p.ID, p.Status), Fix: "start loops under open tasks"}
			}
			parent = p.ID
		}
		now := l.now()
		st := loop.New(in.Objective, in.Criteria, in.MaxIterations,
			loop.Metadata{CreatedBy: in.CreatedBy, Priority: in.Priority, Tags: in.Tags, ExecutionMode: in.ExecutionMode, Extra: in.Metadata}, now)
		st.Description = strings.TrimSpace(in.Description)
		body := "Completion criteria: " + in.Criteria
		if st.Description != "" {
			body = st.Description + "\n\n" + body
		}
		t, err := tx.CreateTask(ctx, task.Task{Title: in.Objective, Body: body,
			Status: task.StatusPending, Priority: task.Priority(in.Priority), CreatedAt: now, UpdatedAt: now}, store.Placement{Parent: parent})
		if err != nil {
			return err
		}
		out = Loop{ID: t.ID, Task: t, State: st}
		// Seed 001's creation phase ends with a checkpoint: the state to
		// go back to if the first iterations go wrong.
		cp, err := autoCheckpoint(ctx, tx, &out, "loop started", now)
		if err != nil {
			return err
		}
		return l.save(ctx, tx, &out, "start", fmt.Sprintf("max_iterations %d; checkpoint %d", st.MaxIterations, cp), now)
	})
	if err != nil {
		return Loop{}, fmt.Errorf("start loop: %w", err)
	}
	return out, nil
}

// errNotLoop is a task that is not a loop.
func errNotLoop(id task.ID) error {
	return &problem.FieldError{Field: "id", Problem: fmt.Sprintf("names task %s, which is not a loop", id), Fix: "pass a loop id", Hint: problem.ListLoops}
}

func loadLoop(ctx context.Context, tx store.Tx, ref string) (Loop, error) {
	t, err := tasks.ResolveRef(ctx, tx, ref, "id")
	if err != nil {
		return Loop{}, err
	}
	t, raw, err := store.Loop(ctx, tx, t.ID)
	if err != nil {
		return Loop{}, err
	}
	if raw == nil {
		return Loop{}, errNotLoop(t.ID)
	}
	out := Loop{ID: t.ID, Task: t}
	if err := json.Unmarshal(raw, &out.State); err != nil {
		return Loop{}, fmt.Errorf("decode loop %s: %w", t.ID, err)
	}
	// One priority: the task's, whichever tool changed it last.
	out.State.Metadata.Priority = string(t.Priority)
	return out, nil
}

// loopPriority reads a loop's priority in the tasks' words (critical, high,
// medium, low; default medium). Loops once said "normal" for medium: it is
// still accepted, from clients and prompts written then, and never shown.
func loopPriority(p string) task.Priority {
	switch p = strings.ToLower(strings.TrimSpace(p)); p {
	case "", "normal":
		return task.PriorityMedium
	}
	return task.Priority(p)
}

// taskStatus is the task status that mirrors a loop status.
func taskStatus(s loop.Status) task.Status {
	switch s {
	case loop.Running:
		return task.StatusInProgress
	case loop.Paused:
		return task.StatusDeferred
	case loop.Failed:
		return task.StatusBlocked
	case loop.Completed:
		return task.StatusDone
	case loop.Cancelled:
		return task.StatusCancelled
	}
	return task.StatusPending
}

// save stores the loop's state, moves its task's status to match and
// records the event in its history.
func (l *Loops) save(ctx context.Context, tx store.Tx, lp *Loop, kind, detail string, now time.Time) error {
	raw, err := json.Marshal(lp.State)
	if err != nil {
		return err
	}
	if err := tx.SetLoop(ctx, raw, store.LoopEvent{TaskID: lp.ID, Kind: kind, Detail: detail, At: now}); err != nil {
		return err
	}
	if want := taskStatus(lp.State.Status); want != lp.Task.Status {
		// Only Complete makes a loop's task done, and it checks the
		// dependencies itself (see Complete).
		if lp.Task, err = tasks.SetStatus(ctx, tx, lp.Task, want, now, true); err != nil {
			return err
		}
	}
	return tasks.Note(ctx, tx, memory.Event{Kind: memory.EventLoop, Key: fmt.Sprintf("%s#%d:%s", lp.ID, lp.State.Iteration, kind),
		Subject: "loop " + lp.ID.String(), Detail: kind + " at iteration " + strconv.Itoa(lp.State.Iteration) + detailSuffix(detail), At: now})
}

// detailSuffix is a loop event's detail after its kind, clipped to a line.
func detailSuffix(detail string) string {
	if detail = words.OneLine(detail, 120); detail == "" {
		return ""
	}
	return ": " + detail
}

// change runs one transition on a loop in one transaction.
func (l *Loops) change(ctx context.Context, ref, what string, fn func(lp *Loop, tx store.Tx, now time.Time) (kind, detail string, err error)) (Loop, error) {
	var out Loop
	err := l.store.Update(ctx, func(tx store.Tx) error {
		lp, err := loadLoop(ctx, tx, ref)
		if err != nil {
			return err
		}
		now := l.now()
		kind, detail, err := fn(&lp, tx, now)
		if err != nil {
			return err
		}
		out = lp
		return l.save(ctx, tx, &out, kind, detail, now)
	})
	if err != nil {
		return Loop{}, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}

// Get returns a loop.
func (l *Loops) Get(ctx context.Context, ref string) (Loop, error) {
	var out Loop
	err := l.store.View(ctx, func(tx store.Tx) (err error) {
		out, err = loadLoop(ctx, tx, ref)
		return err
	})
	if err != nil {
		return Loop{}, fmt.Errorf("loop status: %w", err)
	}
	return out, nil
}

// Event is one entry of a loop's history.
type Event struct {
	Seq    int64
	Kind   string
	Detail string
	At     time.Time
}

// History is a page of a loop's history, oldest first.
type History struct {
	Events     []Event
	Total      int
	Offset     int
	NextOffset int
}

// StatusQuery asks for a loop and, with History set, a page of its
// history (page.Plan's rule).
type StatusQuery struct {
	History bool
	page.Page
}

// Status returns a loop and, if asked, a page of its history.
func (l *Loops) Status(ctx context.Context, ref string, q StatusQuery) (Loop, History, error) {
	p, err := page.Plan.Apply(q.Page)
	if err != nil {
		return Loop{}, History{}, err
	}
	var (
		lp Loop
		h  = History{Offset: p.Offset}
	)
	err = l.store.View(ctx, func(tx store.Tx) error {
		if lp, err = loadLoop(ctx, tx, ref); err != nil || !q.History {
			return err
		}
		es, total, err := tx.LoopEvents(ctx, lp.ID, p.Offset, p.Limit)
		for _, e := range es {
			h.Events = append(h.Events, Event{Seq: e.Seq, Kind: e.Kind, Detail: e.Detail, At: e.At})
		}
		h.Total = total
		return err
	})
	if err != nil {
		return Loop{}, History{}, fmt.Errorf("loop status: %w", err)
	}
	h.NextOffset = page.NextOffset(h.Offset, len(h.Events), h.Total)
	return lp, h, nil
}

// LoopQuery selects loops: those in Statuses (as a caller spells them),
// else the ones not finished unless All; a page at a time (page.Plan).
type LoopQuery struct {
	Statuses []string
	All      bool
	page.Page
}

// LoopPage is a page of loops.
type LoopPage struct {
	Loops      []Loop
	Total      int
	Offset     int
	NextOffset int
}

// List returns the page of loops q selects, oldest first.
func (l *Loops) List(ctx context.Context, q LoopQuery) (LoopPage, error) {
	var statuses []loop.Status
	for _, s := range q.Statuses {
		st := loop.Status(strings.ToLower(strings.TrimSpace(s)))
		if !st.Valid() {
			return LoopPage{}, &problem.FieldError{Field: "status", Problem: "has " + problem.Quote(s), Fix: "use " + page.OneOf(loop.Statuses)}
		}
		statuses = append(statuses, st)
	}
	p, err := page.Plan.Apply(q.Page)
	if err != nil {
		return LoopPage{}, err
	}
	all, err := l.All(ctx)
	if err != nil {
		return LoopPage{}, err
	}
	var sel []Loop
	for _, lp := range all {
		if len(statuses) > 0 && !containsStatus(statuses, lp.State.Status) || len(statuses) == 0 && !q.All && lp.State.Finished() {
			continue
		}
		sel = append(sel, lp)
	}
	lo, hi, next := p.Window(len(sel))
	return LoopPage{Loops: sel[lo:hi], Total: len(sel), Offset: p.Offset, NextOffset: next}, nil
}

// All returns every loop, for a watcher that tells subscribers what changed.
func (l *Loops) All(ctx context.Context) ([]Loop, error) {
	var out []Loop
	err := l.store.View(ctx, func(tx store.Tx) error {
		rows, err := tx.Loops(ctx, 0)
		if err != nil {
			return err
		}
		for _, r := range rows {
			lp := Loop{ID: r.Task.ID, Task: r.Task}
			if err := json.Unmarshal(r.State, &lp.State); err != nil {
				return fmt.Errorf("decode loop %s: %w", r.Task.ID, err)
			}
			lp.State.Metadata.Priority = string(r.Task.Priority)
			out = append(out, lp)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list loops: %w", err)
	}
	return out, nil
}

func containsStatus(ss []loop.Status, s loop.Status) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Record is what loop_record takes.
type Record struct {
	LastAction string
	NextSteps  []string // nil: keep the loop's
	// Percentage and Message report progress; ArtifactsCreated and
	// ArtifactsModified add to the loop's counts. What is not given keeps
	// its value, except the message, which is the last iteration's.
	Percentage        *float64
	Message           string
	ArtifactsCreated  int
	ArtifactsModified int
}

// Record records one iteration.
func (l *Loops) Record(ctx context.Context, ref string, in Record) (Loop, error) {
	redact.Scrub(&in)
	if strings.TrimSpace(in.LastAction) == "" {
		return Loop{}, &problem.FieldError{Field: "last_action", Problem: "is empty", Fix: "say what this iteration did"}
	}
	if err := checkText("last_action", in.LastAction, loop.MaxText); err != nil {
		return Loop{}, err
	}
	if len(in.NextSteps) > loop.MaxNextSteps {
		return Loop{}, &problem.FieldError{Field: "next_steps", Problem: fmt.Sprintf("has %d steps", len(in.NextSteps)), Fix: fmt.Sprintf("keep at most %d", loop.MaxNextSteps)}
	}
	for _, s := range in.NextSteps {
		if err := checkText("next_steps", s, 4096); err != nil {
			return Loop{}, err
		}
	}
	if p := in.Percentage; p != nil && (*p < 0 || *p > 100) {
		return Loop{}, &problem.FieldError{Field: "percentage", Problem: fmt.Sprintf("is %g", *p), Fix: "use 0 to 100"}
	}
	for _, f := range []struct {
		name string
		n    int
	}{{"artifacts_created", in.ArtifactsCreated}, {"artifacts_modified", in.ArtifactsModified}} {
		if f.n < 0 {
			return Loop{}, &problem.FieldError{Field: f.name, Problem: fmt.Sprintf("is %d", f.n), Fix: "pass how many this iteration added, 0 or more"}
		}
	}
	if err := checkText("message", in.Message, 4096); err != nil {
		return Loop{}, err
	}
	return l.change(ctx, ref, "record iteration", func(lp *Loop, _ store.Tx, now time.Time) (string, string, error) {
		it := loop.Iteration{LastAction: in.LastAction, NextSteps: in.NextSteps}
		if in.Percentage != nil || in.Message != "" || in.ArtifactsCreated != 0 || in.ArtifactsModified != 0 {
			p := lp.State.Progress // in the transaction: what is not given keeps its value
			p.Message = in.Message
			if in.Percentage != nil {
				p.Percentage = *in.Percentage
			}
			p.ArtifactsCreated += in.ArtifactsCreated
			p.ArtifactsModified += in.ArtifactsModified
			it.Progress = &p
		}
		if err := lp.State.Record(it, now); err != nil {
			return "", "", err
		}
		detail := fmt.Sprintf("#%d %s", lp.State.Iteration, problem.Clip(in.LastAction, 200))
		if lp.State.Status == loop.Failed {
			detail += "; stopped: " + lp.State.Error.Message
		}
		return "iteration", detail, nil
	})
}

// Checkpoint snapshots the loop's whole state and returns the checkpoint id.
func (l *Loops) Checkpoint(ctx context.Context, ref, note string) (Loop, int64, error) {
	redact.Scrub(&note)
	if err := checkText("note", note, 4096); err != nil {
		return Loop{}, 0, err
	}
	var id int64
	lp, err := l.change(ctx, ref, "checkpoint", func(lp *Loop, tx store.Tx, now time.Time) (string, string, error) {
		var err error
		if id, err = autoCheckpoint(ctx, tx, lp, note, now); err != nil {
			return "", "", err
		}
		return "checkpoint", fmt.Sprintf("checkpoint %d at iteration %d", id, lp.State.Iteration), nil
	})
	return lp, id, err
}

// Checkpoint is a saved state of a loop, to resume from.
type Checkpoint struct {
	ID        int64
	Note      string
	State     loop.State
	CreatedAt time.Time
}

// Checkpoints is a page of a loop's checkpoints, newest first.
type Checkpoints struct {
	Checkpoints []Checkpoint
	Total       int
	Offset      int
	NextOffset  int
}

// Checkpoints returns a page of a loop's checkpoints with their states,
// newest first (page.Plan's rule): a loop checkpointed at every iteration
// answered with hundreds, and the one to resume from is usually the latest.
func (l *Loops) Checkpoints(ctx context.Context, ref string, pg page.Page) (Loop, Checkpoints, error) {
	p, err := page.Plan.Apply(pg)
	if err != nil {
		return Loop{}, Checkpoints{}, err
	}
	var (
		lp  Loop
		out = Checkpoints{Offset: p.Offset}
	)
	err = l.store.View(ctx, func(tx store.Tx) (err error) {
		if lp, err = loadLoop(ctx, tx, ref); err != nil {
			return err
		}
		rows, err := tx.Checkpoints(ctx, lp.ID)
		if err != nil {
			return err
		}
		slices.Reverse(rows)
		lo, hi, next := p.Window(len(rows))
		out.Total, out.NextOffset = len(rows), next
		for _, r := range rows[lo:hi] {
			cp := Checkpoint{ID: r.ID, Note: r.Note, CreatedAt: r.CreatedAt}
			if err := json.Unmarshal(r.State, &cp.State); err != nil {
				return fmt.Errorf("decode checkpoint %d: %w", r.ID, err)
			}
			out.Checkpoints = append(out.Checkpoints, cp)
		}
		return nil
	})
	if err != nil {
		return Loop{}, Checkpoints{}, fmt.Errorf("loop checkpoints: %w", err)
	}
	return lp, out, nil
}

// Pause pauses a loop.
func (l *Loops) Pause(ctx context.Context, ref string) (Loop, error) {
	return l.change(ctx, ref, "pause loop", func(lp *Loop, _ store.Tx, now time.Time) (string, string, error) {
		return "pause", "", lp.State.Pause(now)
	})
}

// Resume resumes a loop, from a checkpoint if fromCheckpoint is not zero,
// with a new budget if maxIterations is not zero.
func (l *Loops) Resume(ctx context.Context, ref string, fromCheckpoint int64, maxIterations int) (Loop, error) {
	if maxIterations < 0 || maxIterations > loop.MaxBudget {
		return Loop{}, &problem.FieldError{Field: "max_iterations", Problem: fmt.Sprintf("is %d", maxIterations), Fix: fmt.Sprintf("use 1 to %d", loop.MaxBudget)}
	}
	return l.change(ctx, ref, "resume loop", func(lp *Loop, tx store.Tx, now time.Time) (string, string, error) {
		var from *loop.State
		detail := ""
		if fromCheckpoint != 0 {
			cps, err := tx.Checkpoints(ctx, lp.ID)
			if err != nil {
				return "", "", err
			}
			for _, c := range cps {
				if c.ID == fromCheckpoint {
					var st loop.State
					if err := json.Unmarshal(c.State, &st); err != nil {
						return "", "", fmt.Errorf("decode checkpoint %d: %w", c.ID, err)
					}
					from = &st
				}
			}
			if from == nil {
				return "", "", &problem.FieldError{Field: "from_checkpoint", Problem: fmt.Sprintf("is %d, not a checkpoint of loop %s", fromCheckpoint, lp.ID),
					Fix: "pass one of its checkpoint ids, or leave it out to resume where the loop is", Hint: problem.ListCheckpoint}
			}
			detail = fmt.Sprintf("from checkpoint %d (iteration %d)", fromCheckpoint, from.Iteration)
		}
		if err := lp.State.Resume(from, maxIterations, now); err != nil {
			return "", "", err
		}
		if maxIterations != 0 {
			detail = strings.TrimSpace(detail + fmt.Sprintf(" max_iterations %d", maxIterations))
		}
		return "resume", detail, nil
	})
}

// Cancel cancels a loop.
func (l *Loops) Cancel(ctx context.Context, ref string) (Loop, error) {
	return l.change(ctx, ref, "cancel loop", func(lp *Loop, _ store.Tx, now time.Time) (string, string, error) {
		return "cancel", "", lp.State.Cancel(now)
	})
}

// Complete completes a loop; evidence says how its criteria were met.
//
// The loop's task becomes done, so a task it depends on must be done or
// cancelled first, unless force is set.
func (l *Loops) Complete(ctx context.Context, ref, evidence string, force bool) (Loop, error) {
	redact.Scrub(&evidence)
	if strings.TrimSpace(evidence) == "" {
		return Loop{}, &problem.FieldError{Field: "evidence", Problem: "is empty", Fix: "say how the completion criteria were met (a command and its result)"}
	}
	if err := checkText("evidence", evidence, loop.MaxText); err != nil {
		return Loop{}, err
	}
	return l.change(ctx, ref, "complete loop", func(lp *Loop, tx store.Tx, now time.Time) (string, string, error) {
		if !force {
			if err := tasks.CheckDeps(ctx, tx, lp.ID); err != nil {
				return "", "", err
			}
		}
		if err := lp.State.Checkpoint(now); err != nil {
			return "", "", err
		}
		if err := lp.State.Complete(evidence, now); err != nil {
			return "", "", err
		}
		// Seed 001's completion phase: a final checkpoint, the state the
		// loop ended in.
		cp, err := addCheckpoint(ctx, tx, lp, "loop completed", now)
		if err != nil {
			return "", "", err
		}
		return "complete", fmt.Sprintf("%s; checkpoint %d", problem.Clip(evidence, 200), cp), nil
	})
}

// autoCheckpoint counts a checkpoint on the loop and stores its state.
func autoCheckpoint(ctx context.Context, tx store.Tx, lp *Loop, note string, now time.Time) (int64, error) {
	if err := lp.State.Checkpoint(now); err != nil {
		return 0, err
	}
	return addCheckpoint(ctx, tx, lp, note, now)
}

// addCheckpoint stores the loop's state as a checkpoint (already counted).
func addCheckpoint(ctx context.Context, tx store.Tx, lp *Loop, note string, now time.Time) (int64, error) {
	raw, err := json.Marshal(lp.State)
	if err != nil {
		return 0, err
	}
	return tx.AddCheckpoint(ctx, store.Checkpoint{TaskID: lp.ID, Note: note, State: raw, CreatedAt: now})
}

// scrubMetadata redacts secrets in the strings of free-form metadata
// (redact.Scrub cannot set a map's values).
func scrubMetadata(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return map[string]any(nil)
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = scrubMetadata(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = scrubMetadata(x)
		}
		return out
	case string:
		s, _ := redact.Redact(v)
		return s
	}
	return v
}

// Fail stops a loop with an error.
func (l *Loops) Fail(ctx context.Context, ref string, e loop.Error) (Loop, error) {
	redact.Scrub(&e)
	if strings.TrimSpace(e.Message) == "" {
		return Loop{}, &problem.FieldError{Field: "message", Problem: "is empty", Fix: "say what went wrong"}
	}
	if err := checkText("message", e.Message, loop.MaxText); err != nil {
		return Loop{}, err
	}
	if err := checkText("code", e.Code, 100); err != nil {
		return Loop{}, err
	}
	return l.change(ctx, ref, "fail loop", func(lp *Loop, _ store.Tx, now time.Time) (string, string, error) {
		return "fail", problem.Clip(e.Message, 200), lp.State.Fail(e, now)
	})
}

// Version changes whenever the store does, in any process; watchers poll it.
func (l *Loops) Version(ctx context.Context) (uint64, error) { return l.store.Version(ctx) }
