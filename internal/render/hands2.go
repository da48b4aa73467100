package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/commitmsg"
	"github.com/cairn-dev/cairn/internal/check/versions"
	"github.com/cairn-dev/cairn/internal/service/gates"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/migrate"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// The answers of verify_version, generate_commit_message, ci_report and
// ci_diff_check, and of `cairn commit-msg` and `cairn ci`.

// versionEvidenceCap is how many evidence lines the text lists.
const versionEvidenceCap = 12

// VersionText is a verify_version report in words: the verdict, each
// place a version was read, the disagreements with their fix.
func VersionText(r *versions.Report) string {
	var b strings.Builder
	switch {
	case len(r.Evidence) == 0:
		fmt.Fprintf(&b, "%s: not found in the project.", r.Name)
	case r.Agree:
		fmt.Fprintf(&b, "%s: manifest, lock and installed copy agree", r.Name)
	default:
		fmt.Fprintf(&b, "%s: the versions disagree", r.Name)
	}
	if len(r.Resolved) > 0 {
		var parts []string
		for _, eco := range slices.Sorted(maps.Keys(r.Resolved)) {
			parts = append(parts, eco+" "+r.Resolved[eco])
		}
		fmt.Fprintf(&b, "; resolved %s.", strings.Join(parts, ", "))
	} else if len(r.Evidence) > 0 {
		b.WriteString("; no exact version resolved.")
	}
	if r.BeliefMatches != nil {
		if *r.BeliefMatches {
			fmt.Fprintf(&b, "\nYour belief %s matches.", r.Believed)
		} else {
			fmt.Fprintf(&b, "\nYour belief %s does NOT match.", r.Believed)
		}
	}
	for i, e := range r.Evidence {
		if i == versionEvidenceCap {
			fmt.Fprintf(&b, "\n%d more in the structured answer.", len(r.Evidence)-i)
			break
		}
		loc := e.File
		if e.Line > 0 {
			loc += fmt.Sprintf(":%d", e.Line)
		}
		what := e.Version
		if e.Constraint != "" {
			what = strings.TrimSpace(e.Constraint + " " + e.Version)
		}
		fmt.Fprintf(&b, "\n%s %s %s: %s", e.Kind, e.Ecosystem, loc, cmpStr(what, "(no version)"))
		if e.Scope != "" {
			b.WriteString(" [" + e.Scope + "]")
		}
		if e.Note != "" {
			b.WriteString(" (" + clip(e.Note, 120) + ")")
		}
	}
	for _, f := range r.Findings {
		b.WriteString("\n" + clip(f.String(), 400))
	}
	for i, n := range r.Notes {
		if i == checkListCap {
			break
		}
		b.WriteString("\nNote: " + clip(n, 200))
	}
	b.WriteString("\nNo registry is asked: the latest version is not known here.")
	return b.String()
}

func cmpStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// CommitView is generate_commit_message's structured answer.
type CommitView struct {
	Source     string            `json:"source,omitempty"`
	Message    string            `json:"message,omitempty"`
	Type       string            `json:"type,omitempty"`
	Scope      string            `json:"scope,omitempty"`
	Breaking   bool              `json:"breaking,omitempty"`
	Reasons    []string          `json:"reasons,omitempty"`
	APIChanges []CommitAPIChange `json:"api_changes,omitempty"`
	Checked    string            `json:"checked,omitempty"`
	Valid      *bool             `json:"valid,omitempty"`
	Findings   []check.Finding   `json:"findings,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
}

// CommitAPIChange is one exported declaration that changed.
type CommitAPIChange struct {
	File   string `json:"file"`
	Change string `json:"change"`
	Decl   string `json:"decl"`
}

// commitAPICap is how many API changes the answer lists.
const commitAPICap = 20

// CommitViewOf is r's structured answer.
func CommitViewOf(r hands.CommitResult) CommitView {
	v := CommitView{Source: r.Source, Notes: r.Notes}
	if r.Suggestion != nil {
		s := r.Suggestion
		v.Message, v.Type, v.Scope, v.Breaking, v.Reasons = s.Message, s.Type, s.Scope, s.Breaking, s.Reasons
		for i, c := range s.APIChanges {
			if i == commitAPICap {
				v.Notes = append(v.Notes, fmt.Sprintf("%d more exported API changes not listed", len(s.APIChanges)-i))
				break
			}
			v.APIChanges = append(v.APIChanges, CommitAPIChange{File: c.File, Change: c.Change, Decl: c.Decl})
		}
		return v
	}
	valid := r.Valid()
	v.Checked, v.Valid, v.Findings = r.Checked, &valid, r.Findings
	if v.Findings == nil {
		v.Findings = []check.Finding{}
	}
	return v
}

// CommitText is r in words: the message to use and how it was inferred,
// or the checked message's verdict and findings.
func CommitText(r hands.CommitResult) string {
	var b strings.Builder
	if s := r.Suggestion; s != nil {
		fmt.Fprintf(&b, "From %s:\n\n%s\n", r.Source, strings.TrimRight(s.Message, "\n"))
		b.WriteString("\nHow: " + clip(strings.Join(s.Reasons, "; "), 600))
		if s.Breaking {
			fmt.Fprintf(&b, "\nBreaking: %s.", words.Plural(countChange(s.APIChanges), "exported declaration removed or changed", "exported declarations removed or changed"))
		}
		for _, n := range r.Notes {
			b.WriteString("\nNote: " + clip(n, 200))
		}
		b.WriteString("\nNext: review the message, then commit with it (git commit -F -); check an edited one with message.")
		return b.String()
	}
	if r.Valid() {
		fmt.Fprintf(&b, "The message follows Conventional Commits (%s).", words.Plural(len(r.Findings), "finding", "findings"))
	} else {
		fmt.Fprintf(&b, "The message breaks Conventional Commits: %s.", words.Plural(len(r.Findings), "finding", "findings"))
	}
	for _, f := range r.Findings {
		b.WriteString("\nmessage" + clip(strings.TrimPrefix(f.String(), "<inline>"), 300))
	}
	if !r.Valid() {
		b.WriteString("\nNext: fix the header as type(scope): subject, then check again.")
	}
	return b.String()
}

func countChange(cs []commitmsg.APIChange) int {
	n := 0
	for _, c := range cs {
		if c.Change != "added" {
			n++
		}
	}
	return n
}

// CIView is the structured answer of ci_report and ci_diff_check, and
// `cairn ci --format json`.
type CIView struct {
	CheckView
	Scope     string        `json:"scope"`
	MergeBase string        `json:"merge_base,omitempty"`
	Changed   []ChangedView `json:"changed,omitempty"`
	// ChangedTotal counts the changed files (Changed lists at most a page).
	ChangedTotal int  `json:"changed_total,omitempty"`
	OffLines     int  `json:"off_lines,omitempty"`
	Drift        bool `json:"drift_checked"`
}

// ciChangedCap is how many changed files the answer lists.
const ciChangedCap = 30

// CIViewOf is r's structured answer.
func CIViewOf(r hands.CIResult) CIView {
	v := CIView{CheckView: CheckViewOf(r.Result), Scope: r.Scope, MergeBase: r.MergeBase, OffLines: r.OffLines, Drift: r.Drift, ChangedTotal: len(r.Changed)}
	v.Changed = ViewsOf(r.Changed[:min(len(r.Changed), ciChangedCap)], changedViewOf)
	return v
}

// ChangedView is one file a change touched, as CIView lists it.
type ChangedView struct {
	Path   string `json:"path"`
	Status string `json:"status"` // added, modified, renamed, deleted, untracked
	// Lines are the added or changed lines, as [first, last] ranges.
	Lines [][2]int `json:"lines,omitempty"`
}

func changedViewOf(c hands.Changed) ChangedView {
	return ChangedView{Path: c.Path, Status: c.Status, Lines: c.Lines}
}

// CIText is r in words: what was checked, the changed files (at most a
// few), then the findings as CheckText says them.
func CIText(r hands.CIResult, s CheckSurface) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scope: %s", r.Scope)
	if r.MergeBase != "" || len(r.Changed) > 0 {
		lines := 0
		for _, c := range r.Changed {
			for _, l := range c.Lines {
				lines += l[1] - l[0] + 1
			}
		}
		fmt.Fprintf(&b, "; %s changed, %s added or changed", words.Plural(len(r.Changed), "file", "files"), words.Plural(lines, "line", "lines"))
	}
	if r.Drift {
		b.WriteString("; dependency versions compared")
	}
	b.WriteString(".")
	for i, c := range r.Changed {
		if i == checkListCap {
			fmt.Fprintf(&b, "\n%d more changed files in the structured answer.", len(r.Changed)-i)
			break
		}
		fmt.Fprintf(&b, "\n%s %s%s", c.Status, c.Path, rangesText(c.Lines))
	}
	if r.OffLines > 0 {
		fmt.Fprintf(&b, "\n%s not on a changed line left out.", words.Plural(r.OffLines, "finding", "findings"))
	}
	b.WriteString("\n")
	b.WriteString(CheckText(r.Result, s))
	return b.String()
}

// rangesText is " lines 3-5, 9" (at most a few ranges).
func rangesText(rs [][2]int) string {
	if len(rs) == 0 {
		return ""
	}
	var parts []string
	for i, r := range rs {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("+%d more", len(rs)-i))
			break
		}
		if r[0] == r[1] {
			parts = append(parts, fmt.Sprint(r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return " lines " + strings.Join(parts, ", ")
}

// ComplianceView is check_compliance's structured answer.
type ComplianceView struct {
	CIView
	Score           ScoreView `json:"score"`
	ScoreDefinition string    `json:"score_definition"`
	ProjectRules    int       `json:"project_rules"`
	RuleFiles       []string  `json:"rule_files,omitempty"`
}

// ScoreView is a compliance score: its value and what it counted.
type ScoreView struct {
	Value   float64 `json:"value"`
	Units   int     `json:"units"`
	Failing int     `json:"failing"`
}

// ComplianceViewOf is r's structured answer.
func ComplianceViewOf(r hands.CIResult) ComplianceView {
	return ComplianceView{CIView: CIViewOf(r), Score: ScoreView(r.Score), ScoreDefinition: hands.ScoreDefinition, ProjectRules: r.Rules, RuleFiles: r.RuleFiles}
}

// ComplianceText is the score, what it counts, the project rules run,
// then the run as CIText says it.
func ComplianceText(r hands.CIResult, s CheckSurface) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Compliance %.1f%%: %d of %d units clean (score = %s).\n", r.Score.Value, r.Score.Units-r.Score.Failing, r.Score.Units, hands.ScoreDefinition)
	if r.Rules > 0 {
		fmt.Fprintf(&b, "Project rules: %d from %s.\n", r.Rules, strings.Join(r.RuleFiles[:min(len(r.RuleFiles), 4)], ", "))
	} else {
		fmt.Fprintf(&b, "Project rules: none (write them in .cairn/rules/*.yaml, or as front matter with match: in rules/*.md).\n")
	}
	b.WriteString(CIText(r, s))
	return b.String()
}

// ExplainView is explain_violation's structured answer.
type ExplainView struct {
	ID       string      `json:"id"`
	Severity string      `json:"severity"`
	Title    string      `json:"title"`
	Why      string      `json:"why,omitempty"`
	Fix      string      `json:"fix,omitempty"`
	Bad      string      `json:"bad,omitempty"`
	Good     string      `json:"good,omitempty"`
	Link     string      `json:"link,omitempty"`
	Checker  string      `json:"checker"`
	Project  bool        `json:"project_rule,omitempty"`
	Source   string      `json:"source,omitempty"`
	Globs    []string    `json:"globs,omitempty"`
	Matcher  string      `json:"matcher,omitempty"`
	Memory   []MemoryRef `json:"memory"`
}

// MemoryRef is a memory entry an explanation points to.
type MemoryRef struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Title   string `json:"title"`
	Snippet string `json:"snippet,omitempty"`
}

// ExplainViewOf is e's structured answer with the memory entries found.
func ExplainViewOf(e hands.Explanation, mem []MemoryRef) ExplainView {
	r := e.Rule
	if mem == nil {
		mem = []MemoryRef{}
	}
	return ExplainView{ID: r.ID, Severity: string(r.Severity), Title: r.Title, Why: r.Why, Fix: r.Fix, Bad: r.Bad, Good: r.Good, Link: r.Link,
		Checker: e.Checker, Project: e.Project, Source: e.Source, Globs: e.Globs, Matcher: e.Matcher, Memory: mem}
}

// ExplainText is the explanation in words.
func ExplainText(v ExplainView) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s, %s): %s.", v.ID, v.Severity, cmpStr(map[bool]string{true: "project rule", false: v.Checker + " check"}[v.Project], v.Checker), v.Title)
	if v.Project {
		fmt.Fprintf(&b, "\nWritten at %s; checks %s", v.Source, v.Matcher)
		if len(v.Globs) > 0 {
			fmt.Fprintf(&b, " in %s", strings.Join(v.Globs, ", "))
		}
		b.WriteString(".")
	}
	if v.Why != "" {
		b.WriteString("\nWhy: " + clip(v.Why, 500))
	}
	if v.Bad != "" {
		b.WriteString("\nBad:\n" + indentText(clipLines(v.Bad, 8)))
	}
	if v.Good != "" {
		b.WriteString("\nGood:\n" + indentText(clipLines(v.Good, 8)))
	}
	if v.Fix != "" {
		b.WriteString("\nFix: " + clip(v.Fix, 300))
	}
	if strings.HasPrefix(v.Link, "http") {
		b.WriteString("\nMore: " + v.Link)
	}
	if len(v.Memory) == 0 {
		b.WriteString("\nMemory: nothing in this project's memory names this rule or its files.")
	} else {
		b.WriteString("\nMemory:")
		for _, m := range v.Memory {
			fmt.Fprintf(&b, "\n- %s %s: %s", m.ID, m.Type, clip(m.Title, 120))
			if m.Snippet != "" {
				b.WriteString(" — " + clip(m.Snippet, 160))
			}
		}
	}
	b.WriteString("\nSuppress an intended finding: `cairn:ignore " + v.ID + " reason` on or above its line.")
	return b.String()
}

func indentText(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

func clipLines(s string, n int) string {
	ls := strings.Split(s, "\n")
	if len(ls) > n {
		ls = append(ls[:n], "…")
	}
	return strings.Join(ls, "\n")
}

// GatesView is check_quality_gates' structured answer.
type GatesView struct {
	Gates     []GateView `json:"gates"`
	Lifecycle string     `json:"lifecycle,omitempty"` // "3 (asdd, phase TEST)" when one was given
	Pass      int        `json:"pass"`
	Fail      int        `json:"fail"`
	Unknown   int        `json:"unknown"`
}

// GateView is one gate and its verdict.
type GateView struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Phase    string    `json:"phase,omitempty"`
	Status   string    `json:"status"`
	Evidence string    `json:"evidence,omitempty"`
	Source   string    `json:"source,omitempty"`
	At       time.Time `json:"at,omitzero"`
	Needs    string    `json:"needs,omitempty"`
}

// GatesViewOf is r's structured answer.
func GatesViewOf(r gates.Result) GatesView {
	return GatesView{Gates: ViewsOf(r.Gates, func(g gates.Gate) GateView { return GateView(g) }),
		Lifecycle: r.Lifecycle, Pass: r.Pass, Fail: r.Fail, Unknown: r.Unknown}
}

// GatesText is the gates' verdicts, one line each, failures first.
func GatesText(r gates.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Quality gates: %d pass, %d fail, %d unknown", r.Pass, r.Fail, r.Unknown)
	if r.Lifecycle != "" {
		fmt.Fprintf(&b, " (lifecycle %s)", r.Lifecycle)
	}
	b.WriteString(".")
	order := map[string]int{gates.Fail: 0, gates.Unknown: 1, gates.Pass: 2}
	gs := slices.Clone(r.Gates)
	slices.SortStableFunc(gs, func(a, b gates.Gate) int { return order[a.Status] - order[b.Status] })
	for _, g := range gs {
		fmt.Fprintf(&b, "\n%s %s", strings.ToUpper(g.Status), g.ID)
		if g.Phase != "" {
			fmt.Fprintf(&b, " [%s]", g.Phase)
		}
		if g.Evidence != "" {
			fmt.Fprintf(&b, ": %s", clip(g.Evidence, 220))
		}
		if g.Source != "" && g.Status != gates.Unknown {
			fmt.Fprintf(&b, " (%s", g.Source)
			if !g.At.IsZero() {
				b.WriteString(", " + Time(g.At))
			}
			b.WriteString(")")
		}
		if g.Needs != "" {
			b.WriteString(". Needs: " + clip(g.Needs, 200))
		}
	}
	b.WriteString("\nThis tool runs no command: cairn ci runs the project's commands and records their results for these gates.")
	return b.String()
}

// MigrationView is plan_migration's structured answer.
type MigrationView struct {
	Plan    MigrationPlanView `json:"plan"`
	Created *CreatedView      `json:"created,omitempty"`
}

// MigrationPlanView is a migration plan.
type MigrationPlanView struct {
	Name          string         `json:"name"`
	Ecosystem     string         `json:"ecosystem,omitempty"`
	From          string         `json:"from,omitempty"`
	To            string         `json:"to"`
	Files         []string       `json:"files,omitempty"`
	Breaking      []BreakingView `json:"breaking"`
	BreakingKnown bool           `json:"breaking_known"`
	Steps         []StepView     `json:"steps"`
	Notes         []string       `json:"notes,omitempty"`
}

// BreakingView is a breaking change the project's knowledge records.
type BreakingView struct {
	Entry string   `json:"entry"` // the knowledge entry's path
	Title string   `json:"title"`
	Lines []string `json:"lines,omitempty"`
}

// StepView is one task of a migration plan.
type StepView struct {
	Key    string   `json:"key"`
	Kind   string   `json:"kind"`
	Title  string   `json:"title"`
	Detail string   `json:"detail,omitempty"`
	Verify string   `json:"verify"`
	After  []string `json:"after,omitempty"`
}

// CreatedView is the tasks a plan became: the parent, and each step's
// task by its key.
type CreatedView struct {
	Parent task.ID            `json:"parent"`
	Tasks  map[string]task.ID `json:"tasks"`
}

// MigrationViewOf is plan_migration's structured answer: the plan, and
// the tasks made when created is not nil.
func MigrationViewOf(p migrate.Plan, created *migrate.Created) MigrationView {
	v := MigrationView{Plan: MigrationPlanView{Name: p.Name, Ecosystem: p.Ecosystem, From: p.From, To: p.To, Files: p.Files,
		Breaking:      ViewsOf(p.Breaking, func(b migrate.Breaking) BreakingView { return BreakingView(b) }),
		BreakingKnown: p.BreakingKnown,
		Steps:         ViewsOf(p.Steps, func(s migrate.Step) StepView { return StepView(s) }),
		Notes:         p.Notes}}
	if created != nil {
		v.Created = &CreatedView{Parent: created.Parent, Tasks: created.Tasks}
	}
	return v
}

// MigrationText is the plan in words: from and to, the breaking changes
// known (or that they are not), each step with its verification and what
// it waits for; and the tasks made, when they were.
func MigrationText(p migrate.Plan, created *migrate.Created) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Migrate %s (%s) from %s to %s", p.Name, cmpStr(p.Ecosystem, "?"), cmpStr(p.From, "?"), p.To)
	if len(p.Files) > 0 {
		fmt.Fprintf(&b, "; in %s", strings.Join(p.Files[:min(len(p.Files), 4)], ", "))
	}
	b.WriteString(".")
	if !p.BreakingKnown {
		fmt.Fprintf(&b, "\nBreaking changes: unknown (no knowledge entry of this project names %s).", p.Name)
	}
	for _, br := range p.Breaking {
		fmt.Fprintf(&b, "\nBreaking (%s): %s", br.Entry, clip(br.Title, 100))
		if len(br.Lines) > 0 {
			b.WriteString(": " + clip(strings.Join(br.Lines, "; "), 200))
		}
	}
	for _, s := range p.Steps {
		id := s.Key
		if created != nil {
			id = fmt.Sprintf("%s #%d", s.Key, created.Tasks[s.Key])
		}
		fmt.Fprintf(&b, "\n%s %s: %s", id, s.Kind, s.Title)
		if len(s.After) > 0 {
			fmt.Fprintf(&b, " (after %s)", strings.Join(s.After, ", "))
		}
		fmt.Fprintf(&b, "\n    verify: %s", clip(s.Verify, 160))
	}
	for _, n := range p.Notes {
		b.WriteString("\nNote: " + clip(n, 200))
	}
	if created == nil {
		b.WriteString("\nDry run: nothing was written. Call again with create: true to make these tasks.")
	} else {
		fmt.Fprintf(&b, "\nCreated task %d with %d subtasks, dependencies as above.", created.Parent, len(created.Tasks))
	}
	return b.String()
}
