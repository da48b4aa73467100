package testcheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// The coverage report formats.
const (
	fmtGo        = "Go cover profile"
	fmtLCOV      = "LCOV"
	fmtCobertura = "Cobertura XML"
)

// coverageLocations are where runners write coverage by default, looked
// for when the coverage param is not given: go test -coverprofile's usual
// names, c8/nyc/jest/vitest's LCOV and Cobertura reporters, coverage.py's
// xml, JaCoCo's Cobertura converters.
var coverageLocations = []string{"coverage.out", "cover.out", "coverage.txt", "c.out", "profile.cov", "coverage.cov",
	"coverage/lcov.info", "lcov.info", "coverage/cobertura-coverage.xml", "coverage.xml", "cobertura.xml",
	"coverage/coverage.xml", "target/site/cobertura/coverage.xml"}

// maxLine bounds the line numbers a report may give: beyond it the report
// is not one a runner wrote.
const maxLine = 1 << 20 // the project reader caps files at 1 MiB: no file has more lines

// coverageFormat says which format content is in, "" for none.
func coverageFormat(name string, b []byte) string {
	head := bytes.TrimLeft(b[:min(len(b), 4096)], " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(head, []byte("mode:")):
		return fmtGo
	case bytes.HasPrefix(head, []byte("TN:")) || bytes.HasPrefix(head, []byte("SF:")):
		return fmtLCOV
	case (bytes.HasPrefix(head, []byte("<?xml")) || bytes.HasPrefix(head, []byte("<!DOCTYPE coverage")) || bytes.HasPrefix(head, []byte("<coverage"))) &&
		bytes.Contains(head, []byte("<coverage")):
		return fmtCobertura
	}
	return ""
}

// span is a range of lines a report counts, with its hit count.
type span struct {
	from, to int
	count    int64
	stmts    int64 // Go: statements in the block
}

// fileCov is one source file's coverage as a report gives it.
type fileCov struct {
	name  string // as the report names it
	spans []span
	lines map[int]int64 // LCOV and Cobertura: line -> hits (merged by max)
}

// report is a parsed coverage report.
type report struct {
	format   string
	file     string
	units    string
	total    int64
	covered  int64
	files    map[string]*fileCov
	order    []string
	cobRoots []string // Cobertura <source> roots
}

func (r *report) get(name string) *fileCov {
	fc := r.files[name]
	if fc == nil {
		fc = &fileCov{name: name}
		r.files[name] = fc
		r.order = append(r.order, name)
	}
	return fc
}

// syntaxErr is a line of a coverage report that does not parse.
type syntaxErr struct {
	line int
	msg  string
}

func (e *syntaxErr) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// parseGoProfile reads a Go cover profile: a mode line, then
// "file:l0.c0,l1.c1 numStmt count" blocks. Blocks that repeat (profiles
// concatenated, -coverpkg over several test binaries) count once, run if
// any run ran them.
func parseGoProfile(b []byte) (*report, error) {
	r := &report{format: fmtGo, units: "statements", files: map[string]*fileCov{}}
	type key struct {
		file           string
		l0, c0, l1, c1 int
	}
	seen := map[key]int{} // index into the file's spans
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), len(b)+1)
	n := 0
	mode := ""
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "mode:"); ok {
			m := strings.TrimSpace(rest)
			if m != "set" && m != "count" && m != "atomic" {
				return nil, &syntaxErr{n, "mode " + strconv.Quote(m) + " is not set, count or atomic"}
			}
			if mode != "" && m != mode {
				return nil, &syntaxErr{n, "mode " + m + " after mode " + mode + ": profiles of different modes merged"}
			}
			mode = m
			continue
		}
		if mode == "" {
			return nil, &syntaxErr{n, "a cover profile starts with a mode: line"}
		}
		colon := strings.LastIndex(line, ":")
		if colon <= 0 {
			return nil, &syntaxErr{n, "want file:line.col,line.col statements count"}
		}
		file, rest := line[:colon], line[colon+1:]
		fields := strings.Fields(rest)
		if len(fields) != 3 {
			return nil, &syntaxErr{n, "want file:line.col,line.col statements count"}
		}
		var k key
		k.file = file
		if !blockRange(fields[0], &k.l0, &k.c0, &k.l1, &k.c1) || k.l0 < 1 || k.l1 < k.l0 || k.l1 > maxLine {
			return nil, &syntaxErr{n, "block " + strconv.Quote(fields[0]) + " is not line.col,line.col"}
		}
		stmts, err1 := strconv.ParseInt(fields[1], 10, 64)
		count, err2 := strconv.ParseInt(fields[2], 10, 64)
		if err1 != nil || err2 != nil || stmts < 0 || count < 0 {
			return nil, &syntaxErr{n, "statements and count must be whole numbers"}
		}
		fc := r.get(file)
		if i, ok := seen[k]; ok {
			fc.spans[i].count = max(fc.spans[i].count, count)
			continue
		}
		seen[k] = len(fc.spans)
		fc.spans = append(fc.spans, span{k.l0, k.l1, count, stmts})
	}
	if err := sc.Err(); err != nil {
		return nil, &syntaxErr{n, err.Error()}
	}
	if mode == "" {
		return nil, &syntaxErr{1, "a cover profile starts with a mode: line"}
	}
	for _, fc := range r.files {
		for _, s := range fc.spans {
			r.total += s.stmts
			if s.count > 0 {
				r.covered += s.stmts
			}
		}
	}
	return r, nil
}

// parseLCOV reads LCOV tracefile records: SF, DA, LF, LH, end_of_record
// (the other records, functions and branches, are not needed). Totals are
// the lines of DA records (LF/LH when a record has no DA).
func parseLCOV(b []byte) (*report, error) {
	r := &report{format: fmtLCOV, units: "lines", files: map[string]*fileCov{}}
	var cur *fileCov
	var lf, lh int64
	var das int
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), len(b)+1)
	n := 0
	var lfOnly, lhOnly int64
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		tag, val, _ := strings.Cut(line, ":")
		switch tag {
		case "SF":
			if val == "" {
				return nil, &syntaxErr{n, "SF: names no file"}
			}
			cur, lf, lh, das = r.get(val), 0, 0, 0
			if cur.lines == nil {
				cur.lines = map[int]int64{}
			}
		case "DA":
			if cur == nil {
				return nil, &syntaxErr{n, "DA: before any SF:"}
			}
			parts := strings.Split(val, ",")
			if len(parts) < 2 {
				return nil, &syntaxErr{n, "want DA:line,count"}
			}
			ln, err1 := strconv.Atoi(parts[0])
			hits, err2 := strconv.ParseFloat(parts[1], 64) // some tools write 1.0 or -1
			if err1 != nil || err2 != nil || ln < 1 || ln > maxLine {
				return nil, &syntaxErr{n, "want DA:line,count with whole numbers"}
			}
			das++
			h := int64(max(hits, 0))
			if old, ok := cur.lines[ln]; !ok || h > old {
				cur.lines[ln] = h
			}
		case "LF", "LH":
			v, err := strconv.ParseInt(val, 10, 64)
			if err != nil || v < 0 {
				return nil, &syntaxErr{n, tag + ": is not a whole number"}
			}
			if tag == "LF" {
				lf = v
			} else {
				lh = v
			}
		case "end_of_record":
			if cur != nil && das == 0 {
				lfOnly += lf
				lhOnly += lh
			}
			cur = nil
		case "TN", "FN", "FNDA", "FNF", "FNH", "BRDA", "BRF", "BRH", "VER", "FNL", "FNA":
		default:
			if !strings.HasPrefix(tag, "#") {
				return nil, &syntaxErr{n, "unknown record " + strconv.Quote(tag)}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &syntaxErr{n, err.Error()}
	}
	if len(r.files) == 0 {
		return nil, &syntaxErr{1, "no SF: record"}
	}
	for _, fc := range r.files {
		for _, h := range fc.lines {
			r.total++
			if h > 0 {
				r.covered++
			}
		}
	}
	r.total += lfOnly
	r.covered += lhOnly
	return r, nil
}

// parseCobertura reads Cobertura XML as coverage.py, Istanbul, JaCoCo
// converters and gcovr write it: <source> roots, and each <class
// filename> with its <line number hits>. A file split into several
// classes (inner classes) is merged, a line covered if any class covers it.
func parseCobertura(b []byte) (*report, error) {
	r := &report{format: fmtCobertura, units: "lines", files: map[string]*fileCov{}}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	var stack []string
	var cur *fileCov
	var text strings.Builder
	sawRoot := false
	for {
		t, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 0
			if se, ok := err.(*xml.SyntaxError); ok {
				line = se.Line
			}
			return nil, &syntaxErr{line, err.Error()}
		}
		switch t := t.(type) {
		case xml.StartElement:
			if len(stack) > 64 {
				return nil, &syntaxErr{0, "elements nested deeper than a Cobertura report goes"}
			}
			stack = append(stack, t.Name.Local)
			switch t.Name.Local {
			case "coverage":
				sawRoot = true
			case "source":
				text.Reset()
			case "class":
				cur = nil
				if fn := attr(t, "filename"); fn != "" {
					cur = r.get(fn)
					if cur.lines == nil {
						cur.lines = map[int]int64{}
					}
				}
			case "line":
				// <line> under <method> repeats the class's own lines
				if cur == nil || len(stack) < 2 || stack[len(stack)-2] != "lines" || slices.Contains(stack, "method") {
					continue
				}
				ln, err1 := strconv.Atoi(attr(t, "number"))
				hits, err2 := strconv.ParseFloat(attr(t, "hits"), 64)
				if err1 != nil || err2 != nil || ln < 1 || ln > maxLine {
					line, _ := d.InputPos()
					return nil, &syntaxErr{line, "a <line> needs whole number and hits attributes"}
				}
				h := int64(max(hits, 0))
				if old, ok := cur.lines[ln]; !ok || h > old {
					cur.lines[ln] = h
				}
			}
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1] == "source" && text.Len() < 4096 {
				text.Write(t)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				if stack[len(stack)-1] == "source" {
					if s := strings.TrimSpace(text.String()); s != "" {
						r.cobRoots = append(r.cobRoots, strings.ReplaceAll(s, "\\", "/"))
					}
				}
				if stack[len(stack)-1] == "class" {
					cur = nil
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	if !sawRoot {
		return nil, &syntaxErr{1, "no <coverage> element"}
	}
	for _, fc := range r.files {
		for _, h := range fc.lines {
			r.total++
			if h > 0 {
				r.covered++
			}
		}
	}
	return r, nil
}

func attr(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func parseCoverage(format string, b []byte) (*report, error) {
	switch format {
	case fmtGo:
		return parseGoProfile(b)
	case fmtLCOV:
		return parseLCOV(b)
	case fmtCobertura:
		return parseCobertura(b)
	}
	return nil, errors.New("unknown format")
}

// coverage reads the coverage report (the param, a file given, or one at a
// usual location), and reports the total, the threshold and the uncovered
// lines of the changed files.
func coverage(ctx context.Context, in *check.Input, p params, given []check.File) (check.Result, error) {
	var res check.Result
	var name string
	var content []byte
	switch {
	case len(given) > 0:
		name, content = given[0].Path, given[0].Content
		for _, g := range given[1:] {
			res.Skipped = append(res.Skipped, check.Skipped{Path: g.Path, Reason: "one coverage report is read per check; " + name + " was"})
		}
	case p.coverage != "":
		if in.Source == nil {
			return res, &problem.FieldError{Field: "coverage", Problem: "needs the project's files, and the content was given inline",
				Fix: "check a path of the project, or give the coverage report itself as the content"}
		}
		if !in.Source.Exists(p.coverage) {
			return res, &problem.FieldError{Field: "coverage", Problem: problem.Quote(p.coverage) + " is not a file of the project",
				Fix: "give the path, relative to the project root, of a Go cover profile (go test -coverprofile), an LCOV lcov.info or a Cobertura coverage.xml"}
		}
		b, err := in.Source.ReadFile(p.coverage)
		if err != nil {
			res.Skipped = append(res.Skipped, check.Skipped{Path: p.coverage, Reason: err.Error()})
			return res, nil
		}
		name, content = p.coverage, b
		if coverageFormat(name, content) == "" {
			return res, &problem.FieldError{Field: "coverage", Problem: problem.Quote(p.coverage) + " is not a Go cover profile, LCOV or Cobertura XML",
				Fix: "give a file written by go test -coverprofile, an lcov reporter (lcov.info) or a cobertura reporter (coverage.xml)"}
		}
	case in.Source != nil:
		for _, loc := range coverageLocations {
			if !in.Source.Exists(loc) {
				continue
			}
			b, err := in.Source.ReadFile(loc)
			if err != nil {
				res.Skipped = append(res.Skipped, check.Skipped{Path: loc, Reason: err.Error()})
				continue
			}
			if coverageFormat(loc, b) != "" {
				name, content = loc, b
				break
			}
		}
	}
	if name == "" {
		if p.threshold > 0 || len(p.changed) > 0 {
			res.Notes = append(res.Notes, "no coverage report found (looked for "+strings.Join(coverageLocations, ", ")+"); give its path as the coverage param")
		}
		return res, nil
	}
	format := coverageFormat(name, content)
	r, err := parseCoverage(format, content)
	if err != nil {
		var se *syntaxErr
		errors.As(err, &se)
		res.Findings = append(res.Findings, check.Finding{Rule: scan.RuleSyntax, Severity: check.Warning, File: name, Line: se.line,
			Message: "the " + format + " " + name + " does not parse: " + se.msg + "; coverage was not checked",
			Fix:     "regenerate the report with the test runner"})
		return res, nil
	}
	r.file = name
	pct := 100.0
	if r.total > 0 {
		pct = float64(r.covered) * 100 / float64(r.total)
	}
	res.Notes = append(res.Notes, fmt.Sprintf("coverage %.1f%% of %d %s (%d covered), from %s (%s)", pct, r.total, r.units, r.covered, name, format))
	if p.threshold > 0 && pct < p.threshold {
		res.Findings = append(res.Findings, check.Finding{Rule: scan.RuleBelow, File: name,
			Message: fmt.Sprintf("coverage is %.1f%% of %s, below the threshold of %g%%", pct, r.units, p.threshold),
			Fix:     "test the uncovered lines of the changed files, or lower the threshold deliberately"})
	}
	if in.Source == nil {
		return res, nil
	}
	changed := p.changed
	if len(changed) == 0 {
		for _, f := range in.Files {
			if l, test, ok := classify(f.Path); ok && !test && l != "" {
				changed = append(changed, f.Path)
			}
		}
	}
	m := newPathMap(in.Source, r)
	var absent []string
	for _, c := range changed {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		fc := m.lookup(c)
		if fc == nil {
			absent = append(absent, c)
			continue
		}
		lines := 0
		if b, err := in.Source.ReadFile(c); err == nil {
			lines = bytes.Count(b, []byte("\n")) + 1
		}
		unc, instrumented, stale := uncovered(fc, lines)
		if stale {
			res.Notes = append(res.Notes, c+": the coverage report counts lines past the end of the file; it is older than the file")
		}
		if len(unc) == 0 {
			continue
		}
		n := 0
		for _, u := range unc {
			n += u[1] - u[0] + 1
		}
		res.Findings = append(res.Findings, check.Finding{Rule: scan.RuleUncovered, File: c, Line: unc[0][0],
			Message: fmt.Sprintf("%d of %d instrumented lines are not covered (%s): %s", n, instrumented, name, rangesText(unc)),
			Fix:     "add tests that run these lines, or remove the code if nothing needs it"})
	}
	if len(absent) > 0 && len(p.changed) > 0 {
		res.Notes = append(res.Notes, "not in the coverage report "+name+": "+nameList(absent)+" (no test ran them, or the report predates them)")
	}
	return res, nil
}

// uncovered returns the uncovered line ranges of a file (clamped to its
// length when known), how many lines the report instruments, and whether
// the report runs past the file's end.
func uncovered(fc *fileCov, fileLines int) ([][2]int, int, bool) {
	limit := maxLine
	if fileLines > 0 {
		limit = fileLines
	}
	stale := false
	if fc.spans != nil {
		top := 0
		for _, s := range fc.spans {
			top = max(top, s.to)
		}
		if top > limit {
			stale = fileLines > 0
		}
		top = min(top, limit)
		// difference arrays: linear in blocks plus lines, whatever the spans
		run := make([]int, top+2)
		zero := make([]int, top+2)
		for _, s := range fc.spans {
			if s.from > top || s.stmts == 0 {
				continue
			}
			to := min(s.to, top)
			if s.count > 0 {
				run[s.from]++
				run[to+1]--
			} else {
				zero[s.from]++
				zero[to+1]--
			}
		}
		var out [][2]int
		r, z, instrumented := 0, 0, 0
		for ln := 1; ln <= top; ln++ {
			r += run[ln]
			z += zero[ln]
			if r > 0 || z > 0 {
				instrumented++
			}
			if z > 0 && r == 0 {
				out = appendLine(out, ln)
			}
		}
		return out, instrumented, stale
	}
	lines := make([]int, 0, len(fc.lines))
	for ln, h := range fc.lines {
		if ln > limit {
			stale = fileLines > 0
			continue
		}
		if h == 0 {
			lines = append(lines, ln)
		}
	}
	slices.Sort(lines)
	var out [][2]int
	for _, ln := range lines {
		out = appendLine(out, ln)
	}
	return out, len(fc.lines), stale
}

func appendLine(out [][2]int, ln int) [][2]int {
	if len(out) > 0 && out[len(out)-1][1] == ln-1 {
		out[len(out)-1][1] = ln
		return out
	}
	return append(out, [2]int{ln, ln})
}

// rangesText writes ranges as "lines 12-18, 40", the first 20 of them.
func rangesText(rs [][2]int) string {
	var b strings.Builder
	b.WriteString("line")
	if len(rs) > 1 || rs[0][0] != rs[0][1] {
		b.WriteString("s")
	}
	b.WriteString(" ")
	for i, r := range rs {
		if i == 20 {
			fmt.Fprintf(&b, " and %d more ranges", len(rs)-20)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if r[0] == r[1] {
			b.WriteString(strconv.Itoa(r[0]))
		} else {
			fmt.Fprintf(&b, "%d-%d", r[0], r[1])
		}
	}
	return b.String()
}

// pathMap maps the project's paths to a report's files: Go profiles name
// files by import path (the module line of go.mod is stripped), LCOV and
// Cobertura by absolute or relative paths (matched by their longest
// suffix that is a project path).
type pathMap struct {
	byProject map[string]*fileCov
}

func newPathMap(src check.Source, r *report) *pathMap {
	m := &pathMap{byProject: map[string]*fileCov{}}
	files, _ := src.Files("")
	byBase := map[string][]string{}
	for _, f := range files {
		byBase[path.Base(f)] = append(byBase[path.Base(f)], f)
	}
	modules := goModules(src, files)
	for _, name := range r.order {
		fc := r.files[name]
		n := strings.ReplaceAll(name, "\\", "/")
		var proj string
		if r.format == fmtGo {
			for _, mod := range modules {
				if rest, ok := strings.CutPrefix(n, mod[1]+"/"); ok {
					proj = path.Join(mod[0], rest)
					break
				}
			}
		}
		if proj == "" && r.format == fmtCobertura {
			for _, root := range append([]string{""}, r.cobRoots...) {
				if p := suffixMatch(path.Join(root, n), byBase); p != "" {
					proj = p
					break
				}
			}
		}
		if proj == "" {
			proj = suffixMatch(n, byBase)
		}
		if proj == "" {
			proj = strings.TrimPrefix(path.Clean("/"+n), "/")
		}
		if old := m.byProject[proj]; old != nil {
			merge(old, fc)
			continue
		}
		m.byProject[proj] = fc
	}
	return m
}

func merge(into, from *fileCov) {
	into.spans = append(into.spans, from.spans...)
	if from.lines != nil && into.lines == nil {
		into.lines = map[int]int64{}
	}
	for ln, h := range from.lines {
		into.lines[ln] = max(into.lines[ln], h)
	}
}

// suffixMatch is the project file whose path is the longest tail of name.
func suffixMatch(name string, byBase map[string][]string) string {
	best := ""
	for _, cand := range byBase[path.Base(name)] {
		if (name == cand || strings.HasSuffix(name, "/"+cand)) && len(cand) > len(best) {
			best = cand
		}
	}
	return best
}

// goModules lists the project's Go modules as (directory, module path),
// the longest path first.
func goModules(src check.Source, files []string) [][2]string {
	var out [][2]string
	for _, f := range files {
		if path.Base(f) != "go.mod" {
			continue
		}
		b, err := src.ReadFile(f)
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, "module"); ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\t")) {
				mod := strings.Trim(strings.TrimSpace(strings.Split(rest, "//")[0]), `"`+"`")
				dir := path.Dir(f)
				if dir == "." {
					dir = ""
				}
				out = append(out, [2]string{dir, mod})
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return len(b[1]) - len(a[1]) })
	return out
}

func (m *pathMap) lookup(p string) *fileCov { return m.byProject[p] }

// blockRange reads "l0.c0,l1.c1".
func blockRange(s string, l0, c0, l1, c1 *int) bool {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return false
	}
	return lineCol(a, l0, c0) && lineCol(b, l1, c1)
}

func lineCol(s string, l, c *int) bool {
	a, b, ok := strings.Cut(s, ".")
	if !ok {
		return false
	}
	var err1, err2 error
	*l, err1 = strconv.Atoi(a)
	*c, err2 = strconv.Atoi(b)
	return err1 == nil && err2 == nil
}

// CoverageLocations are the paths a coverage report is looked for at when
// none is named, in order.
func CoverageLocations() []string { return slices.Clone(coverageLocations) }
