package check

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Request says what Run checks.
type Request struct {
	// Root is the project root; every path must stay inside it.
	Root string
	// Paths are files or directories, relative to Root or absolute inside
	// it; empty: the whole project. A directory is walked, .gitignore
	// respected, and each file goes to the checkers that want it; a file
	// named outright goes to the checkers of Only even if they would not
	// have picked it.
	Paths []string
	// Inline, when set, is checked instead of Paths: content given with a
	// name whose extension says its format. Nothing else is read.
	Inline *File
	// Only names the checkers to run; empty: every one given to Run.
	Only []string
	// Params are each checker's options, by checker name.
	Params map[string]map[string]string
	// Ignore are the project's suppressions (its config).
	Ignore []Suppression
	// MaxFileSize caps each file read; default DefaultMaxFileSize.
	MaxFileSize int64
	// MaxFiles caps a walk; default DefaultMaxFiles.
	MaxFiles int
	// Observe, when set, is told of each checker that ran: how long it
	// took, on how many files, what it found (after suppressions) or how
	// it failed. Usage measurement hangs here; it must not block.
	Observe func(CheckRun)
}

// CheckRun is one checker's run within Run.
type CheckRun struct {
	Check      string
	Files      int
	Duration   time.Duration
	BySeverity map[Severity]int
	Err        error // the checker failed (Run returns the error too)
}

// Report is what Run found, over every checker.
type Report struct {
	Findings []Finding // by file, line, column, rule
	Skipped  []Skipped // by path
	Notes    []string
	// Files counts the files checked (a file two checkers read counts once);
	// ByChecker counts them by checker.
	Files     int
	ByChecker map[string]int
	// Suppressed counts the findings a suppression removed, by rule.
	Suppressed map[string]int
}

// Counts returns how many findings there are of each severity and rule.
func (r *Report) Counts() (bySeverity map[Severity]int, byRule map[string]int) {
	bySeverity, byRule = map[Severity]int{}, map[string]int{}
	for _, f := range r.Findings {
		bySeverity[f.Severity]++
		byRule[f.Rule]++
	}
	return bySeverity, byRule
}

// SuppressedTotal is the number of findings suppressions removed.
func (r *Report) SuppressedTotal() int {
	n := 0
	for _, c := range r.Suppressed {
		n += c
	}
	return n
}

// Worst is the most serious severity among the findings, "" for none.
func (r *Report) Worst() Severity {
	var w Severity
	for _, f := range r.Findings {
		if w == "" || f.Severity.rank() < w.rank() {
			w = f.Severity
		}
	}
	return w
}

// Run checks the request's files with the checkers it names. A path that
// leaves the project or does not exist is refused as a *problem.FieldError
// (field "path"), before anything is checked.
func Run(ctx context.Context, checkers []Checker, req Request) (*Report, error) {
	run, err := selectCheckers(checkers, req.Only)
	if err != nil {
		return nil, err
	}
	maxSize := cmp.Or(req.MaxFileSize, DefaultMaxFileSize)
	rep := &Report{ByChecker: map[string]int{}, Suppressed: map[string]int{}}
	var src Source
	inputs := map[string]*Input{}
	if req.Inline != nil {
		if err := inlineInputs(run, req, maxSize, inputs); err != nil {
			return nil, err
		}
	} else {
		t, err := newTree(req.Root, maxSize, cmp.Or(req.MaxFiles, DefaultMaxFiles))
		if err != nil {
			return nil, err
		}
		src = t
		if err := gather(ctx, t, run, req, rep, inputs); err != nil {
			return nil, err
		}
		if t.truncated {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the walk stopped at %d files; name a directory to check the rest", t.max))
		}
	}
	checked := map[string]bool{}
	var runs []CheckRun
	for _, c := range run {
		in := inputs[c.Name()]
		if in == nil || len(in.Files) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		in.Source, in.Params = src, req.Params[c.Name()]
		began := time.Now()
		res, err := safeCheck(ctx, c, in)
		if req.Observe != nil {
			runs = append(runs, CheckRun{Check: c.Name(), Files: len(in.Files), Duration: time.Since(began),
				BySeverity: map[Severity]int{}, Err: err})
		}
		if err != nil {
			if req.Observe != nil {
				observe(req.Observe, runs[len(runs)-1:], nil)
			}
			return nil, fmt.Errorf("%s check: %w", c.Name(), err)
		}
		rep.ByChecker[c.Name()] = len(in.Files)
		for _, f := range in.Files {
			checked[f.Path] = true
		}
		rep.Skipped = append(rep.Skipped, res.Skipped...)
		rep.Notes = append(rep.Notes, res.Notes...)
		rep.Findings = append(rep.Findings, settle(c, res.Findings)...)
	}
	rep.Files = len(checked)
	rep.Findings = suppress(rep, inputs, req.Ignore)
	slices.SortFunc(rep.Findings, compareFindings)
	rep.Findings = slices.CompactFunc(rep.Findings, func(a, b Finding) bool { return a == b })
	slices.SortFunc(rep.Skipped, func(a, b Skipped) int { return cmp.Compare(a.Path, b.Path) })
	observe(req.Observe, runs, rep.Findings)
	return rep, nil
}

// observe tells fn of each run, with the findings (after suppressions)
// counted by severity under the checker whose rule prefix they carry.
func observe(fn func(CheckRun), runs []CheckRun, findings []Finding) {
	if fn == nil {
		return
	}
	for _, f := range findings {
		name, _, _ := strings.Cut(f.Rule, "/")
		if i := slices.IndexFunc(runs, func(r CheckRun) bool { return r.Check == name }); i >= 0 {
			runs[i].BySeverity[f.Severity]++
		}
	}
	for _, r := range runs {
		fn(r)
	}
}

// safeCheck runs c, turning a panic in a parser fed hostile input into an
// error rather than the end of the process.
func safeCheck(ctx context.Context, c Checker, in *Input) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the checker failed on this input (%v); please report it", r)
		}
	}()
	return c.Check(ctx, in)
}

func compareFindings(a, b Finding) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
		cmp.Compare(a.Severity.rank(), b.Severity.rank()), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
}

// selectCheckers returns the checkers only names, in the order given;
// every one when only is empty.
func selectCheckers(all []Checker, only []string) ([]Checker, error) {
	if len(only) == 0 {
		return all, nil
	}
	var out []Checker
	for _, name := range only {
		i := slices.IndexFunc(all, func(c Checker) bool { return c.Name() == name })
		if i < 0 {
			names := make([]string, len(all))
			for j, c := range all {
				names[j] = c.Name()
			}
			return nil, &problem.FieldError{Field: "only", Problem: problem.Quote(name) + " is not a check",
				Fix: "use one of " + strings.Join(names, ", ")}
		}
		out = append(out, all[i])
	}
	return out, nil
}

// settle fills what a finding leaves to its rule: severity and link.
func settle(c Checker, fs []Finding) []Finding {
	rules := c.Rules()
	for i := range fs {
		j := slices.IndexFunc(rules, func(r Rule) bool { return r.ID == fs[i].Rule })
		if j < 0 {
			continue
		}
		if fs[i].Severity == "" {
			fs[i].Severity = rules[j].Severity
		}
		if fs[i].Link == "" {
			fs[i].Link = RuleLink(rules[j])
		}
	}
	return fs
}

func inlineInputs(run []Checker, req Request, maxSize int64, inputs map[string]*Input) error {
	f := *req.Inline
	if int64(len(f.Content)) > maxSize {
		return &problem.FieldError{Field: "content", Problem: fmt.Sprintf("is %d bytes, over the %d-byte cap", len(f.Content), maxSize),
			Fix: "check a smaller piece, or give a path instead"}
	}
	if why := unreadable(f.Content); why != "" {
		return &problem.FieldError{Field: "content", Problem: why, Fix: "give UTF-8 text"}
	}
	f.Path = path.Clean("/" + f.Path)[1:]
	head := f.Content[:min(len(f.Content), 512)]
	for _, c := range run {
		if len(req.Only) > 0 || c.Wants(f.Path, head) {
			inputs[c.Name()] = &Input{Files: []File{f}}
		}
	}
	if len(inputs) == 0 {
		return &problem.FieldError{Field: "kind", Problem: "does not say which check reads " + problem.Quote(f.Path),
			Fix: "name the check, or give a file name whose extension says the format"}
	}
	return nil
}

// gather resolves the request's paths and gives each file to the checkers
// that want it, reading it once.
func gather(ctx context.Context, t *tree, run []Checker, req Request, rep *Report, inputs map[string]*Input) error {
	paths := req.Paths
	if len(paths) == 0 {
		paths = []string{""}
	}
	type want struct {
		path  string
		named bool // named outright, not found by a walk
	}
	var wants []want
	for _, p := range paths {
		rel, err := t.rel(p)
		if err != nil {
			return pathError("path", p, err)
		}
		fi, err := os.Stat(t.abs(rel))
		if err != nil {
			return pathError("path", p, err)
		}
		if !fi.IsDir() {
			wants = append(wants, want{rel, true})
			continue
		}
		files, err := t.Files(rel)
		if err != nil {
			return err
		}
		for _, f := range files {
			wants = append(wants, want{f, false})
		}
	}
	seen := map[string]bool{}
	for _, w := range wants {
		if seen[w.path] {
			continue
		}
		seen[w.path] = true
		if err := ctx.Err(); err != nil {
			return err
		}
		head, err := readHead(t, w.path)
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skipped{w.path, skipReason(err)})
			continue
		}
		var takers []Checker
		for _, c := range run {
			if c.Wants(w.path, head) || (w.named && len(req.Only) > 0) {
				takers = append(takers, c)
			}
		}
		if len(takers) == 0 {
			if w.named {
				rep.Skipped = append(rep.Skipped, Skipped{w.path, "no check reads this kind of file"})
			}
			continue
		}
		b, _, err := t.read(w.path, t.maxSize)
		if err == nil {
			if why := unreadable(b); why != "" {
				err = errors.New(why)
			}
		}
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skipped{w.path, skipReason(err)})
			continue
		}
		for _, c := range takers {
			in := inputs[c.Name()]
			if in == nil {
				in = &Input{}
				inputs[c.Name()] = in
			}
			in.Files = append(in.Files, File{Path: w.path, Content: b})
		}
	}
	return nil
}

// readHead reads the first 512 bytes of a file, refusing a link out of
// the project.
func readHead(t *tree, rel string) ([]byte, error) {
	if _, err := t.rel(rel); err != nil {
		return nil, err
	}
	f, err := os.Open(t.abs(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 512)
	n, err := f.Read(buf)
	if n == 0 && err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf[:n], nil
}

// unreadable says why b is not text a checker can read: binary (a NUL
// byte), or not UTF-8. "" when it is.
func unreadable(b []byte) string {
	if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return "binary (it has NUL bytes)"
	}
	if !utf8.Valid(b) {
		return "not UTF-8 text"
	}
	return ""
}

func skipReason(err error) string {
	switch {
	case errors.Is(err, ErrOutside):
		return "a symbolic link out of the project"
	case errors.Is(err, ErrTooLarge):
		if se, ok := errors.AsType[*SizeError](err); ok {
			return fmt.Sprintf("%d bytes, over the %d-byte cap", se.Size, se.Max)
		}
		return "over the size cap"
	case errors.Is(err, fs.ErrPermission):
		return "not readable (permission denied)"
	}
	return err.Error()
}
