package insight

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Query selects what an analysis reads.
type Query struct {
	Days     int      // the window, back from now; default 30
	By       string   // performance: model (default), client or agent
	TaskType string   // only sessions of this task type; empty: all
	Models   []string // compare: these (two or more); empty: every model with sessions
	Task     string   // recommend: the task, in words (its type is read from them)
	// Class keeps only sessions whose work classify_task matched to this
	// skill or agent ("unknown": sessions never classified); empty: all.
	Class string
}

// Groupings of model_performance.
var Groupings = []string{"model", "client", "agent"}

// maxDays bounds an analysis's window.
const maxDays = 3650

func (q *Query) clean() error {
	if q.Days == 0 {
		q.Days = 30
	}
	if q.Days < 1 || q.Days > maxDays {
		return &problem.FieldError{Field: "days", Problem: fmt.Sprintf("is %d", q.Days), Fix: fmt.Sprintf("use 1 to %d", maxDays)}
	}
	if q.By == "" {
		q.By = "model"
	}
	if !slices.Contains(Groupings, q.By) {
		return &problem.FieldError{Field: "by", Problem: "is " + problem.Quote(q.By), Fix: "use " + strings.Join(Groupings, ", ")}
	}
	q.TaskType = strings.ToLower(strings.TrimSpace(q.TaskType))
	if q.TaskType != "" && !slices.Contains(usage.TaskTypes, q.TaskType) {
		return &problem.FieldError{Field: "task_type", Problem: "is " + problem.Quote(q.TaskType), Fix: "use " + strings.Join(usage.TaskTypes, ", ")}
	}
	q.Class = strings.TrimSpace(q.Class)
	if len(q.Class) > 100 || strings.ContainsAny(q.Class, "\n\t") {
		return &problem.FieldError{Field: "class", Problem: "is " + problem.Quote(problem.Clip(q.Class, 40)) + ", not a skill or agent name", Fix: "use a name classify_task answers with (model_performance lists them under by_class), or unknown"}
	}
	return nil
}

// Measures are one group's outcome signals (see Derivations).
type Measures struct {
	Sessions    int
	Tasks       int
	TestPass    usage.Rate
	Failure     usage.Rate
	Rework      usage.Rate
	TimePerTask usage.Median // minutes
	LoopIters   usage.Median
	// Revert is the share of sessions that reverted work (a commit
	// reverted, an edit undone, a completed task reopened); Commits and
	// Edits count the reverts, Evidence shows a few.
	Revert         usage.Rate
	Commits, Edits int
	Evidence       []string
	Feedback       FeedbackCounts
	// BadAnswers is the share of tool answers that were bad (Answers).
	BadAnswers usage.Rate
	Answers    Answers
}

// measure sums fs.
func measure(fs []sessionFacts, z float64) Measures {
	m := Measures{Sessions: len(fs)}
	var tested, passed, failing, reworked, reverted int
	var perTask, iters []float64
	for _, f := range fs {
		m.Tasks += f.Tasks
		m.Commits += f.Commits
		m.Edits += f.Edits
		m.Feedback.add(f.Feedback)
		m.Answers.add(f.Answers)
		if f.Commits+f.Edits+f.Reworked > 0 {
			reverted++
		}
		for _, ev := range f.Evidence {
			if len(m.Evidence) < maxEvidence {
				m.Evidence = append(m.Evidence, f.ID.String()+" "+ev)
			}
		}
		reworked += f.Reworked
		if f.Tested {
			tested++
			if f.Passed {
				passed++
			}
		}
		if f.Failing {
			failing++
		}
		if f.Tasks > 0 && f.Dur > 0 {
			perTask = append(perTask, f.Dur.Minutes()/float64(f.Tasks))
		}
		iters = append(iters, f.LoopIters...)
	}
	m.TestPass, m.Failure = usage.WilsonZ(passed, tested, z), usage.WilsonZ(failing, len(fs), z)
	m.Rework = usage.WilsonZ(min(reworked, m.Tasks), m.Tasks, z)
	m.TimePerTask, m.LoopIters = usage.MedianZ(perTask, z), usage.MedianZ(iters, z)
	m.Revert, m.BadAnswers = usage.WilsonZ(reverted, len(fs), z), m.Answers.Rate(z)
	return m
}

// Group is one model's (client's, agent's) measures, overall and by task
// type.
type Group struct {
	Key string
	// From says where a model's name came from: how many of its sessions
	// named it themselves, how many through their calls.
	FromSession, FromCalls int
	Measures
	ByType map[string]Measures
	// ByClass is the measures by what classify_task matched the sessions'
	// work to (usage.Unknown: not classified).
	ByClass map[string]Measures
}

// Performance is model_performance's answer.
type Performance struct {
	Days     int
	By       string
	TaskType string
	Class    string
	Sessions int
	Groups   []Group // most sessions first
}

func keyOf(f sessionFacts, by string) string {
	switch by {
	case "client":
		return f.Client
	case "agent":
		return f.Agent
	case "class":
		return f.Class
	}
	return f.Model
}

func ofClass(fs []sessionFacts, c string) []sessionFacts {
	if c == "" {
		return fs
	}
	var out []sessionFacts
	for _, f := range fs {
		if f.Class == c {
			out = append(out, f)
		}
	}
	return out
}

func ofType(fs []sessionFacts, t string) []sessionFacts {
	if t == "" {
		return fs
	}
	var out []sessionFacts
	for _, f := range fs {
		if slices.Contains(f.Types, t) {
			out = append(out, f)
		}
	}
	return out
}

func (s *Service) read(ctx context.Context, days int) ([]sessionFacts, error) {
	if err := s.Flush(ctx); err != nil {
		return nil, err
	}
	var fs []sessionFacts
	err := s.st.View(ctx, func(tx store.Tx) (err error) {
		fs, err = s.facts(ctx, tx, s.window(days))
		return err
	})
	return fs, err
}

// Performance measures each model (client, agent) over the window.
func (s *Service) Performance(ctx context.Context, q Query) (Performance, error) {
	if err := q.clean(); err != nil {
		return Performance{}, err
	}
	fs, err := s.read(ctx, q.Days)
	if err != nil {
		return Performance{}, fmt.Errorf("model performance: %w", err)
	}
	fs = ofClass(ofType(fs, q.TaskType), q.Class)
	out := Performance{Days: q.Days, By: q.By, TaskType: q.TaskType, Class: q.Class, Sessions: len(fs)}
	for key, gfs := range groupBy(fs, q.By) {
		g := Group{Key: key, Measures: measure(gfs, usage.ZFor(0.05)), ByType: map[string]Measures{}, ByClass: map[string]Measures{}}
		for c, cfs := range groupBy(gfs, "class") {
			g.ByClass[c] = measure(cfs, usage.ZFor(0.05))
		}
		for _, f := range gfs {
			switch f.ModelFrom {
			case "session":
				g.FromSession++
			case "calls":
				g.FromCalls++
			}
		}
		for _, t := range usage.TaskTypes {
			if tfs := ofType(gfs, t); len(tfs) > 0 {
				g.ByType[t] = measure(tfs, usage.ZFor(0.05))
			}
		}
		out.Groups = append(out.Groups, g)
	}
	slices.SortFunc(out.Groups, func(a, b Group) int { return cmp.Or(cmp.Compare(b.Sessions, a.Sessions), cmp.Compare(a.Key, b.Key)) })
	return out, nil
}

func groupBy(fs []sessionFacts, by string) map[string][]sessionFacts {
	out := map[string][]sessionFacts{}
	for _, f := range fs {
		k := keyOf(f, by)
		out[k] = append(out[k], f)
	}
	return out
}

// Measure names of a comparison.
const (
	MeasureTestPass    = "test_pass"
	MeasureFailure     = "failure"
	MeasureRework      = "rework"
	MeasureTimePerTask = "time_per_task"
)

// compared lists the measures compared, and whether higher is better.
var compared = []struct {
	name   string
	higher bool
}{{MeasureTestPass, true}, {MeasureFailure, false}, {MeasureRework, false}, {MeasureTimePerTask, false}}

// Side is one model's value of a measure in a comparison.
type Side struct {
	Model  string
	N      int // the sample the measure is over
	Value  float64
	Lo, Hi float64
}

// Difference is a difference the sample shows: Better's value beats
// Worse's, by Diff (a rate's difference with its interval; for times,
// the medians' difference, their intervals apart).
type Difference struct {
	Better, Worse string
	Diff          usage.Diff
}

// MeasureComparison is one measure across models.
type MeasureComparison struct {
	Measure string
	Sides   []Side
	// Enough is false when fewer than two models reach the minimum
	// sample: then Differences and Ranking are empty.
	Enough      bool
	Differences []Difference
	// Ranking orders the models best first, only when the sample shows a
	// difference; otherwise empty.
	Ranking []string
}

// Comparison is model_compare's answer.
type Comparison struct {
	Days      int
	TaskType  string
	Class     string
	MinSample int
	// Level is the confidence of each interval: 95% over all the
	// comparisons made (Bonferroni), so a history with no difference
	// seldom shows one.
	Level    float64
	Measures []MeasureComparison
}

// Compare sets models side by side on the compared measures.
func (s *Service) Compare(ctx context.Context, q Query) (Comparison, error) {
	if err := q.clean(); err != nil {
		return Comparison{}, err
	}
	fs, err := s.read(ctx, q.Days)
	if err != nil {
		return Comparison{}, fmt.Errorf("model compare: %w", err)
	}
	return s.compare(ofClass(ofType(fs, q.TaskType), q.Class), q), nil
}

func (s *Service) compare(fs []sessionFacts, q Query) Comparison {
	groups := groupBy(fs, "model")
	models := q.Models
	if len(models) == 0 {
		for m := range groups {
			models = append(models, m)
		}
		slices.Sort(models)
	}
	pairs := max(1, len(models)*(len(models)-1)/2)
	alpha := 0.05 / float64(pairs*len(compared))
	z := usage.ZFor(alpha)
	out := Comparison{Days: q.Days, TaskType: q.TaskType, Class: q.Class, MinSample: s.opts.MinSample, Level: 1 - alpha}
	ms := map[string]Measures{}
	for _, m := range models {
		ms[m] = measure(groups[m], z)
	}
	for _, c := range compared {
		mc := MeasureComparison{Measure: c.name}
		var eligible []Side
		for _, m := range models {
			sd := side(m, ms[m], c.name)
			mc.Sides = append(mc.Sides, sd)
			if sd.N >= s.opts.MinSample {
				eligible = append(eligible, sd)
			}
		}
		mc.Enough = len(eligible) >= 2
		if mc.Enough {
			for i, a := range eligible {
				for _, b := range eligible[i+1:] {
					d, ok := differ(a, b, ms, c.name, c.higher, z)
					if ok {
						mc.Differences = append(mc.Differences, d)
					}
				}
			}
			if len(mc.Differences) > 0 {
				slices.SortStableFunc(eligible, func(a, b Side) int {
					if c.higher {
						return cmp.Compare(b.Value, a.Value)
					}
					return cmp.Compare(a.Value, b.Value)
				})
				for _, sd := range eligible {
					mc.Ranking = append(mc.Ranking, sd.Model)
				}
			}
		}
		out.Measures = append(out.Measures, mc)
	}
	return out
}

func side(model string, m Measures, measure string) Side {
	switch measure {
	case MeasureTestPass:
		return Side{model, m.TestPass.N, m.TestPass.P, m.TestPass.Lo, m.TestPass.Hi}
	case MeasureFailure:
		return Side{model, m.Failure.N, m.Failure.P, m.Failure.Lo, m.Failure.Hi}
	case MeasureRework:
		return Side{model, m.Rework.N, m.Rework.P, m.Rework.Lo, m.Rework.Hi}
	}
	return Side{model, m.TimePerTask.N, m.TimePerTask.Mid, m.TimePerTask.Lo, m.TimePerTask.Hi}
}

// differ says whether a and b differ on the measure, and which is better.
func differ(a, b Side, ms map[string]Measures, measure string, higher bool, z float64) (Difference, bool) {
	var d usage.Diff
	switch measure {
	case MeasureTimePerTask:
		ma, mb := ms[a.Model].TimePerTask, ms[b.Model].TimePerTask
		if !ma.Separated(mb) {
			return Difference{}, false
		}
		d = usage.Diff{D: ma.Mid - mb.Mid, Lo: math.Min(ma.Lo-mb.Hi, ma.Hi-mb.Lo), Hi: math.Max(ma.Lo-mb.Hi, ma.Hi-mb.Lo)}
	default:
		ra, rb := rateOf(ms[a.Model], measure), rateOf(ms[b.Model], measure)
		if d = usage.DiffOf(ra, rb, z); !d.Separated() {
			return Difference{}, false
		}
	}
	if (d.D > 0) == higher {
		return Difference{Better: a.Model, Worse: b.Model, Diff: d}, true
	}
	return Difference{Better: b.Model, Worse: a.Model, Diff: usage.Diff{D: -d.D, Lo: -d.Hi, Hi: -d.Lo}}, true
}

func rateOf(m Measures, measure string) usage.Rate {
	switch measure {
	case MeasureFailure:
		return m.Failure
	case MeasureRework:
		return m.Rework
	}
	return m.TestPass
}

// Recommendation is model_recommend's answer: a model and why, or an
// abstention and why.
type Recommendation struct {
	TaskType string
	Model    string // "" when abstaining
	Why      string
	Basis    MeasureComparison // the test pass rates compared
}

// Recommend names the model with the best evidence for a task type (read
// from q.Task's words when q.TaskType is empty): the one whose test pass
// rate on that type beats every other model's by more than the sample's
// uncertainty, or an abstention that says why.
func (s *Service) Recommend(ctx context.Context, q Query) (Recommendation, error) {
	if q.TaskType == "" && strings.TrimSpace(q.Task) != "" {
		q.TaskType = usage.TaskType(q.Task)
	}
	if q.TaskType == "" {
		return Recommendation{}, &problem.FieldError{Field: "task", Problem: "is missing, and so is task_type", Fix: "give the task in a sentence, or its type: " + strings.Join(usage.TaskTypes, ", ")}
	}
	c, err := s.Compare(ctx, q)
	if err != nil {
		return Recommendation{}, err
	}
	basis := c.Measures[0]
	r := Recommendation{TaskType: q.TaskType, Basis: basis}
	switch {
	case !basis.Enough:
		r.Why = fmt.Sprintf("not enough data: fewer than two models have %d %s sessions that ran tests (%s)", s.opts.MinSample, q.TaskType, sidesText(basis.Sides))
	case len(basis.Ranking) == 0:
		r.Why = fmt.Sprintf("no model's test pass rate on %s work is better than another's by more than the sample's uncertainty (%s)", q.TaskType, sidesText(basis.Sides))
	default:
		best := basis.Ranking[0]
		beats := 0
		for _, d := range basis.Differences {
			if d.Better == best {
				beats++
			}
		}
		eligible := 0
		for _, sd := range basis.Sides {
			if sd.N >= s.opts.MinSample {
				eligible++
			}
		}
		if beats < eligible-1 {
			r.Why = fmt.Sprintf("%s leads on %s work, but not clearly ahead of every other model (%s)", best, q.TaskType, sidesText(basis.Sides))
			break
		}
		r.Model = best
		r.Why = fmt.Sprintf("the best test pass rate on %s work, ahead of every other model by more than the uncertainty (%s)", q.TaskType, sidesText(basis.Sides))
	}
	return r, nil
}

func sidesText(sides []Side) string {
	var parts []string
	for _, sd := range sides {
		parts = append(parts, fmt.Sprintf("%s %.0f%% of %d", sd.Model, 100*sd.Value, sd.N))
	}
	return strings.Join(parts, "; ")
}

// Day is one day of the window: its sessions and their test pass rate.
type Day struct {
	Day      time.Time
	Sessions int
	TestPass usage.Rate
}

// Daily is the window day by day, oldest first.
func (s *Service) Daily(ctx context.Context, days int) ([]Day, error) {
	q := Query{Days: days}
	if err := q.clean(); err != nil {
		return nil, err
	}
	fs, err := s.read(ctx, q.Days)
	if err != nil {
		return nil, fmt.Errorf("daily: %w", err)
	}
	first := usage.DayOf(s.window(q.Days).since)
	out := make([]Day, q.Days+1)
	tested, passed := make([]int, len(out)), make([]int, len(out))
	for i := range out {
		out[i].Day = first.AddDate(0, 0, i)
	}
	for _, f := range fs {
		i := int(usage.DayOf(f.Start).Sub(first) / (24 * time.Hour))
		if i < 0 || i >= len(out) {
			continue
		}
		out[i].Sessions++
		if f.Tested {
			tested[i]++
			if f.Passed {
				passed[i]++
			}
		}
	}
	for i := range out {
		out[i].TestPass = usage.Wilson(passed[i], tested[i])
	}
	return out, nil
}
