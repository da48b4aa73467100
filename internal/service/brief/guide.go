package brief

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// Suggestion kinds: what to do next, as the surfaces name it in their own
// words (a tool call over MCP).
const (
	SuggestComplete    = "complete_current" // complete the current task
	SuggestSwitch      = "switch_focus"     // move focus to TaskID
	SuggestNext        = "next_task"        // ask for the next task
	SuggestCreate      = "create_task"      // start with a first task
	SuggestLoopRecord  = "loop_record"      // record an iteration of LoopID
	SuggestLoopResume  = "loop_resume"      // resume LoopID
	SuggestStartSess   = "start_session"    // open a session with Goal
	SuggestAddMistake  = "add_mistake"      // record Title as a mistake
	SuggestNoteCurrent = "note_current"     // note progress on the current task
)

// SuggestKinds lists every suggestion kind, so that a surface can be held
// to wording each of them.
var SuggestKinds = []string{SuggestComplete, SuggestSwitch, SuggestNext, SuggestCreate, SuggestLoopRecord,
	SuggestLoopResume, SuggestStartSess, SuggestAddMistake, SuggestNoteCurrent}

// Suggestion is one next step with what its call needs.
type Suggestion struct {
	Kind   string
	Why    string
	TaskID string
	LoopID string
	Goal   string
	Title  string
}

// staleLoop is how long a running loop goes without an iteration before
// recording one is suggested.
const staleLoop = 15 * time.Minute

// SuggestNext returns the next steps for agent, most pressing first.
func (b *Service) SuggestNext(ctx context.Context, agent string) ([]Suggestion, error) {
	var out []Suggestion
	cur, err := b.focus.Current(ctx, agent)
	if err != nil {
		return nil, err
	}
	if cur.Zen {
		rec, err := b.plan.Next(ctx, plan.NextQuery{Agent: agent})
		if err != nil {
			return nil, err
		}
		if rec.Task != nil {
			out = append(out, Suggestion{Kind: SuggestSwitch, TaskID: rec.Task.ID.String(), Why: "zen: no current task. " + rec.Rationale})
		} else {
			out = append(out, Suggestion{Kind: SuggestCreate, Why: "zen, and nothing is ready to start: name the first step. " + rec.Rationale})
		}
	} else {
		d, err := b.plan.Get(ctx, cur.Task.ID.String())
		if err != nil {
			return nil, err
		}
		open := 0
		var first *task.Task
		for i, s := range d.Subtasks {
			if s.Status.Open() {
				open++
				if first == nil {
					first = &d.Subtasks[i]
				}
			}
		}
		switch {
		case len(d.Subtasks) > 0 && open == 0:
			out = append(out, Suggestion{Kind: SuggestComplete, TaskID: cur.Task.ID.String(),
				Why: fmt.Sprintf("the %s of [%s] %s %s done", words.Count(len(d.Subtasks), "subtask"), cur.Task.ID, cur.Task.Title, map[bool]string{true: "is", false: "are"}[len(d.Subtasks) == 1])})
		case first != nil:
			out = append(out, Suggestion{Kind: SuggestSwitch, TaskID: first.ID.String(),
				Why: fmt.Sprintf("[%s] has %s; the first is [%s] %s", cur.Task.ID, words.Count(open, "open subtask"), first.ID, first.Title)})
		default:
			out = append(out, Suggestion{Kind: SuggestNoteCurrent, TaskID: cur.Task.ID.String(),
				Why: fmt.Sprintf("you are on [%s] %s: note progress in its body as you go, complete it when done", cur.Task.ID, cur.Task.Title)},
				Suggestion{Kind: SuggestComplete, TaskID: cur.Task.ID.String(), Why: "when it is done (focus moves on by itself)"})
		}
	}
	loops, err := b.activeLoops(ctx)
	if err != nil {
		return nil, err
	}
	now := b.opts.Now()
	for _, l := range loops {
		switch {
		case l.State.Status == loop.Running && now.Sub(l.State.UpdatedAt) > staleLoop:
			out = append(out, Suggestion{Kind: SuggestLoopRecord, LoopID: l.ID.String(),
				Why: fmt.Sprintf("loop [%s] is running, iteration %d/%d, and has recorded nothing for %s", l.ID, l.State.Iteration, l.State.MaxIterations, words.Duration(now.Sub(l.State.UpdatedAt)))})
		case l.State.Status == loop.Paused:
			out = append(out, Suggestion{Kind: SuggestLoopResume, LoopID: l.ID.String(),
				Why: fmt.Sprintf("loop [%s] is paused at iteration %d/%d: %s", l.ID, l.State.Iteration, l.State.MaxIterations, words.OneLine(l.State.Objective, 100))})
		}
	}
	sess, found, err := b.memory.OpenSession(ctx, agent, memory.Client{})
	if err != nil {
		return nil, err
	}
	if !found {
		s := Suggestion{Kind: SuggestStartSess, Why: "no open session: one keeps what you decide and change for the next session"}
		if !cur.Zen {
			s.Goal = cur.Task.Title
		}
		out = append(out, s)
	} else if failed := sess.Record.Unresolved(); len(failed) > 0 {
		out = append(out, Suggestion{Kind: SuggestAddMistake, Title: words.OneLine(failed[0].Subject+": "+failed[0].Detail, 120),
			Why: fmt.Sprintf("%s left unresolved this session: once you know why, record the cause, fix and prevention", words.Count(len(failed), "failure"))})
	}
	return out, nil
}
