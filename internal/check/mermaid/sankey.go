package mermaid

import (
	"fmt"
	"strings"
)

// Sankey diagrams (sankey.jison): after the keyword, CSV records of
// source, target and value, in printable ASCII (or "quoted", with ""
// for a quote). Mermaid first trims the text and drops blank lines.

func sankeyRules() map[string][]lexRule {
	csv := []lexRule{
		{kind: "NEWLINE", match: oneNewline}, {kind: "COMMA", match: lit(",", false)},
		{kind: "DQUOTE", match: lit("\"", false), push: "escaped_text"},
		{kind: "NON_ESCAPED_TEXT", match: csvText},
	}
	return map[string][]lexRule{
		"": append([]lexRule{
			{kind: "SANKEY", match: word("sankey-beta", true), push: "csv"},
			{kind: "SANKEY", match: word("sankey", true), push: "csv"},
		}, csv...),
		"csv": csv,
		"escaped_text": {
			{kind: "DQUOTE", match: func(t string, i int) int {
				if t[i] == '"' && (i+1 >= len(t) || t[i+1] != '"') {
					return i + 1
				}
				return -1
			}, pops: 1},
			{kind: "ESCAPED_TEXT", match: escapedCSV},
		},
	}
}

// csvText is ([\x20-\x21\x23-\x2B\x2D-\x7E])*: printable ASCII but " and ,.
func csvText(t string, i int) int {
	j := i
	for j < len(t) && t[j] >= 0x20 && t[j] <= 0x7e && t[j] != '"' && t[j] != ',' {
		j++
	}
	return j
}

// escapedCSV is the text of a quoted field: printable ASCII, commas, line
// breaks and "" pairs.
func escapedCSV(t string, i int) int {
	j := i
	for j < len(t) {
		c := t[j]
		switch {
		case c == '"' && j+1 < len(t) && t[j+1] == '"':
			j += 2
		case c >= 0x20 && c <= 0x7e && c != '"', c == '\n', c == '\r':
			j++
		default:
			return j
		}
	}
	return j
}

// prepareSankey is sankey's prepareTextForParsing: the text's own leading
// and trailing blanks go, runs of line breaks become one, and it is
// trimmed.
func prepareSankey(s src) src {
	t := s.text
	var edits []edit
	for i := 0; i < len(t); {
		if t[i] != '\n' && t[i] != '\r' {
			i++
			continue
		}
		j := i
		for j < len(t) && (t[j] == '\n' || t[j] == '\r') {
			j++
		}
		if j-i > 1 || t[i] == '\r' {
			edits = append(edits, edit{from: i, to: j, repl: "\n"})
		}
		i = j
	}
	s = s.apply(edits)
	lead := len(s.text) - len(strings.TrimLeft(s.text, " \t\n\r\v\f"))
	trail := len(strings.TrimRight(s.text, " \t\n\r\v\f"))
	if trail < lead {
		trail = lead
	}
	return s.slice(lead, trail)
}

type sankeyParser struct {
	parser
	code src
}

func parseSankey(d *diagram, code src) {
	code = prepareSankey(code)
	lex := newRuleLexer(code.text, sankeyRules(), map[string]string{"csv": "EOF", "": "EOF"})
	p := &sankeyParser{parser: newParser(d, code, lex), code: code}
	runParse(p.start)
}

func (p *sankeyParser) start() {
	p.expect("SANKEY", "sankey-beta")
	p.expect("NEWLINE", "a line break after sankey-beta")
	for {
		p.record()
		if _, ok := p.accept("NEWLINE"); !ok {
			break
		}
	}
	p.accept("EOF")
	if !p.at(tokEOF) {
		p.fail("the end of the line (a record has three fields: source,target,value)")
	}
}

func (p *sankeyParser) record() {
	p.field("the source")
	p.expect("COMMA", "a comma after the source (source,target,value)")
	p.field("the target")
	p.expect("COMMA", "a comma after the target (source,target,value)")
	v := p.field("the value")
	if !jsParseFloatOK(v.val) {
		from, last := tokenSpan(p.code.text, v)
		p.d.report(ruleValue, p.code, from, last, fmt.Sprintf("the flow's value %s is not a number, so Mermaid cannot draw it", quoteShort(strings.TrimSpace(v.val))),
			"write the value as a number: source,target,42")
	}
}

// jsParseFloatOK reports whether JavaScript's parseFloat finds a number at
// the start of s (it reads the longest numeric prefix, so "12px" is 12).
func jsParseFloatOK(s string) bool {
	s = strings.TrimLeft(s, " \t\n\r\v\f")
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if strings.HasPrefix(s, "Infinity") {
		return true
	}
	if s != "" && isDigit(s[0]) {
		return true
	}
	return len(s) > 1 && s[0] == '.' && isDigit(s[1])
}

func (p *sankeyParser) field(what string) token {
	if _, ok := p.accept("DQUOTE"); ok {
		t := p.expect("ESCAPED_TEXT", what)
		p.expect("DQUOTE", "the closing quote")
		return t
	}
	if !p.at("NON_ESCAPED_TEXT") {
		p.fail(what + " (plain ASCII, or in double quotes)")
	}
	return p.take()
}
