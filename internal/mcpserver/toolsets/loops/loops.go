// Package loops declares the loops toolset: iterative loops with
// completion criteria and checkpoints. Their live resources are served by
// internal/mcpserver.
package loops

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// The loops toolset: iterative agent loops with completion criteria, an
// iteration budget, checkpoints and a state machine; each loop is also a
// resource, cairn://loops/{id}, that clients can subscribe to.

// LoopURI is the resource URI of a loop.
func LoopURI(id task.ID) string { return "cairn://loops/" + id.String() }

type LoopStartArgs struct {
	Objective          string          `json:"objective" jsonschema:"what the loop is to achieve, one line"`
	CompletionCriteria string          `json:"completion_criteria" jsonschema:"how to tell it is done, e.g. a command that passes"`
	MaxIterations      int             `json:"max_iterations,omitempty" jsonschema:"default 200"`
	ExecutionMode      string          `json:"execution_mode,omitempty"`
	Priority           string          `json:"priority,omitempty"`
	Tags               tool.StringList `json:"tags,omitempty"`
	Parent             tool.IDArg      `json:"parent,omitempty" jsonschema:"task to start the loop under"`
	Description        string          `json:"description,omitempty" jsonschema:"the loop in detail"`
	Metadata           map[string]any  `json:"metadata,omitempty" jsonschema:"free-form JSON object, up to 4 KiB"`
}

// EnumAlias takes the priority "normal", loops' old word for medium, which
// the loops service still reads (and never shows).
func (LoopStartArgs) EnumAlias(name, value string) bool {
	return name == "priority" && strings.EqualFold(value, "normal")
}

type loopIDArgs struct {
	ID tool.IDArg `json:"id"`
}

type loopStatusArgs struct {
	ID      tool.IDArg `json:"id"`
	History bool       `json:"history,omitempty" jsonschema:"include the history, paged"`
	Offset  int        `json:"offset,omitempty"`
	Limit   int        `json:"limit,omitempty"`
}

type loopListArgs struct {
	Status tool.StringList `json:"status,omitempty" jsonschema:"default: those not finished"`
	Offset int             `json:"offset,omitempty"`
	Limit  int             `json:"limit,omitempty"`
}

type LoopRecordArgs struct {
	ID                tool.IDArg      `json:"id"`
	LastAction        string          `json:"last_action" jsonschema:"what this iteration did"`
	NextSteps         tool.StringList `json:"next_steps,omitempty"`
	Percentage        *float64        `json:"percentage,omitempty"`
	Message           string          `json:"message,omitempty" jsonschema:"progress message"`
	ArtifactsCreated  int             `json:"artifacts_created,omitempty"`
	ArtifactsModified int             `json:"artifacts_modified,omitempty"`
}

type loopCheckpointsArgs struct {
	ID     tool.IDArg `json:"id"`
	Offset int        `json:"offset,omitempty"`
	Limit  int        `json:"limit,omitempty"`
}

type loopCheckpointArgs struct {
	ID   tool.IDArg `json:"id"`
	Note string     `json:"note,omitempty"`
}

type loopResumeArgs struct {
	ID             tool.IDArg `json:"id"`
	FromCheckpoint int64      `json:"from_checkpoint,omitempty" jsonschema:"checkpoint id to restore"`
	MaxIterations  int        `json:"max_iterations,omitempty" jsonschema:"a new budget"`
}

type loopCompleteArgs struct {
	ID       tool.IDArg `json:"id"`
	Evidence string     `json:"evidence" jsonschema:"how the completion criteria were met"`
	Force    bool       `json:"force,omitempty" jsonschema:"complete although a task the loop depends on is open"`
}

type loopFailArgs struct {
	ID          tool.IDArg `json:"id"`
	Message     string     `json:"message"`
	Code        string     `json:"code,omitempty"`
	Recoverable bool       `json:"recoverable,omitempty" jsonschema:"can be resumed (default false)"`
}

func Tools() []tool.Tool {
	const ts = "loops"
	page := tool.PageShape(page.Plan)
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "loop_start",
			Description: "Start an iterative loop toward an objective, with completion criteria and an iteration budget."},
			loopStart, tool.Minimum("max_iterations", 1), tool.Enum("execution_mode", "strict", "seeded", "logged", "default"),
			tool.Enum("priority", tool.PriorityEnum...)),
		tool.Declare(ts, mcp.Tool{Name: "loop_status", Annotations: tool.ReadOnly,
			Description: "A loop's state and legal next steps; history only on request, paged."},
			loopStatus, page...),
		tool.Declare(ts, mcp.Tool{Name: "loop_list", Annotations: tool.ReadOnly,
			Description: "Loops by status (default: not finished), paged."},
			loopList, page...),
		tool.Declare(ts, mcp.Tool{Name: "loop_record",
			Description: "Record one iteration: what was done, next steps, progress. Stops the loop at max_iterations."},
			loopRecord, tool.Bounds("percentage", 0, 100), tool.Minimum("artifacts_created", 0), tool.Minimum("artifacts_modified", 0)),
		tool.Declare(ts, mcp.Tool{Name: "loop_checkpoint",
			Description: "Save an immutable snapshot of the loop's state; returns its id."},
			loopCheckpoint),
		tool.Declare(ts, mcp.Tool{Name: "loop_checkpoints", Annotations: tool.ReadOnly,
			Description: "A loop's checkpoints, newest first: id, iteration, note, time."},
			loopCheckpoints, page...),
		tool.Declare(ts, mcp.Tool{Name: "loop_pause",
			Description: "Pause a loop until loop_resume."}, loopPause),
		tool.Declare(ts, mcp.Tool{Name: "loop_resume",
			Description: "Resume a paused (or recoverably failed) loop, optionally from a checkpoint or with a new budget."},
			loopResume, tool.Minimum("from_checkpoint", 1), tool.Minimum("max_iterations", 1)),
		tool.Declare(ts, mcp.Tool{Name: "loop_cancel",
			Description: "Cancel a loop for good."}, loopCancel),
		tool.Declare(ts, mcp.Tool{Name: "loop_complete",
			Description: "Complete a loop, with evidence that its criteria are met."}, loopComplete),
		tool.Declare(ts, mcp.Tool{Name: "loop_fail",
			Description: "Stop a loop with an error; a recoverable one can be resumed."}, loopFail),
	}
}

// LoopView is a loop as the loop tools and the resource show it.
type LoopView struct {
	ID                 string         `json:"id"`
	URI                string         `json:"uri"`
	Objective          string         `json:"objective"`
	Description        string         `json:"description,omitempty"`
	CompletionCriteria string         `json:"completion_criteria,omitempty"`
	Status             loop.Status    `json:"status"`
	Iteration          int            `json:"iteration"`
	MaxIterations      int            `json:"max_iterations"`
	Progress           *loop.Progress `json:"progress,omitempty"`
	LastAction         string         `json:"last_action,omitempty"`
	NextSteps          []string       `json:"next_steps,omitempty"`
	NextStepsFrom      int            `json:"next_steps_from,omitempty"` // the iteration that gave them, when earlier than this one
	Error              *loop.Error    `json:"error,omitempty"`
	Evidence           string         `json:"evidence,omitempty"`
	Metadata           *loop.Metadata `json:"metadata,omitempty"`
	ParentID           string         `json:"parent_id,omitempty"`
	CreatedAt          string         `json:"created_at,omitempty"`
	UpdatedAt          string         `json:"updated_at"`
	LegalNext          []string       `json:"legal_next"`
}

// LoopViewOf is lp as the loop tools show it: full adds its criteria,
// evidence, description and metadata, else its last action is clipped.
func LoopViewOf(lp loops.Loop, full bool) LoopView {
	st := lp.State
	o := LoopView{ID: lp.ID.String(), URI: LoopURI(lp.ID), Objective: st.Objective, Status: st.Status,
		Iteration: st.Iteration, MaxIterations: st.MaxIterations, LastAction: st.LastAction, NextSteps: st.NextSteps,
		Error: st.Error, Evidence: problem.Clip(st.Evidence, 300), UpdatedAt: tool.Timestamp(st.UpdatedAt), LegalNext: []string{}}
	if st.Finished() {
		o.NextSteps = nil // a finished loop has no next step
	} else if st.NextStepsFrom != 0 && st.NextStepsFrom < st.Iteration {
		o.NextStepsFrom = st.NextStepsFrom
	}
	for _, op := range st.Legal() {
		o.LegalNext = append(o.LegalNext, tool.LoopTool(op))
	}
	p := st.Progress
	o.Progress = &p
	if full {
		o.CompletionCriteria, o.Evidence, o.CreatedAt = st.CompletionCriteria, st.Evidence, tool.Timestamp(st.CreatedAt)
		o.Description = st.Description
		m := st.Metadata
		o.Metadata = &m
		if lp.Task.ParentID != 0 {
			o.ParentID = lp.Task.ParentID.String()
		}
	} else {
		o.LastAction = problem.Clip(o.LastAction, 300)
	}
	return o
}

// loopLine is a loop in one line of text.
func loopLine(o LoopView) string {
	return fmt.Sprintf("loop %s %s %d/%d (%g%%): %s", o.ID, o.Status, o.Iteration, o.MaxIterations, o.Progress.Percentage, o.Objective)
}

func loopText(o LoopView) string {
	var b strings.Builder
	b.WriteString(loopLine(o))
	if o.Description != "" {
		b.WriteString("\n" + problem.Clip(o.Description, 600))
	}
	if o.CompletionCriteria != "" {
		b.WriteString("\ndone when: " + o.CompletionCriteria)
	}
	if m := o.Metadata; m != nil { // the full view: where it lives and how it runs
		fmt.Fprintf(&b, "\n%s · started %s by %s · mode %s · priority %s", o.URI, o.CreatedAt, m.CreatedBy, m.ExecutionMode, m.Priority)
		if o.ParentID != "" {
			b.WriteString(" · under task " + o.ParentID)
		}
		if len(m.Tags) > 0 {
			b.WriteString(" · tags " + strings.Join(m.Tags, ", "))
		}
		if len(m.Extra) > 0 {
			if raw, err := json.Marshal(m.Extra); err == nil {
				b.WriteString("\nmetadata: " + problem.Clip(string(raw), 600))
			}
		}
	}
	if o.Progress.Message != "" {
		b.WriteString("\nprogress: " + o.Progress.Message)
	}
	if o.LastAction != "" {
		b.WriteString("\nlast: " + o.LastAction)
	}
	if len(o.NextSteps) > 0 {
		b.WriteString("\nnext")
		if o.NextStepsFrom != 0 {
			fmt.Fprintf(&b, " (given at iteration %d)", o.NextStepsFrom)
		}
		b.WriteString(": " + strings.Join(o.NextSteps, "; "))
	}
	if o.Error != nil {
		fmt.Fprintf(&b, "\nerror: %s", o.Error.Message)
		if o.Error.Code != "" {
			fmt.Fprintf(&b, " (%s)", o.Error.Code)
		}
	}
	if o.Evidence != "" {
		b.WriteString("\nevidence: " + o.Evidence)
	}
	if o.Progress != nil && o.Progress.Checkpoints > 0 {
		b.WriteString("\n" + words.Plural(o.Progress.Checkpoints, "checkpoint", "checkpoints") + " (loop_checkpoints lists them)")
	}
	if len(o.LegalNext) > 0 {
		b.WriteString("\nlegal next: " + strings.Join(o.LegalNext, ", "))
	}
	return b.String()
}

func loopResult(c tool.Call, lp loops.Loop, msg string) (string, any, error) {
	c.LoopChanged()
	o := LoopViewOf(lp, false)
	type withMessage struct {
		LoopView
		Message string `json:"message"`
	}
	return msg + "\n" + loopText(o), withMessage{o, msg}, nil
}

func loopStart(ctx context.Context, c tool.Call, in LoopStartArgs) (string, any, error) {
	lp, err := c.Loops.Start(ctx, loops.Start{Objective: in.Objective, Criteria: in.CompletionCriteria, MaxIterations: in.MaxIterations,
		ExecutionMode: in.ExecutionMode, Priority: in.Priority, Tags: in.Tags, Parent: string(in.Parent), CreatedBy: c.Agent,
		Description: in.Description, Metadata: in.Metadata})
	if err != nil {
		return "", nil, err
	}
	return loopResult(c, lp, fmt.Sprintf("Started loop %s (%s); record each iteration with loop_record.", lp.ID, LoopURI(lp.ID)))
}

type historyEntry struct {
	Seq    int64  `json:"seq"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
	At     string `json:"at"`
}

type statusOut struct {
	LoopView
	History     []historyEntry `json:"history,omitempty"`
	HistorySize int            `json:"history_total,omitempty"`
	NextOffset  int            `json:"next_offset,omitempty"`
}

func loopStatus(ctx context.Context, c tool.Call, in loopStatusArgs) (string, any, error) {
	lp, h, err := c.Loops.Status(ctx, string(in.ID), loops.StatusQuery{History: in.History, Page: page.Page{Offset: in.Offset, Limit: in.Limit}})
	if err != nil {
		return "", nil, err
	}
	out := statusOut{LoopView: LoopViewOf(lp, true)}
	text := loopText(out.LoopView)
	if in.History {
		text += renderHistory(&out, h)
	}
	return text, out, nil
}

// renderHistory adds a page of a loop's history to its status.
func renderHistory(out *statusOut, h loops.History) string {
	out.HistorySize, out.NextOffset = h.Total, h.NextOffset
	var b strings.Builder
	fmt.Fprintf(&b, "\nhistory (%d of %d", len(h.Events), h.Total)
	if h.NextOffset != 0 {
		fmt.Fprintf(&b, "; next offset %d", h.NextOffset)
	}
	b.WriteString("):")
	for i, e := range h.Events {
		// seq is the event's place in the loop's history, from 1: the
		// store's row id numbers the events of every loop (on PostgreSQL,
		// of every project) in one sequence, so it differed by store.
		x := historyEntry{Seq: int64(h.Offset + i + 1), Kind: e.Kind, Detail: e.Detail, At: tool.Timestamp(e.At)}
		out.History = append(out.History, x)
		b.WriteString(strings.TrimRight(fmt.Sprintf("\n%s %s %s", x.At, x.Kind, x.Detail), " "))
	}
	return b.String()
}

type loopListOut struct {
	Loops      []LoopView `json:"loops"`
	Total      int        `json:"total"`
	NextOffset int        `json:"next_offset,omitempty"`
}

func loopList(ctx context.Context, c tool.Call, in loopListArgs) (string, any, error) {
	page, err := c.Loops.List(ctx, loops.LoopQuery{Statuses: in.Status, Page: page.Page{Offset: in.Offset, Limit: in.Limit}})
	if err != nil {
		return "", nil, err
	}
	out := loopListOut{Loops: []LoopView{}, Total: page.Total, NextOffset: page.NextOffset}
	lines := []string{words.Plural(page.Total, "loop", "loops")}
	if page.NextOffset != 0 {
		lines[0] += fmt.Sprintf(" (next offset %d)", page.NextOffset)
	}
	for _, lp := range page.Loops {
		o := LoopViewOf(lp, false)
		o.LastAction, o.NextSteps, o.NextStepsFrom = "", nil, 0 // list rows stay one line
		out.Loops = append(out.Loops, o)
		lines = append(lines, loopLine(o))
	}
	return strings.Join(lines, "\n"), out, nil
}

func loopRecord(ctx context.Context, c tool.Call, in LoopRecordArgs) (string, any, error) {
	r := loops.Record{LastAction: in.LastAction, NextSteps: in.NextSteps, Percentage: in.Percentage, Message: in.Message,
		ArtifactsCreated: in.ArtifactsCreated, ArtifactsModified: in.ArtifactsModified}
	lp, err := c.Loops.Record(ctx, string(in.ID), r)
	if err != nil {
		return "", nil, err
	}
	msg := fmt.Sprintf("Recorded iteration %d of loop %s.", lp.State.Iteration, lp.ID)
	if lp.State.Status == loop.Failed {
		msg += " The loop stopped: " + lp.State.Error.Message
	}
	return loopResult(c, lp, msg)
}

func loopCheckpoint(ctx context.Context, c tool.Call, in loopCheckpointArgs) (string, any, error) {
	lp, id, err := c.Loops.Checkpoint(ctx, string(in.ID), in.Note)
	if err != nil {
		return "", nil, err
	}
	c.LoopChanged()
	msg := fmt.Sprintf("Saved checkpoint %d of loop %s at iteration %d; loop_resume from_checkpoint %d restores it.", id, lp.ID, lp.State.Iteration, id)
	return msg, map[string]any{"checkpoint_id": id, "loop_id": lp.ID.String(), "iteration": lp.State.Iteration, "message": msg}, nil
}

type checkpointOut struct {
	ID        int64   `json:"id"`
	Iteration int     `json:"iteration"`
	Status    string  `json:"status"`
	Progress  float64 `json:"percentage"`
	Note      string  `json:"note,omitempty"`
	CreatedAt string  `json:"created_at"`
}

func loopCheckpoints(ctx context.Context, c tool.Call, in loopCheckpointsArgs) (string, any, error) {
	lp, page, err := c.Loops.Checkpoints(ctx, string(in.ID), page.Page{Offset: in.Offset, Limit: in.Limit})
	if err != nil {
		return "", nil, err
	}
	out := checkpointsOut{LoopID: lp.ID.String(), Checkpoints: []checkpointOut{}, Total: page.Total, Offset: page.Offset, NextOffset: page.NextOffset}
	for _, cp := range page.Checkpoints {
		st := cp.State
		out.Checkpoints = append(out.Checkpoints, checkpointOut{ID: cp.ID, Iteration: st.Iteration, Status: string(st.Status),
			Progress: st.Progress.Percentage, Note: cp.Note, CreatedAt: tool.Timestamp(cp.CreatedAt)})
	}
	return out.text(), out, nil
}

type checkpointsOut struct {
	LoopID      string          `json:"loop_id"`
	Checkpoints []checkpointOut `json:"checkpoints"`
	Total       int             `json:"total"`
	Offset      int             `json:"offset,omitempty"`
	NextOffset  int             `json:"next_offset,omitempty"`
}

// text lists a page of a loop's checkpoints, a line each.
func (o checkpointsOut) text() string {
	head := words.Plural(o.Total, "checkpoint", "checkpoints") + " of loop " + o.LoopID
	if len(o.Checkpoints) < o.Total {
		head = fmt.Sprintf("%d of %s, newest first", len(o.Checkpoints), head)
	}
	lines := []string{head}
	for _, c := range o.Checkpoints {
		lines = append(lines, fmt.Sprintf("%d: iteration %d, %s, %g%% %s", c.ID, c.Iteration, c.Status, c.Progress, c.Note))
	}
	if o.NextOffset != 0 {
		lines = append(lines, fmt.Sprintf("(next offset %d)", o.NextOffset))
	}
	return strings.Join(lines, "\n")
}

func loopPause(ctx context.Context, c tool.Call, in loopIDArgs) (string, any, error) {
	lp, err := c.Loops.Pause(ctx, string(in.ID))
	if err != nil {
		return "", nil, err
	}
	return loopResult(c, lp, fmt.Sprintf("Paused loop %s.", lp.ID))
}

func loopResume(ctx context.Context, c tool.Call, in loopResumeArgs) (string, any, error) {
	lp, err := c.Loops.Resume(ctx, string(in.ID), in.FromCheckpoint, in.MaxIterations)
	if err != nil {
		return "", nil, err
	}
	msg := fmt.Sprintf("Resumed loop %s at iteration %d.", lp.ID, lp.State.Iteration)
	if in.FromCheckpoint != 0 {
		msg = fmt.Sprintf("Resumed loop %s from checkpoint %d, at iteration %d.", lp.ID, in.FromCheckpoint, lp.State.Iteration)
	}
	return loopResult(c, lp, msg)
}

func loopCancel(ctx context.Context, c tool.Call, in loopIDArgs) (string, any, error) {
	lp, err := c.Loops.Cancel(ctx, string(in.ID))
	if err != nil {
		return "", nil, err
	}
	return loopResult(c, lp, fmt.Sprintf("Cancelled loop %s.", lp.ID))
}

func loopComplete(ctx context.Context, c tool.Call, in loopCompleteArgs) (string, any, error) {
	lp, err := c.Loops.Complete(ctx, string(in.ID), in.Evidence, in.Force)
	if err != nil {
		return "", nil, err
	}
	return loopResult(c, lp, fmt.Sprintf("Completed loop %s after %s.", lp.ID, words.Plural(lp.State.Iteration, "iteration", "iterations")))
}

func loopFail(ctx context.Context, c tool.Call, in loopFailArgs) (string, any, error) {
	lp, err := c.Loops.Fail(ctx, string(in.ID), loop.Error{Message: in.Message, Code: in.Code, Recoverable: in.Recoverable})
	if err != nil {
		return "", nil, err
	}
	return loopResult(c, lp, fmt.Sprintf("Failed loop %s.", lp.ID))
}
