package charts

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// XY charts, after xychart.jison (case-insensitive): the header with an
// orientation, title, x-axis (categories or a range), y-axis (a range),
// and line and bar series of numbers. Its lexer states are inclusive: each
// lists a selection of one rule table, in the table's order.

func xychartRules() map[string][]syntax.LexRule {
	pop := func(r syntax.LexRule) syntax.LexRule { r.Pops = 1; return r }
	acc, accStates := syntax.AccRules(true)
	table := map[int]syntax.LexRule{
		0: {Match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
				return syntax.LineEnd(t, i)
			}
			return -1
		}},
		1: {Match: syntax.CharPercentComment},
		2: pop(syntax.LexRule{Kind: "NEWLINE", Match: oneNewline}), 3: pop(syntax.LexRule{Kind: "NEWLINE", Match: oneNewline}),
		4: {Kind: "NEWLINE", Match: syntax.RunOf("\n\r")},
		5: {Match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") {
				return syntax.LineEnd(t, i)
			}
			return -1
		}},
		6: {Kind: "title", Match: syntax.Word("title", true)}, 7: acc[0], 9: acc[1], 11: acc[2],
		14: {Kind: "XYCHART", Match: syntax.Word("xychart-beta", true)}, 15: {Kind: "XYCHART", Match: syntax.Word("xychart", true)},
		16: {Kind: "CHART_ORIENTATION", Match: func(t string, i int) int {
			for _, w := range []string{"vertical", "horizontal"} {
				if syntax.HasPrefixAt(t, i, w, true) {
					return i + len(w)
				}
			}
			return -1
		}},
		17: {Kind: "X_AXIS", Match: syntax.Word("x-axis", true), Push: "axis_data"},
		18: {Kind: "Y_AXIS", Match: syntax.Word("y-axis", true), Push: "axis_data"},
		19: {Kind: "SQUARE_BRACES_START", Match: syntax.Lit("[", false), Push: "axis_band_data"},
		20: {Kind: "ARROW_DELIMITER", Match: syntax.Lit("-->", false)},
		21: {Kind: "LINE", Match: syntax.Word("line", true), Push: "data"}, 22: {Kind: "BAR", Match: syntax.Word("bar", true), Push: "data"},
		23: {Kind: "SQUARE_BRACES_START", Match: syntax.Lit("[", false), Push: "data_inner"},
		24: {Kind: "NUMBER_WITH_DECIMAL", Match: signedDecimal},
		25: pop(syntax.LexRule{Kind: "SQUARE_BRACES_END", Match: syntax.Lit("]", false)}),
		27: {Match: syntax.Lit("\"", false), Push: "string"},
		30: {Kind: "SQUARE_BRACES_START", Match: syntax.Lit("[", false)}, 31: {Kind: "SQUARE_BRACES_END", Match: syntax.Lit("]", false)},
		32: {Kind: "ALPHA", Match: runOfAlpha}, 33: {Kind: "COLON", Match: syntax.Lit(":", false)}, 34: {Kind: "PLUS", Match: syntax.Lit("+", false)},
		35: {Kind: "COMMA", Match: syntax.Lit(",", false)}, 36: {Kind: "EQUALS", Match: syntax.Lit("=", false)}, 37: {Kind: "MULT", Match: syntax.Lit("*", false)},
		38: {Kind: "BRKT", Match: syntax.Lit("#", false)}, 39: {Kind: "UNDERSCORE", Match: syntax.Lit("_", false)}, 40: {Kind: "DOT", Match: syntax.Lit(".", false)},
		41: {Kind: "AMP", Match: syntax.Lit("&", false)}, 42: {Kind: "MINUS", Match: syntax.Lit("-", false)},
		43: {Kind: "NUM", Match: syntax.RunOf("0123456789")}, 44: {Match: syntax.Spaces}, 45: {Kind: "SEMI", Match: syntax.Lit(";", false)},
	}
	pick := func(idx ...int) []syntax.LexRule {
		var out []syntax.LexRule
		for _, i := range idx {
			if r, ok := table[i]; ok {
				out = append(out, r)
			}
		}
		return out
	}
	common := []int{5, 6, 7, 9, 11, 14, 15, 16, 17, 18, 21, 22}
	tail := []int{27, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45}
	list := func(head []int, mid ...int) []syntax.LexRule {
		idx := append(append(append([]int{}, head...), common...), mid...)
		return pick(append(idx, tail...)...)
	}
	rules := map[string][]syntax.LexRule{
		"":               list([]int{0, 1, 4}),
		"axis_data":      list([]int{0, 1, 2, 4}, 19, 20, 24),
		"axis_band_data": list([]int{0, 1, 4}, 25),
		"data":           list([]int{0, 1, 3, 4}, 23),
		"data_inner":     list([]int{0, 1, 4}, 24, 25),
		"string":         {{Match: syntax.Lit("\"", false), Pops: 1}, {Kind: "STR", Match: syntax.RestNot("\"")}},
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
	for k < len(t) && syntax.IsDigit(t[k]) {
		k++
	}
	if k > j {
		if k+1 < len(t) && t[k] == '.' && syntax.IsDigit(t[k+1]) {
			k++
			for k < len(t) && syntax.IsDigit(t[k]) {
				k++
			}
		}
		return k
	}
	if k < len(t) && t[k] == '.' && k+1 < len(t) && syntax.IsDigit(t[k+1]) {
		k++
		for k < len(t) && syntax.IsDigit(t[k]) {
			k++
		}
		return k
	}
	return -1
}

type xyParser struct{ syntax.Parser }

// ParseXYChart checks the code of a diagram of its type, reporting what it finds to d.
func ParseXYChart(d *syntax.Diagram, code syntax.Src) {
	atEnd := syntax.AtEndWith(map[string]string{"": "EOF", "axis_data": "EOF", "axis_band_data": "EOF", "data": "EOF", "data_inner": "EOF", "string": "STR"})
	p := &xyParser{syntax.NewParser(d, code, syntax.NewRuleLexer(code.Text, xychartRules(), atEnd))}
	syntax.RunParse(p.start)
}

func (p *xyParser) eol() bool {
	if p.At("NEWLINE", "SEMI", "EOF") {
		p.Take()
		return true
	}
	return false
}

func (p *xyParser) start() {
	for {
		switch {
		case p.eol():
		case p.At("XYCHART"):
			p.Take()
			p.Accept("CHART_ORIENTATION")
		default:
			goto document
		}
	}
document:
	for !p.At(syntax.TokEOF) {
		p.statement()
		for p.eol() {
		}
	}
}

var xyAlphaNum = map[string]bool{"AMP": true, "NUM": true, "ALPHA": true, "PLUS": true, "EQUALS": true, "MULT": true,
	"DOT": true, "BRKT": true, "MINUS": true, "UNDERSCORE": true}

func (p *xyParser) startsText() bool { return xyAlphaNum[p.Peek(0).Kind] || p.At("STR", "MD_STR") }

func (p *xyParser) text(what string) {
	if !p.startsText() {
		p.Fail(what)
	}
	if t := p.Take(); t.Kind == "STR" || t.Kind == "MD_STR" {
		return
	}
	for xyAlphaNum[p.Peek(0).Kind] {
		p.Take()
	}
}

func (p *xyParser) statement() {
	switch {
	case p.At("title"):
		p.Take()
		p.text("the title")
	case p.At("X_AXIS"):
		p.Take()
		p.axis(true)
	case p.At("Y_AXIS"):
		p.Take()
		p.axis(false)
	case p.At("LINE", "BAR"):
		p.Take()
		if p.startsText() {
			p.text("the series' name")
		}
		p.plotData()
	case p.AccStatement():
	default:
		p.Fail("title, x-axis, y-axis, line or bar")
	}
}

// axis is [label] then, for x, [categories] or min --> max; for y, min --> max.
func (p *xyParser) axis(x bool) {
	if p.startsText() {
		p.text("the axis's label")
		if !p.At("SQUARE_BRACES_START", "NUMBER_WITH_DECIMAL") {
			return
		}
	}
	if x && p.At("SQUARE_BRACES_START") {
		p.Take()
		for {
			p.text("a category")
			if _, ok := p.Accept("COMMA"); !ok {
				break
			}
		}
		p.Expect("SQUARE_BRACES_END", "] to close the categories")
		return
	}
	p.Expect("NUMBER_WITH_DECIMAL", "the axis's range (min --> max) or its categories [a, b, c]")
	p.Expect("ARROW_DELIMITER", "--> between the axis's min and max")
	p.Expect("NUMBER_WITH_DECIMAL", "the axis's max")
}

func (p *xyParser) plotData() {
	p.Expect("SQUARE_BRACES_START", "the series' values in brackets: [10, 20, 30]")
	for {
		p.Expect("NUMBER_WITH_DECIMAL", "a number")
		p.Accept("STR")
		if _, ok := p.Accept("COMMA"); !ok {
			break
		}
	}
	p.Expect("SQUARE_BRACES_END", "] to close the values")
}
