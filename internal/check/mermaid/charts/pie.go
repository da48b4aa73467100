package charts

import (
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"github.com/cairn-dev/cairn/internal/check"
)

// Pie charts, after pie.langium: "pie" [showData], then title and
// accessibility lines and slices ("label" : value), with the checks
// pieDb makes (no negative value) and what it silently drops (a second
// slice of the same label) or cannot draw (a zero slice).

// ParsePie checks the code of a diagram of its type, reporting what it finds to d.
func ParsePie(d *syntax.Diagram, code syntax.Src) {
	terms := append([]syntax.LangTerm{{Name: "NUMBER_PIE", Match: syntax.MatchNumber(true)}},
		syntax.CommonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "STRING", "NEWLINE")...)
	lex := syntax.NewLangLexer(code.Text, []string{"pie", "showData", ":"}, []string{"pie", "showData"}, terms, nil)
	p := &pieParser{LangParser: syntax.LangParser{Parser: syntax.NewParser(d, code, lex)}, code: code, labels: map[string]syntax.Token{}}
	p.Hint = p.LangHint
	syntax.RunParse(p.start)
}

type pieParser struct {
	syntax.LangParser
	code   syntax.Src
	labels map[string]syntax.Token
}

func (p *pieParser) start() {
	for p.At("NEWLINE") {
		p.Take()
	}
	p.Expect("pie", "pie")
	p.Accept("showData")
	for {
		switch {
		case p.At(syntax.TokEOF):
			return
		case p.At("NEWLINE"):
			p.Take()
		case p.TitleAndAccessibilities():
		case p.At("STRING"):
			p.slice()
		default:
			p.Fail(`a slice such as "Dogs" : 42, a title or the end of the line`)
		}
	}
}

func (p *pieParser) slice() {
	label := p.Take()
	p.Expect(":", "a colon after the slice's label")
	value := p.Expect("NUMBER_PIE", "the slice's value, a number")
	p.Eol()
	name := syntax.Unquote(label.Val)
	v, _ := strconv.ParseFloat(value.Val, 64)
	switch {
	case v < 0:
		p.D.Report(syntax.RulePieValue, p.code, value.From, value.To-1,
			fmt.Sprintf("slice %s has the negative value %s, which Mermaid refuses", syntax.QuoteShort(name), value.Val),
			"give the slice a positive value, or remove it")
	case v == 0:
		p.D.ReportSev(check.Warning, syntax.RulePieValue, p.code, value.From, value.To-1,
			fmt.Sprintf("slice %s has the value 0, so the chart draws nothing for it", syntax.QuoteShort(name)),
			"give the slice a positive value, or remove it")
	}
	if prev, dup := p.labels[name]; dup {
		line, _ := p.D.File.Lines.Pos(p.code.FileOff(prev.From))
		p.D.Report(syntax.RuleDuplicate, p.code, label.From, label.To-1,
			fmt.Sprintf("slice %s is given again (first at line %d); Mermaid keeps the first value and drops this one", syntax.QuoteShort(name), line),
			"give each slice its own label, or add the values together")
		return
	}
	p.labels[name] = label
}
