package secrets

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/redact"
)

// skipKinds are the Cairn shapes the scanner does not run, judging those
// kinds itself: credential assignments (at a higher bar than a memory entry
// is redacted at), private keys (findPEM pairs BEGIN and END lines in one
// pass, where the shape's regexp looks ahead from every BEGIN), and AWS
// secret keys (the shape's prose form tries a regexp at every word of a
// text that mentions "secret", some 150 ms a MiB; the assignment form is
// read below with the other assignments).
var skipKinds = []redact.Kind{redact.KindCredentialAssignment, redact.KindPrivateKey, redact.KindAWSSecretAccessKey}

// awsSecretName: aws_secret_access_key, SecretAccessKey, AWS_SECRET.
func awsSecretName(name string) bool {
	words := nameWords(name)
	aws, secret, access := false, false, false
	for _, w := range words {
		switch w {
		case "aws":
			aws = true
		case "secret", "secretaccesskey":
			secret = true
		case "access":
			access = true
		}
	}
	return secret && (aws || access)
}

// found is one secret before it becomes a finding.
type found struct {
	rule       string
	what       string // "a GitHub token", "the value of api_key"
	start, end int
}

// scan finds the secrets in text, a file at p. lineNos, when set, gives
// the file line number of each line of text (ScanLines); otherwise lines
// count from 1.
func scan(p, text string, lineNos []int, o options) []check.Finding {
	var all []found
	for _, b := range findPEM(text) {
		if pemBody(text[b[0]:b[1]]) >= 64 {
			all = append(all, found{rule: "secrets/private-key", what: "a private key", start: b[0], end: b[1]})
		}
	}
	for _, s := range redact.FindSecrets(text, skipKinds...) {
		r, ok := cairnKinds[s.Kind]
		if !ok || !substantial(s.Kind, text[s.Start:s.End]) {
			continue // the credential kind: the assignment test below decides
		}
		all = append(all, found{rule: r.ID, what: article(r.Title), start: s.Start, end: s.End})
	}
	for _, m := range redact.FindShapes(text) {
		all = append(all, found{rule: "secrets/" + m.Shape.Rule, what: article(m.Shape.Title()), start: m.Start, end: m.End})
	}
	code := isCode(p)
	for _, a := range assignments(text) {
		v := text[a.start:a.end]
		if code && !a.quoted {
			continue // an expression (os.Getenv("X"), cfg.Token), not a literal
		}
		switch {
		case placeholder(v):
		case a.password && passwordLiteral(v, a.name):
			all = append(all, found{rule: rulePassword, what: "the password assigned to " + a.name, start: a.start, end: a.end})
		case !a.password && awsSecretName(a.name) && len(v) == 40 && entropy(v) >= 4.4 && tokenAlphabet(v) == "base64":
			all = append(all, found{rule: "secrets/aws-secret-access-key", what: "an AWS secret access key", start: a.start, end: a.end})
		case !a.password && (generic(v, o.entropy) || a.strong && isUUID(v)):
			all = append(all, found{rule: ruleGeneric, what: "the high-entropy value of " + a.name, start: a.start, end: a.end})
		}
	}
	if len(all) == 0 {
		return nil
	}
	// A span reported by a named shape is not reported again by the
	// assignment test; the first kind found for a span wins.
	sort.SliceStable(all, func(i, j int) bool { return all[i].start < all[j].start })
	kept := all[:0]
	for _, f := range all {
		if n := len(kept); n > 0 && f.start < kept[n-1].end {
			if kept[n-1].rule == ruleGeneric || kept[n-1].rule == rulePassword {
				if f.rule != ruleGeneric && f.rule != rulePassword {
					kept[n-1] = f // the named shape says more
				}
			}
			continue
		}
		if shapePlaceholder(text[f.start:f.end]) {
			continue
		}
		kept = append(kept, f)
	}
	lines := lineStarts(text)
	out := make([]check.Finding, 0, len(kept))
	for _, f := range kept {
		line, col := position(lines, f.start)
		endLine, endCol := position(lines, max(f.start, f.end-1))
		if lineNos != nil {
			line, endLine = lineNos[min(line, len(lineNos))-1], lineNos[min(endLine, len(lineNos))-1]
		}
		secret := text[f.start:f.end]
		fd := check.Finding{
			Rule: f.rule, File: p, Line: line, Col: col, EndLine: endLine, EndCol: endCol,
			Message: fmt.Sprintf("%s is written here: %s", upperFirst(f.what), Redacted(secret)),
			Fix:     fixGeneral,
		}
		if (f.rule == ruleGeneric || f.rule == rulePassword) && testPath(p) {
			// Entropy is all the evidence there is, and a test's values are
			// fixtures far more often than keys: worth knowing, not a warning.
			fd.Severity = check.Info
			fd.Message += " (in a test file, so probably a fixture)"
		}
		out = append(out, fd)
	}
	return out
}

// Redacted shows a secret without giving it away: its first characters
// (4, or a quarter of a secret shorter than 16), "…" and its length.
func Redacted(secret string) string {
	n := min(4, len(secret)/4)
	head := secret[:n]
	if i := strings.IndexAny(head, "\r\n"); i >= 0 {
		head = head[:i]
	}
	return fmt.Sprintf("%s… (%d chars)", head, len(secret))
}

// testPath reports whether p is a test file or test data by the
// conventions of the common languages.
func testPath(p string) bool {
	base := path.Base(p)
	for _, suf := range []string{"_test.go", "_test.py", "_spec.rb", "_test.rb", "Test.java", "Tests.cs", "Test.kt"} {
		if strings.HasSuffix(base, suf) {
			return true
		}
	}
	if strings.HasPrefix(base, "test_") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "test", "tests", "__tests__", "testdata", "fixtures", "__fixtures__", "spec", "e2e", "testing":
			return true
		}
	}
	return false
}

func article(title string) string {
	switch title[0] {
	case 'A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u':
		return "an " + title
	}
	return "a " + title
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// codeExt are source files, where an unquoted value is an expression.
var codeExt = map[string]bool{
	".go": true, ".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".tsx": true, ".mts": true, ".cts": true,
	".py": true, ".rb": true, ".java": true, ".kt": true, ".kts": true, ".scala": true, ".cs": true, ".php": true, ".rs": true,
	".swift": true, ".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".m": true, ".dart": true, ".lua": true,
	".vue": true, ".svelte": true, ".ex": true, ".exs": true, ".erl": true, ".clj": true, ".groovy": true, ".r": true,
	".pl": true, ".sql": true, ".html": true, ".htm": true, ".coffee": true, ".fs": true, ".vb": true, ".zig": true, ".nim": true,
}

func isCode(p string) bool { return codeExt[strings.ToLower(path.Ext(p))] }

// placeholder reports whether v is a stand-in for a secret rather than one:
// documentation's EXAMPLE keys, xxxx, <your-key>, ${VAR}, {{ .Token }},
// changeme.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	for _, w := range []string{"example", "xxxx", "****", "....", "<", ">", "${", "{{", "}}", "$(", "%(", "%s", "#{",
		"placeholder", "your", "changeme", "change_me", "change-me", "dummy", "fake", "sample", "redacted", "replace",
		"insert", "todo", "fixme", "process.env", "os.environ", "getenv", "0000000000", "1234567890", "abcdefgh", "secret"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "@") ||
		strings.HasPrefix(v, "env:") || strings.HasPrefix(v, "vault:") || strings.HasPrefix(v, "secrets.")
}

// substantial vetoes what Cairn's redaction shapes take, at the low bar a
// memory entry is redacted at, but a file is not reported at: a PEM block
// without a key in it (a header in code, a documentation example cut with
// "..."), and a password in a URL that is a stand-in (user:password@,
// :secret@).
func substantial(k redact.Kind, v string) bool {
	switch k {
	case redact.KindPrivateKey:
		return pemBody(v) >= 64
	case redact.KindURLPassword:
		return !placeholder(v) && !standInPassword(v)
	}
	return true
}

// pemBody counts the base64 characters between a PEM block's header and
// footer lines; 0 when the body is cut short with dots (base64 has none).
func pemBody(v string) int {
	n := 0
	for _, line := range strings.Split(v, "\n") {
		if strings.Contains(line, "-----") {
			// The BEGIN/END lines; a one-line block keeps its body between them.
			parts := strings.Split(line, "-----")
			if len(parts) < 5 {
				continue
			}
			line = parts[2]
		}
		if strings.ContainsAny(line, ".…") {
			return 0
		}
		for i := 0; i < len(line); i++ {
			if isBase64(line[i]) {
				n++
			}
		}
	}
	return n
}

// standInPassword reports whether a password is a documentation stand-in:
// a word people write for "the password here", or too short to be one.
func standInPassword(v string) bool {
	if len(v) < 6 {
		return true
	}
	l := strings.ToLower(v)
	for _, w := range []string{"pass", "pwd", "secret", "test", "user", "admin", "root", "xxx", "foo", "bar", "demo", "guest", "token", "hunter2", "letmein", "qwerty", "123456"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// shapePlaceholder reports whether a token of a provider's shape is a
// documentation stand-in (AKIAIOSFODNN7EXAMPLE, ghp_xxxx…).
func shapePlaceholder(v string) bool {
	l := strings.ToLower(v)
	for _, w := range []string{"example", "xxxxxx", "******", "placeholder", "your", "dummy", "sample", "redacted", "0000000000", "1234567890"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// generic reports whether v, assigned to a secret name, looks generated:
// 16 to 512 characters over the base64 or hex alphabet, letters and
// digits, not dotted words, and an entropy over the threshold. A short
// random string cannot reach the entropy of a long one (16 characters
// carry at most 4 bits each), so the threshold is the lower of the given
// one and what a random string of v's length reaches (randomEntropy); hex
// values, of 16 letters, take both less 0.7. (A UUID is a key of the
// providers that issue UUIDs, Heroku or Snyk, only when assigned to a
// strong name; see assignment.strong.)
func generic(v string, threshold float64) bool {
	if len(v) < 16 || len(v) > 512 {
		return false
	}
	alpha := tokenAlphabet(v)
	if alpha == "" || !strings.ContainsAny(v, "0123456789") || !strings.ContainsFunc(v, isLetter) {
		return false
	}
	if looksLikeWords(v) {
		return false
	}
	need := min(threshold, randomEntropy(len(v))-0.35)
	if alpha == "hex" {
		return len(v) >= 20 && entropy(v) >= need-0.7
	}
	return entropy(v) >= need
}

// randomEntropy approximates the Shannon entropy a string of n bytes drawn
// uniformly from 62 characters has: log2(n) while nearly every character
// is distinct, flattening towards log2(62) as repeats come in.
func randomEntropy(n int) float64 {
	// With k symbols and n draws the expected number of distinct symbols is
	// k(1-(1-1/k)^n); the entropy is close to log2 of it.
	const k = 62.0
	d := k * (1 - math.Pow(1-1/k, float64(n)))
	return math.Log2(d)
}

func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := v[i]
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		if !isHex(c) {
			return false
		}
	}
	return v != "00000000-0000-0000-0000-000000000000"
}

func isLetter(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }

// looksLikeWords reports whether v is dotted or dashed words (a module
// path, a version, a CSS class, an identifier) rather than a token: most
// of its characters are in parts made of letters alone, digits alone, or
// letters then digits (v1, es2015), split by separators.
func looksLikeWords(v string) bool {
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' || r == '_' || r == '/' || r == '~' })
	if len(parts) < 2 {
		return false
	}
	wordy := 0
	for _, p := range parts {
		if isWordPart(p) {
			wordy += len(p)
		}
	}
	return wordy*2 > len(v)
}

// isWordPart: letters of one case (or capitalised), then optional digits.
func isWordPart(p string) bool {
	i := 0
	for i < len(p) && isLetter(rune(p[i])) {
		i++
	}
	letters := p[:i]
	for i < len(p) && '0' <= p[i] && p[i] <= '9' {
		i++
	}
	if i != len(p) {
		return false
	}
	if len(letters) > 1 {
		rest := letters[1:]
		return strings.ToLower(rest) == rest || strings.ToUpper(rest) == rest
	}
	return true
}

// passwordLiteral reports whether v, assigned to a password name, is a
// password rather than a reference, a placeholder or a flag: 8 to 128
// characters without spaces, not the name itself, not all one class of
// character.
func passwordLiteral(v, name string) bool {
	if len(v) < 8 || len(v) > 128 || strings.ContainsAny(v, " \t") {
		return false
	}
	l := strings.ToLower(v)
	for _, w := range []string{"pass", "pwd", "test", "true", "false", "null", "none", "required", "optional", "admin", "root", "user"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	if strings.EqualFold(v, name) || strings.ContainsAny(v, "()[]") || looksLikeWords(v) || standInPassword(v) {
		return false
	}
	for _, w := range []string{"abcdef", "012345", "123456", "qwerty"} {
		if strings.Contains(l, w) {
			return false
		}
	}
	classes := 0
	for _, f := range []func(rune) bool{
		func(r rune) bool { return 'a' <= r && r <= 'z' },
		func(r rune) bool { return 'A' <= r && r <= 'Z' },
		func(r rune) bool { return '0' <= r && r <= '9' },
		func(r rune) bool { return strings.ContainsRune("!#$%&*+-=?@^_~.,:", r) },
	} {
		if strings.ContainsFunc(v, f) {
			classes++
		}
	}
	return classes >= 2 && entropy(v) >= 2.5
}

// lineStarts returns the offset of the start of each line.
func lineStarts(s string) []int {
	out := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// position turns a byte offset into a 1-based line and column.
func position(lines []int, off int) (int, int) {
	i := sort.SearchInts(lines, off+1) - 1
	return i + 1, off - lines[i] + 1
}

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isBase64(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
