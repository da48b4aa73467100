package brace

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

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

func CheckRust(file check.File) []check.Finding {
	toks, comments, err := scan.LexRust(file.Content)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "Rust")}
	}
	match, err := JSMatch(toks)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "Rust")}
	}
	f := &JavaFile{JSFile: JSFile{path: file.Path, Toks: toks, comments: comments, Match: match}, Methods: map[string][][2]int{}, memo: map[string]int{}}
	f.rustScan()
	imports := rustImports(f)
	var out []check.Finding
	for i := 0; i < len(f.Toks); i++ {
		if !f.punct(i, "#") || !f.punct(i+1, "[") {
			continue
		}
		var attrs []rustAttr
		k := i
		for f.punct(k, "#") && f.punct(k+1, "[") {
			end := f.Match[k+1]
			a := rustAttr{at: k, body: [2]int{k + 2, end}}
			var p strings.Builder
			n := k + 2
			for ; n < end && (f.ident(n) || f.punct(n, "::")); n++ {
				p.WriteString(f.Toks[n].Text)
			}
			a.path = p.String()
			for m := n; m < end; m++ {
				if f.Toks[m].Kind == scan.TString && strings.TrimSpace(f.Toks[m].Text) != "" {
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
			if a.path == "ignore" && !a.value && !f.commentNear(f.Toks[a.at].Line, f.Toks[a.at].Line) {
				t := f.Toks[a.at]
				out = append(out, check.Finding{Rule: scan.RuleSkipped, File: f.path, Line: t.Line, Col: t.Col,
					Message: "the test " + f.Toks[name].Text + " is ignored with #[ignore] and no reason",
					Fix:     "give the reason: #[ignore = \"why, and the issue that tracks re-enabling it\"]"})
			}
		}
		out = append(out, f.rustTest(name, body, shouldPanic, imports)...)
	}
	return out
}

// rustFn reads the fn item at k (after its attributes): its name token and
// body; -1 when the item is not a function with a body.
func (f *JavaFile) rustFn(k int) (int, [2]int) {
	for j := k; j < len(f.Toks) && j < k+32; j++ {
		if f.Is(j, scan.TIdent, "fn") && f.ident(j+1) {
			n := j + 2
			for n < len(f.Toks) && !f.punct(n, "{") && !f.punct(n, ";") {
				if f.punct(n, "(") || f.punct(n, "[") {
					n = f.Match[n]
				}
				n++
			}
			if f.punct(n, "{") {
				return j + 1, [2]int{n + 1, f.Match[n]}
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
func (f *JavaFile) rustScan() {
	for j := 0; j < len(f.Toks); j++ {
		switch {
		case f.Is(j, scan.TIdent, "fn") && f.ident(j+1):
			if name, body := f.rustFn(j); name >= 0 {
				f.Methods[f.Toks[name].Text] = append(f.Methods[f.Toks[name].Text], body)
			}
		case f.Is(j, scan.TIdent, "loop") && f.punct(j+1, "{"):
			f.loops = append(f.loops, [2]int{j + 1, f.Match[j+1]})
		case f.Is(j, scan.TIdent, "while") || f.Is(j, scan.TIdent, "for") && !f.punct(j-1, "<"):
			for n := j + 1; n < len(f.Toks) && n < j+256; n++ {
				if f.punct(n, "(") || f.punct(n, "[") {
					n = f.Match[n]
					continue
				}
				if f.punct(n, "{") {
					f.loops = append(f.loops, [2]int{n, f.Match[n]})
					break
				}
				if f.punct(n, ";") {
					break
				}
			}
		}
	}
	f.inLoop = scan.Within(len(f.Toks), f.loops)
}

// rustImports maps the names use declarations bring in to their paths:
// sleep -> std::thread::sleep.
func rustImports(f *JavaFile) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(f.Toks); i++ {
		if !f.Is(i, scan.TIdent, "use") {
			continue
		}
		var p []string
		for j := i + 1; j < len(f.Toks) && !f.punct(j, ";") && j < i+64; j++ {
			if f.ident(j) {
				p = append(p, f.Toks[j].Text)
				if f.punct(j+1, ";") || f.punct(j+1, ",") || f.punct(j+1, "}") {
					out[f.Toks[j].Text] = strings.Join(p, "::")
					p = p[:len(p)-1]
				}
			}
		}
	}
	return out
}

func (f *JavaFile) rustTest(name int, body [2]int, shouldPanic bool, imports map[string]string) []check.Finding {
	t := f.Toks[name]
	var out []check.Finding
	if body[0] >= body[1] {
		return append(out, check.Finding{Rule: scan.RuleEmpty, File: f.path, Line: t.Line, Col: t.Col,
			Message: "the test " + t.Text + " has an empty body: it passes without running anything",
			Fix:     "write the test, or delete it; a placeholder is #[ignore = \"not written yet: <issue>\"]"})
	}
	if !shouldPanic && !f.rustAsserts(body, 0) && !scan.SaysNoPanic(t.Text) {
		out = append(out, check.Finding{Rule: scan.RuleNoAssertion, File: f.path, Line: t.Line, Col: t.Col,
			Message: "the test " + t.Text + " asserts nothing: no assert!, no unwrap or ?, so it passes unless something panics",
			Fix:     "assert on the result (assert_eq!, assert!(matches!(...))), or #[should_panic] when panicking is the point"})
	}
	for k := body[0]; k < body[1]; k++ {
		if !f.Is(k, scan.TIdent, "sleep") || !f.punct(k+1, "(") || f.inLoop[k] {
			continue
		}
		var what string
		switch {
		case f.punct(k-1, "::") && f.Is(k-2, scan.TIdent, "thread"):
			what = "thread::sleep"
		case f.punct(k-1, "::") && f.Is(k-2, scan.TIdent, "time"):
			what = "time::sleep"
		case !f.punct(k-1, "::") && !f.punct(k-1, ".") && (strings.HasSuffix(imports["sleep"], "thread::sleep") || strings.HasSuffix(imports["sleep"], "time::sleep")):
			what = "sleep"
		default:
			continue
		}
		s := f.Toks[k]
		out = append(out, check.Finding{Rule: scan.RuleSleep, File: f.path, Line: s.Line, Col: s.Col,
			Message: what + " in " + t.Text + " waits a fixed time: slow when it passes, flaky when the machine is slower",
			Fix:     "wait for the condition (a channel recv with a timeout, a Barrier, tokio::time::pause for a fake clock)"})
	}
	return out
}

// rustAsserts reports whether a body asserts: an assert*!, panic!,
// unreachable! or todo! macro, unwrap/expect/? (a test fails on the error),
// an .assert*() method (assert_cmd), or a helper fn of the file that does.
func (f *JavaFile) rustAsserts(body [2]int, depth int) bool {
	for k := body[0]; k < body[1]; k++ {
		t := f.Toks[k]
		if f.punct(k, "?") && !f.punct(k-1, "(") {
			return true
		}
		if t.Kind != scan.TIdent {
			continue
		}
		if f.punct(k+1, "!") && !f.punct(k+2, "=") && !rustQuietMacros[t.Text] {
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
		if f.punct(k-1, ".") && (strings.HasPrefix(t.Text, "unwrap") || strings.HasPrefix(t.Text, "expect") || strings.HasPrefix(t.Text, "assert")) {
			return true
		}
		if strings.HasPrefix(t.Text, "assert") || strings.HasPrefix(t.Text, "check") || strings.HasPrefix(t.Text, "verify") ||
			strings.HasPrefix(t.Text, "must") || strings.HasPrefix(t.Text, "should") || strings.HasPrefix(t.Text, "expect") {
			return true
		}
		bodies, ok := f.Methods[t.Text]
		if !ok || depth >= 8 || f.punct(k-1, ".") {
			continue
		}
		switch f.memo[t.Text] {
		case 1:
			return true
		case 2, 3:
			continue
		}
		f.memo[t.Text] = 3
		a := false
		for _, b := range bodies {
			if f.rustAsserts(b, depth+1) {
				a = true
				break
			}
		}
		f.memo[t.Text] = map[bool]int{true: 1, false: 2}[a]
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
