package testcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/check"
)

// lexRust tokenizes Rust: raw identifiers, lifetimes told from character
// literals, strings (which may span lines), raw strings r#"..."#, byte and
// C strings, nested block comments. Attributes are the tokens # [ ... ].
func lexRust(src []byte) ([]tok, []comment, *lexError) {
	l := &jsLexer{src: src, line: 1, col: 1, toks: make([]tok, 0, len(src)/6+16)}
	if len(src) > 2 && src[0] == '#' && src[1] == '!' && src[2] != '[' { // a shebang, not #![attr]
		for l.i < len(src) && src[l.i] != '\n' {
			l.adv()
		}
	}
	for l.err == nil && l.i < len(l.src) {
		c := l.src[l.i]
		line, col := l.line, l.col
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			l.adv()
		case c == '/' && l.peek(1) == '/':
			start := l.i
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.adv()
			}
			l.comments = append(l.comments, comment{line, line, string(l.src[start:l.i])})
		case c == '/' && l.peek(1) == '*':
			start, depth := l.i, 0
			for l.i < len(l.src) {
				if l.src[l.i] == '/' && l.peek(1) == '*' {
					depth++
					l.adv()
				} else if l.src[l.i] == '*' && l.peek(1) == '/' {
					depth--
					l.adv()
					if depth == 0 {
						l.adv()
						break
					}
				}
				l.adv()
			}
			if depth != 0 {
				l.fail(line, col, "a /* comment is not closed")
				return l.toks, l.comments, l.err
			}
			l.comments = append(l.comments, comment{line, l.line, string(l.src[start:l.i])})
		case c == '"':
			l.rustString(line, col, 0)
		case (c == 'r' || c == 'b' || c == 'c') && l.rustPrefixed(line, col):
		case c == '\'':
			l.rustQuote(line, col)
		case c >= '0' && c <= '9':
			start := l.i
			for l.i < len(l.src) {
				d := l.src[l.i]
				if d == '.' && l.peek(1) >= '0' && l.peek(1) <= '9' && !strings.Contains(string(l.src[start:l.i]), ".") ||
					d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '_' {
					l.adv()
					continue
				}
				break
			}
			l.emit(tNumber, string(l.src[start:l.i]), line, col)
		case c >= utf8.RuneSelf || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			r, _ := utf8.DecodeRune(l.src[l.i:])
			if r == '\ufeff' || unicode.IsSpace(r) {
				l.skipRune()
				continue
			}
			if !isIdentStart(r) || r == '$' || r == '\\' {
				l.fail(line, col, "unexpected character %q", r)
				return l.toks, l.comments, l.err
			}
			l.ident(line, col, 0)
		default:
			l.rustPunct(line, col)
		}
	}
	return l.toks, l.comments, l.err
}

var rustOps = []string{"::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "..=", "...", ".."}

func (l *jsLexer) rustPunct(line, col int) {
	rest := l.src[l.i:]
	for _, op := range rustOps {
		if len(rest) >= len(op) && string(rest[:len(op)]) == op {
			for range op {
				l.adv()
			}
			l.punct(op, line, col)
			return
		}
	}
	l.adv()
	l.punct(string(rest[:1]), line, col)
}

// rustPrefixed scans r"...", r#"..."#, r#ident, b"...", br"...", b'x',
// c"..." and cr"..."; false when the letter starts a plain identifier.
func (l *jsLexer) rustPrefixed(line, col int) bool {
	j := l.i
	if l.src[j] == 'b' || l.src[j] == 'c' {
		j++
		if j < len(l.src) && l.src[j] == '"' {
			for l.i < j {
				l.adv()
			}
			l.rustString(line, col, 0)
			return true
		}
		if l.src[l.i] == 'b' && j < len(l.src) && l.src[j] == '\'' {
			l.adv()
			l.rustQuote(line, col)
			return true
		}
	}
	if j >= len(l.src) || l.src[j] != 'r' {
		return false
	}
	j++
	hashes := 0
	for j < len(l.src) && l.src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(l.src) || l.src[j] != '"' {
		if hashes == 1 && l.src[l.i] == 'r' && j < len(l.src) && l.src[j] < utf8.RuneSelf && isIdentStart(rune(l.src[j])) {
			l.adv() // r#ident, a raw identifier
			l.adv()
			l.ident(line, col, 0)
			return true
		}
		return false
	}
	for l.i <= j {
		l.adv()
	}
	start := l.i
	closing := "\"" + strings.Repeat("#", hashes)
	for l.i < len(l.src) {
		if string(l.src[l.i:min(len(l.src), l.i+len(closing))]) == closing {
			l.emit(tString, string(l.src[start:l.i]), line, col)
			for range closing {
				l.adv()
			}
			return true
		}
		l.adv()
	}
	l.fail(line, col, "a raw string is not closed")
	return true
}

// rustString scans "..." (which may span lines) from its opening quote.
func (l *jsLexer) rustString(line, col, _ int) {
	l.adv()
	start := l.i
	for l.i < len(l.src) {
		switch l.src[l.i] {
		case '"':
			l.emit(tString, string(l.src[start:l.i]), line, col)
			l.adv()
			return
		case '\\':
			l.adv()
			if l.i < len(l.src) {
				l.adv()
			}
		default:
			l.adv()
		}
	}
	l.fail(line, col, "a string is not closed")
}

// rustQuote scans a character literal ('a', '\n', '\u{1F600}') or a
// lifetime ('a, 'static), which has no closing quote.
func (l *jsLexer) rustQuote(line, col int) {
	rest := l.src[l.i+1:]
	if len(rest) >= 2 && rest[0] == '\\' {
		end := strings.IndexByte(string(rest[2:min(len(rest), 14)]), '\'') + 2 // past the escaped character
		if end < 2 {
			l.fail(line, col, "a character literal is not closed")
			return
		}
		for range end + 2 {
			l.adv()
		}
		l.emit(tString, "", line, col)
		return
	}
	if _, n := utf8.DecodeRune(rest); n > 0 && len(rest) > n && rest[n] == '\'' {
		for range n + 2 {
			l.adv()
		}
		l.emit(tString, "", line, col)
		return
	}
	l.adv() // a lifetime: the quote, then its name
	if l.i < len(l.src) && (l.src[l.i] >= utf8.RuneSelf || isIdentStart(rune(l.src[l.i]))) {
		l.ident(line, col, 1)
		return
	}
	l.fail(line, col, "a stray quote")
}

// rustTestAttr reports whether an attribute's path marks a test: #[test],
// #[tokio::test], #[async_std::test], #[sqlx::test], #[test_log::test],
// #[rstest], #[test_case(...)], #[wasm_bindgen_test], #[quickcheck].
func rustTestAttr(path string) bool {
	last := path[strings.LastIndex(path, ":")+1:]
	return last == "test" || last == "rstest" || last == "test_case" || last == "wasm_bindgen_test" || last == "quickcheck"
}

// rustAttr is one #[...] attribute.
type rustAttr struct {
	path  string
	at    int    // the # token
	body  [2]int // the tokens inside the brackets
	value bool   // #[name = "..."] or #[name("...")] with a non-empty string
}

func checkRust(file check.File) []check.Finding {
	toks, comments, err := lexRust(file.Content)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "Rust")}
	}
	match, err := jsMatch(toks)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "Rust")}
	}
	f := &javaFile{jsFile: jsFile{path: file.Path, toks: toks, comments: comments, match: match}, methods: map[string][][2]int{}, memo: map[string]int{}}
	f.rustScan()
	imports := rustImports(f)
	var out []check.Finding
	for i := 0; i < len(f.toks); i++ {
		if !f.punct(i, "#") || !f.punct(i+1, "[") {
			continue
		}
		var attrs []rustAttr
		k := i
		for f.punct(k, "#") && f.punct(k+1, "[") {
			end := f.match[k+1]
			a := rustAttr{at: k, body: [2]int{k + 2, end}}
			var p strings.Builder
			n := k + 2
			for ; n < end && (f.ident(n) || f.punct(n, "::")); n++ {
				p.WriteString(f.toks[n].text)
			}
			a.path = p.String()
			for m := n; m < end; m++ {
				if f.toks[m].kind == tString && strings.TrimSpace(f.toks[m].text) != "" {
					a.value = true
				}
			}
			attrs = append(attrs, a)
			k = end + 1
		}
		test, shouldPanic := false, false
		for _, a := range attrs {
			test = test || rustTestAttr(a.path)
			shouldPanic = shouldPanic || a.path == "should_panic"
		}
		name, body := f.rustFn(k)
		i = k - 1
		if !test || name < 0 {
			continue
		}
		for _, a := range attrs {
			if a.path == "ignore" && !a.value && !f.commentNear(f.toks[a.at].line, f.toks[a.at].line) {
				t := f.toks[a.at]
				out = append(out, check.Finding{Rule: ruleSkipped, File: f.path, Line: t.line, Col: t.col,
					Message: "the test " + f.toks[name].text + " is ignored with #[ignore] and no reason",
					Fix:     "give the reason: #[ignore = \"why, and the issue that tracks re-enabling it\"]"})
			}
		}
		out = append(out, f.rustTest(name, body, shouldPanic, imports)...)
	}
	return out
}

// rustFn reads the fn item at k (after its attributes): its name token and
// body; -1 when the item is not a function with a body.
func (f *javaFile) rustFn(k int) (int, [2]int) {
	for j := k; j < len(f.toks) && j < k+32; j++ {
		if f.is(j, tIdent, "fn") && f.ident(j+1) {
			n := j + 2
			for n < len(f.toks) && !f.punct(n, "{") && !f.punct(n, ";") {
				if f.punct(n, "(") || f.punct(n, "[") {
					n = f.match[n]
				}
				n++
			}
			if f.punct(n, "{") {
				return j + 1, [2]int{n + 1, f.match[n]}
			}
			return -1, [2]int{}
		}
		if f.punct(j, "{") || f.punct(j, ";") || f.punct(j, "#") {
			break
		}
	}
	return -1, [2]int{}
}

// rustScan collects the file's fn bodies by name, and its loops.
func (f *javaFile) rustScan() {
	for j := 0; j < len(f.toks); j++ {
		switch {
		case f.is(j, tIdent, "fn") && f.ident(j+1):
			if name, body := f.rustFn(j); name >= 0 {
				f.methods[f.toks[name].text] = append(f.methods[f.toks[name].text], body)
			}
		case f.is(j, tIdent, "loop") && f.punct(j+1, "{"):
			f.loops = append(f.loops, [2]int{j + 1, f.match[j+1]})
		case f.is(j, tIdent, "while") || f.is(j, tIdent, "for") && !f.punct(j-1, "<"):
			for n := j + 1; n < len(f.toks) && n < j+256; n++ {
				if f.punct(n, "(") || f.punct(n, "[") {
					n = f.match[n]
					continue
				}
				if f.punct(n, "{") {
					f.loops = append(f.loops, [2]int{n, f.match[n]})
					break
				}
				if f.punct(n, ";") {
					break
				}
			}
		}
	}
	f.inLoop = within(len(f.toks), f.loops)
}

// rustImports maps the names use declarations bring in to their paths:
// sleep -> std::thread::sleep.
func rustImports(f *javaFile) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(f.toks); i++ {
		if !f.is(i, tIdent, "use") {
			continue
		}
		var p []string
		for j := i + 1; j < len(f.toks) && !f.punct(j, ";") && j < i+64; j++ {
			if f.ident(j) {
				p = append(p, f.toks[j].text)
				if f.punct(j+1, ";") || f.punct(j+1, ",") || f.punct(j+1, "}") {
					out[f.toks[j].text] = strings.Join(p, "::")
					p = p[:len(p)-1]
				}
			}
		}
	}
	return out
}

func (f *javaFile) rustTest(name int, body [2]int, shouldPanic bool, imports map[string]string) []check.Finding {
	t := f.toks[name]
	var out []check.Finding
	if body[0] >= body[1] {
		return append(out, check.Finding{Rule: ruleEmpty, File: f.path, Line: t.line, Col: t.col,
			Message: "the test " + t.text + " has an empty body: it passes without running anything",
			Fix:     "write the test, or delete it; a placeholder is #[ignore = \"not written yet: <issue>\"]"})
	}
	if !shouldPanic && !f.rustAsserts(body, 0) && !saysNoPanic(t.text) {
		out = append(out, check.Finding{Rule: ruleNoAssertion, File: f.path, Line: t.line, Col: t.col,
			Message: "the test " + t.text + " asserts nothing: no assert!, no unwrap or ?, so it passes unless something panics",
			Fix:     "assert on the result (assert_eq!, assert!(matches!(...))), or #[should_panic] when panicking is the point"})
	}
	for k := body[0]; k < body[1]; k++ {
		if !f.is(k, tIdent, "sleep") || !f.punct(k+1, "(") || f.inLoop[k] {
			continue
		}
		var what string
		switch {
		case f.punct(k-1, "::") && f.is(k-2, tIdent, "thread"):
			what = "thread::sleep"
		case f.punct(k-1, "::") && f.is(k-2, tIdent, "time"):
			what = "time::sleep"
		case !f.punct(k-1, "::") && !f.punct(k-1, ".") && (strings.HasSuffix(imports["sleep"], "thread::sleep") || strings.HasSuffix(imports["sleep"], "time::sleep")):
			what = "sleep"
		default:
			continue
		}
		s := f.toks[k]
		out = append(out, check.Finding{Rule: ruleSleep, File: f.path, Line: s.line, Col: s.col,
			Message: what + " in " + t.text + " waits a fixed time: slow when it passes, flaky when the machine is slower",
			Fix:     "wait for the condition (a channel recv with a timeout, a Barrier, tokio::time::pause for a fake clock)"})
	}
	return out
}

// rustAsserts reports whether a body asserts: an assert*!, panic!,
// unreachable! or todo! macro, unwrap/expect/? (a test fails on the error),
// an .assert*() method (assert_cmd), or a helper fn of the file that does.
func (f *javaFile) rustAsserts(body [2]int, depth int) bool {
	for k := body[0]; k < body[1]; k++ {
		t := f.toks[k]
		if f.punct(k, "?") && !f.punct(k-1, "(") {
			return true
		}
		if t.kind != tIdent {
			continue
		}
		if f.punct(k+1, "!") && !f.punct(k+2, "=") && !rustQuietMacros[t.text] {
			// assert*!, panic!, and the macros a crate writes for its tests
			// (t!, check!, snapshot!), which nearly always assert
			return true
		}
		if f.punct(k+1, "::") && f.punct(k+2, "<") { // a turbofish: f::<T>(...)
			n := k + 3
			for d := 1; n < body[1] && d > 0; n++ {
				if f.punct(n, "<") {
					d++
				} else if f.punct(n, ">") {
					d--
				}
			}
			if !f.punct(n, "(") {
				continue
			}
		} else if !f.punct(k+1, "(") {
			continue
		}
		if f.punct(k-1, ".") && (strings.HasPrefix(t.text, "unwrap") || strings.HasPrefix(t.text, "expect") || strings.HasPrefix(t.text, "assert")) {
			return true
		}
		if strings.HasPrefix(t.text, "assert") || strings.HasPrefix(t.text, "check") || strings.HasPrefix(t.text, "verify") ||
			strings.HasPrefix(t.text, "must") || strings.HasPrefix(t.text, "should") || strings.HasPrefix(t.text, "expect") {
			return true
		}
		bodies, ok := f.methods[t.text]
		if !ok || depth >= 8 || f.punct(k-1, ".") {
			continue
		}
		switch f.memo[t.text] {
		case 1:
			return true
		case 2, 3:
			continue
		}
		f.memo[t.text] = 3
		a := false
		for _, b := range bodies {
			if f.rustAsserts(b, depth+1) {
				a = true
				break
			}
		}
		f.memo[t.text] = map[bool]int{true: 1, false: 2}[a]
		if a {
			return true
		}
	}
	return false
}

// rustQuietMacros are macros that cannot fail a test.
var rustQuietMacros = map[string]bool{"println": true, "print": true, "eprintln": true, "eprint": true, "format": true,
	"format_args": true, "vec": true, "write": true, "writeln": true, "dbg": true, "quote": true, "concat": true,
	"stringify": true, "include_str": true, "include_bytes": true, "include": true, "env": true, "option_env": true,
	"cfg": true, "line": true, "file": true, "column": true, "module_path": true, "matches": true, "macro_rules": true,
	"thread_local": true, "parse_quote": true, "black_box": true}
