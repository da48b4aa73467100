package syntax

import (
	"sort"
	"strings"
)

// The newer diagram types (pie, gitGraph, info, packet, ...) are parsed by
// Mermaid with Langium grammars in @mermaid-js/parser, lexed by Chevrotain:
// at each position the first token type that matches wins, white space
// first, then the keywords (longest first; the diagram's own keyword must
// be followed by white space or %%, and a word-like keyword gives way to a
// longer ID where the grammar has one), then the terminals in the order
// the grammar declares them. This file is that lexer, configured per
// diagram, and the terminals of Mermaid's common grammar.

// termMatcher matches a terminal at i, returning its end or -1.
type termMatcher func(t string, i int) int

// LangTerm is one terminal: its name and matcher; hidden ones are skipped.
type LangTerm struct {
	Name   string
	Match  termMatcher
	hidden bool
}

// LangLexer lexes with a grammar's keywords and terminals.
type LangLexer struct {
	t        string
	pos      int
	keywords []string // longest first
	entry    map[string]bool
	idTerm   termMatcher // the grammar's ID terminal, for keywords' longer alternative
	terms    []LangTerm
	done     bool
}

func NewLangLexer(t string, keywords, entry []string, terms []LangTerm, id termMatcher) *LangLexer {
	kw := append([]string(nil), keywords...)
	sort.SliceStable(kw, func(i, j int) bool { return len(kw[i]) > len(kw[j]) })
	e := map[string]bool{}
	for _, k := range entry {
		e[k] = true
	}
	return &LangLexer{t: t, keywords: kw, entry: e, idTerm: id, terms: terms}
}

func (l *LangLexer) Next() Token {
	for {
		if l.pos >= len(l.t) || l.done {
			return Token{Kind: TokEOF, From: len(l.t), To: len(l.t)}
		}
		t, i := l.t, l.pos
		if j := WhitespaceEnd(t, i); j > i {
			l.pos = j
			continue
		}
		if k, end := l.keyword(); k != "" {
			tok := Token{Kind: k, Val: t[i:end], From: i, To: end}
			l.pos = end
			return tok
		}
		matched := false
		for _, term := range l.terms {
			end := term.Match(t, i)
			if end <= i {
				continue
			}
			matched = true
			l.pos = end
			if term.hidden {
				break
			}
			return Token{Kind: term.Name, Val: t[i:end], From: i, To: end}
		}
		if matched {
			continue
		}
		_, n := DecodeRune(t, i)
		l.done = true
		return Token{Kind: TokError, Val: t[i : i+n], From: i, To: i + n}
	}
}

// keyword matches the longest-first keywords at the position.
func (l *LangLexer) keyword() (string, int) {
	t, i := l.t, l.pos
	for _, k := range l.keywords {
		if !strings.HasPrefix(t[i:], k) {
			continue
		}
		end := i + len(k)
		if l.entry[k] && !keywordEndOK(t, end) {
			continue
		}
		if l.idTerm != nil && IsWordByte(k[len(k)-1]) {
			if idEnd := l.idTerm(t, i); idEnd > end {
				continue // the longer ID wins
			}
		}
		return k, end
	}
	return "", 0
}

// keywordEndOK is (?:(?=%%)|(?!\S)), which Mermaid adds after a diagram's
// own keywords.
func keywordEndOK(t string, i int) bool {
	if i >= len(t) || strings.HasPrefix(t[i:], "%%") {
		return true
	}
	r, _ := DecodeRune(t, i)
	return IsJSSpace(r)
}

// WhitespaceEnd is the hidden WHITESPACE terminal [\t ]+.
func WhitespaceEnd(t string, i int) int {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	return i
}

// The common terminals (common.langium).

func matchNewline(t string, i int) int {
	if t[i] == '\n' {
		return i + 1
	}
	if t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n' {
		return i + 2
	}
	return -1
}

// matchComment is [\t ]*%%[^\n\r]*.
func matchComment(t string, i int) int {
	j := WhitespaceEnd(t, i)
	if !strings.HasPrefix(t[j:], "%%") {
		return -1
	}
	k := j + 2
	for k < len(t) && t[k] != '\n' && t[k] != '\r' {
		k++
	}
	return k
}

// lineOrComment is [^\n\r]*?(?=%%)|[^\n\r]*: up to a %% or the line's end.
func lineOrComment(t string, i int) int {
	j := i
	for j < len(t) && t[j] != '\n' && t[j] != '\r' {
		if strings.HasPrefix(t[j:], "%%") {
			return j
		}
		j++
	}
	return j
}

// matchTitle is [\t ]*title(?:[\t ][^\n\r]*?(?=%%)|[\t ][^\n\r]*|).
func matchTitle(t string, i int) int {
	j := WhitespaceEnd(t, i)
	if !strings.HasPrefix(t[j:], "title") {
		return -1
	}
	k := j + 5
	if k < len(t) && (t[k] == ' ' || t[k] == '\t') {
		return lineOrComment(t, k+1)
	}
	return k
}

// matchAccTitle is [\t ]*accTitle[\t ]*:(?:[^\n\r]*?(?=%%)|[^\n\r]*).
func matchAccTitle(t string, i int) int {
	j := WhitespaceEnd(t, i)
	if !strings.HasPrefix(t[j:], "accTitle") {
		return -1
	}
	k := WhitespaceEnd(t, j+8)
	if k >= len(t) || t[k] != ':' {
		return -1
	}
	return lineOrComment(t, k+1)
}

// matchAccDescr is [\t ]*accDescr(?:[\t ]*:(...)|\s*{([^}]*)}).
func matchAccDescr(t string, i int) int {
	j := WhitespaceEnd(t, i)
	if !strings.HasPrefix(t[j:], "accDescr") {
		return -1
	}
	k := WhitespaceEnd(t, j+8)
	if k < len(t) && t[k] == ':' {
		return lineOrComment(t, k+1)
	}
	k = SkipJSSpace(t, j+8)
	if k < len(t) && t[k] == '{' {
		if end := strings.IndexByte(t[k+1:], '}'); end >= 0 {
			return k + 1 + end + 1
		}
	}
	return -1
}

// MatchString is "([^"\\]|\\.)*"|'([^'\\]|\\.)*'.
func MatchString(t string, i int) int {
	q := t[i]
	if q != '"' && q != '\'' {
		return -1
	}
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			if j+1 < len(t) && t[j+1] != '\n' && t[j+1] != '\r' {
				j++
				continue
			}
			return -1
		case q:
			return j + 1
		}
	}
	return -1
}

// MatchID is [\w]([-\w]*\w)?.
func MatchID(t string, i int) int {
	if !IsWordByte(t[i]) {
		return -1
	}
	j := i + 1
	end := j
	for j < len(t) && (IsWordByte(t[j]) || t[j] == '-') {
		j++
		if IsWordByte(t[j-1]) {
			end = j
		}
	}
	return end
}

// matchInt is 0|[1-9][0-9]*(?!\.), with an optional leading minus when
// signed.
func matchInt(signed bool) termMatcher {
	return func(t string, i int) int {
		j := i
		if signed && j < len(t) && t[j] == '-' {
			j++
		}
		if j >= len(t) || !IsDigit(t[j]) {
			return -1
		}
		k := j + 1
		if t[j] != '0' {
			for k < len(t) && IsDigit(t[k]) {
				k++
			}
		}
		if k < len(t) && t[k] == '.' {
			return -1
		}
		return k
	}
}

// matchFloat is [0-9]+\.[0-9]+(?!\.), with an optional minus when signed.
func matchFloat(signed bool) termMatcher {
	return func(t string, i int) int {
		j := i
		if signed && j < len(t) && t[j] == '-' {
			j++
		}
		k := j
		for k < len(t) && IsDigit(t[k]) {
			k++
		}
		if k == j || k >= len(t) || t[k] != '.' {
			return -1
		}
		m := k + 1
		for m < len(t) && IsDigit(t[m]) {
			m++
		}
		if m == k+1 || m < len(t) && t[m] == '.' {
			return -1
		}
		return m
	}
}

// MatchNumber is FLOAT | INT.
func MatchNumber(signed bool) termMatcher {
	f, n := matchFloat(signed), matchInt(signed)
	return func(t string, i int) int {
		if e := f(t, i); e > 0 {
			return e
		}
		return n(t, i)
	}
}

// CommonTerms are the common grammar's terminals after a diagram's own,
// in their order; names lists the ones the diagram's grammar reaches.
func CommonTerms(names ...string) []LangTerm {
	all := []LangTerm{
		{Name: "ACC_DESCR", Match: matchAccDescr}, {Name: "ACC_TITLE", Match: matchAccTitle},
		{Name: "TITLE", Match: matchTitle}, {Name: "FLOAT", Match: matchFloat(false)}, {Name: "INT", Match: matchInt(false)},
		{Name: "NUMBER", Match: MatchNumber(false)}, {Name: "STRING", Match: MatchString}, {Name: "ID", Match: MatchID},
		{Name: "NEWLINE", Match: matchNewline},
		{Name: "SINGLE_LINE_COMMENT", Match: matchComment, hidden: true},
	}
	want := map[string]bool{"SINGLE_LINE_COMMENT": true}
	for _, n := range names {
		want[n] = true
	}
	var out []LangTerm
	for _, t := range all {
		if want[t.Name] {
			out = append(out, t)
		}
	}
	return out
}

// LangParser adds the common grammar's rules to the shared parser.
type LangParser struct{ Parser }

// Eol is EOL: NEWLINE+ or the end.
func (p *LangParser) Eol() {
	if p.At(TokEOF) {
		return
	}
	p.Expect("NEWLINE", "the end of the line")
	for p.At("NEWLINE") {
		p.Take()
	}
}

// TitleAndAccessibilities reads one title, accTitle or accDescr line, if
// the next token is one.
func (p *LangParser) TitleAndAccessibilities() bool {
	if !p.At("TITLE", "ACC_TITLE", "ACC_DESCR") {
		return false
	}
	p.Take()
	p.Eol()
	return true
}

// langFail words a Langium syntax error.
func (p *LangParser) LangHint(found Token, expected string) string {
	if found.Kind == TokError {
		return "unexpected character " + QuoteShort(found.Val) + " (expected " + expected + ")"
	}
	return ""
}
