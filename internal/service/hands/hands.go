// Package hands is the service behind Cairn's hands: it runs the validators
// of internal/check (one named check, or every one that reads the files)
// over the project's files or over content given inline, with the project's
// suppressions from .cairn/config.toml, and pages the findings. The MCP
// tools of the hands toolset and `cairn check` are its surfaces; they say
// the same findings in the same words (internal/render).
//
// What it owns: the project root (every path stays inside it; a symbolic
// link out of it is refused, as check.Run refuses it), the choice of checks,
// the project-level suppressions and default params, and the page. What
// each check reads and reports is its package's.
package hands

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/a11y"
	"github.com/cairn-dev/cairn/internal/check/designtokens"
	"github.com/cairn-dev/cairn/internal/check/dockerfile"
	"github.com/cairn-dev/cairn/internal/check/i18n"
	"github.com/cairn-dev/cairn/internal/check/mermaid"
	"github.com/cairn-dev/cairn/internal/check/openapi"
	"github.com/cairn-dev/cairn/internal/check/perf"
	"github.com/cairn-dev/cairn/internal/check/secrets"
	sqlcheck "github.com/cairn-dev/cairn/internal/check/sql"
	testcheck "github.com/cairn-dev/cairn/internal/check/tests"
	"github.com/cairn-dev/cairn/internal/check/tkb"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Kind is one check as the surfaces name it.
type Kind struct {
	Check string // the checker's name and the prefix of its rule ids: "sql"
	// Inline is the file name inline content gets when the caller names
	// none: its extension says the format the check reads by default.
	Inline string
}

// Kinds lists every check, in the order the surfaces list them.
var Kinds = []Kind{
	{"mermaid", "diagram.mmd"},
	{"openapi", "openapi.yaml"},
	{"sql", "query.sql"},
	{"tests", "example_test.go"},
	{"dockerfile", "Dockerfile"},
	{"i18n", "locales/en.json"},
	{"tkb", "knowledge/entry.md"},
	{"designtokens", "tokens/tokens.json"},
	{"a11y", "page.html"},
	{"perf", "app.js"},
	{"secrets", "inline.env"},
}

// KindOf returns the kind whose check is named name.
func KindOf(name string) (Kind, bool) {
	i := slices.IndexFunc(Kinds, func(k Kind) bool { return k.Check == name })
	if i < 0 {
		return Kind{}, false
	}
	return Kinds[i], true
}

// CheckNames lists the checks' names.
func CheckNames() []string {
	out := make([]string, len(Kinds))
	for i, k := range Kinds {
		out[i] = k.Check
	}
	return out
}

// Checkers returns a new checker of each kind, in the order of Kinds.
func Checkers() []check.Checker {
	return []check.Checker{mermaid.New(), openapi.New(), sqlcheck.New(), testcheck.New(), dockerfile.New(),
		i18n.New(), tkb.New(), designtokens.New(), a11y.New(), perf.New(), secrets.New()}
}

// WarmUp does once, now, the slow set-up a check would otherwise do on its
// first call (compiling PostgreSQL's parser: seconds of CPU and about 250 MB
// while it compiles). The MCP server calls it in the background at its first
// hands call, not at start: a server that never checks never pays.
func WarmUp() { sqlcheck.WarmUp() }

// Page is the findings' page rule.
var Page = page.Rule{Default: 20, Max: 200}

// Service runs the checks of one project.
type Service struct {
	root     string
	checkers []check.Checker
	record   func(usage.Event)
}

// New returns the hands of the project at root ("" for none: every call is
// then refused as NoProject).
func New(root string) *Service { return &Service{root: root, checkers: Checkers()} }

// Recording returns a copy of the service that measures each check it
// runs: one usage event a checker run, handed to record (the insight
// recorder, which takes it off the request path and never blocks). s is
// left as it was, so a service already shared is never rewired.
func (s *Service) Recording(record func(usage.Event)) *Service {
	c := *s
	c.record = record
	return &c
}

// checkEvent is the usage event of one checker's run: Outcome ok, failed
// (it found errors) or error (the checker itself failed); Subject says
// the files and the findings by severity.
func checkEvent(r check.CheckRun) usage.Event {
	out := usage.OK
	switch {
	case r.Err != nil:
		out = "error"
	case r.BySeverity[check.Error] > 0:
		out = "failed"
	}
	return usage.Event{Kind: usage.KindCheck, Name: r.Check, Toolset: "hands", Duration: r.Duration, Outcome: out,
		Subject: usage.CheckSubject(r.Files, r.BySeverity[check.Error], r.BySeverity[check.Warning], r.BySeverity[check.Info])}
}

// Request says what to check.
type Request struct {
	// Checks names the checks to run; empty: every check that reads the
	// files given (by name, extension and first bytes).
	Checks []string
	// Paths are files or directories, relative to the project root or
	// absolute inside it; empty: the whole project.
	Paths []string
	// Content, when not empty, is checked instead of Paths, as a file named
	// Name (default: the check's Kind.Inline); nothing else is read.
	Content string
	Name    string
	// Params are the checks' params by check name; they override the
	// project's defaults (checks.params in .cairn/config.toml).
	Params map[string]map[string]string
	// Page is the page of findings; All returns every finding.
	Page page.Page
	All  bool
}

// Result is what the checks found.
type Result struct {
	// Checks are the checks that read at least one file, and Asked those
	// the request named (or every one).
	Checks []string
	Asked  []string
	// Findings is the page; Total counts every finding; Offset and
	// NextOffset place the page (NextOffset 0: the last page).
	Findings   []check.Finding
	Total      int
	Offset     int
	NextOffset int
	// BySeverity and ByRule count every finding, not only the page's.
	BySeverity map[check.Severity]int
	ByRule     map[string]int
	Files      int            // files checked
	ByCheck    map[string]int // files checked by each check
	Skipped    []check.Skipped
	Notes      []string
	// Suppressed counts the findings a suppression removed (inline
	// cairn:ignore comments and the project's checks.ignore), by rule.
	Suppressed      map[string]int
	SuppressedTotal int
	// Inline is the name inline content was checked as ("" for paths).
	Inline string
}

// Errors is the number of findings of severity error.
func (r Result) Errors() int { return r.BySeverity[check.Error] }

// Root is the project root the service checks.
func (s *Service) Root() string { return s.root }

// Check runs the request.
func (s *Service) Check(ctx context.Context, req Request) (Result, error) {
	return s.checkWith(ctx, req, s.checkers)
}

// checkWith runs the request with checkers (the validators, and a
// project's rules when they are read).
func (s *Service) checkWith(ctx context.Context, req Request, checkers []check.Checker) (Result, error) {
	if s.root == "" {
		return Result{}, project.NoRoot("the hands check a project's files; start Cairn inside the project or set " + project.EnvRoot)
	}
	pg := req.Page
	if !req.All {
		var err error
		if pg, err = Page.Apply(req.Page); err != nil {
			return Result{}, err
		}
	}
	for _, name := range req.Checks {
		if !slices.ContainsFunc(checkers, func(c check.Checker) bool { return c.Name() == name }) {
			return Result{}, &problem.FieldError{Field: "only", Problem: problem.Quote(name) + " is not a check",
				Fix: "use one of " + strings.Join(CheckNames(), ", ")}
		}
	}
	if req.Content == "" && req.Name != "" {
		return Result{}, &problem.FieldError{Field: "name", Problem: "names inline content, but no content was given",
			Fix: "pass content with it, or give the file as path"}
	}
	if req.Content != "" && len(req.Paths) > 0 {
		return Result{}, &problem.FieldError{Field: "content", Problem: "and path were both given",
			Fix: "pass path to check project files, or content to check text, not both"}
	}
	cfg, err := project.ReadConfig(s.root)
	if err != nil {
		return Result{}, err
	}
	creq := check.Request{Root: s.root, Paths: req.Paths, Only: req.Checks, Params: params(cfg, req.Params)}
	if s.record != nil {
		creq.Observe = func(r check.CheckRun) { s.record(checkEvent(r)) }
	}
	for _, ig := range cfg.Checks.Ignore {
		creq.Ignore = append(creq.Ignore, check.Suppression{Rule: ig.Rule, Path: ig.Path, Reason: ig.Reason})
	}
	res := Result{Asked: slices.Clone(req.Checks)}
	if len(res.Asked) == 0 {
		res.Asked = CheckNames()
	}
	if req.Content != "" {
		name := req.Name
		if name == "" {
			if len(req.Checks) != 1 {
				return Result{}, &problem.FieldError{Field: "name", Problem: "is needed to tell which check reads the content",
					Fix: "pass a file name whose extension says the format (schema.sql, Dockerfile), or name one check"}
			}
			k, _ := KindOf(req.Checks[0])
			name = k.Inline
		}
		creq.Inline = &check.File{Path: name, Content: []byte(req.Content)}
		res.Inline = name
	}
	rep, err := check.Run(ctx, checkers, creq)
	if err != nil {
		return Result{}, err
	}
	if raised := raise(rep.Findings, cfg.Table("evolution.severity")); len(raised) > 0 {
		rep.Notes = append(rep.Notes, "severity raised by [evolution.severity] in .cairn/config.toml for "+strings.Join(raised, ", "))
	}
	res.BySeverity, res.ByRule = rep.Counts()
	res.Total, res.Files, res.ByCheck = len(rep.Findings), rep.Files, rep.ByChecker
	res.Skipped, res.Notes = rep.Skipped, rep.Notes
	res.Suppressed, res.SuppressedTotal = rep.Suppressed, rep.SuppressedTotal()
	for _, c := range checkers {
		if rep.ByChecker[c.Name()] > 0 {
			res.Checks = append(res.Checks, c.Name())
		}
	}
	if req.All {
		res.Findings = rep.Findings
		return res, nil
	}
	lo, hi, next := pg.Window(len(rep.Findings))
	res.Findings, res.Offset, res.NextOffset = rep.Findings[lo:hi], lo, next
	return res, nil
}

// raise applies the [evolution.severity] table, which the evolution engine
// writes for a check whose violations are always fixed right after (and a
// person may edit): a key is a check's name or a rule's id, its value the
// severity that check's or rule's findings have at least. It returns the
// keys that raised a finding, sorted; a value that is not a severity is
// ignored.
func raise(fs []check.Finding, table map[string]string) []string {
	if len(table) == 0 {
		return nil
	}
	hit := map[string]bool{}
	for i := range fs {
		f := &fs[i]
		for _, key := range []string{f.Rule, strings.SplitN(f.Rule, "/", 2)[0]} {
			to := check.Severity(table[key])
			if !slices.Contains(check.Severities, to) || !to.Above(f.Severity) {
				continue
			}
			f.Severity = to
			hit[key] = true
		}
	}
	return slices.Sorted(maps.Keys(hit))
}

// params merges the project's default params (config) with the request's,
// the request's winning key by key.
func params(cfg project.Config, req map[string]map[string]string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, ps := range cfg.Checks.Params {
		m := map[string]string{}
		for k, v := range ps {
			m[k] = project.ParamString(v)
		}
		out[name] = m
	}
	for name, ps := range req {
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		maps.Copy(out[name], ps)
	}
	return out
}
