package runs

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on what is read.
const (
	maxOutput  = 64 << 10 // the output's tail that is read
	maxLine    = 2 << 10  // longer lines are clipped when read
	maxShown   = 200      // a line kept for people: summary, failure, tail
	maxFailing = 5        // failing test names kept
)

// outputLines returns the last maxOutput bytes of out as lines, without
// ANSI escapes, carriage-return redraws and trailing space.
func outputLines(out string) []string {
	if len(out) > maxOutput {
		out = out[len(out)-maxOutput:]
		if i := strings.IndexByte(out, '\n'); i >= 0 {
			out = out[i+1:] // the first line is cut
		}
	}
	raw := strings.Split(out, "\n")
	ls := make([]string, 0, len(raw))
	for _, l := range raw {
		if isGoJSON(l) {
			ls = append(ls, goJSONText(l)...)
			continue
		}
		ls = append(ls, cleanLine(l))
	}
	return ls
}

// isGoJSON reports a go test -json event, which is read as the output it
// carries.
func isGoJSON(l string) bool {
	return strings.HasPrefix(l, `{"Time":"`) && strings.Contains(l, `"Action":"`) || strings.HasPrefix(l, `{"Action":"`)
}

// goJSONText is the output a go test -json event carries, none for the
// others.
func goJSONText(l string) []string {
	if len(l) > maxLine*4 || !strings.Contains(l, `"Output"`) {
		return nil
	}
	var ev struct{ Output string }
	if json.Unmarshal([]byte(l), &ev) != nil || ev.Output == "" {
		return nil
	}
	var out []string
	for _, t := range strings.Split(strings.TrimRight(ev.Output, "\n"), "\n") {
		out = append(out, cleanLine(t))
	}
	return out
}

// cleanLine strips ANSI escapes, keeps what a terminal would show after
// the last carriage return, and trims trailing space.
func cleanLine(l string) string {
	l = strings.TrimRight(l, "\r")
	if i := strings.LastIndexByte(l, '\r'); i >= 0 {
		l = l[i+1:]
	}
	if len(l) > maxLine {
		l = l[:maxLine]
	}
	if strings.IndexByte(l, 0x1b) >= 0 {
		l = stripANSI(l)
	}
	if !utf8.ValidString(l) {
		l = strings.ToValidUTF8(l, "")
	}
	return strings.TrimRight(l, " \t")
}

// stripANSI removes CSI and OSC escape sequences; it is linear.
func stripANSI(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != 0x1b {
			b.WriteByte(s[i])
			continue
		}
		i = escapeEnd(s, i)
	}
	return b.String()
}

// escapeEnd is the index of the last byte of the escape at s[i].
func escapeEnd(s string, i int) int {
	if i+1 >= len(s) {
		return i
	}
	switch s[i+1] {
	case '[':
		for j := i + 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j
			}
		}
		return len(s) - 1
	case ']':
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 1
			}
		}
		return len(s) - 1
	}
	return i + 1
}

// clip cuts s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = "…"
	n -= len(mark)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + mark
}

// shown is a line as it is kept for people: spaces flattened, clipped.
func shown(s string) string {
	return clip(strings.Join(strings.Fields(s), " "), maxShown)
}

// leadingInt is the number s starts with (after spaces), and the rest.
func leadingInt(s string) (int, string, bool) {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, s, false
	}
	n, err := strconv.Atoi(s[:i])
	return n, s[i:], err == nil
}

// countWords reads "3 passed, 1 failed" (parts split at any of seps)
// into a map of lower-case word to count; parts that are not a count and
// a word are passed over.
func countWords(s string, seps string) (map[string]int, bool) {
	out := map[string]int{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		n, rest, ok := leadingInt(part)
		rest = strings.TrimSpace(rest)
		if ok && rest != "" {
			out[strings.ToLower(rest)] += n
		}
	}
	return out, len(out) > 0
}

// keyCounts reads "Failed: 0, Passed: 5" and "failures=1, errors=2" into
// a map of lower-case key to count.
func keyCounts(s string, seps string) map[string]int {
	out := map[string]int{}
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) }) {
		k, v, ok := strings.Cut(part, ":")
		if !ok {
			k, v, ok = strings.Cut(part, "=")
		}
		if n, _, isInt := leadingInt(v); ok && isInt {
			out[strings.ToLower(strings.TrimSpace(k))] += n
		}
	}
	return out
}

// trimParens drops a trailing parenthesised part: "(6)", "(12ms)".
func trimParens(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndexByte(s, '('); i >= 0 {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// names collects failing test names, once each, the first few.
type names []string

func (n *names) add(name string) {
	name = strings.TrimSpace(name)
	if name == "" || len(*n) >= maxFailing*4 {
		return
	}
	for _, x := range *n {
		if x == name {
			return
		}
	}
	*n = append(*n, name)
}

// first is the names kept: at most maxFailing, each shown.
func (n names) first() []string {
	var out []string
	for _, x := range n {
		if len(out) == maxFailing {
			break
		}
		out = append(out, shown(x))
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
