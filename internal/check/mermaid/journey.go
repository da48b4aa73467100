package mermaid

import (
	"fmt"
	"strconv"
	"strings"
)

// User journeys (journey.jison): title, sections and "Task: score:
// actors" lines; journeyDb reads the score as a number.

func journeyRules() map[string][]lexRule {
	initial := []lexRule{
		{match: percentComment}, {match: charPercentComment}, {kind: "NEWLINE", match: newlines}, {match: spaces},
		{match: hashComment}, {kind: "journey", match: word("journey", true)},
		{kind: "title", match: kwLine("title", "#\n;", true)},
		{kind: "section", match: kwLine("section", "#:\n;", true)},
		{kind: "taskName", match: runNot("#:\n;")},
		{kind: "taskData", match: func(t string, i int) int {
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
		{kind: ":", match: lit(":", false)},
		{kind: "INVALID", match: anyChar},
	}
	return withAcc(initial, 7, true, nil)
}

func parseJourney(d *diagram, code src) {
	lex := newRuleLexer(code.text, journeyRules(), atEndWith(map[string]string{"": "EOF"}))
	p := &journeyParser{parser: newParser(d, code, lex), code: code}
	runParse(p.start)
}

type journeyParser struct {
	parser
	code src
}

func (p *journeyParser) start() {
	p.expect("journey", "journey")
	for {
		switch {
		case p.at("EOF"):
			p.take()
			if !p.at(tokEOF) {
				p.fail("the end of the diagram")
			}
			return
		case p.at("NEWLINE"):
			p.take()
		case p.at("title", "section"):
			p.take()
		case p.accStatement():
		case p.at("taskName"):
			name := p.take()
			if !p.at("taskData") {
				p.fail(fmt.Sprintf("a colon, the score and the actors after task %s (Make tea: 5: Me)", quoteShort(strings.TrimSpace(name.val))))
			}
			p.checkTask(name, p.take())
		default:
			p.fail("a title, a section or a task (Make tea: 5: Me)")
		}
	}
}

// checkTask checks a task's score as journeyDb reads it: the number before
// the second colon.
func (p *journeyParser) checkTask(name, data token) {
	score, _, _ := strings.Cut(data.val[1:], ":")
	s := strings.TrimSpace(score)
	from := data.from + 1 + strings.Index(score, s)
	if _, err := strconv.ParseFloat(s, 64); err != nil || s == "" {
		p.d.report(ruleValue, p.code, from, max(from+len(s)-1, from),
			fmt.Sprintf("task %s has the score %s, which is not a number, so Mermaid cannot place it", quoteShort(strings.TrimSpace(name.val)), quoteShort(s)),
			"write the score as a number from 1 to 5: Task: 4: Actor")
	}
}
