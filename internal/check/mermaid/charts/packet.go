package charts

import (
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Packet diagrams (packet.langium) and info (info.langium). A packet's
// fields must follow each other bit by bit, as Mermaid's packet parser
// requires: each starts where the last ended, ends after it starts, and
// has at least one bit.

// ParseInfo checks the code of a diagram of its type, reporting what it finds to d.
func ParseInfo(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewLangLexer(code.Text, []string{"info", "showInfo"}, []string{"info", "showInfo"},
		syntax.CommonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "NEWLINE"), nil)
	p := &syntax.LangParser{Parser: syntax.NewParser(d, code, lex)}
	p.Hint = p.LangHint
	syntax.RunParse(func() {
		for p.At("NEWLINE") {
			p.Take()
		}
		p.Expect("info", "info")
		for p.At("NEWLINE") {
			p.Take()
		}
		if _, ok := p.Accept("showInfo"); ok {
			for p.At("NEWLINE") {
				p.Take()
			}
		}
		for p.TitleAndAccessibilities() {
		}
		if !p.At(syntax.TokEOF) {
			p.Fail("showInfo, a title or the end of the diagram")
		}
	})
}

type packetParser struct {
	syntax.LangParser
	code    syntax.Src
	lastBit int
}

// ParsePacket checks the code of a diagram of its type, reporting what it finds to d.
func ParsePacket(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewLangLexer(code.Text, []string{"packet", "packet-beta", "-", "+", ":"}, []string{"packet"},
		syntax.CommonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "INT", "STRING", "NEWLINE"), nil)
	p := &packetParser{LangParser: syntax.LangParser{Parser: syntax.NewParser(d, code, lex)}, code: code, lastBit: -1}
	p.Hint = p.LangHint
	syntax.RunParse(p.start)
}

func (p *packetParser) start() {
	for p.At("NEWLINE") {
		p.Take()
	}
	if !p.At("packet", "packet-beta") {
		p.Fail("packet")
	}
	p.Take()
	for !p.At(syntax.TokEOF) {
		switch {
		case p.At("NEWLINE"):
			p.Take()
		case p.TitleAndAccessibilities():
		default:
			p.block()
		}
	}
}

// block is start[-end]: "label" or +bits: "label".
func (p *packetParser) block() {
	first := p.Peek(0)
	start, end, bits := -1, -1, -1
	switch {
	case p.At("INT"):
		start = atoi(p.Take().Val)
		if _, ok := p.Accept("-"); ok {
			end = atoi(p.Expect("INT", "the field's last bit after -").Val)
		}
	case p.At("+"):
		p.Take()
		bits = atoi(p.Expect("INT", "the field's width in bits after +").Val)
	default:
		p.Fail(`a field: 0-15: "Source port", or +16: "Source port"`)
	}
	p.Expect(":", "a colon after the field's bits")
	p.Expect("STRING", "the field's label in double quotes")
	p.Eol()
	p.checkBlock(first, start, end, bits)
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 1 << 30
	}
	return n
}

func (p *packetParser) checkBlock(at syntax.Token, start, end, bits int) {
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
		from, last := syntax.TokenSpan(p.code.Text, at)
		p.D.Report(syntax.RuleValue, p.code, from, last, msg+", which Mermaid refuses", "number the fields one after the other, from bit 0, without gaps or overlaps")
		panic(syntax.Bailout{})
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
