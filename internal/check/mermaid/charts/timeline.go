package charts

import (
	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Timelines (timeline.jison): a header with an optional direction, then
// title, sections, periods and their ": event" parts.

func timelineRules() map[string][]syntax.LexRule {
	initial := []syntax.LexRule{
		{Match: syntax.PercentComment}, {Match: syntax.CharPercentComment}, {Kind: "NEWLINE", Match: syntax.Newlines}, {Match: syntax.Spaces},
		{Match: syntax.HashComment},
		{Kind: "timeline_lr", Match: timelineDir("LR")}, {Kind: "timeline_td", Match: timelineDir("TD")},
		{Kind: "timeline", Match: syntax.Word("timeline", true)},
		{Kind: "title", Match: syntax.KwLine("title", "\n", true)},
		{Kind: "section", Match: syntax.KwLine("section", ":\n", true)},
		{Kind: "event", Match: timelineEvent},
		{Kind: "period", Match: syntax.RunNot("#:\n")},
		{Kind: "INVALID", Match: syntax.AnyChar},
	}
	return syntax.WithAcc(initial, 9, true, nil)
}

// timelineDir matches timeline[ \t]+dir\b.
func timelineDir(dir string) func(string, int) int {
	return func(t string, i int) int {
		if !syntax.HasPrefixAt(t, i, "timeline", true) {
			return -1
		}
		j := syntax.WhitespaceEnd(t, i+8)
		if j == i+8 || !syntax.HasWord(t, j, dir, true) {
			return -1
		}
		return j + len(dir)
	}
}

// timelineEvent matches :\s(?:[^:\n]|:(?!\s))+.
func timelineEvent(t string, i int) int {
	if t[i] != ':' || i+1 >= len(t) || !syntax.IsJSSpaceByte(t[i+1]) {
		return -1
	}
	j := i + 2
	for j < len(t) && t[j] != '\n' {
		if t[j] == ':' && (j+1 >= len(t) || syntax.IsJSSpaceByte(t[j+1])) {
			break
		}
		j++
	}
	if j == i+2 {
		return -1
	}
	return j
}

// ParseTimeline checks the code of a diagram of its type, reporting what it finds to d.
func ParseTimeline(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewRuleLexer(code.Text, timelineRules(), syntax.AtEndWith(map[string]string{"": "EOF"}))
	p := &timelineParser{Parser: syntax.NewParser(d, code, lex)}
	syntax.RunParse(p.start)
}

type timelineParser struct {
	syntax.Parser
	periods int
}

func (p *timelineParser) start() {
	if !p.At("timeline", "timeline_lr", "timeline_td") {
		p.Fail("timeline")
	}
	p.Take()
	for {
		switch {
		case p.At("EOF"):
			p.Take()
			if !p.At(syntax.TokEOF) {
				p.Fail("the end of the diagram")
			}
			return
		case p.At("period"):
			p.Take()
			p.periods++
		case p.At("event"):
			if p.periods == 0 {
				p.FailMsg(p.Peek(0), "this event (: text) comes before any period, which makes Mermaid fail; an event belongs to the period written before it")
			}
			p.Take()
		case p.At("NEWLINE", "title", "section"):
			p.Take()
		case p.AccStatement():
		default:
			p.Fail("a title, a section, a period or an event (: text)")
		}
	}
}
