package insight

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// sessionFacts is what one session says about the work done in it,
// derived from its record (see Derivations).
type sessionFacts struct {
	ID        memory.SessionID
	Agent     string
	Client    string
	Model     string
	ModelFrom string // "session" (the client or agent said), "calls" (the calls in it named one), "" (unknown)
	Types     []string
	Start     time.Time
	Dur       time.Duration // zero while open
	Tested    bool          // ran tests
	Passed    bool          // the last run of each test command passed
	Tasks     int
	Reworked  int // its completed tasks completed again later (reopened)
	Failing   bool
	LoopIters []float64 // iterations of the loops it completed
	Feedback  FeedbackCounts
	// Commits and Edits count the commits it reverted and the edits it
	// undid (revert events, recorded by the hooks with their evidence).
	Commits, Edits int
	Evidence       []string // what each revert was, newest last, at most a few
	Class          string   // the classify_task match of its work, else unknown
	Answers        Answers  // its tool answers' quality (AnswerDerivation)
}

// maxEvidence bounds the revert evidence a session keeps for an answer.
const maxEvidence = 3

// Derivations say how each outcome signal is derived from the records.
var Derivations = map[string]string{
	"model":         "the session's ai.model (hook payload, session tool), else the model its tool calls named (X-Cairn-Model, CAIRN_MODEL), else unknown",
	"task_type":     "words of the titles of the tasks completed in the session (else its goal): frontend, backend, data, infra, docs, tests, other",
	"test_pass":     "sessions whose last run of every test command passed, of the sessions that ran tests (test runs seen by the hooks)",
	"failure":       "sessions that left a failed command unresolved (no later passing run), of all sessions",
	"rework":        "completed tasks completed again later (reopened, in the same or a later session), of tasks completed",
	"time_per_task": "minutes from a session's start to its end divided by the tasks it completed, ended sessions with a task",
	"loop_iters":    "iterations at which the loops completed in the session were completed",
	"feedback":      "ratings from the feedback tool or cairn feedback, of sessions or of answers (a tool named)",
	"revert":        "sessions with a commit reverted (git revert, a \"Revert…\" commit), an edit undone (an Edit restoring text an earlier Edit of the file replaced) or a task reopened",
	"answers":       AnswerDerivation,
	"class":         "classify_task's best match in the session (its last call), else unknown",
}

// window is a span of time the analyses read.
type window struct{ since, until time.Time }

func (s *Service) window(days int) window {
	now := s.opts.Now()
	return window{since: now.AddDate(0, 0, -days), until: now}
}

func (w window) previous() window {
	d := w.until.Sub(w.since)
	return window{since: w.since.Add(-d), until: w.since}
}

// eventChunk is how many sessions one read of events names.
const eventChunk = 200

// facts reads the sessions started in w with what their records say.
func (s *Service) facts(ctx context.Context, tx store.Tx, w window) ([]sessionFacts, error) {
	all, _, err := tx.Sessions(ctx, store.SessionQuery{})
	if err != nil {
		return nil, err
	}
	var sessions []memory.Session
	for _, x := range all {
		if !x.StartedAt.Before(w.since) && x.StartedAt.Before(w.until) {
			sessions = append(sessions, x)
		}
	}
	slices.SortFunc(sessions, func(a, b memory.Session) int { return cmp.Compare(a.ID, b.ID) })
	callModels, answers, err := sessionModels(ctx, tx, w)
	if err != nil {
		return nil, err
	}
	classes, err := sessionClasses(ctx, tx, w)
	if err != nil {
		return nil, err
	}
	out := make([]sessionFacts, len(sessions))
	index := map[memory.SessionID]int{}
	for i, x := range sessions {
		f := sessionFacts{ID: x.ID, Agent: x.Agent, Client: cmp.Or(x.AI.Client, x.Client.Name), Start: x.StartedAt, Model: usage.Unknown,
			Class: cmp.Or(classes[int64(x.ID)], usage.Unknown), Answers: answers[int64(x.ID)]}
		if !x.EndedAt.IsZero() {
			f.Dur = x.EndedAt.Sub(x.StartedAt)
		}
		switch {
		case x.AI.Model != "":
			f.Model, f.ModelFrom = x.AI.Model, "session"
		case callModels[int64(x.ID)] != "":
			f.Model, f.ModelFrom = callModels[int64(x.ID)], "calls"
		}
		if f.Client == "" {
			f.Client = usage.Unknown
		}
		out[i], index[x.ID] = f, i
	}
	completedBy := map[string][]int{} // task key → the sessions that completed it, oldest first
	for lo := 0; lo < len(sessions); lo += eventChunk {
		ids := make([]memory.SessionID, 0, eventChunk)
		for _, x := range sessions[lo:min(lo+eventChunk, len(sessions))] {
			ids = append(ids, x.ID)
		}
		es, _, err := tx.Events(ctx, store.EventQuery{Sessions: ids, Kinds: []memory.EventKind{memory.EventTest, memory.EventFailure, memory.EventTask, memory.EventLoop, memory.EventFeedback, memory.EventRevert}})
		if err != nil {
			return nil, err
		}
		// Oldest first, so that completions are met in order.
		slices.SortStableFunc(es, func(a, b memory.Event) int { return a.At.Compare(b.At) })
		titles := map[int][]string{}
		allPassed := map[int]bool{}
		for _, e := range es {
			i := index[e.Session]
			f := &out[i]
			switch e.Kind {
			case memory.EventTest:
				if !f.Tested {
					allPassed[i] = true
				}
				f.Tested = true
				if e.Test == nil || !e.Test.OK {
					allPassed[i] = false
				}
			case memory.EventFailure:
				if e.ResolvedAt.IsZero() {
					f.Failing = true
				}
			case memory.EventTask:
				f.Tasks++
				titles[i] = append(titles[i], e.Detail)
				if e.Count > 1 {
					f.Reworked++
				}
				if prev := completedBy[e.Key]; len(prev) > 0 && prev[len(prev)-1] != i {
					out[prev[len(prev)-1]].Reworked++
				}
				completedBy[e.Key] = append(completedBy[e.Key], i)
			case memory.EventLoop:
				if n, ok := loopCompletion(e.Key); ok {
					f.LoopIters = append(f.LoopIters, float64(n))
				}
			case memory.EventFeedback:
				f.Feedback.countFeedback(e)
			case memory.EventRevert:
				if strings.HasPrefix(e.Key, memory.RevertEdit+":") {
					f.Edits += max(e.Count, 1)
				} else {
					f.Commits += max(e.Count, 1)
				}
				if len(f.Evidence) < maxEvidence {
					f.Evidence = append(f.Evidence, e.Subject+": "+e.Detail)
				}
			}
		}
		for _, id := range ids {
			i := index[id]
			out[i].Passed = out[i].Tested && allPassed[i]
			text := strings.Join(titles[i], " ")
			if text == "" {
				text = sessions[i].Goal
			}
			out[i].Types = []string{usage.TaskType(text)}
		}
	}
	return out, nil
}

// loopCompletion reads a loop event's key ("7#12:complete") for the
// iteration a loop completed at.
func loopCompletion(key string) (int, bool) {
	head, kind, ok := strings.Cut(key, ":")
	if !ok || kind != "complete" {
		return 0, false
	}
	_, it, ok := strings.Cut(head, "#")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(it)
	return n, err == nil
}

// sessionModels is, for each session with calls in w that named a model,
// the model named most often; and each session's answers' quality.
func sessionModels(ctx context.Context, tx store.Tx, w window) (map[int64]string, map[int64]Answers, error) {
	es, _, err := tx.Usage(ctx, store.UsageQuery{Since: w.since.Add(-24 * time.Hour), Before: w.until, Kinds: []usage.Kind{usage.KindCall}})
	if err != nil {
		return nil, nil, err
	}
	counts := map[int64]map[string]int{}
	answers := map[int64]Answers{}
	qs := qualities(es)
	for i, e := range es {
		if e.Session != 0 {
			a := answers[e.Session]
			a.count(qs[i])
			answers[e.Session] = a
		}
		if e.Session == 0 || e.Model == "" {
			continue
		}
		if counts[e.Session] == nil {
			counts[e.Session] = map[string]int{}
		}
		counts[e.Session][e.Model]++
	}
	out := map[int64]string{}
	for id, ms := range counts {
		best, n := "", 0
		for m, c := range ms {
			if c > n || c == n && m < best {
				best, n = m, c
			}
		}
		out[id] = best
	}
	return out, answers, nil
}

// sessionClasses is, for each session with a classify_task call in w that
// matched something, what its last such call matched best.
func sessionClasses(ctx context.Context, tx store.Tx, w window) (map[int64]string, error) {
	es, _, err := tx.Usage(ctx, store.UsageQuery{Since: w.since.Add(-24 * time.Hour), Before: w.until, Kinds: []usage.Kind{usage.KindClass}})
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, e := range es { // oldest first: the last one wins
		if e.Session != 0 && e.Subject != "" {
			out[e.Session] = e.Subject
		}
	}
	return out, nil
}
