package runs

import "strings"

// Scores of the lines a failure may keep: higher is more informative.
const (
	scoreAny       = 10 // any line that is not noise
	scoreHint      = 12 // a runner's or build tool's closing verdict
	scoreWrapper   = 20 // npm's own message, cargo's "could not compile"
	scoreTrouble   = 50 // a line saying something failed, was refused, is missing
	scoreToolError = 75 // "error: …", "fatal: …", "ERROR: …"
	scoreShell     = 80 // command not found, No such file or directory
	scoreCompile   = 89 // a compiler's file:line error
	scoreException = 90 // an exception or error type with its message
	scoreTraceback = 92 // a Python traceback's final exception
	scoreTest      = 93 // a failing test with its message
	scorePanic     = 94 // a Go or Rust panic
	scoreCause     = 95 // Java's Caused by:, the deepest last
)

// scanner scores lines in order; it remembers whether a Python
// traceback is open.
type scanner struct {
	traceback bool
}

// score rates line i.
func (s *scanner) score(ls []string, i int) (candidate, bool) {
	raw := ls[i]
	t := lineText(raw)
	if t == "" || isNoise(t) {
		return candidate{}, false
	}
	c := candidate{at: i, text: t, score: scoreAny}
	if s.pythonException(raw, t, &c) {
		return c, true
	}
	for _, rule := range lineRules {
		if rule(raw, t, &c) {
			return c, true
		}
	}
	return c, true
}

// lineText is a line without the decoration that frames it: Maven's
// [ERROR], pytest's "E   ", box-drawing bars, leading space.
func lineText(l string) string {
	t := strings.TrimSpace(l)
	t = mavenText(t)
	t = strings.TrimLeft(t, "│╷╵|┃ ")
	if strings.HasPrefix(t, "==") {
		t = strings.Trim(t, "= ") // pytest's "=== 1 failed in 0.1s ==="
	}
	if rest, ok := strings.CutPrefix(t, "E "); ok && strings.HasPrefix(l, "E ") {
		t = strings.TrimSpace(rest)
	}
	return strings.TrimSpace(t)
}

// pythonException takes the first unindented line after a traceback's
// frames: the exception that ended the program.
func (s *scanner) pythonException(raw, t string, c *candidate) bool {
	if t == "Traceback (most recent call last):" {
		s.traceback = true
		return false
	}
	if !s.traceback || raw != strings.TrimLeft(raw, " \t") || strings.HasPrefix(t, "File ") {
		return false
	}
	s.traceback = false
	c.score, c.kind = scoreTraceback, exceptionName(t)
	return true
}

// lineRules are tried in order; the first that matches rates the line.
var lineRules = []func(raw, t string, c *candidate) bool{
	javaCause, goPanic, rustPanic, testHeader, compileError, phpFatal, exception, shellError, toolError, wrapperLine, trouble,
}

func javaCause(_, t string, c *candidate) bool {
	rest, ok := strings.CutPrefix(t, "Caused by: ")
	if !ok {
		return false
	}
	c.score, c.kind = scoreCause, exceptionName(rest)
	return true
}

func goPanic(_, t string, c *candidate) bool {
	switch {
	case strings.HasPrefix(t, "panic: ") && !strings.HasPrefix(t, "panic: test timed out"):
		c.text = strings.TrimSuffix(trimBrackets(t), " [recovered]")
	case strings.HasPrefix(t, "panic: test timed out"):
	case strings.HasPrefix(t, "fatal error: ") && !strings.Contains(t, ".h:") && !strings.Contains(t, ".c:"):
		c.score, c.kind, c.first = scorePanic, "fatal error", true
		return true
	default:
		return false
	}
	c.score, c.kind, c.first = scorePanic, "panic", true
	return true
}

func rustPanic(_, t string, c *candidate) bool {
	if !strings.HasPrefix(t, "thread '") || !strings.Contains(t, " panicked at ") {
		return false
	}
	c.score, c.kind, c.first = scorePanic, "panic", true
	return true
}

// testHeader rates a failing test's header: go's --- FAIL, Jest's ●,
// Vitest's FAIL file > test, pytest's FAILED x::y - message, Maven's
// "Class.test:12 message" result lines.
func testHeader(raw, t string, c *candidate) bool {
	switch {
	case strings.HasPrefix(t, "--- FAIL: "), strings.HasPrefix(t, "not ok ") && strings.HasPrefix(raw, "not ok "):
	case strings.HasPrefix(t, "● ") && t != "● Test suite failed to run":
	case strings.HasPrefix(t, "FAIL ") && strings.Contains(t, " > "):
	case strings.HasPrefix(t, "FAILED ") && strings.Contains(t, "::"):
		if _, msg, ok := strings.Cut(t, " - "); ok {
			c.kind = exceptionName(msg)
		}
	case strings.HasPrefix(raw, "[ERROR]   ") && strings.Contains(t, ":") && !strings.Contains(t, " » ") && isJavaTest(t):
	default:
		return false
	}
	c.score, c.first = scoreTest, true
	return true
}

// isJavaTest reads "CalcTest.addsLarge:9 expected…".
func isJavaTest(t string) bool {
	head, _, _ := strings.Cut(t, " ")
	name, line, ok := strings.Cut(head, ":")
	_, rest, isInt := leadingInt(line)
	return ok && isInt && rest == "" && strings.Contains(name, ".")
}

// compileError rates a compiler's error: rustc's error[E0308], tsc's
// error TS2322, C#'s error CS0103, "file:12:3: error: …" (gcc, clang,
// javac), Go's "x.go:12:3: …", Maven's "X.java:[5,77] …", deno's
// "TS2307 [ERROR]: …".
func compileError(_, t string, c *candidate) bool {
	switch {
	case strings.HasPrefix(t, "error[E"):
		code, _, _ := strings.Cut(t[len("error["):], "]")
		c.kind = code
	case strings.Contains(t, "error TS") || strings.Contains(t, "error CS"):
		c.kind = codeAfter(t, "error ")
	case strings.HasPrefix(t, "TS") && strings.Contains(t, " [ERROR]: "):
		c.kind, _, _ = strings.Cut(t, " ")
	case isFileLine(t):
	default:
		return false
	}
	c.score, c.first = scoreCompile, true
	return true
}

// codeAfter is the code word after prefix: "TS2322" in "error TS2322: …".
func codeAfter(t, prefix string) string {
	_, rest, _ := strings.Cut(t, prefix)
	code, _, _ := strings.Cut(rest, ":")
	return code
}

// isFileLine reads "path.ext:12:3: message" or "path.ext:12: error: …" or
// "path.java:[5,77] message" (with a vet: prefix, for go vet).
func isFileLine(t string) bool {
	t = strings.TrimPrefix(t, "vet: ")
	path, rest, ok := strings.Cut(t, ":")
	if !ok || strings.ContainsAny(path, " \t") || !strings.Contains(path, ".") {
		return false
	}
	if strings.HasPrefix(rest, "[") {
		return strings.Contains(rest, ",") && strings.Contains(rest, "] ")
	}
	_, rest, ok = leadingInt(rest)
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, ":") {
		if _, r, ok := leadingInt(rest[1:]); ok {
			rest = r
		}
	}
	msg := strings.TrimPrefix(rest, ": ")
	return strings.HasPrefix(rest, ": ") && (strings.HasSuffix(path, ".go") || strings.HasPrefix(msg, "error") || strings.HasPrefix(msg, "fatal error"))
}

// phpFatal rates "PHP Fatal error:  Uncaught ParseError: …".
func phpFatal(_, t string, c *candidate) bool {
	rest, ok := strings.CutPrefix(t, "PHP Fatal error:")
	if !ok {
		rest, ok = strings.CutPrefix(t, "PHP Parse error:")
	}
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(strings.TrimSpace(rest), "Uncaught ")
	c.score, c.kind, c.first = scoreException, exceptionName(rest), true
	return true
}

// exception rates an exception with its message: Python's and Node's
// "ValueError: …", "Error [ERR_X]: …", Java's "Exception in thread
// "main" x.y.Z: …", Elixir's "** (ArgumentError) …".
func exception(_, t string, c *candidate) bool {
	t = strings.TrimPrefix(t, "Uncaught ")
	t = strings.TrimPrefix(t, "error: ")
	text := t
	if rest, ok := strings.CutPrefix(t, "Exception in thread "); ok {
		if _, after, ok := strings.Cut(rest, "\" "); ok {
			t = after
		}
	}
	if rest, ok := strings.CutPrefix(t, "** ("); ok {
		name, _, ok := strings.Cut(rest, ")")
		if ok && isErrorName(name) {
			c.score, c.kind = scoreException, name
			return true
		}
	}
	name := exceptionName(t)
	if name == "" {
		return false
	}
	c.score, c.kind, c.text = scoreException, name, text
	return true
}

// exceptionName is the error type a line starts with ("ValueError" in
// "ValueError: …", "java.io.IOException", "ERR_MODULE_NOT_FOUND" in
// "Error [ERR_MODULE_NOT_FOUND]: …", "ENOENT" in "Error: ENOENT: …"), or "".
func exceptionName(t string) string {
	i := 0
	for i < len(t) && (isWordByte(t[i]) || t[i] == '.' || t[i] == '$') {
		i++
	}
	name, rest := t[:i], t[i:]
	if !isErrorName(name) {
		return ""
	}
	if code, ok := strings.CutPrefix(rest, " ["); ok {
		code, rest, _ = strings.Cut(code, "]")
		if isUpperCode(code) {
			return code
		}
	}
	if rest != "" && rest != ":" && !strings.HasPrefix(rest, ": ") {
		return ""
	}
	if code, _, ok := strings.Cut(strings.TrimPrefix(rest, ": "), ":"); ok && isUpperCode(code) && strings.HasPrefix(code, "E") {
		return code
	}
	return name
}

// isErrorName reports a type name that names an error.
func isErrorName(name string) bool {
	simple := name[strings.LastIndexByte(name, '.')+1:]
	if simple == "" || simple[0] < 'A' || simple[0] > 'Z' {
		return false
	}
	for _, suffix := range []string{"Error", "Exception", "Exit", "Interrupt", "Failure", "Fault", "Panic", "Rejection"} {
		if strings.HasSuffix(simple, suffix) {
			return true
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// isUpperCode reads ERR_MODULE_NOT_FOUND, ENOENT, E404.
func isUpperCode(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] == '_' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}

// shellPhrases are a shell's or a coreutil's error endings, as kinds.
var shellPhrases = []string{"command not found", "No such file or directory", "Permission denied", "Is a directory",
	"Not a directory", "cannot execute binary file", "not found"}

func shellError(_, t string, c *candidate) bool {
	for _, p := range shellPhrases {
		if strings.HasSuffix(t, ": "+p) || strings.Contains(t, ": "+p+" ") || strings.HasPrefix(t, "zsh: "+p+": ") ||
			p != "not found" && strings.Contains(t, "] "+p) {
			if p == "not found" {
				p = "command not found" // sh: 1: x: not found
			}
			c.score, c.kind, c.first = scoreShell, p, true
			return true
		}
	}
	return false
}

// toolError rates "error: …", "fatal: …", "ERROR: …", "Error: …".
func toolError(_, t string, c *candidate) bool {
	for _, p := range []string{"error: ", "fatal: ", "ERROR: ", "ERROR ", "FATAL: ", "Fatal: ", "Error: ", "E: "} {
		if strings.HasPrefix(t, p) {
			c.score, c.first = scoreToolError, true
			return true
		}
	}
	return false
}

// wrapperLine rates what a wrapper says about the command it ran: npm's
// message lines, cargo's "could not compile", a test runner's verdict.
func wrapperLine(_, t string, c *candidate) bool {
	switch {
	case strings.HasPrefix(t, "npm ERR! "), strings.HasPrefix(t, "npm error "):
		c.score = scoreWrapper
		if code, ok := strings.CutPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "npm ERR! "), "npm error "), "code "); ok {
			c.kind, c.score = code, scoreHint
		}
	case strings.HasPrefix(t, "error: could not compile"), strings.HasPrefix(t, "error: test failed"), strings.HasPrefix(t, "FAIL\t"),
		t == "FAIL", t == "FAILED", t == "BUILD FAILURE", strings.HasPrefix(t, "BUILD FAILED"), t == "Errors while running CTest",
		strings.HasPrefix(t, "Failed to execute goal"), t == "ERRORS!", t == "FAILURES!", t == "error: Test failed":
		c.score = scoreHint
	default:
		return false
	}
	return true
}

// troubleWords say that something went wrong.
var troubleWords = []string{"No test", "No tests", "no test", "did not match", "failed", "Failed", "refused", "denied", "cannot", "can't", "Cannot", "unable", "Unable",
	"not found", "missing", "invalid", "Invalid", "unexpected", "Unexpected", "undefined", "timed out", "timeout", "error", "Error"}

func trouble(_, t string, c *candidate) bool {
	for _, w := range troubleWords {
		if strings.Contains(t, w) {
			c.score = scoreTrouble
			return true
		}
	}
	return false
}
