package dockerfile

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	bkcommand "github.com/moby/buildkit/frontend/dockerfile/command"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"github.com/moby/buildkit/frontend/dockerfile/shell"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/findcap"
)

// file is the analysis of one Dockerfile.
type file struct {
	path    string
	content []byte
	src     *source
	ast     *parser.Result
	lint    *linter.Linter
	shlex   *shell.Lex
	opts    *options

	findings []check.Finding
	// sev, when set, is the severity of the next BuildKit finding.
	sev check.Severity

	metaArgs   []*command // the ARGs before the first FROM
	stages     []*stage
	byName     map[string]*stage // stages by lowercased name, as registered so far
	globalArgs *envList          // the meta ARGs' values over BuildKit's defaults
	allArgs    map[string]bool   // every meta ARG's name, with a value or not
	copies     []copySource      // COPY and ADD sources to look for in the build context
	fromKeys   []string          // fromArgKeys, once computed
	cloned     int               // variables copied from stage to stage so far
	perRule    map[string]int    // findings by rule
	dropped    map[string]int    // findings not listed, past maxPerRule
	lastOf     map[string]int    // index of the last finding listed, by rule
	refs       map[string]parsedRef
}

// maxPerRule bounds the findings of one rule in one file, as every
// validator bounds them (findcap); past it they are counted in one closing
// finding. The cap is applied while checking, not after: past it the
// checker does not pay for findings it will not list (BuildKit's errors
// carry stack traces).
const maxPerRule = findcap.PerRule

// skip reports whether rule has its fill of findings in this file, and
// counts the one not listed.
func (f *file) skip(rule string) bool {
	if f.perRule[rule] < maxPerRule {
		return false
	}
	f.dropped[rule]++
	return true
}

// keep records a finding unless its rule has its fill.
func (f *file) keep(fd check.Finding) {
	if f.skip(fd.Rule) {
		return
	}
	f.perRule[fd.Rule]++
	f.lastOf[fd.Rule] = len(f.findings)
	f.findings = append(f.findings, fd)
}

// closeCapped adds, for each rule past the cap, the finding that counts
// the rest, at the last listed one's line, worded as findcap words it.
func (f *file) closeCapped() {
	for _, r := range slices.Sorted(maps.Keys(f.dropped)) {
		last := f.findings[f.lastOf[r]]
		f.findings = append(f.findings, check.Finding{Rule: r, Severity: last.Severity, File: f.path, Line: last.Line,
			Message: fmt.Sprintf("and %d more findings of %s in this file, not listed", f.dropped[r], r),
			Fix:     "fix the ones listed, then check again"})
	}
}

// stage is one FROM and its instructions, with what dispatching them
// learns.
type stage struct {
	index int
	ins   instructions.Stage
	node  *parser.Node
	cmds  []*command

	baseName string // the FROM image or stage, with the meta ARGs' defaults
	broken   bool   // its FROM could not be resolved: checks that need it are skipped
	base     *stage // the stage it is built on, nil for an image or scratch
	scratch  bool
	windows  bool
	final    bool // the final stage, or a stage it is built on

	// What dispatching its instructions sets, inherited from base.
	env        *envList
	envKnown   bool            // false when built on an image, whose ENV is not known here
	buildArgs  map[string]bool // ARGs declared without a value
	workdirSet bool
	shell      []string // the SHELL, nil for the default
	user       *command // the last USER
	aptYes     bool     // an apt config sets Assume-Yes
	aptNoRec   bool     // an apt config sets Install-Recommends

	// What the stage itself sets.
	cmd, entrypoint, healthcheck *command  // the last of each
	updateAlone                  *position // an apt-get update with no install in its RUN
}

// command is one instruction and the node it was parsed from.
type command struct {
	c    instructions.Command
	node *parser.Node

	mapped bool
	tm     textMap // node.Original back to the file
	last   int     // the instruction's last line before heredoc bodies
	tmOK   bool
}

func (f *file) textOf(c *command) (textMap, bool) {
	if !c.mapped {
		c.mapped = true
		c.tm, c.last, c.tmOK = f.src.instruction(c.node)
	}
	return c.tm, c.tmOK
}

// lastLine is the instruction's last line before its heredoc bodies.
func (f *file) lastLine(c *command) int {
	f.textOf(c)
	return c.last
}

// at is the position of the byte at off of c's Original text: its line
// and column in the file, or c's first line when it cannot be mapped.
func (f *file) at(c *command, off int) (line, col int) {
	if tm, ok := f.textOf(c); ok && off >= 0 {
		return tm.pos(off)
	}
	return f.start(c.node)
}

// start is the line and column where node's instruction starts.
func (f *file) start(n *parser.Node) (line, col int) {
	raw := f.src.line(n.StartLine)
	col = len(raw) - len(strings.TrimLeft(raw, " \t\v\f\r")) + 1
	if n.StartLine == 1 {
		col += f.src.bom
	}
	return n.StartLine, col
}

// word is the position of word in c's instruction text (after the
// keyword and flags), or of the instruction when it is not found.
func (f *file) word(c *command, word string) (line, col int) {
	orig := c.node.Original
	from := len(c.node.Value)
	if i := strings.Index(orig[min(from, len(orig)):], word); word != "" && i >= 0 {
		return f.at(c, from+i)
	}
	return f.start(c.node)
}

// add records a finding of rule at line:col.
func (f *file) add(rule string, line, col int, msg, fix string) {
	f.keep(check.Finding{Rule: rule, File: f.path, Line: line, Col: col, Message: msg, Fix: fix})
}

// addSev records a finding with a severity of its own.
func (f *file) addSev(rule string, sev check.Severity, line, col int, msg, fix string) {
	f.keep(check.Finding{Rule: rule, Severity: sev, File: f.path, Line: line, Col: col, Message: msg, Fix: fix})
}

// warn receives BuildKit's lint warnings.
func (f *file) warn(name, _, _, msg string, loc []parser.Range) {
	r := ruleByName[name]
	if r == nil {
		return // a rule this version does not declare
	}
	fd := check.Finding{Rule: buildkitID(name), File: f.path, Severity: f.sev, Message: sentence(msg), Fix: r.fix}
	if len(loc) > 0 {
		fd.Line, fd.EndLine = loc[0].Start.Line, loc[len(loc)-1].End.Line
		if fd.EndLine == fd.Line {
			fd.EndLine = 0
		}
		raw := f.src.line(fd.Line)
		fd.Col = len(raw) - len(strings.TrimLeft(raw, " \t")) + 1
	}
	f.keep(fd)
}

// run runs a BuildKit rule through lint, which applies the file's
// `# check=` directives, with severity sev ("" for the rule's).
func (f *file) run(lint *linter.Linter, rule linter.LinterRuleI, loc []parser.Range, sev check.Severity, msg string) {
	f.sev = sev
	lint.Run(rule, loc, msg)
	f.sev = ""
}

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ")") {
		return s
	}
	return s + "."
}

// analyzeFile checks one Dockerfile. skip is the reason it was not
// checked, when it was not.
func analyzeFile(path string, content []byte, opts *options) (f *file, skip string) {
	f = &file{path: path, content: content, opts: opts, byName: map[string]*stage{}, allArgs: map[string]bool{},
		perRule: map[string]int{}, dropped: map[string]int{}, lastOf: map[string]int{}}
	if syntax, _, _, ok := parser.DetectSyntax(content); ok && !standardFrontend(syntax) {
		return nil, "it names the Dockerfile frontend " + syntax + " (# syntax=), whose language is not BuildKit's standard one"
	}
	res := f.parse()
	if res == nil {
		return f, ""
	}
	f.ast = res
	f.src = newSource(content, res.EscapeToken)
	f.shlex = shell.NewLex(res.EscapeToken)
	f.lint = f.newLinter(content)

	for _, w := range res.Warnings {
		if w.URL == linter.RuleNoEmptyContinuation.URL && w.Location != nil {
			f.run(f.lint, &linter.RuleNoEmptyContinuation, []parser.Range{*w.Location}, "", linter.RuleNoEmptyContinuation.Format())
		}
	}
	f.parseInstructions()
	if len(f.stages) == 0 {
		if !f.hasSyntaxError() {
			line := 0
			if len(res.AST.Children) > 0 {
				line = res.AST.Children[0].StartLine
			}
			f.add(RuleSyntax, line, 1, "The Dockerfile has no FROM, so it has no stage to build.", "Start the build with FROM.")
		}
		return f, ""
	}
	f.validateStageNames()
	f.validateCommandCasing()
	f.dispatch()
	f.practices()
	return f, ""
}

// maxParseErrors bounds the parse errors reported in one file.
const maxParseErrors = 20

// parse parses the file with BuildKit's parser. The parser stops at the
// first instruction it refuses; to report the others too, that
// instruction's lines are blanked (keeping the line numbers) and the file
// is parsed again, up to maxParseErrors times. nil when nothing parses.
func (f *file) parse() *parser.Result {
	buf := f.content
	f.src = newSource(buf, parser.DefaultEscapeToken)
	for range maxParseErrors {
		res, err := parser.Parse(bytes.NewReader(buf))
		if err == nil {
			return res
		}
		start, end := errorLines(err)
		if start <= 0 || (f.hasSyntaxError() && strings.Contains(err.Error(), "file with no instructions")) {
			if !f.hasSyntaxError() {
				f.syntaxError(err, nil)
			}
			return nil
		}
		f.syntaxError(err, nil)
		if buf == nil || &buf[0] == &f.content[0] {
			buf = bytes.Clone(f.content)
		}
		blankLines(buf, start, max(end, start))
	}
	return nil
}

// errorLines are the first and last lines a parse error points at; 0
// when it has no location.
func errorLines(err error) (start, end int) {
	le, ok := errors.AsType[*parser.LocationError](err)
	if !ok {
		return 0, 0
	}
	for _, loc := range le.Locations {
		for _, r := range loc {
			if start == 0 || (r.Start.Line > 0 && r.Start.Line < start) {
				start = r.Start.Line
			}
			end = max(end, r.End.Line)
		}
	}
	return start, end
}

// blankLines replaces the bytes of lines start..end (1-based) with spaces,
// keeping every line end.
func blankLines(b []byte, start, end int) {
	line := 1
	for i := range b {
		if b[i] == '\n' {
			line++
			continue
		}
		if line >= start && line <= end && b[i] != '\r' {
			b[i] = ' '
		}
		if line > end {
			return
		}
	}
}

// standardFrontend reports whether a # syntax= directive names BuildKit's
// own Dockerfile frontend, whose language this parser reads.
func standardFrontend(ref string) bool {
	name, _, _ := strings.Cut(ref, "@")
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name = name[:i]
	}
	name = strings.TrimPrefix(name, "docker.io/")
	return name == "docker/dockerfile" || name == "docker/dockerfile-upstream" || name == "moby/dockerfile"
}

func (f *file) newLinter(content []byte) *linter.Linter {
	// As in BuildKit, check options given to the build replace the file's
	// # check= directive.
	cfg := &linter.Config{}
	if f.opts.check != nil {
		c := *f.opts.check
		cfg = &c
	} else if v, _, _, ok := parser.ParseDirective("check", content); ok {
		if c, err := linter.ParseLintOptions(v); err == nil {
			cfg = c
		}
	}
	cfg.ReturnAsError = false
	lint := linter.New(cfg)
	lint.Warn = f.warn
	return lint
}

// parseInstructions parses each instruction the way instructions.Parse
// does, but goes on after one that does not parse, so every such
// instruction is reported.
func (f *file) parseInstructions() {
	for _, n := range f.ast.AST.Children {
		if _, known := bkcommand.Commands[strings.ToLower(n.Value)]; !known && f.skip(RuleSyntax) {
			continue // past the cap, an unknown instruction is not worth BuildKit's error (and its stack trace)
		}
		v, err := instructions.ParseInstructionWithLinter(n, f.lint)
		if err != nil {
			f.syntaxError(err, n)
			continue
		}
		switch c := v.(type) {
		case *instructions.Stage:
			st := &stage{index: len(f.stages), ins: *c, node: n}
			f.stages = append(f.stages, st)
		case instructions.Command:
			cmd := &command{c: c, node: n}
			if len(f.stages) == 0 {
				if _, ok := c.(*instructions.ArgCommand); ok {
					f.metaArgs = append(f.metaArgs, cmd)
					continue
				}
				line, col := f.start(n)
				f.add(RuleSyntax, line, col, fmt.Sprintf("%s comes before the first FROM; only ARG may.", strings.ToUpper(n.Value)),
					"Move it after a FROM.")
				continue
			}
			st := f.stages[len(f.stages)-1]
			st.ins.AddCommand(c)
			st.cmds = append(st.cmds, cmd)
		}
	}
}

func (f *file) hasSyntaxError() bool {
	return slices.ContainsFunc(f.findings, func(fd check.Finding) bool { return fd.Rule == RuleSyntax })
}

// syntaxError records a parse error, at its location or else at node.
func (f *file) syntaxError(err error, n *parser.Node) {
	line, end := errorLines(err)
	col := 1
	if n != nil {
		if line == 0 {
			line, end = n.StartLine, n.EndLine
		}
		_, col = f.start(n)
	}
	msg := err.Error()
	if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "dockerfile parse error on line ") && i > 0 {
		msg = msg[i+2:]
	}
	fd := check.Finding{Rule: RuleSyntax, File: f.path, Line: line, Col: col,
		Message: sentence(upperFirst(msg)), Fix: "Fix the instruction; see the Dockerfile reference."}
	if end > line {
		fd.EndLine = end
	}
	f.keep(fd)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// envList is an ordered set of variables, as BuildKit's environment is:
// keys are case-insensitive for a Windows stage.
type envList struct {
	keys []string
	vals map[string]string
	fold bool
}

func newEnv(fold bool) *envList { return &envList{vals: map[string]string{}, fold: fold} }

func (e *envList) norm(k string) string {
	if e.fold {
		return strings.ToUpper(k)
	}
	return k
}

// Get returns the value of key.
func (e *envList) Get(key string) (string, bool) {
	v, ok := e.vals[e.norm(key)]
	return v, ok
}

// Keys returns the names, in the order first set.
func (e *envList) Keys() []string { return e.keys }

func (e *envList) set(k, v string) {
	n := e.norm(k)
	if _, ok := e.vals[n]; !ok {
		e.keys = append(e.keys, k)
	}
	e.vals[n] = v
}

func (e *envList) clone() *envList {
	c := &envList{keys: slices.Clone(e.keys), vals: make(map[string]string, len(e.vals)), fold: e.fold}
	for k, v := range e.vals {
		c.vals[k] = v
	}
	return c
}

var _ shell.EnvGetter = (*envList)(nil)
