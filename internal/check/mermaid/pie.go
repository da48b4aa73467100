package mermaid

import (
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn/internal/check"
)

// Pie charts, after pie.langium: "pie" [showData], then title and
// accessibility lines and slices ("label" : value), with the checks
// pieDb makes (no negative value) and what it silently drops (a second
// slice of the same label) or cannot draw (a zero slice).

func parsePie(d *diagram, code src) {
	terms := append([]langTerm{{name: "NUMBER_PIE", match: matchNumber(true)}},
		commonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "STRING", "NEWLINE")...)
	lex := newLangLexer(code.text, []string{"pie", "showData", ":"}, []string{"pie", "showData"}, terms, nil)
	p := &pieParser{langParser: langParser{newParser(d, code, lex)}, code: code, labels: map[string]token{}}
	p.hint = p.langHint
	runParse(p.start)
}

type pieParser struct {
	langParser
	code   src
	labels map[string]token
}

func (p *pieParser) start() {
	for p.at("NEWLINE") {
		p.take()
	}
	p.expect("pie", "pie")
	p.accept("showData")
	for {
		switch {
		case p.at(tokEOF):
			return
		case p.at("NEWLINE"):
			p.take()
		case p.titleAndAccessibilities():
		case p.at("STRING"):
			p.slice()
		default:
			p.fail(`a slice such as "Dogs" : 42, a title or the end of the line`)
		}
	}
}

func (p *pieParser) slice() {
	label := p.take()
	p.expect(":", "a colon after the slice's label")
	value := p.expect("NUMBER_PIE", "the slice's value, a number")
	p.eol()
	name := unquote(label.val)
	v, _ := strconv.ParseFloat(value.val, 64)
	switch {
	case v < 0:
		p.d.report(rulePieValue, p.code, value.from, value.to-1,
			fmt.Sprintf("slice %s has the negative value %s, which Mermaid refuses", quoteShort(name), value.val),
			"give the slice a positive value, or remove it")
	case v == 0:
		p.d.reportSev(check.Warning, rulePieValue, p.code, value.from, value.to-1,
			fmt.Sprintf("slice %s has the value 0, so the chart draws nothing for it", quoteShort(name)),
			"give the slice a positive value, or remove it")
	}
	if prev, dup := p.labels[name]; dup {
		line, _ := p.d.fc.lines.pos(p.code.fileOff(prev.from))
		p.d.report(ruleDuplicate, p.code, label.from, label.to-1,
			fmt.Sprintf("slice %s is given again (first at line %d); Mermaid keeps the first value and drops this one", quoteShort(name), line),
			"give each slice its own label, or add the values together")
		return
	}
	p.labels[name] = label
}
