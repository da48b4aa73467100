package service

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/task"
)

// Setting is one configuration value in force and where it came from.
type Setting struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"` // a flag, an environment variable, "default", "detected" …
}

// Config returns the configuration in force: the surface's settings (its
// flags), then the project's (root, store, branch, embeddings, budgets).
func (b *Brain) Config(surface []Setting) []Setting {
	out := append([]Setting(nil), surface...)
	out = append(out, b.opts.Settings...)
	if br := b.set.Memory.Branch(); br != "" {
		out = append(out, Setting{"branch", br, "detected (.git/HEAD)"})
	}
	emb := Setting{"embeddings", "off: memory search is BM25 only", "default (CAIRN_EMBED_URL unset)"}
	if b.set.Memory.Semantic() {
		emb = Setting{"embeddings", "on: " + b.set.Memory.opts.Model, "env CAIRN_EMBED_URL, CAIRN_EMBED_MODEL"}
	}
	out = append(out, emb,
		Setting{"bootstrap budget", fmt.Sprintf("%d tokens (%d to %d)", DefaultBootstrapBudget, MinBootstrapBudget, MaxBootstrapBudget), "default; bootstrap's budget_tokens, cairn hook --budget"},
		Setting{"hook session-start cap", "9500 bytes", "built in (Claude Code cuts added context above 10,000 characters)"})
	if ins := b.Project().Instructions; len(ins) > 0 {
		out = append(out, Setting{"agent instructions", listClip(ins, 6), "detected"})
	}
	return out
}

// EnvSource says where a value set by flag or environment came from.
func EnvSource(flagChanged bool, flag, env string) string {
	switch {
	case flagChanged:
		return "flag --" + flag
	case env != "" && os.Getenv(env) != "":
		return "env " + env
	}
	return "default"
}

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

// Suggestion is one next step with what its call needs.
type Suggestion struct {
	Kind   string `json:"kind"`
	Why    string `json:"why"`
	TaskID string `json:"task_id,omitempty"`
	LoopID string `json:"loop_id,omitempty"`
	Goal   string `json:"goal,omitempty"`
	Title  string `json:"title,omitempty"`
}

// staleLoop is how long a running loop goes without an iteration before
// recording one is suggested.
const staleLoop = 15 * time.Minute

// SuggestNext returns the next steps for agent, most pressing first.
func (b *Brain) SuggestNext(ctx context.Context, agent string) ([]Suggestion, error) {
	var out []Suggestion
	cur, err := b.set.Focus.Current(ctx, agent)
	if err != nil {
		return nil, err
	}
	if cur.Zen {
		rec, err := b.set.Plan.Next(ctx, NextQuery{Agent: agent})
		if err != nil {
			return nil, err
		}
		if rec.Task != nil {
			out = append(out, Suggestion{Kind: SuggestSwitch, TaskID: rec.Task.ID.String(), Why: "zen: no current task. " + rec.Rationale})
		} else {
			out = append(out, Suggestion{Kind: SuggestCreate, Why: "zen, and nothing is ready to start: name the first step. " + rec.Rationale})
		}
	} else {
		d, err := b.set.Plan.Get(ctx, cur.Task.ID.String())
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
				Why: fmt.Sprintf("the %s of [%s] %s %s done", count(len(d.Subtasks), "subtask"), cur.Task.ID, cur.Task.Title, map[bool]string{true: "is", false: "are"}[len(d.Subtasks) == 1])})
		case first != nil:
			out = append(out, Suggestion{Kind: SuggestSwitch, TaskID: first.ID.String(),
				Why: fmt.Sprintf("[%s] has %s; the first is [%s] %s", cur.Task.ID, count(open, "open subtask"), first.ID, first.Title)})
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
	now := b.now()
	for _, l := range loops {
		switch {
		case l.State.Status == loop.Running && now.Sub(l.State.UpdatedAt) > staleLoop:
			out = append(out, Suggestion{Kind: SuggestLoopRecord, LoopID: l.ID.String(),
				Why: fmt.Sprintf("loop [%s] is running, iteration %d/%d, and has recorded nothing for %s", l.ID, l.State.Iteration, l.State.MaxIterations, now.Sub(l.State.UpdatedAt).Round(time.Minute))})
		case l.State.Status == loop.Paused:
			out = append(out, Suggestion{Kind: SuggestLoopResume, LoopID: l.ID.String(),
				Why: fmt.Sprintf("loop [%s] is paused at iteration %d/%d: %s", l.ID, l.State.Iteration, l.State.MaxIterations, oneLine(l.State.Objective, 100))})
		}
	}
	open, _, err := b.agentSessions(ctx, agent, true)
	if err != nil {
		return nil, err
	}
	if len(open) == 0 {
		s := Suggestion{Kind: SuggestStartSess, Why: "no open session: one keeps what you decide and change for the next session"}
		if !cur.Zen {
			s.Goal = cur.Task.Title
		}
		out = append(out, s)
	} else if failed := open[0].CommandsFailed; len(failed) > 0 {
		out = append(out, Suggestion{Kind: SuggestAddMistake, Title: oneLine(failed[len(failed)-1], 120),
			Why: fmt.Sprintf("%s this session: once you know why, record the cause, fix and prevention", count(len(failed), "failed command"))})
	}
	return out, nil
}
