package mermaid

// Timelines (timeline.jison): a header with an optional direction, then
// title, sections, periods and their ": event" parts.

func timelineRules() map[string][]lexRule {
	initial := []lexRule{
		{match: percentComment}, {match: charPercentComment}, {kind: "NEWLINE", match: newlines}, {match: spaces},
		{match: hashComment},
		{kind: "timeline_lr", match: timelineDir("LR")}, {kind: "timeline_td", match: timelineDir("TD")},
		{kind: "timeline", match: word("timeline", true)},
		{kind: "title", match: kwLine("title", "\n", true)},
		{kind: "section", match: kwLine("section", ":\n", true)},
		{kind: "event", match: timelineEvent},
		{kind: "period", match: runNot("#:\n")},
		{kind: "INVALID", match: anyChar},
	}
	return withAcc(initial, 9, true, nil)
}

// timelineDir matches timeline[ \t]+dir\b.
func timelineDir(dir string) func(string, int) int {
	return func(t string, i int) int {
		if !hasPrefixAt(t, i, "timeline", true) {
			return -1
		}
		j := whitespaceEnd(t, i+8)
		if j == i+8 || !hasWord(t, j, dir, true) {
			return -1
		}
		return j + len(dir)
	}
}

// timelineEvent matches :\s(?:[^:\n]|:(?!\s))+.
func timelineEvent(t string, i int) int {
	if t[i] != ':' || i+1 >= len(t) || !isJSSpaceByte(t[i+1]) {
		return -1
	}
	j := i + 2
	for j < len(t) && t[j] != '\n' {
		if t[j] == ':' && (j+1 >= len(t) || isJSSpaceByte(t[j+1])) {
			break
		}
		j++
	}
	if j == i+2 {
		return -1
	}
	return j
}

func parseTimeline(d *diagram, code src) {
	lex := newRuleLexer(code.text, timelineRules(), atEndWith(map[string]string{"": "EOF"}))
	p := &timelineParser{parser: newParser(d, code, lex)}
	runParse(p.start)
}

type timelineParser struct {
	parser
	periods int
}

func (p *timelineParser) start() {
	if !p.at("timeline", "timeline_lr", "timeline_td") {
		p.fail("timeline")
	}
	p.take()
	for {
		switch {
		case p.at("EOF"):
			p.take()
			if !p.at(tokEOF) {
				p.fail("the end of the diagram")
			}
			return
		case p.at("period"):
			p.take()
			p.periods++
		case p.at("event"):
			if p.periods == 0 {
				p.failMsg(p.peek(0), "this event (: text) comes before any period, which makes Mermaid fail; an event belongs to the period written before it")
			}
			p.take()
		case p.at("NEWLINE", "title", "section"):
			p.take()
		case p.accStatement():
		default:
			p.fail("a title, a section, a period or an event (: text)")
		}
	}
}
