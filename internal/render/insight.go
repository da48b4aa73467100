package render

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/usage"
	"github.com/cairn-dev/cairn/internal/words"
)

// The insight answers as the tools' structuredContent and `cairn stats
// --json` / `cairn health --json` carry them: snake_case, numbers rounded.

// RateView is a rate with its interval: K of N.
type RateView struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	K    int     `json:"k"`
	N    int     `json:"n"`
}

// MedianView is a median with its interval, over N values.
type MedianView struct {
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	N      int     `json:"n"`
}

func r3(x float64) float64 { return math.Round(x*1000) / 1000 }

func rateView(r usage.Rate) *RateView {
	if r.N == 0 {
		return nil
	}
	return &RateView{r3(r.P), r3(r.Lo), r3(r.Hi), r.K, r.N}
}

func medianView(m usage.Median) *MedianView {
	if m.N == 0 {
		return nil
	}
	return &MedianView{r3(m.Mid), r3(m.Lo), r3(m.Hi), m.N}
}

// MeasuresView is one group's outcome signals.
type MeasuresView struct {
	Sessions    int         `json:"sessions"`
	Tasks       int         `json:"tasks,omitempty"`
	TestPass    *RateView   `json:"test_pass,omitempty"`
	Failure     *RateView   `json:"failure,omitempty"`
	Rework      *RateView   `json:"rework,omitempty"`
	TimePerTask *MedianView `json:"time_per_task_min,omitempty"`
	LoopIters   *MedianView `json:"loop_iterations,omitempty"`
	Revert      *RevertView `json:"revert,omitempty"`
	BadAnswers  *RateView   `json:"bad_answers,omitempty"`
	// Errored and Retried split the bad answers.
	Errored  int           `json:"answers_errored,omitempty"`
	Retried  int           `json:"answers_retried,omitempty"`
	Feedback *FeedbackView `json:"feedback,omitempty"`
}

// RevertView is the sessions that reverted work, and the evidence.
type RevertView struct {
	RateView
	Commits  int      `json:"commits,omitempty"`
	Edits    int      `json:"edits,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
}

// FeedbackView counts the ratings given: of sessions, and of answers.
type FeedbackView struct {
	Good        int `json:"good"`
	Bad         int `json:"bad"`
	AnswersGood int `json:"answers_good,omitempty"`
	AnswersBad  int `json:"answers_bad,omitempty"`
}

func feedbackView(c insight.FeedbackCounts) *FeedbackView {
	if c.Total() == 0 {
		return nil
	}
	v := FeedbackView(c)
	return &v
}

func measuresView(m insight.Measures) MeasuresView {
	v := MeasuresView{Sessions: m.Sessions, Tasks: m.Tasks, TestPass: rateView(m.TestPass), Failure: rateView(m.Failure),
		Rework: rateView(m.Rework), TimePerTask: medianView(m.TimePerTask), LoopIters: medianView(m.LoopIters),
		BadAnswers: rateView(m.BadAnswers), Errored: m.Answers.Errored, Retried: m.Answers.Retried, Feedback: feedbackView(m.Feedback)}
	if r := rateView(m.Revert); r != nil && r.K > 0 {
		v.Revert = &RevertView{RateView: *r, Commits: m.Commits, Edits: m.Edits, Evidence: m.Evidence}
	}
	return v
}

// feedbackText is the ratings in a few words: "feedback 3 good, 1 bad
// (answers 0 good, 2 bad)".
func feedbackText(c insight.FeedbackCounts) string {
	t := fmt.Sprintf("feedback %d good, %d bad", c.Good, c.Bad)
	if c.AnswersGood+c.AnswersBad > 0 {
		t += fmt.Sprintf(" (answers %d good, %d bad)", c.AnswersGood, c.AnswersBad)
	}
	return t
}

// GroupView is one model's (client's, agent's) measures.
type GroupView struct {
	Key string `json:"key"`
	MeasuresView
	ModelFrom map[string]int          `json:"model_from,omitempty"`
	ByType    map[string]MeasuresView `json:"by_type,omitempty"`
	ByClass   map[string]MeasuresView `json:"by_class,omitempty"`
}

// PerformanceView is model_performance's answer.
type PerformanceView struct {
	Days     int               `json:"days"`
	By       string            `json:"by"`
	TaskType string            `json:"task_type,omitempty"`
	Class    string            `json:"class,omitempty"`
	Sessions int               `json:"sessions"`
	Groups   []GroupView       `json:"groups"`
	More     int               `json:"more_groups,omitempty"`
	Derived  map[string]string `json:"derived"`
}

// maxGroups bounds the groups an answer lists.
const maxGroups = 8

// Performance renders model_performance's answer.
func Performance(p insight.Performance) (string, PerformanceView) {
	v := PerformanceView{Days: p.Days, By: p.By, TaskType: p.TaskType, Class: p.Class, Sessions: p.Sessions, Groups: []GroupView{}, Derived: insight.Derivations}
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %d days, by %s", words.Count(p.Sessions, "session"), p.Days, p.By)
	if p.TaskType != "" {
		fmt.Fprintf(&b, ", %s tasks", p.TaskType)
	}
	if p.Class != "" {
		fmt.Fprintf(&b, ", classified %s", p.Class)
	}
	b.WriteString(" (95% intervals; derivations in structured content):\n")
	for i, g := range p.Groups {
		if i == maxGroups {
			v.More = len(p.Groups) - i
			fmt.Fprintf(&b, "(%d more)\n", v.More)
			break
		}
		gv := GroupView{Key: g.Key, MeasuresView: measuresView(g.Measures), ByType: map[string]MeasuresView{}}
		if p.By == "model" && (g.FromSession > 0 || g.FromCalls > 0) {
			gv.ModelFrom = map[string]int{"session": g.FromSession, "calls": g.FromCalls}
		}
		var types []string
		for _, t := range usage.TaskTypes {
			if m, ok := g.ByType[t]; ok {
				gv.ByType[t] = MeasuresView{Sessions: m.Sessions, TestPass: rateView(m.TestPass)}
				if m.TestPass.N > 0 {
					types = append(types, fmt.Sprintf("%s %s", t, pct(m.TestPass)))
				}
			}
		}
		var classes []string
		if _, none := g.ByClass[usage.Unknown]; len(g.ByClass) > 1 || len(g.ByClass) == 1 && !none {
			gv.ByClass = map[string]MeasuresView{}
			for _, c := range slices.Sorted(maps.Keys(g.ByClass)) {
				m := g.ByClass[c]
				gv.ByClass[c] = MeasuresView{Sessions: m.Sessions, TestPass: rateView(m.TestPass)}
				classes = append(classes, fmt.Sprintf("%s: %s, tests pass %s", c, words.Count(m.Sessions, "session"), pct(m.TestPass)))
			}
		}
		v.Groups = append(v.Groups, gv)
		fmt.Fprintf(&b, "- %s: %s, %s; tests pass %s; unresolved failures %s; rework %s; %s min/task",
			g.Key, words.Count(g.Sessions, "session"), words.Count(g.Tasks, "task"), pct(g.TestPass), pct(g.Failure), pct(g.Rework), med(g.TimePerTask))
		if g.LoopIters.N > 0 {
			fmt.Fprintf(&b, "; loops done in %s iterations", med(g.LoopIters))
		}
		if g.Revert.K > 0 {
			fmt.Fprintf(&b, "; reverted work in %s (%d commits, %d edits undone)", pct(g.Revert), g.Commits, g.Edits)
		}
		if g.Answers.Calls > 0 {
			fmt.Fprintf(&b, "; bad answers %s", pct(g.BadAnswers))
		}
		if g.Feedback.Total() > 0 {
			b.WriteString("; " + feedbackText(g.Feedback))
		}
		b.WriteString("\n")
		if len(classes) > 0 {
			fmt.Fprintf(&b, "  by classify_task match: %s\n", strings.Join(classes, "; "))
		}
		if len(types) > 0 && p.TaskType == "" {
			fmt.Fprintf(&b, "  tests by type: %s\n", strings.Join(types, ", "))
		}
	}
	if len(p.Groups) == 0 {
		b.WriteString("No sessions in the window: sessions come from the hooks (cairn init --hooks) or the session tool.\n")
	}
	return strings.TrimSpace(b.String()), v
}

// pct is a rate as "82% [75–88] of 100", or "n/a".
func pct(r usage.Rate) string {
	if r.N == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%% [%.0f–%.0f] of %d", 100*r.P, 100*r.Lo, 100*r.Hi, r.N)
}

// med is a median as "12.5 [10.1–15.0]", or "n/a".
func med(m usage.Median) string {
	if m.N == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3g [%.3g–%.3g]", m.Mid, m.Lo, m.Hi)
}

// medHours words a median of hours as durations: "4m [3m–6m]", not
// "0.0667 [0.05–0.1]h".
func medHours(m usage.Median) string {
	if m.N == 0 {
		return "n/a"
	}
	h := func(x float64) string { return words.Duration(time.Duration(x * float64(time.Hour))) }
	return fmt.Sprintf("%s [%s–%s]", h(m.Mid), h(m.Lo), h(m.Hi))
}

// SideView is one model's value in a comparison.
type SideView struct {
	Model string  `json:"model"`
	N     int     `json:"n"`
	Value float64 `json:"value"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
}

// DifferenceView is a difference the sample shows.
type DifferenceView struct {
	Better string  `json:"better"`
	Worse  string  `json:"worse"`
	Diff   float64 `json:"diff"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
}

// MeasureComparisonView is one measure across models.
type MeasureComparisonView struct {
	Measure     string           `json:"measure"`
	Sides       []SideView       `json:"sides"`
	Verdict     string           `json:"verdict"`
	Differences []DifferenceView `json:"differences,omitempty"`
	Ranking     []string         `json:"ranking,omitempty"`
}

// CompareView is model_compare's answer.
type CompareView struct {
	Days      int                     `json:"days"`
	TaskType  string                  `json:"task_type,omitempty"`
	Class     string                  `json:"class,omitempty"`
	MinSample int                     `json:"min_sample"`
	Level     float64                 `json:"level"`
	Measures  []MeasureComparisonView `json:"measures"`
}

func measureComparison(m insight.MeasureComparison, minSample int) MeasureComparisonView {
	v := MeasureComparisonView{Measure: m.Measure, Sides: []SideView{}, Ranking: m.Ranking}
	for _, s := range m.Sides {
		v.Sides = append(v.Sides, SideView{s.Model, s.N, r3(s.Value), r3(s.Lo), r3(s.Hi)})
	}
	for _, d := range m.Differences {
		v.Differences = append(v.Differences, DifferenceView{d.Better, d.Worse, r3(d.Diff.D), r3(d.Diff.Lo), r3(d.Diff.Hi)})
	}
	switch {
	case !m.Enough:
		var counts []string
		for _, s := range m.Sides {
			counts = append(counts, fmt.Sprintf("%s %d", s.Model, s.N))
		}
		v.Verdict = fmt.Sprintf("not enough data: fewer than two models have %d (%s)", minSample, strings.Join(counts, ", "))
	case len(m.Differences) == 0:
		v.Verdict = "no difference the sample can show"
	default:
		var ds []string
		for _, d := range v.Differences {
			ds = append(ds, fmt.Sprintf("%s over %s by %s [%s, %s]", d.Better, d.Worse, num(m.Measure, d.Diff), num(m.Measure, d.Lo), num(m.Measure, d.Hi)))
		}
		v.Verdict = strings.Join(ds, "; ")
	}
	return v
}

// num is a measure's value as the text shows it: rates in points, times
// in minutes.
func num(measure string, x float64) string {
	if measure == insight.MeasureTimePerTask {
		return fmt.Sprintf("%.3g min", x)
	}
	return fmt.Sprintf("%.0f pts", 100*x)
}

// Compare renders model_compare's answer.
func Compare(c insight.Comparison) (string, CompareView) {
	v := CompareView{Days: c.Days, TaskType: c.TaskType, Class: c.Class, MinSample: c.MinSample, Level: r3(c.Level), Measures: []MeasureComparisonView{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Models over %d days", c.Days)
	if c.TaskType != "" {
		fmt.Fprintf(&b, ", %s tasks", c.TaskType)
	}
	if c.Class != "" {
		fmt.Fprintf(&b, ", classified %s", c.Class)
	}
	fmt.Fprintf(&b, " (intervals at %.1f%%, minimum sample %d):\n", 100*c.Level, c.MinSample)
	for _, m := range c.Measures {
		mv := measureComparison(m, c.MinSample)
		v.Measures = append(v.Measures, mv)
		var sides []string
		for _, s := range mv.Sides {
			if s.N == 0 {
				sides = append(sides, s.Model+" n/a")
				continue
			}
			sides = append(sides, fmt.Sprintf("%s %s [%s–%s] n=%d", s.Model, plain(m.Measure, s.Value), plain(m.Measure, s.Lo), plain(m.Measure, s.Hi), s.N))
		}
		fmt.Fprintf(&b, "- %s: %s\n  %s\n", m.Measure, strings.Join(sides, "; "), mv.Verdict)
	}
	return strings.TrimSpace(b.String()), v
}

func plain(measure string, x float64) string {
	if measure == insight.MeasureTimePerTask {
		return fmt.Sprintf("%.3g", x)
	}
	return fmt.Sprintf("%.0f%%", 100*x)
}

// RecommendView is model_recommend's answer.
type RecommendView struct {
	TaskType string                `json:"task_type"`
	Model    string                `json:"model,omitempty"`
	Abstain  bool                  `json:"abstain,omitempty"`
	Why      string                `json:"why"`
	Basis    MeasureComparisonView `json:"basis"`
}

// Recommend renders model_recommend's answer.
func Recommend(r insight.Recommendation, minSample int) (string, RecommendView) {
	v := RecommendView{TaskType: r.TaskType, Model: r.Model, Abstain: r.Model == "", Why: r.Why, Basis: measureComparison(r.Basis, minSample)}
	if r.Model == "" {
		return fmt.Sprintf("No recommendation for %s tasks: %s.", r.TaskType, r.Why), v
	}
	return fmt.Sprintf("For %s tasks: %s — %s.", r.TaskType, r.Model, r.Why), v
}

// ComponentView is one part of the health score.
type ComponentView struct {
	Name    string      `json:"name"`
	Weight  float64     `json:"weight"`
	Score   *float64    `json:"score"` // null: no data yet
	Value   float64     `json:"value"`
	N       int         `json:"n"`
	Trend   string      `json:"trend"`
	Prev    *float64    `json:"prev,omitempty"`
	Detail  string      `json:"detail"`
	Phases  []PhaseView `json:"phases,omitempty"`
	Counted bool        `json:"counted"`
}

// PhaseView is a lifecycle phase's median duration in hours.
type PhaseView struct {
	Phase string `json:"phase"`
	MedianView
}

// HealthView is project_health's answer.
type HealthView struct {
	Days       int             `json:"days"`
	Score      int             `json:"score"`
	Bottleneck string          `json:"bottleneck,omitempty"`
	Components []ComponentView `json:"components"`
}

// Health renders project_health's answer.
func Health(h insight.Health) (string, HealthView) {
	v := HealthView{Days: h.Days, Score: h.Score, Bottleneck: h.Bottleneck, Components: []ComponentView{}}
	var b strings.Builder
	counted, weighted := 0, 0
	for _, c := range h.Components {
		if c.Weight > 0 {
			weighted++
			if c.HasData {
				counted++
			}
		}
	}
	fmt.Fprintf(&b, "Project health %d/100 over %d days, from the %d of %d weighted components that have data (component score × weight; trend against the %d days before):\n",
		h.Score, h.Days, counted, weighted, h.Days)
	for _, c := range h.Components {
		cv := ComponentView{Name: c.Name, Weight: c.Weight, Value: r3(c.Value), N: c.N, Trend: c.Trend, Detail: c.Detail, Counted: c.HasData && c.Weight > 0}
		score := "—"
		if c.HasData {
			s := r3(c.Score)
			cv.Score, score = &s, fmt.Sprintf("%.0f", 100*c.Score)
		}
		if c.HasPrev {
			p := r3(c.Prev)
			cv.Prev = &p
		}
		var phases []string
		for _, p := range c.Phases {
			cv.Phases = append(cv.Phases, PhaseView{p.Phase, *medianView(p.Median)})
			phases = append(phases, p.Phase+" "+medHours(p.Median))
		}
		v.Components = append(v.Components, cv)
		fmt.Fprintf(&b, "- %s %s ×%g: %s", c.Name, score, c.Weight, c.Detail)
		if c.Trend != "n/a" {
			fmt.Fprintf(&b, " (%s)", c.Trend)
		}
		b.WriteString("\n")
		if len(phases) > 0 {
			fmt.Fprintf(&b, "  median time per phase: %s\n", strings.Join(phases, ", "))
		}
	}
	if h.Bottleneck != "" {
		fmt.Fprintf(&b, "Bottleneck: phase %s takes clearly longer than every other.\n", h.Bottleneck)
	}
	return strings.TrimSpace(b.String()), v
}

// ToolStatView is one tool's calls.
type ToolStatView struct {
	Tool      string    `json:"tool"`
	Toolset   string    `json:"toolset,omitempty"`
	Calls     int       `json:"calls"`
	Errors    *RateView `json:"errors,omitempty"`
	P50ms     float64   `json:"p50_ms"`
	P95ms     float64   `json:"p95_ms"`
	MeanBytes int64     `json:"mean_bytes"`
	Agents    int       `json:"agents"`
	Retried   int       `json:"retried,omitempty"`
	Bad       *RateView `json:"bad_answers,omitempty"`
}

// SequenceView is a common pair of consecutive calls.
type SequenceView struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Count int    `json:"count"`
}

// ToolUsageView is tool_usage's answer.
type ToolUsageView struct {
	Days      int            `json:"days"`
	Calls     int            `json:"calls"`
	Tools     []ToolStatView `json:"tools"`
	Sequences []SequenceView `json:"sequences,omitempty"`
	ByClient  map[string]int `json:"by_client,omitempty"`
	Recorded  int64          `json:"recorded"`
	Dropped   int64          `json:"dropped"`
	RolledUp  bool           `json:"rolled_up,omitempty"`
	Answers   string         `json:"answers_derived,omitempty"`
}

func ms(d time.Duration) float64 { return r3(float64(d) / float64(time.Millisecond)) }

// ToolUsage renders tool_usage's answer.
func ToolUsage(u insight.ToolUsage) (string, ToolUsageView) {
	v := ToolUsageView{Days: u.Days, Calls: u.Calls, Tools: []ToolStatView{}, ByClient: u.ByClient, Recorded: u.Recorded, Dropped: u.Dropped, RolledUp: u.RolledUp}
	if len(u.Tools) > 0 {
		v.Answers = insight.AnswerDerivation
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tool calls in %d days", u.Calls, u.Days)
	if u.Dropped > 0 {
		fmt.Fprintf(&b, " (%d events dropped by this server: the store was busy)", u.Dropped)
	}
	b.WriteString(":\n")
	for _, t := range u.Tools {
		v.Tools = append(v.Tools, ToolStatView{t.Tool, t.Toolset, t.Calls, rateView(t.Errors), ms(t.P50), ms(t.P95), t.Bytes, t.Agents, t.Retried, rateView(t.Bad)})
		fmt.Fprintf(&b, "- %s: %d calls, %.1f%% errors", t.Tool, t.Calls, 100*t.Errors.P)
		if t.Retried > 0 {
			fmt.Fprintf(&b, ", %d retried (bad answers %.1f%%)", t.Retried, 100*t.Bad.P)
		}
		fmt.Fprintf(&b, ", p50 %s p95 %s, %d B\n", dur(t.P50), dur(t.P95), t.Bytes)
	}
	if len(u.Sequences) > 0 {
		var seqs []string
		for _, s := range u.Sequences {
			v.Sequences = append(v.Sequences, SequenceView(s))
			seqs = append(seqs, fmt.Sprintf("%s → %s ×%d", s.From, s.To, s.Count))
		}
		fmt.Fprintf(&b, "Common sequences: %s\n", strings.Join(seqs, "; "))
	}
	if len(u.Tools) > 0 {
		b.WriteString("A bad answer errored, or was retried at once with other arguments (answers_derived).\n")
	}
	if len(u.ByClient) > 0 {
		var cs []string
		for c, n := range u.ByClient {
			cs = append(cs, fmt.Sprintf("%s %d", c, n))
		}
		slices.Sort(cs)
		fmt.Fprintf(&b, "By client: %s\n", strings.Join(cs, ", "))
	}
	return strings.TrimSpace(b.String()), v
}

// dur is a latency, short.
func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}
