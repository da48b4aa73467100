package mermaid

import (
	"strings"
)

// XY charts, after xychart.jison (case-insensitive): the header with an
// orientation, title, x-axis (categories or a range), y-axis (a range),
// and line and bar series of numbers. Its lexer states are inclusive: each
// lists a selection of one rule table, in the table's order.

func xychartRules() map[string][]lexRule {
	pop := func(r lexRule) lexRule { r.pops = 1; return r }
	acc, accStates := accRules(true)
	table := map[int]lexRule{
		0: {match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
				return lineEnd(t, i)
			}
			return -1
		}},
		1: {match: charPercentComment},
		2: pop(lexRule{kind: "NEWLINE", match: oneNewline}), 3: pop(lexRule{kind: "NEWLINE", match: oneNewline}),
		4: {kind: "NEWLINE", match: runOf("\n\r")},
		5: {match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") {
				return lineEnd(t, i)
			}
			return -1
		}},
		6: {kind: "title", match: word("title", true)}, 7: acc[0], 9: acc[1], 11: acc[2],
		14: {kind: "XYCHART", match: word("xychart-beta", true)}, 15: {kind: "XYCHART", match: word("xychart", true)},
		16: {kind: "CHART_ORIENTATION", match: func(t string, i int) int {
			for _, w := range []string{"vertical", "horizontal"} {
				if hasPrefixAt(t, i, w, true) {
					return i + len(w)
				}
			}
			return -1
		}},
		17: {kind: "X_AXIS", match: word("x-axis", true), push: "axis_data"},
		18: {kind: "Y_AXIS", match: word("y-axis", true), push: "axis_data"},
		19: {kind: "SQUARE_BRACES_START", match: lit("[", false), push: "axis_band_data"},
		20: {kind: "ARROW_DELIMITER", match: lit("-->", false)},
		21: {kind: "LINE", match: word("line", true), push: "data"}, 22: {kind: "BAR", match: word("bar", true), push: "data"},
		23: {kind: "SQUARE_BRACES_START", match: lit("[", false), push: "data_inner"},
		24: {kind: "NUMBER_WITH_DECIMAL", match: signedDecimal},
		25: pop(lexRule{kind: "SQUARE_BRACES_END", match: lit("]", false)}),
		27: {match: lit("\"", false), push: "string"},
		30: {kind: "SQUARE_BRACES_START", match: lit("[", false)}, 31: {kind: "SQUARE_BRACES_END", match: lit("]", false)},
		32: {kind: "ALPHA", match: runOfAlpha}, 33: {kind: "COLON", match: lit(":", false)}, 34: {kind: "PLUS", match: lit("+", false)},
		35: {kind: "COMMA", match: lit(",", false)}, 36: {kind: "EQUALS", match: lit("=", false)}, 37: {kind: "MULT", match: lit("*", false)},
		38: {kind: "BRKT", match: lit("#", false)}, 39: {kind: "UNDERSCORE", match: lit("_", false)}, 40: {kind: "DOT", match: lit(".", false)},
		41: {kind: "AMP", match: lit("&", false)}, 42: {kind: "MINUS", match: lit("-", false)},
		43: {kind: "NUM", match: runOf("0123456789")}, 44: {match: spaces}, 45: {kind: "SEMI", match: lit(";", false)},
	}
	pick := func(idx ...int) []lexRule {
		var out []lexRule
		for _, i := range idx {
			if r, ok := table[i]; ok {
				out = append(out, r)
			}
		}
		return out
	}
	common := []int{5, 6, 7, 9, 11, 14, 15, 16, 17, 18, 21, 22}
	tail := []int{27, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45}
	list := func(head []int, mid ...int) []lexRule {
		idx := append(append(append([]int{}, head...), common...), mid...)
		return pick(append(idx, tail...)...)
	}
	rules := map[string][]lexRule{
		"":               list([]int{0, 1, 4}),
		"axis_data":      list([]int{0, 1, 2, 4}, 19, 20, 24),
		"axis_band_data": list([]int{0, 1, 4}, 25),
		"data":           list([]int{0, 1, 3, 4}, 23),
		"data_inner":     list([]int{0, 1, 4}, 24, 25),
		"string":         {{match: lit("\"", false), pops: 1}, {kind: "STR", match: restNot("\"")}},
	}
	for k, v := range accStates {
		rules[k] = v
	}
	return rules
}

func oneNewline(t string, i int) int {
	if t[i] == '\n' {
		return i + 1
	}
	if t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n' {
		return i + 2
	}
	return -1
}

// signedDecimal matches [+-]?(?:\d+(?:\.\d+)?|\.\d+).
func signedDecimal(t string, i int) int {
	j := i
	if t[j] == '+' || t[j] == '-' {
		j++
	}
	k := j
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	if k > j {
		if k+1 < len(t) && t[k] == '.' && isDigit(t[k+1]) {
			k++
			for k < len(t) && isDigit(t[k]) {
				k++
			}
		}
		return k
	}
	if k < len(t) && t[k] == '.' && k+1 < len(t) && isDigit(t[k+1]) {
		k++
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		return k
	}
	return -1
}

type xyParser struct{ parser }

func parseXYChart(d *diagram, code src) {
	atEnd := atEndWith(map[string]string{"": "EOF", "axis_data": "EOF", "axis_band_data": "EOF", "data": "EOF", "data_inner": "EOF", "string": "STR"})
	p := &xyParser{newParser(d, code, newRuleLexer(code.text, xychartRules(), atEnd))}
	runParse(p.start)
}

func (p *xyParser) eol() bool {
	if p.at("NEWLINE", "SEMI", "EOF") {
		p.take()
		return true
	}
	return false
}

func (p *xyParser) start() {
	for {
		switch {
		case p.eol():
		case p.at("XYCHART"):
			p.take()
			p.accept("CHART_ORIENTATION")
		default:
			goto document
		}
	}
document:
	for !p.at(tokEOF) {
		p.statement()
		for p.eol() {
		}
	}
}

var xyAlphaNum = map[string]bool{"AMP": true, "NUM": true, "ALPHA": true, "PLUS": true, "EQUALS": true, "MULT": true,
	"DOT": true, "BRKT": true, "MINUS": true, "UNDERSCORE": true}

func (p *xyParser) startsText() bool { return xyAlphaNum[p.peek(0).kind] || p.at("STR", "MD_STR") }

func (p *xyParser) text(what string) {
	if !p.startsText() {
		p.fail(what)
	}
	if t := p.take(); t.kind == "STR" || t.kind == "MD_STR" {
		return
	}
	for xyAlphaNum[p.peek(0).kind] {
		p.take()
	}
}

func (p *xyParser) statement() {
	switch {
	case p.at("title"):
		p.take()
		p.text("the title")
	case p.at("X_AXIS"):
		p.take()
		p.axis(true)
	case p.at("Y_AXIS"):
		p.take()
		p.axis(false)
	case p.at("LINE", "BAR"):
		p.take()
		if p.startsText() {
			p.text("the series' name")
		}
		p.plotData()
	case p.accStatement():
	default:
		p.fail("title, x-axis, y-axis, line or bar")
	}
}

// axis is [label] then, for x, [categories] or min --> max; for y, min --> max.
func (p *xyParser) axis(x bool) {
	if p.startsText() {
		p.text("the axis's label")
		if !p.at("SQUARE_BRACES_START", "NUMBER_WITH_DECIMAL") {
			return
		}
	}
	if x && p.at("SQUARE_BRACES_START") {
		p.take()
		for {
			p.text("a category")
			if _, ok := p.accept("COMMA"); !ok {
				break
			}
		}
		p.expect("SQUARE_BRACES_END", "] to close the categories")
		return
	}
	p.expect("NUMBER_WITH_DECIMAL", "the axis's range (min --> max) or its categories [a, b, c]")
	p.expect("ARROW_DELIMITER", "--> between the axis's min and max")
	p.expect("NUMBER_WITH_DECIMAL", "the axis's max")
}

func (p *xyParser) plotData() {
	p.expect("SQUARE_BRACES_START", "the series' values in brackets: [10, 20, 30]")
	for {
		p.expect("NUMBER_WITH_DECIMAL", "a number")
		p.accept("STR")
		if _, ok := p.accept("COMMA"); !ok {
			break
		}
	}
	p.expect("SQUARE_BRACES_END", "] to close the values")
}
