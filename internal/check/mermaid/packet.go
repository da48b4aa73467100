package mermaid

import (
	"fmt"
	"strconv"
)

// Packet diagrams (packet.langium) and info (info.langium). A packet's
// fields must follow each other bit by bit, as Mermaid's packet parser
// requires: each starts where the last ended, ends after it starts, and
// has at least one bit.

func parseInfo(d *diagram, code src) {
	lex := newLangLexer(code.text, []string{"info", "showInfo"}, []string{"info", "showInfo"},
		commonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "NEWLINE"), nil)
	p := &langParser{newParser(d, code, lex)}
	p.hint = p.langHint
	runParse(func() {
		for p.at("NEWLINE") {
			p.take()
		}
		p.expect("info", "info")
		for p.at("NEWLINE") {
			p.take()
		}
		if _, ok := p.accept("showInfo"); ok {
			for p.at("NEWLINE") {
				p.take()
			}
		}
		for p.titleAndAccessibilities() {
		}
		if !p.at(tokEOF) {
			p.fail("showInfo, a title or the end of the diagram")
		}
	})
}

type packetParser struct {
	langParser
	code    src
	lastBit int
}

func parsePacket(d *diagram, code src) {
	lex := newLangLexer(code.text, []string{"packet", "packet-beta", "-", "+", ":"}, []string{"packet"},
		commonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "INT", "STRING", "NEWLINE"), nil)
	p := &packetParser{langParser: langParser{newParser(d, code, lex)}, code: code, lastBit: -1}
	p.hint = p.langHint
	runParse(p.start)
}

func (p *packetParser) start() {
	for p.at("NEWLINE") {
		p.take()
	}
	if !p.at("packet", "packet-beta") {
		p.fail("packet")
	}
	p.take()
	for !p.at(tokEOF) {
		switch {
		case p.at("NEWLINE"):
			p.take()
		case p.titleAndAccessibilities():
		default:
			p.block()
		}
	}
}

// block is start[-end]: "label" or +bits: "label".
func (p *packetParser) block() {
	first := p.peek(0)
	start, end, bits := -1, -1, -1
	switch {
	case p.at("INT"):
		start = atoi(p.take().val)
		if _, ok := p.accept("-"); ok {
			end = atoi(p.expect("INT", "the field's last bit after -").val)
		}
	case p.at("+"):
		p.take()
		bits = atoi(p.expect("INT", "the field's width in bits after +").val)
	default:
		p.fail(`a field: 0-15: "Source port", or +16: "Source port"`)
	}
	p.expect(":", "a colon after the field's bits")
	p.expect("STRING", "the field's label in double quotes")
	p.eol()
	p.checkBlock(first, start, end, bits)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 1 << 30
	}
	return n
}

func (p *packetParser) checkBlock(at token, start, end, bits int) {
	var msg string
	switch {
	case start >= 0 && end >= 0 && end < start:
		msg = fmt.Sprintf("field %d-%d ends before it starts", start, end)
	case start >= 0 && start != p.lastBit+1:
		msg = fmt.Sprintf("field starting at bit %d does not follow the previous one, which ends at bit %d; it should start at %d",
			start, p.lastBit, p.lastBit+1)
	case bits == 0:
		msg = "field +0 has no bits"
	}
	if msg != "" {
		from, last := tokenSpan(p.code.text, at)
		p.d.report(ruleValue, p.code, from, last, msg+", which Mermaid refuses", "number the fields one after the other, from bit 0, without gaps or overlaps")
		panic(bailout{})
	}
	if start < 0 {
		start = p.lastBit + 1
	}
	switch {
	case end >= 0:
		p.lastBit = end
	case bits > 0:
		p.lastBit = start + bits - 1
	default:
		p.lastBit = start
	}
}
