package charts

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"github.com/cairn-dev/cairn/internal/check"
)

// Quadrant charts, after quadrant.jison (case-insensitive): axes,
// quadrant labels, points "Name: [x, y]" with coordinates from 0 to 1,
// classDef, and the point styles quadrantDb checks.

func quadrantRules() map[string][]syntax.LexRule {
	spaced := func(kw string) func(string, int) int {
		return func(t string, i int) int {
			j := i
			for j < len(t) && t[j] == ' ' {
				j++
			}
			if !syntax.HasPrefixAt(t, j, kw, true) {
				return -1
			}
			j += len(kw)
			for j < len(t) && t[j] == ' ' {
				j++
			}
			return j
		}
	}
	single := func(kind, chars string) syntax.LexRule {
		return syntax.LexRule{Kind: kind, Match: syntax.CharIn(chars)}
	}
	initial := []syntax.LexRule{
		{Match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
				return syntax.LineEnd(t, i)
			}
			return -1
		}},
		{Match: syntax.CharPercentComment}, {Kind: "NEWLINE", Match: syntax.RunOf("\n\r")},
		{Match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") {
				return syntax.LineEnd(t, i)
			}
			return -1
		}},
		{Kind: "title", Match: syntax.Word("title", true), Push: "title"},
		{Kind: "X-AXIS", Match: spaced("x-axis")}, {Kind: "Y-AXIS", Match: spaced("y-axis")},
		{Kind: "AXIS-TEXT-DELIMITER", Match: axisDelimiter},
		{Kind: "QUADRANT_1", Match: spaced("quadrant-1")}, {Kind: "QUADRANT_2", Match: spaced("quadrant-2")},
		{Kind: "QUADRANT_3", Match: spaced("quadrant-3")}, {Kind: "QUADRANT_4", Match: spaced("quadrant-4")},
		{Kind: "CLASSDEF", Match: syntax.Word("classDef", true)},
		{Match: syntax.Lit("\"`", false), Push: "md_string"}, {Match: syntax.Lit("\"", false), Push: "string"},
		{Match: syntax.Lit(":::", false), Push: "class_name"},
		{Kind: "point_start", Match: pointStart, Push: "point_start"},
		{Kind: "QUADRANT", Match: spaced("quadrantChart")},
		{Kind: "ALPHA", Match: runOfAlpha}, {Kind: "UNICODE_TEXT", Match: runOfNonASCII},
		single("COLON", ":"), single("PLUS", "+"), single("COMMA", ","), single("EQUALS", "="), single("MULT", "*"),
		single("BRKT", "#"), single("UNDERSCORE", "_"), single("DOT", "."), single("AMP", "&"), single("MINUS", "-"),
		{Kind: "NUM", Match: syntax.RunOf("0123456789")}, {Kind: "SPACE", Match: oneSpace}, single("SEMI", ";"),
		single("PUNCTUATION", "!\"#$%&'*+,-.`?\\_/"),
	}
	return syntax.WithAcc(initial, 5, true, map[string][]syntax.LexRule{
		"title":       {{Kind: "title_value", Match: syntax.RestNot("\n"), Pops: 1}},
		"string":      {{Match: syntax.Lit("\"", false), Pops: 1}, {Kind: "STR", Match: syntax.RestNot("\"")}},
		"md_string":   {{Kind: "MD_STR", Match: syntax.RunNot("`\"")}, {Match: syntax.Lit("`\"", false), Pops: 1}},
		"class_name":  {{Kind: "class_name", Match: syntax.RunOfWord, Pops: 1}},
		"point_start": {{Kind: "point_x", Match: pointValue, Push: "point_x"}, {Match: pointEnd, Pops: 1}},
		"point_x":     {{Match: pointComma, Pops: 1, Push: "point_y"}},
		"point_y":     {{Kind: "point_y", Match: pointValue, Pops: 1}},
	})
}

func runOfAlpha(t string, i int) int {
	j := i
	for j < len(t) && syntax.IsAlpha(t[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func runOfNonASCII(t string, i int) int {
	j := i
	for j < len(t) && t[j] >= 0x80 {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func oneSpace(t string, i int) int {
	if r, n := syntax.DecodeRune(t, i); syntax.IsJSSpace(r) {
		return i + n
	}
	return -1
}

// axisDelimiter matches ' *--+> *'.
func axisDelimiter(t string, i int) int {
	j := i
	for j < len(t) && t[j] == ' ' {
		j++
	}
	k := j
	for k < len(t) && t[k] == '-' {
		k++
	}
	if k-j < 2 || k >= len(t) || t[k] != '>' {
		return -1
	}
	k++
	for k < len(t) && t[k] == ' ' {
		k++
	}
	return k
}

// pointStart matches \s*:\s*\[\s*.
func pointStart(t string, i int) int {
	j := syntax.SkipJSSpace(t, i)
	if j >= len(t) || t[j] != ':' {
		return -1
	}
	j = syntax.SkipJSSpace(t, j+1)
	if j >= len(t) || t[j] != '[' {
		return -1
	}
	return syntax.SkipJSSpace(t, j+1)
}

// pointValue matches (1)|(0(.\d+)?): a coordinate from 0 to 1.
func pointValue(t string, i int) int {
	switch t[i] {
	case '1':
		return i + 1
	case '0':
		if i+2 < len(t) && t[i+1] != '\n' && syntax.IsDigit(t[i+2]) {
			j := i + 2
			for j < len(t) && syntax.IsDigit(t[j]) {
				j++
			}
			return j
		}
		return i + 1
	}
	return -1
}

// pointComma matches \s*,\s*.
func pointComma(t string, i int) int {
	j := syntax.SkipJSSpace(t, i)
	if j >= len(t) || t[j] != ',' {
		return -1
	}
	return syntax.SkipJSSpace(t, j+1)
}

// pointEnd matches \s*\] *.
func pointEnd(t string, i int) int {
	j := syntax.SkipJSSpace(t, i)
	if j >= len(t) || t[j] != ']' {
		return -1
	}
	j++
	for j < len(t) && t[j] == ' ' {
		j++
	}
	return j
}

type quadrantParser struct {
	syntax.Parser
	code syntax.Src
}

// ParseQuadrant checks the code of a diagram of its type, reporting what it finds to d.
func ParseQuadrant(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewRuleLexer(code.Text, quadrantRules(), syntax.AtEndWith(map[string]string{"": "EOF", "title": "title_value", "string": "STR"}))
	p := &quadrantParser{Parser: syntax.NewParser(d, code, lex), code: code}
	p.Hint = p.quadrantHint
	syntax.RunParse(p.start)
}

func (p *quadrantParser) start() {
	for p.At("NEWLINE", "SEMI", "EOF", "SPACE") {
		p.Take()
	}
	p.Expect("QUADRANT", "quadrantChart")
	for !p.At(syntax.TokEOF) {
		p.statement()
		if !p.At("NEWLINE", "SEMI", "EOF") {
			p.Fail("the end of the line")
		}
		p.Take()
	}
}

var quadrantAlphaNum = map[string]bool{"PUNCTUATION": true, "AMP": true, "NUM": true, "ALPHA": true, "COMMA": true,
	"PLUS": true, "EQUALS": true, "MULT": true, "DOT": true, "BRKT": true, "UNDERSCORE": true, "UNICODE_TEXT": true}

func (p *quadrantParser) statement() {
	for p.At("SPACE") {
		p.Take()
	}
	switch t := p.Peek(0); {
	case t.Kind == "NEWLINE", t.Kind == "SEMI", t.Kind == "EOF":
	case t.Kind == "CLASSDEF":
		p.Take()
		p.Expect("SPACE", "a space after classDef")
		if !quadrantIDKinds[p.Peek(0).Kind] {
			p.Fail("a class name")
		}
		for quadrantIDKinds[p.Peek(0).Kind] {
			p.Take()
		}
		p.Expect("SPACE", "a space before the styles")
		p.styles()
	case t.Kind == "X-AXIS", t.Kind == "Y-AXIS":
		p.Take()
		p.text("the axis's low label")
		if _, ok := p.Accept("AXIS-TEXT-DELIMITER"); ok && p.startsText() {
			p.text("the axis's high label")
		}
	case strings.HasPrefix(t.Kind, "QUADRANT_"):
		p.Take()
		p.text("the quadrant's label")
	case t.Kind == "title":
		p.Take()
		p.Expect("title_value", "the title")
	case p.AccStatement():
	default:
		p.point()
	}
}

func (p *quadrantParser) startsText() bool {
	return quadrantAlphaNum[p.Peek(0).Kind] || p.At("STR", "MD_STR")
}

// text is (a word or a string) followed by words, spaces and dashes.
func (p *quadrantParser) text(what string) syntax.Token {
	if !p.startsText() {
		p.Fail(what)
	}
	t := p.Take()
	for quadrantAlphaNum[p.Peek(0).Kind] || p.At("SPACE", "MINUS") {
		n := p.Take()
		t.Val += n.Val
		t.To = n.To
	}
	return t
}

// point is Name[:::class]: [x, y] [styles].
func (p *quadrantParser) point() {
	name := p.text("a point (Name: [0.3, 0.6]), an axis, a quadrant label or a title")
	p.Accept("class_name")
	if !p.At("point_start") {
		p.Fail(fmt.Sprintf("a colon and the coordinates after point %s (Name: [0.3, 0.6])", syntax.QuoteShort(strings.TrimSpace(name.Val))))
	}
	p.Take()
	p.Expect("point_x", "an x coordinate from 0 to 1")
	p.Expect("point_y", "a comma and a y coordinate from 0 to 1")
	if p.At("NEWLINE", "SEMI", "EOF") {
		return
	}
	p.styles()
}

var quadrantIDKinds = map[string]bool{"ALPHA": true, "NUM": true, "NODE_STRING": true, "DOWN": true, "MINUS": true,
	"DEFAULT": true, "COMMA": true, "COLON": true, "AMP": true, "BRKT": true, "MULT": true, "UNICODE_TEXT": true}

var quadrantStyleKinds = map[string]bool{"ALPHA": true, "NUM": true, "NODE_STRING": true, "COLON": true, "UNIT": true,
	"SPACE": true, "BRKT": true, "STYLE": true, "PCT": true, "MINUS": true}

// styles reads style (, style)* and checks each as quadrantDb does.
func (p *quadrantParser) styles() {
	for {
		if !quadrantStyleKinds[p.Peek(0).Kind] {
			p.Fail("a style such as radius: 10 or color: #ff0000")
		}
		s := p.Take()
		for quadrantStyleKinds[p.Peek(0).Kind] {
			n := p.Take()
			s.Val += n.Val
			s.To = n.To
		}
		p.checkStyle(s)
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}

var (
	hexColor  = check.LazyRegexp(`^#?([\dA-Fa-f]{6}|[\dA-Fa-f]{3})$`)
	pixelSize = check.LazyRegexp(`^\d+px$`)
	wholeNum  = check.LazyRegexp(`^\d+$`)
)

// checkStyle is quadrantDb's parseStyles for one style.
func (p *quadrantParser) checkStyle(s syntax.Token) {
	text := strings.TrimSpace(s.Val)
	key, value, _ := strings.Cut(text, ":")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	var want string
	switch key {
	case "radius":
		if !wholeNum().MatchString(value) {
			want = "a whole number"
		}
	case "color", "stroke-color":
		if !hexColor().MatchString(value) {
			want = "a hex colour such as #ff0000"
		}
	case "stroke-width":
		if !pixelSize().MatchString(value) {
			want = "a number of pixels such as 2px"
		}
	default:
		from, last := syntax.TokenSpan(p.code.Text, s)
		p.D.Report(syntax.RuleValue, p.code, from, last, fmt.Sprintf("quadrant charts have no style %s, and Mermaid refuses it", syntax.QuoteShort(key)),
			"use radius, color, stroke-color or stroke-width")
		return
	}
	if want != "" {
		from, last := syntax.TokenSpan(p.code.Text, s)
		p.D.Report(syntax.RuleValue, p.code, from, last, fmt.Sprintf("style %s has the value %s; Mermaid refuses anything but %s", key, syntax.QuoteShort(value), want),
			"write "+key+" as "+want)
	}
}

func (p *quadrantParser) quadrantHint(found syntax.Token, expected string) string {
	if found.Kind == syntax.TokError && strings.Contains(p.code.Text[max(0, found.From-12):found.From], "[") {
		return fmt.Sprintf("unexpected %s in a point's coordinates: quadrant coordinates are numbers from 0 to 1 (0, 0.25, 1)", syntax.QuoteShort(found.Val))
	}
	return ""
}
