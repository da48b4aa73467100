package benchseed

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/usage"
)

// HistoryShape is a generated history of agent sessions for the insight
// analyses: Sessions sessions spread evenly over Models and, within each,
// over task types (half of them frontend), each ending with a test run
// that passes with the model's planted rate for the type; and Lifecycles
// lifecycles whose phases take their planted median times. Draws are
// random (Seed), so the analyses must find the planted values within their
// intervals, not exactly.
type HistoryShape struct {
	Models   []ModelProfile
	Sessions int
	// Days is the span the sessions start in, ending at End.
	Days int
	End  time.Time
	// Lifecycles and Phases: each lifecycle leaves every phase once; the
	// time in phase p is lognormal around Phases[p].Median.
	Lifecycles int
	Phases     []PhaseProfile
	Seed       uint64
}

// ModelProfile is what a model's sessions do.
type ModelProfile struct {
	Name string
	// Pass is the chance a session's tests pass at its end, by task type;
	// a type not named takes DefaultPass.
	Pass        map[string]float64
	DefaultPass float64
	// Unresolved is the chance a session leaves a failed command
	// unresolved.
	Unresolved float64
	// TaskMinutes is the median minutes a task takes (lognormal, σ 0.4,
	// drawn once a session).
	TaskMinutes float64
	// CallErrors is the chance a memory_search call errs.
	CallErrors float64
}

// PassOn is the planted pass rate on a task type.
func (m ModelProfile) PassOn(t string) float64 {
	if p, ok := m.Pass[t]; ok {
		return p
	}
	return m.DefaultPass
}

// PhaseProfile is a lifecycle phase and its median duration.
type PhaseProfile struct {
	Name   string
	Median time.Duration
}

// historyTypes are the task types sessions are drawn from, with their
// weights (frontend half), and a title for each.
var historyTypes = []struct {
	name, title string
	weight      int
}{
	{usage.TypeFrontend, "Fix the layout of the login form component", 2},
	{usage.TypeBackend, "Add the refresh endpoint to the auth API handler", 1},
	{usage.TypeData, "Write the migration for the orders table index", 1},
}

// SeedHistory writes the history h into st in one transaction: sessions
// with their events (tasks, a test run, maybe an unresolved failure),
// tool calls, and lifecycles on tasks of their own.
func SeedHistory(ctx context.Context, st store.Store, h HistoryShape) error {
	rng := rand.New(rand.NewPCG(h.Seed, 28))
	start := h.End.AddDate(0, 0, -h.Days)
	span := h.End.Sub(start) - 6*time.Hour
	var types []int
	for i, t := range historyTypes {
		for range t.weight {
			types = append(types, i)
		}
	}
	err := st.Update(ctx, func(tx store.Tx) error {
		taskN := 0
		for i := range h.Sessions {
			m := h.Models[i%len(h.Models)]
			ty := historyTypes[types[(i/len(h.Models))%len(types)]]
			at := start.Add(time.Duration(rng.Int64N(int64(span))))
			tasks := 1 + rng.IntN(3)
			// The session's pace: every task in it takes the same time.
			dur := time.Duration(float64(tasks) * m.TaskMinutes * math.Exp(0.4*rng.NormFloat64()) * float64(time.Minute))
			s, err := tx.PutSession(ctx, memory.Session{Agent: "agent-" + strconv.Itoa(i%3), Branch: "main", Goal: ty.title,
				AI: memory.Provider{Provider: "test", Model: m.Name, Client: "claude-code"}, StartedAt: at, EndedAt: at.Add(dur), Outcome: "success"})
			if err != nil {
				return err
			}
			t := at
			for k := range tasks {
				t = t.Add(dur / time.Duration(tasks))
				taskN++
				key := "t" + strconv.Itoa(taskN)
				if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventTask, Key: key, Subject: key,
					Detail: fmt.Sprintf("%s (part %d)", ty.title, k+1), At: t}); err != nil {
					return err
				}
			}
			pass := rng.Float64() < m.PassOn(ty.name)
			if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventTest, Key: "go test ./...", Subject: "go test ./...",
				Test: &memory.TestResult{Runner: "go", OK: pass, Counted: true, Passed: 40, Failed: map[bool]int{true: 0, false: 2}[pass]}, At: t}); err != nil {
				return err
			}
			if rng.Float64() < m.Unresolved {
				if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventFailure, Key: "make lint", Subject: "make lint",
					Detail: "exit status 2", At: t}); err != nil {
					return err
				}
			}
			if _, err := tx.WriteUsage(ctx, store.UsageWrite{Events: historyCalls(rng, m, int64(s.ID), at)}); err != nil {
				return err
			}
		}
		return seedLifecycles(ctx, tx, rng, h, start)
	})
	if err != nil {
		return fmt.Errorf("benchseed: history: %w", err)
	}
	return nil
}

// historyCalls are a session's tool calls: the current task, a memory
// search (which errs with the model's rate), a completion.
func historyCalls(rng *rand.Rand, m ModelProfile, session int64, at time.Time) []usage.Event {
	call := func(name, ts string, d time.Duration, ok bool) usage.Event {
		at = at.Add(time.Minute)
		e := usage.Event{At: at, Kind: usage.KindCall, Name: name, Toolset: ts, Agent: "a", Session: session, Client: "claude-code",
			ClientVersion: "2.1.0", Duration: d, Outcome: usage.OK, Bytes: 300}
		if !ok {
			e.Outcome = "invalid_argument"
		}
		return e
	}
	jitter := func(d time.Duration) time.Duration {
		return time.Duration(float64(d) * math.Exp(0.3*rng.NormFloat64()))
	}
	return []usage.Event{
		call("get_current_task", "focus", jitter(2*time.Millisecond), true),
		call("memory_search", "memory", jitter(8*time.Millisecond), rng.Float64() >= m.CallErrors),
		call("complete_current_task", "focus", jitter(4*time.Millisecond), true),
	}
}

// seedLifecycles writes h.Lifecycles finished lifecycles, each on a task
// of its own, having left each phase once.
func seedLifecycles(ctx context.Context, tx store.Tx, rng *rand.Rand, h HistoryShape, start time.Time) error {
	for i := range h.Lifecycles {
		at := start.Add(time.Duration(i) * time.Hour)
		t, err := tx.CreateTask(ctx, task.Task{Title: "Story " + strconv.Itoa(i+1), Status: task.StatusDone, CreatedAt: at, UpdatedAt: at, CompletedAt: at}, store.Placement{})
		if err != nil {
			return err
		}
		var st lifecycle.State
		for p, ph := range h.Phases {
			spent := time.Duration(float64(ph.Median) * math.Exp(0.5*rng.NormFloat64()))
			at = at.Add(spent)
			to := ""
			if p+1 < len(h.Phases) {
				to = h.Phases[p+1].Name
			}
			st.History = append(st.History, lifecycle.Transition{From: ph.Name, To: to, At: at, Spent: spent})
		}
		b, err := json.Marshal(st)
		if err != nil {
			return err
		}
		if _, err := tx.PutLifecycle(ctx, store.Lifecycle{TaskID: t.ID, Definition: "history", Phase: h.Phases[len(h.Phases)-1].Name,
			Status: store.LifecycleDone, StartedAt: start, PhaseSince: at, UpdatedAt: at, State: b}); err != nil {
			return err
		}
	}
	return nil
}
