package runs

import "strings"

// complete joins a line with the one that says what it is about, where
// the output splits the two: a Go test's assertion, a Rust panic's
// message, a Jest or Vitest failure's error, an exception whose message
// is on the next line, pytest's FAILED line cut short. The kind is the
// line's, else the error type the added line names.
func complete(ls []string, c candidate) (string, string) {
	head, detail := c.text, ""
	t := c.text
	switch {
	case strings.HasPrefix(t, "--- FAIL: "):
		name, _, _ := strings.Cut(strings.TrimPrefix(t, "--- FAIL: "), " (")
		head, detail = "--- FAIL: "+name, goAssertion(ls, c.at)
	case c.kind == "panic" && strings.HasSuffix(t, ":"), strings.HasPrefix(t, "● "), strings.HasPrefix(t, "FAIL "),
		c.score == scoreException && strings.HasSuffix(t, ":"):
		head, detail = strings.TrimSuffix(t, ":"), nextText(ls, c.at)
	case strings.HasPrefix(t, "not ok "):
		detail = tapError(ls, c.at)
	case strings.HasPrefix(t, "FAILED ") && strings.HasSuffix(t, "..."):
		return pytestFull(ls, t), c.kind
	}
	if detail == "" {
		return t, c.kind
	}
	if c.kind == "" {
		c.kind = exceptionName(detail)
	}
	return head + ": " + detail, c.kind
}

// nextText is the next non-empty line after i (within a few), as text.
func nextText(ls []string, i int) string {
	for j := i + 1; j < len(ls) && j <= i+3; j++ {
		if t := lineText(ls[j]); t != "" && !isRule(t) {
			return t
		}
	}
	return ""
}

// goAssertion is the "x_test.go:12: message" line of a failing Go test:
// with -v it comes before the --- FAIL line, after the test's === RUN;
// without, after it.
func goAssertion(ls []string, i int) string {
	for j := i - 1; j >= 0 && j >= i-maxGoLog; j-- {
		if strings.HasPrefix(ls[j], "=== RUN") {
			for k := j + 1; k < i; k++ {
				if d, ok := goTestLog(ls[k]); ok {
					return d
				}
			}
			return ""
		}
	}
	for j := i + 1; j < len(ls) && j <= i+4; j++ {
		if d, ok := goTestLog(ls[j]); ok {
			return d
		}
	}
	return ""
}

// maxGoLog is how far back a failing Go test's log is looked for.
const maxGoLog = 20

// goTestLog reads an indented "calc_test.go:13: message" line.
func goTestLog(l string) (string, bool) {
	t := strings.TrimSpace(l)
	if t == l {
		return "", false
	}
	file, rest, ok := strings.Cut(t, ":")
	if !ok || !strings.HasSuffix(file, "_test.go") {
		return "", false
	}
	_, rest, ok = leadingInt(rest)
	return t, ok && strings.HasPrefix(rest, ": ")
}

// pytestFull completes a FAILED line that pytest cut to the terminal's
// width with the full "E   Error: message" line it starts.
func pytestFull(ls []string, t string) string {
	head, msg, ok := strings.Cut(t, " - ")
	if !ok {
		return t
	}
	prefix := strings.TrimSuffix(msg, "...")
	for _, l := range ls {
		if e, ok := strings.CutPrefix(l, "E "); ok {
			if e = strings.TrimSpace(e); strings.HasPrefix(e, prefix) {
				return head + " - " + e
			}
		}
	}
	return t
}

// tapError is the error of a TAP "not ok" test, from its YAML block:
// "error: 'message'" or "error: |-" and the message's first line.
func tapError(ls []string, i int) string {
	for j := i + 1; j < len(ls) && j <= i+maxTAPBlock; j++ {
		t := strings.TrimSpace(ls[j])
		if strings.HasPrefix(t, "not ok ") || t == "..." {
			break
		}
		if msg, ok := strings.CutPrefix(t, "error: "); ok {
			if msg == "|-" || msg == "|" || msg == ">-" {
				return nextText(ls, j)
			}
			return strings.Trim(msg, `'"`)
		}
	}
	return ""
}

// maxTAPBlock is how far a TAP test's YAML block is read.
const maxTAPBlock = 12
