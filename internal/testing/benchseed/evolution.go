package benchseed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// EvolutionShape is a history with planted patterns for the evolution
// engine, over Sessions sessions (30 in the judge): one mistake (the same
// failure, with what varies between runs varied) in MistakeSessions of
// them, three tools called in a row in SequenceSessions, a check whose
// every violation is fixed by its next run in RuleSessions; and noise:
// random tool calls, one-off failures from a pool, other checks fixed
// half the time, knowledge reads with no effect. ModelSessions more
// sessions (a model comparison needs more than 30 to see 25 points) run
// tests: on frontend work Better passes Lift more often than Worse.
type EvolutionShape struct {
	Sessions, MistakeSessions, SequenceSessions, RuleSessions int
	ModelSessions                                             int
	Better, Worse                                             string
	BasePass, Lift                                            float64
	End                                                       time.Time
	Seed                                                      uint64
}

// DefaultEvolutionShape is the judge's shape.
func DefaultEvolutionShape(seed uint64) EvolutionShape {
	return EvolutionShape{Sessions: 30, MistakeSessions: 12, SequenceSessions: 8, RuleSessions: 10, ModelSessions: 480,
		Better: "model-strong", Worse: "model-plain", BasePass: 0.6, Lift: 0.25, End: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC), Seed: seed}
}

// Planted is what SeedEvolution planted, for the judge to compare.
type Planted struct {
	MistakeFingerprint string
	MistakeSessions    []memory.SessionID
	Sequence           [3]string
	SequenceSessions   []memory.SessionID
	Rule               string
	RuleSessions       []memory.SessionID
	Better, TaskType   string
}

// The planted names.
var (
	plantedSequence = [3]string{"plan_next", "run_tests", "record_outcome"}
	plantedRule     = "sql"
	noiseTools      = []string{"get_current_task", "memory_search", "query_tkb", "task_update", "session", "loop_status", "focus_push",
		"focus_pop", "get_config", "memory_record", "classify_task", "plan_next"}
	noiseChecks = []string{"secrets", "dockerfile", "openapi"}
)

// SeedEvolution writes the history into st.
func SeedEvolution(ctx context.Context, st store.Store, h EvolutionShape) (Planted, error) {
	rng := rand.New(rand.NewPCG(h.Seed, 29))
	p := Planted{Sequence: plantedSequence, Rule: plantedRule, Better: h.Better, TaskType: usage.TypeFrontend}
	p.MistakeFingerprint = memory.Fingerprint(mistakeDetail(rng))
	pick := func(k int) map[int]bool {
		out := map[int]bool{}
		for _, i := range rng.Perm(h.Sessions)[:k] {
			out[i] = true
		}
		return out
	}
	mistake, sequence, rule := pick(h.MistakeSessions), pick(h.SequenceSessions), pick(h.RuleSessions)
	start := h.End.AddDate(0, 0, -20)
	err := st.Update(ctx, func(tx store.Tx) error {
		for i := range h.Sessions + h.ModelSessions {
			at := start.Add(time.Duration(i) * 30 * time.Minute)
			model, ty, title := h.Worse, usage.TypeBackend, historyTypes[1].title
			if i%2 == 0 {
				model = h.Better
			}
			if (i/2)%2 == 0 {
				ty, title = usage.TypeFrontend, historyTypes[0].title
			}
			s, err := tx.PutSession(ctx, memory.Session{Agent: "agent-" + strconv.Itoa(i%3), Branch: "main", Goal: title,
				AI: memory.Provider{Provider: "test", Model: model, Client: "claude-code"}, StartedAt: at, EndedAt: at.Add(25 * time.Minute), Outcome: "success"})
			if err != nil {
				return err
			}
			t := at.Add(20 * time.Minute)
			if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventTask, Key: "t" + strconv.Itoa(i), Subject: "t" + strconv.Itoa(i), Detail: title, At: t}); err != nil {
				return err
			}
			rate := h.BasePass
			if model == h.Better && ty == usage.TypeFrontend {
				rate += h.Lift
			}
			pass := rng.Float64() < rate
			if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventTest, Key: "go test ./...", Subject: "go test ./...",
				Test: &memory.TestResult{Runner: "go", OK: pass, Counted: true, Passed: 40, Failed: map[bool]int{true: 0, false: 1}[pass]}, At: t}); err != nil {
				return err
			}
			if i >= h.Sessions {
				continue
			}
			// The 30 sessions the patterns are planted in.
			var fails []string
			if mistake[i] {
				p.MistakeSessions = append(p.MistakeSessions, s.ID)
				fails = append(fails, mistakeDetail(rng))
			}
			if rng.Float64() < 0.4 {
				fails = append(fails, fmt.Sprintf("noise failure %d: unexpected token in %s", rng.IntN(40), noiseTools[rng.IntN(len(noiseTools))]))
			}
			for k, d := range fails {
				fp := memory.Fingerprint(d)
				if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventFailure, Key: "go test ./...\n" + fp, Subject: "go test ./...",
					Detail: d, At: at.Add(time.Duration(10+k) * time.Minute)}); err != nil {
					return err
				}
			}
			var names []string
			for range 4 + rng.IntN(5) {
				names = append(names, noiseTools[rng.IntN(len(noiseTools))])
			}
			if sequence[i] {
				p.SequenceSessions = append(p.SequenceSessions, s.ID)
				k := rng.IntN(len(names) + 1)
				names = append(names[:k], append(plantedSequence[:], names[k:]...)...)
			}
			var es []usage.Event
			c := at
			ev := func(kind usage.Kind, name, outcome, subject string) {
				c = c.Add(time.Minute)
				es = append(es, usage.Event{At: c, Kind: kind, Name: name, Toolset: "x", Agent: "a", Session: int64(s.ID), Client: "claude-code",
					Model: model, Duration: time.Millisecond, Outcome: outcome, Subject: subject})
			}
			for _, n := range names {
				ev(usage.KindCall, n, usage.OK, "")
			}
			if rule[i] {
				p.RuleSessions = append(p.RuleSessions, s.ID)
				ev(usage.KindCheck, plantedRule, usage.OK, usage.CheckSubject(1, 0, 2, 0))
				ev(usage.KindCheck, plantedRule, usage.OK, usage.CheckSubject(1, 0, 0, 0))
			}
			for _, ch := range noiseChecks {
				if rng.Float64() < 0.25 {
					// Warnings fixed half the time; errors, which are
					// errors already, always.
					ev(usage.KindCheck, ch, usage.OK, usage.CheckSubject(2, 0, 1, 0))
					ev(usage.KindCheck, ch, usage.OK, usage.CheckSubject(2, 0, map[bool]int{true: 0, false: 1}[rng.Float64() < 0.5], 0))
					ev(usage.KindCheck, ch, "failed", usage.CheckSubject(2, 1, 0, 0))
					ev(usage.KindCheck, ch, usage.OK, usage.CheckSubject(2, 0, 0, 0))
				}
			}
			if rng.Float64() < 0.5 {
				ev(usage.KindRead, "get_tkb_entry", usage.OK, "knowledge/noise-"+strconv.Itoa(rng.IntN(2))+".md")
			}
			if _, err := tx.WriteUsage(ctx, store.UsageWrite{Events: es}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return p, fmt.Errorf("benchseed: evolution history: %w", err)
	}
	return p, nil
}

// mistakeDetail is the planted mistake as one run words it: the temp
// path, the address and the line vary, the fingerprint does not.
func mistakeDetail(rng *rand.Rand) string {
	return fmt.Sprintf("open /tmp/go-build%d/cache.lock: resource temporarily unavailable at 0x%x (store_test.go:%d)", rng.IntN(1e6), rng.Uint32()|0x10000000, 10+rng.IntN(300))
}
