package mermaid

import (
	"strings"
)

// ruleLexer runs a list of rules per start condition, as a Jison lexer
// does: at each position the first rule of the current state that matches
// decides; a rule may skip its text, change state and give a token. The
// smaller line-based grammars (journey, timeline, quadrantChart, xychart,
// requirementDiagram, C4, mindmap, kanban, ...) are written as such lists.

type lexRule struct {
	kind  string                    // the token it gives; "" skips the text
	match func(t string, i int) int // the end of a match at i, or -1
	pops  int                       // states to pop first
	push  string                    // then a state to enter
	trim  bool                      // the token's value is trimmed
}

type ruleLexer struct {
	t     string
	pos   int
	rules map[string][]lexRule
	stack []string
	// atEnd is the token each state gives once at the end of the text
	// (its $ rule, or a rule matching the empty string); none: nothing.
	atEnd   map[string]string
	eofSent bool
}

func newRuleLexer(t string, rules map[string][]lexRule, atEnd map[string]string) *ruleLexer {
	return &ruleLexer{t: t, rules: rules, stack: []string{""}, atEnd: atEnd}
}

func (l *ruleLexer) state() string { return l.stack[len(l.stack)-1] }

func (l *ruleLexer) next() token {
	for {
		if l.pos >= len(l.t) {
			kind := l.atEnd[l.state()]
			if l.eofSent || kind == "" {
				return token{kind: tokEOF, from: len(l.t), to: len(l.t)}
			}
			l.eofSent = true
			return token{kind: kind, from: len(l.t), to: len(l.t)}
		}
		tok, ok, matched := l.step()
		if !matched {
			_, n := decodeRune(l.t, l.pos)
			t := token{kind: tokError, val: l.t[l.pos : l.pos+n], from: l.pos, to: l.pos + n}
			l.pos, l.eofSent = len(l.t), true
			return t
		}
		if ok {
			return tok
		}
	}
}

// step applies the first matching rule: a token, or none when the rule
// skips; matched is false when no rule matches.
func (l *ruleLexer) step() (tok token, ok, matched bool) {
	i := l.pos
	for _, r := range l.rules[l.state()] {
		end := r.match(l.t, i)
		if end < 0 || end == i && r.kind == "" && r.push == "" && r.pops == 0 {
			continue
		}
		for k := 0; k < r.pops && len(l.stack) > 1; k++ {
			l.stack = l.stack[:len(l.stack)-1]
		}
		if r.push != "" {
			l.stack = append(l.stack, r.push)
		}
		l.pos = end
		if r.kind == "" {
			return token{}, false, true
		}
		tok = token{kind: r.kind, val: l.t[i:end], from: i, to: end}
		if r.trim {
			tok.val = strings.TrimSpace(tok.val)
		}
		return tok, true, true
	}
	return token{}, false, false
}

// Matchers for rules.

// lit matches s (ASCII case ignored when fold).
func lit(s string, fold bool) func(string, int) int {
	return func(t string, i int) int {
		if hasPrefixAt(t, i, s, fold) {
			return i + len(s)
		}
		return -1
	}
}

// word matches kw followed by a word boundary.
func word(kw string, fold bool) func(string, int) int {
	return func(t string, i int) int {
		if hasWord(t, i, kw, fold) {
			return i + len(kw)
		}
		return -1
	}
}

// kwLine matches kw, one white space character and one or more
// characters not in stop: kw\s[^stop]+.
func kwLine(kw, stop string, fold bool) func(string, int) int {
	return func(t string, i int) int {
		if end := keywordLine(t, i, kw, stop); end > 0 && hasPrefixAt(t, i, kw, fold) {
			return end
		}
		return -1
	}
}

// runNot matches one or more characters not in stop ([^stop]+).
func runNot(stop string) func(string, int) int {
	return func(t string, i int) int {
		j := i
		for j < len(t) && strings.IndexByte(stop, t[j]) < 0 {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// restNot matches zero or more characters not in stop ([^stop]*).
func restNot(stop string) func(string, int) int {
	return func(t string, i int) int {
		j := i
		for j < len(t) && strings.IndexByte(stop, t[j]) < 0 {
			j++
		}
		return j
	}
}

// anyChar matches one character (.), not a line break.
func anyChar(t string, i int) int {
	if t[i] == '\n' {
		return -1
	}
	_, n := decodeRune(t, i)
	return i + n
}

// newlines matches [\n]+.
func newlines(t string, i int) int {
	j := i
	for j < len(t) && t[j] == '\n' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// spaces matches \s+.
func spaces(t string, i int) int {
	j := skipJSSpace(t, i)
	if j == i {
		return -1
	}
	return j
}

// percentComment matches %(?!\{)[^\n]*.
func percentComment(t string, i int) int {
	if t[i] != '%' || strings.HasPrefix(t[i+1:], "{") {
		return -1
	}
	return lineEnd(t, i)
}

// charPercentComment matches [^\}]%%[^\n]*.
func charPercentComment(t string, i int) int {
	if t[i] == '}' {
		return -1
	}
	_, n := decodeRune(t, i)
	if !strings.HasPrefix(t[i+n:], "%%") {
		return -1
	}
	return lineEnd(t, i)
}

// hashComment matches #[^\n]*.
func hashComment(t string, i int) int {
	if t[i] != '#' {
		return -1
	}
	return lineEnd(t, i)
}

// accRules are the accessibility rules of the INITIAL state and the
// states they enter; fold is the lexer's case-insensitivity.
func accRules(fold bool) (initial []lexRule, states map[string][]lexRule) {
	acc := func(kind string, want flowState) func(string, int) int {
		return func(t string, i int) int {
			if k, end, st := accKeyword(t, i, fold); k != "" && st == want {
				return end
			}
			return -1
		}
	}
	initial = []lexRule{
		{kind: "acc_title", match: acc("acc_title", fsAccTitle), push: "acc_title"},
		{kind: "acc_descr", match: acc("acc_descr", fsAccDescr), push: "acc_descr"},
		{match: acc("", fsAccDescrMulti), push: "acc_descr_multiline"},
	}
	states = map[string][]lexRule{
		"acc_title":           {{kind: "acc_title_value", match: restNot("\n"), pops: 1}},
		"acc_descr":           {{kind: "acc_descr_value", match: restNot("\n"), pops: 1}},
		"acc_descr_multiline": {{match: lit("}", false), pops: 1}, {kind: "acc_descr_multiline_value", match: restNot("}")}},
	}
	return initial, states
}

// withAcc returns rules with the accessibility states added and their
// INITIAL rules inserted at position at.
func withAcc(initial []lexRule, at int, fold bool, states map[string][]lexRule) map[string][]lexRule {
	accInit, accStates := accRules(fold)
	rules := append(append(append([]lexRule{}, initial[:at]...), accInit...), initial[at:]...)
	out := map[string][]lexRule{"": rules}
	for k, v := range accStates {
		out[k] = v
	}
	for k, v := range states {
		out[k] = v
	}
	return out
}

// accAtEnd are the tokens the accessibility states give at the end.
var accAtEnd = map[string]string{"acc_title": "acc_title_value", "acc_descr": "acc_descr_value",
	"acc_descr_multiline": "acc_descr_multiline_value"}

func atEndWith(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range accAtEnd {
		out[k] = v
	}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// accStatement reads an accessibility statement if the next token starts
// one.
func (p *parser) accStatement() bool {
	switch {
	case p.at("acc_title"):
		p.take()
		p.expect("acc_title_value", "the accessible title")
	case p.at("acc_descr"):
		p.take()
		p.expect("acc_descr_value", "the accessible description")
	case p.at("acc_descr_multiline_value"):
		p.take()
	default:
		return false
	}
	return true
}
