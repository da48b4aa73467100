// Package brief is the picture of an agent's session, made from the other
// services: the bootstrap a session starts with, the next step, the
// context that fits a budget, and the configuration in force.
package brief

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/tokens"
	"github.com/cairn-dev/cairn/internal/words"
)

// Options configure the brief.
type Options struct {
	// Count measures text in tokens; default tokens.Count (o200k_base).
	Count func(string) int
	// Settings are the project's configuration as it was opened (root,
	// store), for Config.
	Settings []Setting
	// Now is the clock; default time.Now in UTC (a test fixes it).
	Now func() time.Time
	// Budget is a bootstrap's budget when a request names none ([budgets]
	// bootstrap_tokens); zero is DefaultBootstrapBudget.
	Budget int
	// ConfigProblems are the refusals of malformed configuration files:
	// every bootstrap says them, so a broken file is not silently ignored.
	ConfigProblems []string
}

// Service is the picture of a session: what an agent needs to start
// knowing where it is (bootstrap, session_restore), what to do next
// (suggest_next), the context that fits a budget (optimize_context), the
// configuration in force (get_config), and the session-start hook's use
// of them. It reads the other services; it writes nothing of its own.
type Service struct {
	focus     *focus.Focus
	plan      *plan.Plan
	loops     *loops.Loops
	memory    *memories.Memory
	knowledge *knowledge.Service
	opts      Options
}

// New returns the brief over the project's other services.
func New(f *focus.Focus, p *plan.Plan, l *loops.Loops, m *memories.Memory, k *knowledge.Service, opts Options) *Service {
	if opts.Count == nil {
		opts.Count = tokens.Count
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return time.Now().UTC() }
	}
	return &Service{focus: f, plan: p, loops: l, memory: m, knowledge: k, opts: opts}
}

// Bootstrap budgets.
const (
	DefaultBootstrapBudget = 1500
	MinBootstrapBudget     = 300
	MaxBootstrapBudget     = 20000
)

// BootstrapRequest is what bootstrap takes.
type BootstrapRequest struct {
	Agent string
	// Client is the agent's client, when the caller knows it (a hook): its
	// session is the one the bootstrap shows.
	Client       memory.Client
	BudgetTokens int    // zero: DefaultBootstrapBudget
	Query        string // biases memory and instructions toward a topic
	// MaxBytes caps the text whatever the token budget (hooks: what the
	// client takes without truncating); zero means no cap.
	MaxBytes int
	// Hint words how to fetch what a section left out; nil uses
	// NeutralHint.
	Hint func(section string) string
	// Estimate counts tokens with tokens.Estimate, a fast upper bound
	// (a token per three bytes), instead of o200k_base; the answer says so.
	Estimate bool
}

// Section names, in the order a bootstrap shows them.
const (
	SecHere         = "here"
	SecNext         = "next"
	SecSession      = "session"
	SecLoops        = "loops"
	SecBranch       = "branch"
	SecProject      = "project"
	SecInstructions = "instructions"
	SecConventions  = "conventions"
	SecMistakes     = "mistakes"
	SecDecisions    = "decisions"
)

// NeutralHint says where to find a section's omitted lines without naming
// a surface.
func NeutralHint(section string) string {
	switch section {
	case SecInstructions:
		return "read the instruction files"
	case SecConventions, SecMistakes, SecDecisions:
		return "search the memory by type " + strings.TrimSuffix(section, "s")
	case SecLoops:
		return "list the loops"
	case SecProject:
		return "detect the project"
	case SecSession, SecBranch:
		return "get the session or branch"
	}
	return "ask for it"
}

// BootstrapSection is one part of a bootstrap and what it left out.
type BootstrapSection struct {
	Name    string
	Title   string
	Lines   []string
	Omitted int
	More    string // how to get what was omitted
}

// Bootstrap is a session's starting context within a budget.
type Bootstrap struct {
	Text   string
	Tokens int // o200k_base tokens of Text
	// Estimated says Tokens is tokens.Estimate's upper bound instead.
	Estimated bool
	Budget    int
	Sections  []BootstrapSection
	// Current and Next are the task ids of YOU ARE HERE and the next task
	// (empty when none).
	Current string
	Next    string
	Session string
}

// section is a bootstrap section while it is being filled.
type section struct {
	name, title string
	essential   bool     // always shown whole
	first       int      // lines given a place before any section fills up
	lines       []string // by preference
	chosen      int      // lines[:chosen] are shown
}

// Bootstrap builds the context a session starts with: essentials first,
// then a few lines of every section, then the rest by section priority,
// within the budget; what did not fit is counted and named.
func (c *Service) Bootstrap(ctx context.Context, req BootstrapRequest) (Bootstrap, error) {
	if req.BudgetTokens == 0 {
		req.BudgetTokens = cmp.Or(c.opts.Budget, DefaultBootstrapBudget)
	}
	if req.BudgetTokens < MinBootstrapBudget || req.BudgetTokens > MaxBootstrapBudget {
		return Bootstrap{}, &problem.FieldError{Field: "budget_tokens", Problem: fmt.Sprintf("is %d", req.BudgetTokens),
			Fix: fmt.Sprintf("use %d to %d (default %d)", MinBootstrapBudget, MaxBootstrapBudget, DefaultBootstrapBudget)}
	}
	req.Query = strings.TrimSpace(req.Query)
	if len(req.Query) > knowledge.MaxQuery {
		return Bootstrap{}, &problem.FieldError{Field: "query", Problem: fmt.Sprintf("is %d bytes", len(req.Query)),
			Fix: fmt.Sprintf("keep it under %d: a few words naming the topic", knowledge.MaxQuery)}
	}
	if req.Hint == nil {
		req.Hint = NeutralHint
	}
	secs, out, err := c.gather(ctx, req)
	if err != nil {
		return Bootstrap{}, fmt.Errorf("bootstrap: %w", err)
	}
	out.Budget, out.Estimated = req.BudgetTokens, req.Estimate
	c.fit(secs, req, &out)
	return out, nil
}

// gather reads everything a bootstrap may show.
func (c *Service) gather(ctx context.Context, req BootstrapRequest) ([]*section, Bootstrap, error) {
	var out Bootstrap
	info := c.knowledge.Project()
	branch := c.memory.Branch()
	head := "# Cairn: " + info.Name
	if branch != "" {
		head += " · branch " + branch
	}
	head += " · " + c.opts.Now().Format("2006-01-02 15:04 UTC")
	for _, p := range c.opts.ConfigProblems {
		head += "\nConfiguration refused: " + p
	}

	here := &section{name: SecHere, title: "YOU ARE HERE", essential: true}
	cur, err := c.focus.Current(ctx, req.Agent)
	if err != nil {
		return nil, out, err
	}
	if cur.Zen {
		here.lines = []string{"zen: no current task"}
	} else {
		out.Current = cur.Task.ID.String()
		line := fmt.Sprintf("[%s] %s (%s, %s priority)", cur.Task.ID, cur.Task.Title, cur.Task.Status, cur.Task.Priority)
		if len(cur.Breadcrumb) > 0 {
			names := make([]string, len(cur.Breadcrumb))
			for i, a := range cur.Breadcrumb {
				names[i] = fmt.Sprintf("[%s] %s", a.ID, a.Title)
			}
			line += " under " + strings.Join(names, " › ")
		}
		if h := cur.Held; h != nil {
			line += fmt.Sprintf("\n  held by %s until %s: ask them or wait; writing to it needs force", h.Agent, h.ExpiresAt.UTC().Format(time.RFC3339))
		}
		if b := strings.TrimSpace(cur.Task.Body); b != "" {
			line += "\n  notes: " + words.OneLine(b, 200)
		}
		here.lines = []string{line}
	}

	next := &section{name: SecNext, title: "Next task", essential: true}
	rec, err := c.plan.Next(ctx, plan.NextQuery{Agent: req.Agent})
	if err != nil {
		return nil, out, err
	}
	next.lines = []string{rec.Rationale}
	if rec.Task != nil {
		out.Next = rec.Task.ID.String()
	}

	sess, err := c.sessionSection(ctx, req, &out)
	if err != nil {
		return nil, out, err
	}

	loopSec := &section{name: SecLoops, title: "Loops", first: 3}
	ls, err := c.activeLoops(ctx)
	if err != nil {
		return nil, out, err
	}
	slices.SortFunc(ls, func(a, b loops.Loop) int {
		if (a.State.Status == loop.Running) != (b.State.Status == loop.Running) {
			if a.State.Status == loop.Running {
				return -1
			}
			return 1
		}
		return b.State.UpdatedAt.Compare(a.State.UpdatedAt)
	})
	for _, l := range ls {
		line := fmt.Sprintf("[%s] %s %d/%d", l.ID, l.State.Status, l.State.Iteration, l.State.MaxIterations)
		if l.State.Progress.Percentage > 0 {
			line += fmt.Sprintf(" %.0f%%", l.State.Progress.Percentage)
		}
		line += ": " + words.OneLine(l.State.Objective, 140)
		if len(l.State.NextSteps) > 0 {
			line += " · next: " + words.OneLine(l.State.NextSteps[0], 100)
		}
		loopSec.lines = append(loopSec.lines, line)
	}

	br := &section{name: SecBranch, title: "Branch context", first: 1}
	if branch != "" {
		b, err := c.memory.GetBranch(ctx, branch)
		if err == nil && (b.Sessions > 0 || b.Feature != "" || len(b.Decisions) > 0 || b.Notes != "") {
			line := "branch " + b.Branch
			if b.Feature != "" {
				line += ": " + words.OneLine(b.Feature, 120)
			}
			if b.Phase != "" {
				line += " [" + b.Phase + "]"
			}
			// Only counts that say something: "0 decisions" beside a
			// decision written to memory on the branch (listed under
			// Decisions) reads as if the branch had none.
			counts := []string{words.Count(b.Sessions, "session")}
			if n := len(b.Decisions); n > 0 {
				counts = append(counts, words.Count(n, "decision"))
			}
			if n := len(b.FilesModified); n > 0 {
				counts = append(counts, words.Count(n, "file"))
			}
			line += " · " + strings.Join(counts, ", ")
			br.lines = append(br.lines, line)
			if len(b.TasksPending) > 0 {
				br.lines = append(br.lines, "pending: "+words.List(b.TasksPending, 8))
			}
			for i := len(b.Decisions) - 1; i >= 0 && i >= len(b.Decisions)-5; i-- {
				br.lines = append(br.lines, "decided: "+words.OneLine(b.Decisions[i].Decision, 160))
			}
			if b.Notes != "" {
				notes := strings.Split(strings.TrimSpace(b.Notes), "\n")
				br.lines = append(br.lines, "last note: "+words.OneLine(notes[len(notes)-1], 200))
			}
			if len(b.FilesModified) > 0 {
				br.lines = append(br.lines, "files: "+words.List(b.FilesModified, 12))
			}
		}
	}

	proj := &section{name: SecProject, title: "Project", first: 1}
	proj.lines = projectLines(info)

	ins := &section{name: SecInstructions, title: "Agent instructions", first: 4}
	ins.lines = instructionLines(c.knowledge.Instructions(), req.Query)

	conv := &section{name: SecConventions, title: "Conventions", first: 2}
	mis := &section{name: SecMistakes, title: "Mistakes to avoid", first: 2}
	dec := &section{name: SecDecisions, title: "Decisions", first: 2}
	for _, s := range []struct {
		sec *section
		typ memory.Type
	}{{conv, memory.Convention}, {mis, memory.Mistake}, {dec, memory.Decision}} {
		lines, err := c.memoryLines(ctx, s.typ, req.Query)
		if err != nil {
			return nil, out, err
		}
		s.sec.lines = lines
	}
	// The title travels as the first essential section.
	title := &section{name: "title", essential: true, lines: []string{head}}
	return []*section{title, here, next, sess, loopSec, br, proj, ins, conv, mis, dec}, out, nil
}

// memoryLines are index lines of one type: what matches the query first,
// then the newest.
func (c *Service) memoryLines(ctx context.Context, typ memory.Type, query string) ([]string, error) {
	const n = 12
	var hits []memories.Hit
	if query != "" {
		res, err := c.memory.Search(ctx, memories.SearchQuery{Text: query, Types: []string{string(typ)}, Page: page.Page{Limit: n}})
		if err != nil {
			return nil, err
		}
		hits = res.Hits
	}
	recent, err := c.memory.Search(ctx, memories.SearchQuery{Types: []string{string(typ)}, Page: page.Page{Limit: n}})
	if err != nil {
		return nil, err
	}
	for _, h := range recent.Hits {
		if !slices.ContainsFunc(hits, func(x memories.Hit) bool { return x.ID == h.ID }) {
			hits = append(hits, h)
		}
	}
	lines := make([]string, len(hits))
	for i, h := range hits {
		lines[i] = memories.IndexLine(h)
	}
	return lines, nil
}

// sessionSection is the session the agent works in (its client's, else
// its open one) and what it has done, with the failures of its recent
// sessions that no later run fixed.
func (c *Service) sessionSection(ctx context.Context, req BootstrapRequest, out *Bootstrap) (*section, error) {
	sec := &section{name: SecSession, title: "Session", essential: true}
	s, found, err := c.memory.OpenSession(ctx, req.Agent, req.Client)
	if err != nil {
		return nil, err
	}
	if !found {
		sec.lines = []string{"no open session"}
	} else {
		out.Session = s.ID.String()
		sec.lines = []string{sessionSummary(s, c.opts.Now())}
		sec.essential, sec.first = false, 1
		r := s.Record
		for _, d := range r.Decisions() {
			sec.lines = append(sec.lines, "decided: "+words.OneLine(d.Decision, 160))
		}
		for _, e := range r.ResolvedErrors() {
			sec.lines = append(sec.lines, "resolved: "+words.OneLine(e.Error, 120)+" → "+words.OneLine(e.Fix, 120))
		}
		if n := r.Total(memory.EventFile); n > 0 {
			sec.lines = append(sec.lines, "files modified: "+words.List(r.Subjects(memory.EventFile), 12)+more(n, len(r.Of(memory.EventFile))))
		}
		for _, t := range r.Of(memory.EventTest) {
			sec.lines = append(sec.lines, "tests: "+words.OneLine(t.Subject, 100)+" "+t.Detail)
		}
	}
	failed, err := c.memory.Unresolved(ctx, req.Agent, unresolvedShown)
	if err != nil {
		return nil, err
	}
	for _, f := range failed {
		line := fmt.Sprintf("unresolved failure (%s): %s: %s", f.Session, words.OneLine(f.Subject, 80), words.OneLine(f.Detail, 160))
		sec.lines = append(sec.lines, line)
	}
	return sec, nil
}

// unresolvedShown is how many unresolved failures a bootstrap lists.
const unresolvedShown = 5

// more says how many of n a list of shown left out.
func more(n, shown int) string {
	if n <= shown {
		return ""
	}
	return fmt.Sprintf(" (%d of %d)", shown, n)
}

func sessionSummary(s memory.Session, now time.Time) string {
	line := fmt.Sprintf("%s open since %s (%s)", s.ID, s.StartedAt.Format("2006-01-02 15:04"), memories.Took(s.StartedAt, now))
	if s.ThreadID != s.ID {
		line += fmt.Sprintf(", thread %s", s.ThreadID)
	}
	if s.Goal != "" {
		line += ": " + words.OneLine(s.Goal, 160)
	}
	r := s.Record
	var parts []string
	if n := r.Total(memory.EventFile); n > 0 {
		parts = append(parts, words.Count(n, "file")+" modified")
	}
	if n := r.Total(memory.EventDecision); n > 0 {
		parts = append(parts, words.Count(n, "decision"))
	}
	if n := r.Total(memory.EventTask); n > 0 {
		parts = append(parts, words.Count(n, "task")+" completed")
	}
	if n := r.Total(memory.EventMemory); n > 0 {
		parts = append(parts, words.Plural(n, "memory entry", "memory entries")+" written")
	}
	if n := len(r.Unresolved()); n > 0 {
		parts = append(parts, words.Count(n, "failure")+" unresolved")
	}
	if len(parts) > 0 {
		line += " · " + strings.Join(parts, ", ")
	}
	return line
}

// projectLines are the project's stack in a line, then a line per module.
func projectLines(info projectinfo.Info) []string {
	var parts []string
	if len(info.Languages) > 0 {
		parts = append(parts, strings.Join(info.Languages, ", "))
	}
	if len(info.Frameworks) > 0 {
		parts = append(parts, words.List(info.Frameworks, 8))
	}
	if len(info.PackageManagers) > 0 {
		parts = append(parts, "with "+strings.Join(info.PackageManagers, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "no manifest found (go.mod, package.json, Cargo.toml, pyproject.toml …)")
	}
	first := strings.Join(parts, " · ")
	var lines []string
	if len(info.Modules) == 1 {
		first += moduleCommands(info.Modules[0])
	}
	lines = append(lines, first)
	if len(info.Modules) > 1 {
		for _, m := range info.Modules {
			lines = append(lines, fmt.Sprintf("module %s (%s)%s", m.Dir, strings.Join(m.Languages, ", "), moduleCommands(m)))
		}
	}
	if len(info.CI) > 0 {
		lines = append(lines, "CI: "+words.List(info.CI, 4))
	}
	return lines
}

func moduleCommands(m projectinfo.Module) string {
	s := ""
	if len(m.Build) > 0 {
		s += " · build: " + m.Build[0]
	}
	if len(m.Test) > 0 {
		s += " · test: " + m.Test[0]
	}
	return s
}

// instructionLines are the digest's lines, the heaviest first (those that
// name the query's words first of all), each with its file and section.
func instructionLines(d projectinfo.Digest, query string) []string {
	ws := words.Query(query)
	type scored struct {
		l projectinfo.Line
		w int
	}
	var ls []scored
	for _, l := range d.Lines {
		if l.Kind == projectinfo.KindHeading {
			continue // sections travel with their lines
		}
		w := l.Weight
		low := strings.ToLower(l.Text + " " + l.Section)
		for _, q := range ws {
			if strings.Contains(low, q) {
				w += 10
			}
		}
		ls = append(ls, scored{l, w})
	}
	slices.SortStableFunc(ls, func(a, b scored) int { return b.w - a.w })
	out := make([]string, len(ls))
	for i, s := range ls {
		where := s.l.File
		if s.l.Section != "" {
			where += " › " + s.l.Section
		}
		out[i] = where + ": " + s.l.Text
	}
	return out
}

// fit chooses the lines that fit the budget and renders the text.
func (c *Service) fit(secs []*section, req BootstrapRequest, out *Bootstrap) {
	budget := req.BudgetTokens
	cost := func(s string) int { return c.count(req, s) + 1 }
	// A reserve for the section titles and the closing line, measured
	// again below.
	used := 60
	for _, s := range secs {
		if s.essential {
			s.chosen = len(s.lines)
			for _, l := range s.lines {
				used += cost(l)
			}
		}
	}
	bytes := func() int {
		n := 0
		for _, s := range secs {
			for _, l := range s.lines[:s.chosen] {
				n += len(l) + 3
			}
			if s.chosen > 0 {
				n += len(s.title) + 4
			}
		}
		return n + 200
	}
	take := func(s *section, upto int) {
		for s.chosen < min(upto, len(s.lines)) {
			k := cost(s.lines[s.chosen])
			if s.chosen == 0 {
				k += cost(s.title)
			}
			if used+k > budget || (req.MaxBytes > 0 && bytes()+len(s.lines[s.chosen]) > req.MaxBytes) {
				return
			}
			used += k
			s.chosen++
		}
	}
	for _, s := range secs {
		if !s.essential {
			take(s, s.first)
		}
	}
	// Then a line at a time round the sections, so each grows with the
	// budget rather than the first one taking all of it.
	for grew := true; grew; {
		grew = false
		for _, s := range secs {
			if n := s.chosen; !s.essential && n < len(s.lines) {
				take(s, n+1)
				grew = grew || s.chosen > n
			}
		}
	}
	// Measure the real text; drop from the least important end until it
	// fits (the per-line sums are close, not exact).
	for {
		c.render(secs, req, out)
		if out.Tokens <= budget && (req.MaxBytes == 0 || len(out.Text) <= req.MaxBytes) {
			return
		}
		dropped := false
		for i := len(secs) - 1; i >= 0 && !dropped; i-- {
			if s := secs[i]; !s.essential && s.chosen > 0 {
				s.chosen--
				dropped = true
			}
		}
		if !dropped {
			// Only essentials are left: clip them to the byte cap.
			if req.MaxBytes > 0 && len(out.Text) > req.MaxBytes {
				out.Text = problem.Clip(out.Text, req.MaxBytes-4)
				out.Tokens = c.count(req, out.Text)
			}
			return
		}
	}
}

func (c *Service) render(secs []*section, req BootstrapRequest, out *Bootstrap) {
	var b strings.Builder
	out.Sections = out.Sections[:0]
	var left []string
	for _, s := range secs {
		bs := BootstrapSection{Name: s.name, Title: s.title, Lines: s.lines[:s.chosen], Omitted: len(s.lines) - s.chosen}
		if bs.Omitted > 0 {
			bs.More = req.Hint(s.name)
			left = append(left, fmt.Sprintf("%s of %s (%s)", words.Count(bs.Omitted, "line"), s.title, bs.More))
		}
		if s.name != "title" {
			out.Sections = append(out.Sections, bs)
		}
		if s.chosen == 0 {
			continue
		}
		if s.title != "" {
			if s.essential && len(bs.Lines) == 1 {
				b.WriteString(s.title + ": " + bs.Lines[0] + "\n")
				continue
			}
			b.WriteString("\n## " + s.title + "\n")
		}
		for _, l := range bs.Lines {
			if s.title != "" {
				b.WriteString("- ")
			}
			b.WriteString(l + "\n")
		}
	}
	b.WriteString("\n")
	if len(left) > 0 {
		b.WriteString("Left out: " + strings.Join(left, "; ") + ".\n")
	}
	text := b.String()
	unit := "%d of %d tokens (o200k).\n"
	if req.Estimate {
		unit = "at most %d of %d tokens (estimated).\n"
	}
	// The closing line counts itself. It starts a line, so its tokens
	// add to the text's (o200k splits at the newline).
	base := c.count(req, text)
	n := base
	for range 3 { // until the number it states is the number it has
		m := base + c.count(req, fmt.Sprintf(unit, n, req.BudgetTokens))
		if m == n {
			break
		}
		n = m
	}
	out.Text = text + fmt.Sprintf(unit, n, req.BudgetTokens)
	out.Tokens = n
}

func (c *Service) count(req BootstrapRequest, s string) int {
	if req.Estimate {
		return tokens.Estimate(s)
	}
	return c.opts.Count(s)
}
