package syntax

import (
	"strings"
)

// ruleLexer runs a list of rules per start condition, as a Jison lexer
// does: at each position the first rule of the current state that matches
// decides; a rule may skip its text, change state and give a token. The
// smaller line-based grammars (journey, timeline, quadrantChart, xychart,
// requirementDiagram, C4, mindmap, kanban, ...) are written as such lists.

type LexRule struct {
	Kind  string                    // the token it gives; "" skips the text
	Match func(t string, i int) int // the end of a match at i, or -1
	Pops  int                       // states to pop first
	Push  string                    // then a state to enter
	Trim  bool                      // the token's value is trimmed
}

type ruleLexer struct {
	t     string
	pos   int
	rules map[string][]LexRule
	stack []string
	// atEnd is the token each state gives once at the end of the text
	// (its $ rule, or a rule matching the empty string); none: nothing.
	atEnd   map[string]string
	eofSent bool
}

func NewRuleLexer(t string, rules map[string][]LexRule, atEnd map[string]string) *ruleLexer {
	return &ruleLexer{t: t, rules: rules, stack: []string{""}, atEnd: atEnd}
}

func (l *ruleLexer) state() string { return l.stack[len(l.stack)-1] }

func (l *ruleLexer) Next() Token {
	for {
		if l.pos >= len(l.t) {
			kind := l.atEnd[l.state()]
			if l.eofSent || kind == "" {
				return Token{Kind: TokEOF, From: len(l.t), To: len(l.t)}
			}
			l.eofSent = true
			return Token{Kind: kind, From: len(l.t), To: len(l.t)}
		}
		tok, ok, matched := l.step()
		if !matched {
			_, n := DecodeRune(l.t, l.pos)
			t := Token{Kind: TokError, Val: l.t[l.pos : l.pos+n], From: l.pos, To: l.pos + n}
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
func (l *ruleLexer) step() (tok Token, ok, matched bool) {
	i := l.pos
	for _, r := range l.rules[l.state()] {
		end := r.Match(l.t, i)
		if end < 0 || end == i && r.Kind == "" && r.Push == "" && r.Pops == 0 {
			continue
		}
		for k := 0; k < r.Pops && len(l.stack) > 1; k++ {
			l.stack = l.stack[:len(l.stack)-1]
		}
		if r.Push != "" {
			l.stack = append(l.stack, r.Push)
		}
		l.pos = end
		if r.Kind == "" {
			return Token{}, false, true
		}
		tok = Token{Kind: r.Kind, Val: l.t[i:end], From: i, To: end}
		if r.Trim {
			tok.Val = strings.TrimSpace(tok.Val)
		}
		return tok, true, true
	}
	return Token{}, false, false
}

// Matchers for rules.

// Lit matches s (ASCII case ignored when fold).
func Lit(s string, fold bool) func(string, int) int {
	return func(t string, i int) int {
		if HasPrefixAt(t, i, s, fold) {
			return i + len(s)
		}
		return -1
	}
}

// Word matches kw followed by a word boundary.
func Word(kw string, fold bool) func(string, int) int {
	return func(t string, i int) int {
		if HasWord(t, i, kw, fold) {
			return i + len(kw)
		}
		return -1
	}
}

// KwLine matches kw, one white space character and one or more
// characters not in stop: kw\s[^stop]+.
func KwLine(kw, stop string, fold bool) func(string, int) int {
	return func(t string, i int) int {
		if end := KeywordLine(t, i, kw, stop); end > 0 && HasPrefixAt(t, i, kw, fold) {
			return end
		}
		return -1
	}
}

// RunNot matches one or more characters not in stop ([^stop]+).
func RunNot(stop string) func(string, int) int {
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

// RestNot matches zero or more characters not in stop ([^stop]*).
func RestNot(stop string) func(string, int) int {
	return func(t string, i int) int {
		j := i
		for j < len(t) && strings.IndexByte(stop, t[j]) < 0 {
			j++
		}
		return j
	}
}

// AnyChar matches one character (.), not a line break.
func AnyChar(t string, i int) int {
	if t[i] == '\n' {
		return -1
	}
	_, n := DecodeRune(t, i)
	return i + n
}

// Newlines matches [\n]+.
func Newlines(t string, i int) int {
	j := i
	for j < len(t) && t[j] == '\n' {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

// Spaces matches \s+.
func Spaces(t string, i int) int {
	j := SkipJSSpace(t, i)
	if j == i {
		return -1
	}
	return j
}

// PercentComment matches %(?!\{)[^\n]*.
func PercentComment(t string, i int) int {
	if t[i] != '%' || strings.HasPrefix(t[i+1:], "{") {
		return -1
	}
	return LineEnd(t, i)
}

// CharPercentComment matches [^\}]%%[^\n]*.
func CharPercentComment(t string, i int) int {
	if t[i] == '}' {
		return -1
	}
	_, n := DecodeRune(t, i)
	if !strings.HasPrefix(t[i+n:], "%%") {
		return -1
	}
	return LineEnd(t, i)
}

// HashComment matches #[^\n]*.
func HashComment(t string, i int) int {
	if t[i] != '#' {
		return -1
	}
	return LineEnd(t, i)
}

// AccRules are the accessibility rules of the INITIAL state and the
// states they enter; fold is the lexer's case-insensitivity.
func AccRules(fold bool) (initial []LexRule, states map[string][]LexRule) {
	acc := func(kind string, want FlowState) func(string, int) int {
		return func(t string, i int) int {
			if k, end, st := AccKeyword(t, i, fold); k != "" && st == want {
				return end
			}
			return -1
		}
	}
	initial = []LexRule{
		{Kind: "acc_title", Match: acc("acc_title", FsAccTitle), Push: "acc_title"},
		{Kind: "acc_descr", Match: acc("acc_descr", FsAccDescr), Push: "acc_descr"},
		{Match: acc("", FsAccDescrMulti), Push: "acc_descr_multiline"},
	}
	states = map[string][]LexRule{
		"acc_title":           {{Kind: "acc_title_value", Match: RestNot("\n"), Pops: 1}},
		"acc_descr":           {{Kind: "acc_descr_value", Match: RestNot("\n"), Pops: 1}},
		"acc_descr_multiline": {{Match: Lit("}", false), Pops: 1}, {Kind: "acc_descr_multiline_value", Match: RestNot("}")}},
	}
	return initial, states
}

// WithAcc returns rules with the accessibility states added and their
// INITIAL rules inserted at position at.
func WithAcc(initial []LexRule, at int, fold bool, states map[string][]LexRule) map[string][]LexRule {
	accInit, accStates := AccRules(fold)
	rules := append(append(append([]LexRule{}, initial[:at]...), accInit...), initial[at:]...)
	out := map[string][]LexRule{"": rules}
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

func AtEndWith(m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range accAtEnd {
		out[k] = v
	}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// AccStatement reads an accessibility statement if the next token starts
// one.
func (p *Parser) AccStatement() bool {
	switch {
	case p.At("acc_title"):
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
	case p.At("acc_descr"):
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
	case p.At("acc_descr_multiline_value"):
		p.Take()
	default:
		return false
	}
	return true
}
