package mermaid

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// Quadrant charts, after quadrant.jison (case-insensitive): axes,
// quadrant labels, points "Name: [x, y]" with coordinates from 0 to 1,
// classDef, and the point styles quadrantDb checks.

func quadrantRules() map[string][]lexRule {
	spaced := func(kw string) func(string, int) int {
		return func(t string, i int) int {
			j := i
			for j < len(t) && t[j] == ' ' {
				j++
			}
			if !hasPrefixAt(t, j, kw, true) {
				return -1
			}
			j += len(kw)
			for j < len(t) && t[j] == ' ' {
				j++
			}
			return j
		}
	}
	single := func(kind, chars string) lexRule { return lexRule{kind: kind, match: charIn(chars)} }
	initial := []lexRule{
		{match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
				return lineEnd(t, i)
			}
			return -1
		}},
		{match: charPercentComment}, {kind: "NEWLINE", match: runOf("\n\r")},
		{match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") {
				return lineEnd(t, i)
			}
			return -1
		}},
		{kind: "title", match: word("title", true), push: "title"},
		{kind: "X-AXIS", match: spaced("x-axis")}, {kind: "Y-AXIS", match: spaced("y-axis")},
		{kind: "AXIS-TEXT-DELIMITER", match: axisDelimiter},
		{kind: "QUADRANT_1", match: spaced("quadrant-1")}, {kind: "QUADRANT_2", match: spaced("quadrant-2")},
		{kind: "QUADRANT_3", match: spaced("quadrant-3")}, {kind: "QUADRANT_4", match: spaced("quadrant-4")},
		{kind: "CLASSDEF", match: word("classDef", true)},
		{match: lit("\"`", false), push: "md_string"}, {match: lit("\"", false), push: "string"},
		{match: lit(":::", false), push: "class_name"},
		{kind: "point_start", match: pointStart, push: "point_start"},
		{kind: "QUADRANT", match: spaced("quadrantChart")},
		{kind: "ALPHA", match: runOfAlpha}, {kind: "UNICODE_TEXT", match: runOfNonASCII},
		single("COLON", ":"), single("PLUS", "+"), single("COMMA", ","), single("EQUALS", "="), single("MULT", "*"),
		single("BRKT", "#"), single("UNDERSCORE", "_"), single("DOT", "."), single("AMP", "&"), single("MINUS", "-"),
		{kind: "NUM", match: runOf("0123456789")}, {kind: "SPACE", match: oneSpace}, single("SEMI", ";"),
		single("PUNCTUATION", "!\"#$%&'*+,-.`?\\_/"),
	}
	return withAcc(initial, 5, true, map[string][]lexRule{
		"title":       {{kind: "title_value", match: restNot("\n"), pops: 1}},
		"string":      {{match: lit("\"", false), pops: 1}, {kind: "STR", match: restNot("\"")}},
		"md_string":   {{kind: "MD_STR", match: runNot("`\"")}, {match: lit("`\"", false), pops: 1}},
		"class_name":  {{kind: "class_name", match: runOfWord, pops: 1}},
		"point_start": {{kind: "point_x", match: pointValue, push: "point_x"}, {match: pointEnd, pops: 1}},
		"point_x":     {{match: pointComma, pops: 1, push: "point_y"}},
		"point_y":     {{kind: "point_y", match: pointValue, pops: 1}},
	})
}

func runOfAlpha(t string, i int) int {
	j := i
	for j < len(t) && isAlpha(t[j]) {
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
	if r, n := decodeRune(t, i); isJSSpace(r) {
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
	j := skipJSSpace(t, i)
	if j >= len(t) || t[j] != ':' {
		return -1
	}
	j = skipJSSpace(t, j+1)
	if j >= len(t) || t[j] != '[' {
		return -1
	}
	return skipJSSpace(t, j+1)
}

// pointValue matches (1)|(0(.\d+)?): a coordinate from 0 to 1.
func pointValue(t string, i int) int {
	switch t[i] {
	case '1':
		return i + 1
	case '0':
		if i+2 < len(t) && t[i+1] != '\n' && isDigit(t[i+2]) {
			j := i + 2
			for j < len(t) && isDigit(t[j]) {
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
	j := skipJSSpace(t, i)
	if j >= len(t) || t[j] != ',' {
		return -1
	}
	return skipJSSpace(t, j+1)
}

// pointEnd matches \s*\] *.
func pointEnd(t string, i int) int {
	j := skipJSSpace(t, i)
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
	parser
	code src
}

func parseQuadrant(d *diagram, code src) {
	lex := newRuleLexer(code.text, quadrantRules(), atEndWith(map[string]string{"": "EOF", "title": "title_value", "string": "STR"}))
	p := &quadrantParser{parser: newParser(d, code, lex), code: code}
	p.hint = p.quadrantHint
	runParse(p.start)
}

func (p *quadrantParser) start() {
	for p.at("NEWLINE", "SEMI", "EOF", "SPACE") {
		p.take()
	}
	p.expect("QUADRANT", "quadrantChart")
	for !p.at(tokEOF) {
		p.statement()
		if !p.at("NEWLINE", "SEMI", "EOF") {
			p.fail("the end of the line")
		}
		p.take()
	}
}

var quadrantAlphaNum = map[string]bool{"PUNCTUATION": true, "AMP": true, "NUM": true, "ALPHA": true, "COMMA": true,
	"PLUS": true, "EQUALS": true, "MULT": true, "DOT": true, "BRKT": true, "UNDERSCORE": true, "UNICODE_TEXT": true}

func (p *quadrantParser) statement() {
	for p.at("SPACE") {
		p.take()
	}
	switch t := p.peek(0); {
	case t.kind == "NEWLINE", t.kind == "SEMI", t.kind == "EOF":
	case t.kind == "CLASSDEF":
		p.take()
		p.expect("SPACE", "a space after classDef")
		if !quadrantIDKinds[p.peek(0).kind] {
			p.fail("a class name")
		}
		for quadrantIDKinds[p.peek(0).kind] {
			p.take()
		}
		p.expect("SPACE", "a space before the styles")
		p.styles()
	case t.kind == "X-AXIS", t.kind == "Y-AXIS":
		p.take()
		p.text("the axis's low label")
		if _, ok := p.accept("AXIS-TEXT-DELIMITER"); ok && p.startsText() {
			p.text("the axis's high label")
		}
	case strings.HasPrefix(t.kind, "QUADRANT_"):
		p.take()
		p.text("the quadrant's label")
	case t.kind == "title":
		p.take()
		p.expect("title_value", "the title")
	case p.accStatement():
	default:
		p.point()
	}
}

func (p *quadrantParser) startsText() bool {
	return quadrantAlphaNum[p.peek(0).kind] || p.at("STR", "MD_STR")
}

// text is (a word or a string) followed by words, spaces and dashes.
func (p *quadrantParser) text(what string) token {
	if !p.startsText() {
		p.fail(what)
	}
	t := p.take()
	for quadrantAlphaNum[p.peek(0).kind] || p.at("SPACE", "MINUS") {
		n := p.take()
		t.val += n.val
		t.to = n.to
	}
	return t
}

// point is Name[:::class]: [x, y] [styles].
func (p *quadrantParser) point() {
	name := p.text("a point (Name: [0.3, 0.6]), an axis, a quadrant label or a title")
	p.accept("class_name")
	if !p.at("point_start") {
		p.fail(fmt.Sprintf("a colon and the coordinates after point %s (Name: [0.3, 0.6])", quoteShort(strings.TrimSpace(name.val))))
	}
	p.take()
	p.expect("point_x", "an x coordinate from 0 to 1")
	p.expect("point_y", "a comma and a y coordinate from 0 to 1")
	if p.at("NEWLINE", "SEMI", "EOF") {
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
		if !quadrantStyleKinds[p.peek(0).kind] {
			p.fail("a style such as radius: 10 or color: #ff0000")
		}
		s := p.take()
		for quadrantStyleKinds[p.peek(0).kind] {
			n := p.take()
			s.val += n.val
			s.to = n.to
		}
		p.checkStyle(s)
		if _, ok := p.accept("COMMA"); !ok {
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
func (p *quadrantParser) checkStyle(s token) {
	text := strings.TrimSpace(s.val)
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
		from, last := tokenSpan(p.code.text, s)
		p.d.report(ruleValue, p.code, from, last, fmt.Sprintf("quadrant charts have no style %s, and Mermaid refuses it", quoteShort(key)),
			"use radius, color, stroke-color or stroke-width")
		return
	}
	if want != "" {
		from, last := tokenSpan(p.code.text, s)
		p.d.report(ruleValue, p.code, from, last, fmt.Sprintf("style %s has the value %s; Mermaid refuses anything but %s", key, quoteShort(value), want),
			"write "+key+" as "+want)
	}
}

func (p *quadrantParser) quadrantHint(found token, expected string) string {
	if found.kind == tokError && strings.Contains(p.code.text[max(0, found.from-12):found.from], "[") {
		return fmt.Sprintf("unexpected %s in a point's coordinates: quadrant coordinates are numbers from 0 to 1 (0, 0.25, 1)", quoteShort(found.val))
	}
	return ""
}
