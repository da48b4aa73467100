package hands

import (
	"cmp"
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/commitmsg"
	"github.com/cairn-dev/cairn/internal/check/rules"
	"github.com/cairn-dev/cairn/internal/check/versions"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/page"
)

// CIRequest says what a CI run checks: the whole tree, or the files a
// change touched (Base through git's merge base, or a unified Diff).
type CIRequest struct {
	// Base is a branch or commit ("origin/main"): the files changed
	// between its merge base with HEAD and the work tree, and untracked
	// files, are checked. "" with Diff empty: the whole tree.
	Base string
	// Diff is a unified diff naming the changed files and lines, instead
	// of Base (the files are read as they are now).
	Diff string
	// Paths, instead of Base or Diff, are files or directories to check
	// (relative to the root).
	Paths []string
	// Lines keeps only the findings on changed lines (and those about a
	// changed file as a whole).
	Lines bool
	// Checks names the checks to run (empty: every one).
	Checks []string
	Page   page.Page
	All    bool
}

// Changed is one file a change touched.
type Changed struct {
	Path   string
	Status string // added, modified, renamed, deleted, untracked
	// Lines are the added or changed lines, as [first, last] ranges.
	Lines [][2]int
}

// CIResult is one run's findings over the tree or the change.
type CIResult struct {
	Result
	// Scope says what was checked: "the whole tree", "changes since
	// origin/main (merge base 1a2b3c4d5e6f)", "the diff given".
	Scope     string
	MergeBase string
	Changed   []Changed
	// OffLines counts the findings dropped because they were not on a
	// changed line (Lines).
	OffLines int
	// Drift says whether the dependency versions were compared (the
	// whole tree, or a change to a manifest or lock file).
	Drift bool
	// Rules counts the project's own rules run, read from RuleFiles.
	Rules     int
	RuleFiles []string
	// Score is the compliance score (see Score).
	Score Score
}

// CI runs the checks a CI job runs: every validator over the tree or the
// changed files, and the dependency drift (manifest, lock, installed).
func (s *Service) CI(ctx context.Context, req CIRequest) (CIResult, error) {
	if s.root == "" {
		return CIResult{}, project.NoRoot("a CI run checks a project's files; start Cairn inside the project or set " + project.EnvRoot)
	}
	pg := req.Page
	if !req.All {
		var err error
		if pg, err = Page.Apply(req.Page); err != nil {
			return CIResult{}, err
		}
	}
	if req.Base != "" && req.Diff != "" {
		return CIResult{}, &problem.FieldError{Field: "base", Problem: "and diff were both given", Fix: "pass base to diff against a branch, or diff to give the change, not both"}
	}
	if len(req.Paths) > 0 && (req.Base != "" || req.Diff != "") {
		return CIResult{}, &problem.FieldError{Field: "path", Problem: "was given with base or diff", Fix: "check paths, or a change, not both"}
	}
	if req.Lines && req.Base == "" && req.Diff == "" {
		return CIResult{}, &problem.FieldError{Field: "lines", Problem: "needs a change to know the changed lines", Fix: "pass base (origin/main) or diff with it"}
	}
	var res CIResult
	set, err := rules.Load(s.root)
	if err != nil {
		return CIResult{}, err
	}
	checkers := s.checkers
	if len(set.Rules) > 0 {
		checkers = append(slices.Clone(s.checkers), set.Checker())
	}
	res.Rules, res.RuleFiles = len(set.Rules), set.Files
	whole := req.Base == "" && req.Diff == "" && len(req.Paths) == 0
	creq := Request{Checks: req.Checks, All: true}
	switch {
	case whole:
		res.Scope = "the whole tree"
	case len(req.Paths) > 0:
		res.Scope = "paths " + strings.Join(req.Paths, ", ")
		creq.Paths = req.Paths
	case req.Base != "":
		mb, err := s.mergeBase(ctx, "base", req.Base, "HEAD")
		if err != nil {
			return CIResult{}, err
		}
		res.MergeBase = mb
		res.Scope = "changes since " + req.Base + " (merge base " + short(mb) + ")"
		if res.Changed, err = s.changedSince(ctx, mb); err != nil {
			return CIResult{}, err
		}
	default:
		var err error
		if res.Changed, err = ChangedFiles(req.Diff); err != nil {
			return CIResult{}, &problem.FieldError{Field: "diff", Problem: err.Error(), Fix: "pass a unified diff as git diff prints it"}
		}
		res.Scope = "the diff given"
	}
	if req.Base != "" || req.Diff != "" {
		for _, c := range res.Changed {
			if c.Status != "deleted" && s.isFile(c.Path) {
				creq.Paths = append(creq.Paths, c.Path)
			}
		}
	}
	var findings []check.Finding
	if whole || len(creq.Paths) > 0 {
		r, err := s.checkWith(ctx, creq, checkers)
		if err != nil {
			return CIResult{}, err
		}
		res.Result = r
		findings = r.Findings
	} else {
		res.Asked = slices.Clone(req.Checks)
	}
	if whole && (len(req.Checks) == 0 || slices.Contains(req.Checks, rules.Name)) {
		findings = append(findings, set.Required(os.DirFS(s.root))...)
	}
	if len(req.Checks) == 0 && (whole || slices.ContainsFunc(res.Changed, func(c Changed) bool { return isDepFile(c.Path) })) {
		drift, err := versions.Drift(ctx, os.DirFS(s.root), versions.Options{})
		if err != nil {
			return CIResult{}, err
		}
		res.Drift = true
		findings = append(findings, drift...)
	}
	if req.Lines {
		findings, res.OffLines = onChangedLines(findings, res.Changed)
	}
	sortFindings(findings)
	res.Score = scoreOf(res.Files, findings)
	res.Result = summarize(res.Result, findings, pg, req.All)
	return res, nil
}

// summarize recounts r over findings and cuts the page.
func summarize(r Result, findings []check.Finding, pg page.Page, all bool) Result {
	r.BySeverity, r.ByRule = map[check.Severity]int{}, map[string]int{}
	for _, f := range findings {
		r.BySeverity[f.Severity]++
		r.ByRule[f.Rule]++
	}
	r.Total = len(findings)
	if all {
		r.Findings, r.Offset, r.NextOffset = findings, 0, 0
		return r
	}
	lo, hi, next := pg.Window(len(findings))
	r.Findings, r.Offset, r.NextOffset = findings[lo:hi], lo, next
	return r
}

// sortFindings orders findings as check.Run does: by file, line, column,
// rule.
func sortFindings(fs []check.Finding) {
	slices.SortStableFunc(fs, func(a, b check.Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Rule, b.Rule))
	})
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func (s *Service) isFile(rel string) bool {
	fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
	return err == nil && fi.Mode().IsRegular()
}

// isDepFile reports whether p is a manifest or lock file verify_version
// reads.
func isDepFile(p string) bool {
	switch strings.ToLower(path.Base(p)) {
	case "go.mod", "go.sum", "package.json", "package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock",
		"pyproject.toml", "poetry.lock", "uv.lock", "cargo.toml", "cargo.lock":
		return true
	}
	b := strings.ToLower(path.Base(p))
	return strings.HasPrefix(b, "requirements") && strings.HasSuffix(b, ".txt")
}

// changedSince lists the files changed between commit mb and the work
// tree (staged or not), and the untracked files git does not ignore.
func (s *Service) changedSince(ctx context.Context, mb string) ([]Changed, error) {
	out, err := s.git(ctx, "diff", "--no-color", "--no-ext-diff", "-M", "-U0", mb, "--")
	if err != nil {
		return nil, err
	}
	changed, err := ChangedFiles(string(out))
	if err != nil {
		return nil, err
	}
	out, err = s.git(ctx, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	for p := range strings.SplitSeq(string(out), "\x00") {
		if p == "" {
			continue
		}
		c := Changed{Path: p, Status: "untracked"}
		if n := lineCount(filepath.Join(s.root, filepath.FromSlash(p))); n > 0 {
			c.Lines = [][2]int{{1, n}}
		}
		changed = append(changed, c)
	}
	slices.SortFunc(changed, func(a, b Changed) int { return cmp.Compare(a.Path, b.Path) })
	return changed, nil
}

// lineCount counts a small file's lines (0 for one over the check's size
// cap, or unreadable).
func lineCount(p string) int {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > check.DefaultMaxFileSize {
		return 0
	}
	b, err := os.ReadFile(p)
	if err != nil || len(b) == 0 {
		return 0
	}
	n := strings.Count(string(b), "\n")
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// ChangedFiles reads a unified diff's files and, for each, the lines on
// the new side that were added or changed, as ranges.
func ChangedFiles(diff string) ([]Changed, error) {
	files, err := commitmsg.ParseDiff(diff)
	if err != nil && len(files) == 0 {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("the diff names no file")
	}
	out := make([]Changed, 0, len(files))
	for _, f := range files {
		c := Changed{Path: f.Path(), Status: string(f.Status)}
		for _, h := range f.Hunks {
			n := h.NewStart
			for _, l := range h.Lines {
				if l == "" {
					n++
					continue
				}
				switch l[0] {
				case '+':
					if k := len(c.Lines); k > 0 && c.Lines[k-1][1] == n-1 {
						c.Lines[k-1][1] = n
					} else {
						c.Lines = append(c.Lines, [2]int{n, n})
					}
					n++
				case ' ':
					n++
				}
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// onChangedLines keeps the findings on a changed line of a changed file,
// and those of a changed file that name no line; it returns how many it
// dropped. Findings outside any file (drift about the project) stay.
func onChangedLines(fs []check.Finding, changed []Changed) ([]check.Finding, int) {
	byPath := map[string][][2]int{}
	for _, c := range changed {
		byPath[c.Path] = c.Lines
	}
	var kept []check.Finding
	for _, f := range fs {
		lines, ok := byPath[f.File]
		keep := f.File == "" || ok && (f.Line == 0 || slices.ContainsFunc(lines, func(r [2]int) bool {
			end := max(f.EndLine, f.Line)
			return f.Line <= r[1] && end >= r[0]
		}))
		if keep {
			kept = append(kept, f)
		}
	}
	return kept, len(fs) - len(kept)
}

// Rules lists the rules of every check a CI run makes, for a report's
// rule table (SARIF) and explain_violation.
func (s *Service) Rules() []check.Rule {
	var out []check.Rule
	for _, c := range s.checkers {
		out = append(out, c.Rules()...)
	}
	out = append(out, versions.Rules()...)
	out = append(out, commitmsg.Rules()...)
	out = append(out, commandRules...)
	if set, err := rules.Load(s.root); err == nil {
		out = append(out, set.Checker().Rules()...)
	}
	return out
}

// Summarize recounts r over findings, every one on the page (a CI run
// adding its commands' findings).
func Summarize(r Result, findings []check.Finding) Result {
	return summarize(r, findings, page.Page{}, true)
}
