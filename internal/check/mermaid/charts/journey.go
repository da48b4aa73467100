package charts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// User journeys (journey.jison): title, sections and "Task: score:
// actors" lines; journeyDb reads the score as a number.

func journeyRules() map[string][]syntax.LexRule {
	initial := []syntax.LexRule{
		{Match: syntax.PercentComment}, {Match: syntax.CharPercentComment}, {Kind: "NEWLINE", Match: syntax.Newlines}, {Match: syntax.Spaces},
		{Match: syntax.HashComment}, {Kind: "journey", Match: syntax.Word("journey", true)},
		{Kind: "title", Match: syntax.KwLine("title", "#\n;", true)},
		{Kind: "section", Match: syntax.KwLine("section", "#:\n;", true)},
		{Kind: "taskName", Match: syntax.RunNot("#:\n;")},
		{Kind: "taskData", Match: func(t string, i int) int {
			if t[i] != ':' {
				return -1
			}
			j := i + 1
			for j < len(t) && strings.IndexByte("#\n;", t[j]) < 0 {
				j++
			}
			if j == i+1 {
				return -1
			}
			return j
		}},
		{Kind: ":", Match: syntax.Lit(":", false)},
		{Kind: "INVALID", Match: syntax.AnyChar},
	}
	return syntax.WithAcc(initial, 7, true, nil)
}

// ParseJourney checks the code of a diagram of its type, reporting what it finds to d.
func ParseJourney(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewRuleLexer(code.Text, journeyRules(), syntax.AtEndWith(map[string]string{"": "EOF"}))
	p := &journeyParser{Parser: syntax.NewParser(d, code, lex), code: code}
	syntax.RunParse(p.start)
}

type journeyParser struct {
	syntax.Parser
	code syntax.Src
}

func (p *journeyParser) start() {
	p.Expect("journey", "journey")
	for {
		switch {
		case p.At("EOF"):
			p.Take()
			if !p.At(syntax.TokEOF) {
				p.Fail("the end of the diagram")
			}
			return
		case p.At("NEWLINE"):
			p.Take()
		case p.At("title", "section"):
			p.Take()
		case p.AccStatement():
		case p.At("taskName"):
			name := p.Take()
			if !p.At("taskData") {
				p.Fail(fmt.Sprintf("a colon, the score and the actors after task %s (Make tea: 5: Me)", syntax.QuoteShort(strings.TrimSpace(name.Val))))
			}
			p.checkTask(name, p.Take())
		default:
			p.Fail("a title, a section or a task (Make tea: 5: Me)")
		}
	}
}

// checkTask checks a task's score as journeyDb reads it: the number before
// the second colon.
func (p *journeyParser) checkTask(name, data syntax.Token) {
	score, _, _ := strings.Cut(data.Val[1:], ":")
	s := strings.TrimSpace(score)
	from := data.From + 1 + strings.Index(score, s)
	if _, err := strconv.ParseFloat(s, 64); err != nil || s == "" {
		p.D.Report(syntax.RuleValue, p.code, from, max(from+len(s)-1, from),
			fmt.Sprintf("task %s has the score %s, which is not a number, so Mermaid cannot place it", syntax.QuoteShort(strings.TrimSpace(name.Val)), syntax.QuoteShort(s)),
			"write the score as a number from 1 to 5: Task: 4: Actor")
	}
}
