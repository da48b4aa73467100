package evolution

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Kinds of candidates (and of drafts).
const (
	KindRule      = "rule"      // a recurring mistake → a convention in knowledge/rules
	KindWorkflow  = "workflow"  // a recurring tool sequence → workflows/
	KindRouting   = "routing"   // a model better at a task type → routing.md
	KindSeverity  = "severity"  // a check whose warnings are always fixed at once → [evolution.severity]
	KindKnowledge = "knowledge" // an entry whose sessions fail less → maturity: proven
	KindSkill     = "skill"     // by hand only: skills/
)

// Kinds lists the kinds of drafts.
var Kinds = []string{KindRule, KindWorkflow, KindRouting, KindSeverity, KindKnowledge, KindSkill}

// Actions a candidate's confidence leads to.
const (
	ActionAuto    = "auto"
	ActionDraft   = "draft"
	ActionPending = "pending"
)

// Evidence is what a candidate rests on.
type Evidence struct {
	// Sessions are the sessions that show the pattern (at most maxShown).
	Sessions []int64 `json:"sessions"`
	// Count is how many sessions show it; Of how many it was measured
	// over (the sessions that could have).
	Count int `json:"count"`
	Of    int `json:"of"`
	// Statistic is the measure in words, with its numbers.
	Statistic string   `json:"statistic"`
	Examples  []string `json:"examples,omitempty"`
}

const maxShown = 20

// Change is what a candidate would do to one file of the project.
type Change struct {
	Path   string
	Before Snapshot
	After  []byte
	Diff   string
}

// Candidate is a pattern found in the history and the change it leads to.
type Candidate struct {
	// Key names the pattern across analyses, so that one drafted,
	// applied or rejected is not proposed again.
	Key        string
	Kind       string
	Title      string
	Evidence   Evidence
	Confidence float64
	// Method says how the confidence was computed.
	Method string
	Action string
	// Why says why the action is what it is.
	Why    string
	Change Change
}

// Sessions is the session count the thresholds compare.
func (c Candidate) Sessions() int { return c.Evidence.Count }

// history is what the detectors read.
type history struct {
	sessions []memory.Session
	failures []memory.Event
	calls    map[int64][]usage.Event // oldest first
	checks   map[int64][]usage.Event
	reads    map[int64]map[string]bool
	bad      map[int64]bool // left a failure unresolved or its tests failing
}

func (s *Service) readHistory(ctx context.Context, days int) (history, error) {
	h := history{calls: map[int64][]usage.Event{}, checks: map[int64][]usage.Event{}, reads: map[int64]map[string]bool{}, bad: map[int64]bool{}}
	if s.insight != nil {
		if err := s.insight.Flush(ctx); err != nil {
			return h, err
		}
	}
	since := s.now().AddDate(0, 0, -days)
	err := s.st.View(ctx, func(tx store.Tx) error {
		all, _, err := tx.Sessions(ctx, store.SessionQuery{})
		if err != nil {
			return err
		}
		for _, x := range all {
			if !x.StartedAt.Before(since) {
				h.sessions = append(h.sessions, x)
			}
		}
		for lo := 0; lo < len(h.sessions); lo += eventChunk {
			ids := make([]memory.SessionID, 0, eventChunk)
			for _, x := range h.sessions[lo:min(lo+eventChunk, len(h.sessions))] {
				ids = append(ids, x.ID)
			}
			es, _, err := tx.Events(ctx, store.EventQuery{Sessions: ids, Kinds: []memory.EventKind{memory.EventFailure, memory.EventTest}})
			if err != nil {
				return err
			}
			for _, e := range es {
				switch {
				case e.Kind == memory.EventFailure:
					h.failures = append(h.failures, e)
					if e.ResolvedAt.IsZero() {
						h.bad[int64(e.Session)] = true
					}
				case e.Test != nil && !e.Test.OK:
					h.bad[int64(e.Session)] = true
				}
			}
		}
		us, _, err := tx.Usage(ctx, store.UsageQuery{Since: since, Kinds: []usage.Kind{usage.KindCall, usage.KindCheck, usage.KindRead}})
		if err != nil {
			return err
		}
		for _, u := range us {
			if u.Session == 0 {
				continue
			}
			switch u.Kind {
			case usage.KindCall:
				h.calls[u.Session] = append(h.calls[u.Session], u)
			case usage.KindCheck:
				h.checks[u.Session] = append(h.checks[u.Session], u)
			case usage.KindRead:
				if h.reads[u.Session] == nil {
					h.reads[u.Session] = map[string]bool{}
				}
				h.reads[u.Session][u.Subject] = true
			}
		}
		return nil
	})
	for _, m := range []map[int64][]usage.Event{h.calls, h.checks} {
		for _, es := range m {
			slices.SortStableFunc(es, func(a, b usage.Event) int { return a.At.Compare(b.At) })
		}
	}
	return h, err
}

// eventChunk is how many sessions one read of events names.
const eventChunk = 200

// succession is Laplace's rule of succession: the chance the next trial
// succeeds after k successes in n.
func succession(k, n int) float64 { return float64(k+1) / float64(n+2) }

const successionMethod = "Laplace's rule of succession, (k+1)/(n+2)"

// minSupport is the fewest sessions a pattern needs to be listed at all.
const minSupport = 3

func ids(set map[int64]bool) []int64 {
	out := make([]int64, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func shown(xs []int64) []int64 { return xs[:min(len(xs), maxShown)] }

// mistakes finds failures with one fingerprint in several sessions.
func (s *Service) mistakes(h history) []Candidate {
	type group struct {
		sessions map[int64]bool
		examples []string
		command  string
		detail   string
	}
	groups := map[string]*group{}
	for _, e := range h.failures {
		cmd, fp, ok := strings.Cut(e.Key, "\n")
		if !ok || fp == "" {
			fp = memory.Fingerprint(e.Detail)
		}
		g := groups[fp]
		if g == nil {
			g = &group{sessions: map[int64]bool{}, command: cmd, detail: e.Detail}
			groups[fp] = g
		}
		if !g.sessions[int64(e.Session)] && len(g.examples) < 3 {
			g.examples = append(g.examples, fmt.Sprintf("session %d: %s: %s", e.Session, e.Subject, e.Detail))
		}
		g.sessions[int64(e.Session)] = true
	}
	var out []Candidate
	for fp, g := range groups {
		k := len(g.sessions)
		if k < minSupport {
			continue
		}
		slug := slugOf(fp)
		rel := "knowledge/rules/" + slug + ".md"
		body := fmt.Sprintf("---\nname: %s\ncategory: convention\nmaturity: draft\nsource: evolution\n---\n# Avoid: %s\n\n"+
			"This mistake recurred in %d sessions (fingerprint %q), while running `%s`.\n\nExamples:\n\n", slug, oneLine(g.detail), k, fp, g.command)
		for _, ex := range g.examples {
			body += "- " + oneLine(ex) + "\n"
		}
		body += "\nBefore running it, check for this cause; when it happens, record it and its fix with memory_add_mistake.\n"
		out = append(out, Candidate{Key: "rule:" + fp, Kind: KindRule, Title: "rule against a recurring mistake: " + oneLine(g.detail),
			Evidence:   Evidence{Sessions: shown(ids(g.sessions)), Count: k, Of: len(h.sessions), Statistic: fmt.Sprintf("the same failure fingerprint in %d of %d sessions", k, len(h.sessions)), Examples: g.examples},
			Confidence: succession(k, k), Method: successionMethod + fmt.Sprintf(" over the %d sessions that hit it: the chance it recurs in the next where it can", k),
			Change: s.newFile(rel, body)})
	}
	return out
}

// sequences finds three tools called one after another in several
// sessions, and how often the first two lead to the third.
func (s *Service) sequences(h history) []Candidate {
	tri, bi := map[[3]string]map[int64]bool{}, map[[2]string]map[int64]bool{}
	add := func(m map[[3]string]map[int64]bool, k [3]string, id int64) {
		if m[k] == nil {
			m[k] = map[int64]bool{}
		}
		m[k][id] = true
	}
	for id, es := range h.calls {
		var names []string
		for _, e := range es {
			if len(names) == 0 || names[len(names)-1] != e.Name {
				names = append(names, e.Name)
			}
		}
		for i := 0; i+1 < len(names); i++ {
			k := [2]string{names[i], names[i+1]}
			if bi[k] == nil {
				bi[k] = map[int64]bool{}
			}
			bi[k][id] = true
			if i+2 < len(names) && names[i+2] != names[i] {
				add(tri, [3]string{names[i], names[i+1], names[i+2]}, id)
			}
		}
	}
	var out []Candidate
	for t, set := range tri {
		k, n := len(set), len(bi[[2]string{t[0], t[1]}])
		if k < minSupport {
			continue
		}
		name := t[0] + "-" + t[1] + "-" + t[2]
		rel := "workflows/" + slugOf(name) + ".md"
		body := fmt.Sprintf("---\nname: %s\ndescription: %s, then %s, then %s, as %d sessions did\ntriggers: [%s]\nsource: evolution\n---\n# %s → %s → %s\n\n"+
			"1. `%s`\n2. `%s`\n3. `%s`\n\nIn %d of the %d sessions that called %s then %s, %s came next.\n",
			slugOf(name), t[0], t[1], t[2], k, t[0], t[0], t[1], t[2], t[0], t[1], t[2], k, n, t[0], t[1], t[2])
		out = append(out, Candidate{Key: "workflow:" + strings.Join(t[:], ">"), Kind: KindWorkflow, Title: "workflow " + t[0] + " → " + t[1] + " → " + t[2],
			Evidence:   Evidence{Sessions: shown(ids(set)), Count: k, Of: n, Statistic: fmt.Sprintf("%s → %s → %s in %d sessions; %d of the %d sessions calling %s → %s went on to %s", t[0], t[1], t[2], k, k, n, t[0], t[1], t[2])},
			Confidence: succession(k, n), Method: successionMethod + fmt.Sprintf(" with k=%d sessions continuing to %s of n=%d calling %s → %s", k, t[2], n, t[0], t[1]),
			Change: s.newFile(rel, body)})
	}
	return out
}

// severities finds checks whose warnings agents fix at once: every run
// that found warnings and no errors was followed, in the same session, by
// a run of that check that found neither. Such warnings are errors in
// practice; a run that found errors is one already, and a run whose
// findings were not recorded says nothing.
func (s *Service) severities(h history) []Candidate {
	type stat struct {
		violations, fixed int
		sessions          map[int64]bool
	}
	stats := map[string]*stat{}
	for id, es := range h.checks {
		for i, e := range es {
			_, errs, warnings, _, ok := usage.ParseCheckSubject(e.Subject)
			if !ok || e.Failed() || errs > 0 || warnings == 0 {
				continue
			}
			st := stats[e.Name]
			if st == nil {
				st = &stat{sessions: map[int64]bool{}}
				stats[e.Name] = st
			}
			st.violations++
			st.sessions[id] = true
			for _, next := range es[i+1:] {
				if next.Name == e.Name {
					if _, errs, warnings, _, ok := usage.ParseCheckSubject(next.Subject); ok && !next.Failed() && errs == 0 && warnings == 0 {
						st.fixed++
					}
					break
				}
			}
		}
	}
	var out []Candidate
	for name, st := range stats {
		if len(st.sessions) < minSupport || float64(st.fixed) < 0.9*float64(st.violations) {
			continue
		}
		out = append(out, Candidate{Key: "severity:" + name, Kind: KindSeverity, Title: "raise the severity of " + name + " to error",
			Evidence: Evidence{Sessions: shown(ids(st.sessions)), Count: len(st.sessions), Of: len(h.sessions),
				Statistic: fmt.Sprintf("%d of %d runs of %s with warnings were followed by a clean run in the session", st.fixed, st.violations, name)},
			Confidence: succession(st.fixed, st.violations), Method: successionMethod + fmt.Sprintf(" with k=%d runs with warnings fixed right after of n=%d", st.fixed, st.violations),
			Change: s.tomlLine(project_config, "evolution.severity", name, "error")})
	}
	return out
}

// project_config is the project's config file, relative to the root.
const project_config = ".cairn/config.toml"

// knowledgeEntries finds knowledge entries whose sessions leave fewer
// failures than the sessions that did not read them.
func (s *Service) knowledgeEntries(h history) []Candidate {
	if s.docs == nil {
		return nil
	}
	docs := s.docs()
	find := func(subject string) (projectinfo.Doc, bool) {
		for _, d := range docs {
			if d.Kind == projectinfo.DocKnowledge && (d.Path == subject || d.Name == subject) {
				return d, true
			}
		}
		return projectinfo.Doc{}, false
	}
	readers := map[string]map[int64]bool{}
	for id, rs := range h.reads {
		for subj := range rs {
			if readers[subj] == nil {
				readers[subj] = map[int64]bool{}
			}
			readers[subj][id] = true
		}
	}
	m := 0
	for _, set := range readers {
		if len(set) >= minSupport {
			m++
		}
	}
	var out []Candidate
	for subj, set := range readers {
		if len(set) < minSupport {
			continue
		}
		d, ok := find(subj)
		if !ok || d.Maturity == "proven" {
			continue
		}
		var badIn, badOut, nOut int
		for _, x := range h.sessions {
			id := int64(x.ID)
			switch {
			case set[id]:
				if h.bad[id] {
					badIn++
				}
			default:
				nOut++
				if h.bad[id] {
					badOut++
				}
			}
		}
		nIn := len(set)
		a, b := usage.Wilson(badIn, nIn), usage.Wilson(badOut, nOut)
		if nOut == 0 || a.P >= b.P {
			continue
		}
		conf := 1 - math.Min(1, float64(m)*oneSidedP(b, a))
		snapshot, err := read(s.root, d.Path)
		if err != nil || !snapshot.Exists {
			continue
		}
		out = append(out, Candidate{Key: "knowledge:" + d.Path, Kind: KindKnowledge, Title: "promote knowledge entry " + d.Path,
			Evidence: Evidence{Sessions: shown(ids(set)), Count: nIn, Of: len(h.sessions),
				Statistic: fmt.Sprintf("sessions that read it failed %.0f%% (%d of %d), the others %.0f%% (%d of %d)", 100*a.P, badIn, nIn, 100*b.P, badOut, nOut)},
			Confidence: conf, Method: fmt.Sprintf("1 − p of a one-sided two-proportion z test, Bonferroni over the %d entries tested", m),
			Change: s.edit(d.Path, snapshot, setMaturity(snapshot.Data, "proven"))})
	}
	return out
}

// oneSidedP is the p-value that a's rate is not above b's (two-proportion
// z test with the pooled rate).
func oneSidedP(a, b usage.Rate) float64 {
	if a.N == 0 || b.N == 0 {
		return 1
	}
	p := float64(a.K+b.K) / float64(a.N+b.N)
	se := math.Sqrt(p * (1 - p) * (1/float64(a.N) + 1/float64(b.N)))
	if se == 0 {
		return 1
	}
	z := (a.P - b.P) / se
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// models reads insight's recommendation for each task type: a model whose
// test pass rate beats every other's by more than the uncertainty.
func (s *Service) models(ctx context.Context, days int) ([]Candidate, error) {
	if s.insight == nil {
		return nil, nil
	}
	var out []Candidate
	m := 0
	type found struct {
		r    insight.Recommendation
		best insight.Side
		rest []insight.Side
	}
	var fs []found
	for _, ty := range usage.TaskTypes {
		r, err := s.insight.Recommend(ctx, insight.Query{Days: days, TaskType: ty})
		if err != nil {
			return nil, err
		}
		if r.Basis.Enough {
			m += len(r.Basis.Sides) - 1
		}
		if r.Model == "" {
			continue
		}
		f := found{r: r}
		for _, sd := range r.Basis.Sides {
			if sd.Model == r.Model {
				f.best = sd
			} else if sd.N >= s.insight.MinSample() {
				f.rest = append(f.rest, sd)
			}
		}
		fs = append(fs, f)
	}
	for _, f := range fs {
		p, worst := 0.0, insight.Side{}
		for _, sd := range f.rest {
			q := oneSidedP(rateOf(f.best), rateOf(sd))
			if q >= p {
				p, worst = q, sd
			}
		}
		n := f.best.N
		var stat []string
		for _, d := range f.r.Basis.Differences {
			if d.Better == f.r.Model {
				stat = append(stat, fmt.Sprintf("%s − %s = %+.0f points [%.0f, %.0f]", d.Better, d.Worse, 100*d.Diff.D, 100*d.Diff.Lo, 100*d.Diff.Hi))
			}
		}
		for _, sd := range f.rest {
			n += sd.N
		}
		line := fmt.Sprintf("- %s work: prefer %s (tests pass %.0f%% of %d sessions; next best %s %.0f%% of %d)", f.r.TaskType, f.r.Model, 100*f.best.Value, f.best.N, worst.Model, 100*worst.Value, worst.N)
		out = append(out, Candidate{Key: "routing:" + f.r.TaskType + ":" + f.r.Model, Kind: KindRouting, Title: "route " + f.r.TaskType + " work to " + f.r.Model,
			Evidence:   Evidence{Count: n, Of: n, Statistic: "test pass rate at session end, " + strings.Join(stat, "; ") + fmt.Sprintf(" (intervals at %.1f%%)", 100*(1-0.05/float64(max(1, m))))},
			Confidence: 1 - math.Min(1, float64(max(1, m))*p), Method: fmt.Sprintf("1 − p of a one-sided two-proportion z test against the closest model, Bonferroni over %d comparisons", max(1, m)),
			Change: s.routingLine(f.r.TaskType, line)})
	}
	return out, nil
}

func rateOf(sd insight.Side) usage.Rate {
	return usage.Wilson(int(math.Round(sd.Value*float64(sd.N))), sd.N)
}

// decide sets a candidate's action from its confidence and sessions.
func (st Settings) decide(c *Candidate) {
	n := c.Sessions()
	switch {
	case c.Confidence > st.AutoConfidence && n >= st.AutoMinSessions:
		c.Action, c.Why = ActionAuto, fmt.Sprintf("confidence %.0f%% > %s with %d sessions ≥ %d", 100*c.Confidence, pct(st.AutoConfidence), n, st.AutoMinSessions)
	case c.Confidence >= st.DraftConfidence && n >= st.DraftMinSessions:
		c.Action, c.Why = ActionDraft, fmt.Sprintf("confidence %.0f%% ≥ %s with %d sessions ≥ %d, below auto", 100*c.Confidence, pct(st.DraftConfidence), n, st.DraftMinSessions)
	default:
		c.Action = ActionPending
		if c.Confidence < st.DraftConfidence {
			c.Why = fmt.Sprintf("confidence %.0f%% < %s", 100*c.Confidence, pct(st.DraftConfidence))
		} else {
			c.Why = fmt.Sprintf("%d sessions < %d", n, st.DraftMinSessions)
		}
	}
}

// candidates runs every detector over the history.
func (s *Service) candidates(ctx context.Context, h history, days int) ([]Candidate, error) {
	var out []Candidate
	out = append(out, s.mistakes(h)...)
	out = append(out, s.sequences(h)...)
	out = append(out, s.severities(h)...)
	out = append(out, s.knowledgeEntries(h)...)
	ms, err := s.models(ctx, days)
	if err != nil {
		return nil, err
	}
	out = append(out, ms...)
	slices.SortFunc(out, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(b.Confidence, a.Confidence), cmp.Compare(b.Evidence.Count, a.Evidence.Count), cmp.Compare(a.Key, b.Key))
	})
	return out, nil
}

// newFile is the change that creates rel with body (or, when rel exists,
// leaves it as it is and says so in the diff).
func (s *Service) newFile(rel, body string) Change {
	before, err := read(s.root, rel)
	if err != nil {
		return Change{Path: rel, Diff: "refused: " + err.Error()}
	}
	if before.Exists {
		return s.edit(rel, before, before.Data)
	}
	return s.edit(rel, before, []byte(body))
}

func (s *Service) edit(rel string, before Snapshot, after []byte) Change {
	return Change{Path: rel, Before: before, After: after, Diff: diff(rel, before.Data, after)}
}

// routingLine adds line under the routing file's "Model recommendations"
// heading (made when missing), replacing an earlier line for the type.
func (s *Service) routingLine(taskType, line string) Change {
	rel := "routing.md"
	if s.routing != nil {
		if p := s.routing(); p != "" {
			rel = p
		}
	}
	before, err := read(s.root, rel)
	if err != nil {
		return Change{Path: rel, Diff: "refused: " + err.Error()}
	}
	const heading = "## Model recommendations"
	ls := lines(before.Data)
	at := slices.Index(ls, heading)
	prefix := "- " + taskType + " work: "
	switch {
	case at < 0:
		if len(ls) > 0 {
			ls = append(ls, "")
		}
		ls = append(ls, heading, "", line)
	default:
		end := at + 1
		for end < len(ls) && !strings.HasPrefix(ls[end], "#") {
			end++
		}
		if i := slices.IndexFunc(ls[at:end], func(l string) bool { return strings.HasPrefix(l, prefix) }); i >= 0 {
			ls[at+i] = line
		} else {
			for end > at+1 && strings.TrimSpace(ls[end-1]) == "" {
				end--
			}
			ls = slices.Insert(ls, end, line)
		}
	}
	return s.edit(rel, before, []byte(strings.Join(ls, "\n")+"\n"))
}

// tomlLine sets key = "value" in a table of the TOML file rel, adding the
// table at the end when it is missing.
func (s *Service) tomlLine(rel, table, key, value string) Change {
	before, err := read(s.root, rel)
	if err != nil {
		return Change{Path: rel, Diff: "refused: " + err.Error()}
	}
	ls := lines(before.Data)
	entry := strconv.Quote(key) + " = " + strconv.Quote(value)
	at := slices.Index(ls, "["+table+"]")
	if at < 0 {
		if len(ls) > 0 {
			ls = append(ls, "")
		}
		ls = append(ls, "["+table+"]", entry)
	} else {
		end := at + 1
		for end < len(ls) && !strings.HasPrefix(strings.TrimSpace(ls[end]), "[") {
			end++
		}
		if i := slices.IndexFunc(ls[at+1:end], func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), strconv.Quote(key)+" ") }); i >= 0 {
			ls[at+1+i] = entry
		} else {
			ls = slices.Insert(ls, at+1, entry)
		}
	}
	return s.edit(rel, before, []byte(strings.Join(ls, "\n")+"\n"))
}

// setMaturity sets the maturity of a Markdown file's front matter.
func setMaturity(b []byte, to string) []byte {
	text := string(b)
	if !strings.HasPrefix(text, "---\n") {
		return []byte("---\nmaturity: " + to + "\n---\n" + text)
	}
	end := strings.Index(text[4:], "\n---")
	if end < 0 {
		return b
	}
	fm := strings.Split(text[4:4+end], "\n")
	if i := slices.IndexFunc(fm, func(l string) bool { return strings.HasPrefix(l, "maturity:") }); i >= 0 {
		fm[i] = "maturity: " + to
	} else {
		fm = append(fm, "maturity: "+to)
	}
	return []byte("---\n" + strings.Join(fm, "\n") + text[4+end:])
}

func slugOf(s string) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			sb.WriteRune(r)
			dash = false
		case !dash && sb.Len() > 0:
			sb.WriteByte('-')
			dash = true
		}
		if sb.Len() >= 48 {
			break
		}
	}
	out := strings.Trim(sb.String(), "-")
	if out == "" {
		out = "entry"
	}
	return out
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}
