package charts

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Sankey diagrams (sankey.jison): after the keyword, CSV records of
// source, target and value, in printable ASCII (or "quoted", with ""
// for a quote). Mermaid first trims the text and drops blank lines.

func sankeyRules() map[string][]syntax.LexRule {
	csv := []syntax.LexRule{
		{Kind: "NEWLINE", Match: oneNewline}, {Kind: "COMMA", Match: syntax.Lit(",", false)},
		{Kind: "DQUOTE", Match: syntax.Lit("\"", false), Push: "escaped_text"},
		{Kind: "NON_ESCAPED_TEXT", Match: csvText},
	}
	return map[string][]syntax.LexRule{
		"": append([]syntax.LexRule{
			{Kind: "SANKEY", Match: syntax.Word("sankey-beta", true), Push: "csv"},
			{Kind: "SANKEY", Match: syntax.Word("sankey", true), Push: "csv"},
		}, csv...),
		"csv": csv,
		"escaped_text": {
			{Kind: "DQUOTE", Match: func(t string, i int) int {
				if t[i] == '"' && (i+1 >= len(t) || t[i+1] != '"') {
					return i + 1
				}
				return -1
			}, Pops: 1},
			{Kind: "ESCAPED_TEXT", Match: escapedCSV},
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
func prepareSankey(s syntax.Src) syntax.Src {
	t := s.Text
	var edits []syntax.Edit
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
			edits = append(edits, syntax.Edit{From: i, To: j, Repl: "\n"})
		}
		i = j
	}
	s = s.Apply(edits)
	lead := len(s.Text) - len(strings.TrimLeft(s.Text, " \t\n\r\v\f"))
	trail := len(strings.TrimRight(s.Text, " \t\n\r\v\f"))
	if trail < lead {
		trail = lead
	}
	return s.Slice(lead, trail)
}

type sankeyParser struct {
	syntax.Parser
	code syntax.Src
}

// ParseSankey checks the code of a diagram of its type, reporting what it finds to d.
func ParseSankey(d *syntax.Diagram, code syntax.Src) {
	code = prepareSankey(code)
	lex := syntax.NewRuleLexer(code.Text, sankeyRules(), map[string]string{"csv": "EOF", "": "EOF"})
	p := &sankeyParser{Parser: syntax.NewParser(d, code, lex), code: code}
	syntax.RunParse(p.start)
}

func (p *sankeyParser) start() {
	p.Expect("SANKEY", "sankey-beta")
	p.Expect("NEWLINE", "a line break after sankey-beta")
	for {
		p.record()
		if _, ok := p.Accept("NEWLINE"); !ok {
			break
		}
	}
	p.Accept("EOF")
	if !p.At(syntax.TokEOF) {
		p.Fail("the end of the line (a record has three fields: source,target,value)")
	}
}

func (p *sankeyParser) record() {
	p.field("the source")
	p.Expect("COMMA", "a comma after the source (source,target,value)")
	p.field("the target")
	p.Expect("COMMA", "a comma after the target (source,target,value)")
	v := p.field("the value")
	if !jsParseFloatOK(v.Val) {
		from, last := syntax.TokenSpan(p.code.Text, v)
		p.D.Report(syntax.RuleValue, p.code, from, last, fmt.Sprintf("the flow's value %s is not a number, so Mermaid cannot draw it", syntax.QuoteShort(strings.TrimSpace(v.Val))),
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
	if s != "" && syntax.IsDigit(s[0]) {
		return true
	}
	return len(s) > 1 && s[0] == '.' && syntax.IsDigit(s[1])
}

func (p *sankeyParser) field(what string) syntax.Token {
	if _, ok := p.Accept("DQUOTE"); ok {
		t := p.Expect("ESCAPED_TEXT", what)
		p.Expect("DQUOTE", "the closing quote")
		return t
	}
	if !p.At("NON_ESCAPED_TEXT") {
		p.Fail(what + " (plain ASCII, or in double quotes)")
	}
	return p.Take()
}
