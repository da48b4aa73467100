package sequence

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The sequence diagram parser, after sequenceDiagram.jison's grammar, and
// the checks sequenceDb.ts makes when it applies the statements: an
// activation closed that is not open, a participant created that already
// exists or not followed by its creating message, one participant in two
// boxes.

type seqParser struct {
	syntax.Parser
	code syntax.Src
	// ops are the statements as sequenceDb applies them, in order.
	ops []seqOp
}

// seqOp is one step sequenceDb applies.
type seqOp struct {
	kind   string       // "actor", "message", "activate", "deactivate", "create", "destroy", "boxStart", "boxEnd"
	actor  syntax.Token // the participant (the sender of a message)
	to     syntax.Token // a message's receiver
	inBox  bool
	boxTok syntax.Token
}

var seqSignalTypes = map[string]bool{}

func init() {
	for _, a := range seqArrows {
		seqSignalTypes[a.kind] = true
	}
}

// ParseSequence checks the code of a diagram of its type, reporting what it finds to d.
func ParseSequence(d *syntax.Diagram, code syntax.Src) {
	p := &seqParser{Parser: syntax.NewParser(d, code, newSeqLexer(code.Text)), code: code}
	p.Hint = p.seqHint
	if !syntax.RunParse(p.start) {
		return
	}
	p.apply()
}

func (p *seqParser) start() {
	for p.At("NEWLINE") {
		p.Take()
	}
	p.Expect("SD", "sequenceDiagram")
	p.document(nil)
	if !p.At(syntax.TokEOF) {
		p.Fail("a statement")
	}
}

// document reads lines until a token no line starts with: the end of the
// text, or what closes the block opened by open.
func (p *seqParser) document(open *syntax.Token) {
	for {
		switch p.Peek(0).Kind {
		case "NEWLINE", "INVALID":
			p.Take()
		case syntax.TokEOF, "end", "else", "and", "option":
			return
		default:
			p.statement()
		}
	}
}

func (p *seqParser) statement() {
	t := p.Peek(0)
	switch t.Kind {
	case "participant", "participant_actor", "destroy":
		p.participant(false)
	case "create":
		p.Take()
		if !p.At("participant", "participant_actor", "destroy") {
			p.Fail("participant or actor after create")
		}
		p.participant(true)
	case "box":
		p.box()
	case "autonumber":
		p.autonumber()
	case "activate", "deactivate":
		p.Take()
		a := p.Expect("ACTOR", "the participant to "+t.Kind)
		p.ops = append(p.ops, seqOp{kind: t.Kind, actor: a})
		p.newline()
	case "note":
		p.note()
	case "links", "link", "properties", "details":
		p.Take()
		a := p.Expect("ACTOR", "a participant after "+t.Val)
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a})
		p.Expect("TXT", "a colon and the text")
		p.newline()
	case "title", "legacy_title", "acc_descr_multiline_value":
		p.Take()
	case "acc_title":
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
	case "loop", "rect", "opt", "break", "alt", "par", "par_over", "critical":
		p.block()
	case "ACTOR":
		p.signal()
	default:
		p.Fail("a statement (a message such as A->>B: text, participant, note, loop, alt, ...)")
	}
}

func (p *seqParser) newline() {
	p.Expect("NEWLINE", "the end of the line")
}

func (p *seqParser) participant(create bool) {
	kw := p.Take()
	a := p.Expect("ACTOR", "a participant name after "+kw.Val)
	if open, ok := p.Accept("CONFIG_START"); ok && kw.Kind != "destroy" {
		c := p.Expect("CONFIG_CONTENT", "the participant's settings inside @{ }")
		p.Expect("CONFIG_END", "} to close the settings")
		syntax.ParseMetadata(p.D, p.code, syntax.ShapeData{Text: strings.TrimSpace(c.Val), From: open.From, To: c.To})
	}
	if kw.Kind != "destroy" {
		if _, ok := p.Accept("AS"); ok {
			p.Expect("restOfLine", "the participant's label after as")
		}
	}
	p.newline()
	switch {
	case kw.Kind == "destroy":
		p.ops = append(p.ops, seqOp{kind: "destroy", actor: a})
	case create:
		p.ops = append(p.ops, seqOp{kind: "create", actor: a})
	default:
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a, inBox: true})
	}
}

// box is box [color] [title], participant lines, end.
func (p *seqParser) box() {
	open := p.Take()
	p.Expect("restOfLine", "the box's colour and title")
	p.ops = append(p.ops, seqOp{kind: "boxStart", boxTok: open})
	for {
		switch p.Peek(0).Kind {
		case "NEWLINE":
			p.Take()
		case "participant", "participant_actor", "destroy":
			p.participant(false)
		case "end":
			p.Take()
			p.ops = append(p.ops, seqOp{kind: "boxEnd"})
			return
		default:
			line, _ := p.D.File.Lines.Pos(p.code.FileOff(open.From))
			p.Fail(fmt.Sprintf("participant, actor or the end of the box opened at line %d (a box holds only participant declarations)", line))
		}
	}
}

func (p *seqParser) autonumber() {
	p.Take()
	switch {
	case p.At("NUM"):
		p.Take()
		p.Accept("NUM")
	case p.At("off"):
		p.Take()
	}
	p.Expect("NEWLINE", "the end of the line, a start number or off after autonumber")
}

func (p *seqParser) note() {
	p.Take()
	switch {
	case p.At("left_of", "right_of"):
		p.Take()
		a := p.Expect("ACTOR", "the participant the note is beside")
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a})
	case p.At("over"):
		p.Take()
		a := p.Expect("ACTOR", "the participant the note is over")
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a})
		if _, ok := p.Accept(","); ok {
			b := p.Expect("ACTOR", "a second participant after the comma")
			p.ops = append(p.ops, seqOp{kind: "actor", actor: b})
		}
	default:
		p.Fail("left of, right of or over after note")
	}
	p.Expect("TXT", "a colon and the note's text")
	p.newline()
}

// blockEnds lists what may end a section of each block, besides end.
var blockSections = map[string]string{"alt": "else", "par": "and", "par_over": "and", "critical": "option"}

// block is loop/alt/opt/par/critical/break/rect with its sections and end.
func (p *seqParser) block() {
	open := p.Take()
	p.Expect("restOfLine", "the block's text")
	p.Enter(open)
	defer p.Leave()
	section := blockSections[open.Kind]
	for {
		p.document(&open)
		next := p.Peek(0)
		switch {
		case next.Kind == "end":
			p.Take()
			return
		case section != "" && next.Kind == section:
			p.Take()
			p.Expect("restOfLine", "the section's text")
		case next.Kind == syntax.TokEOF:
			line, _ := p.D.File.Lines.Pos(p.code.FileOff(open.From))
			p.FailMsg(next, fmt.Sprintf("the %s block opened at line %d is never closed: expected end before the end of the diagram", open.Kind, line))
		default:
			line, _ := p.D.File.Lines.Pos(p.code.FileOff(open.From))
			want := "end"
			if section != "" {
				want = section + " or end"
			}
			p.FailMsg(next, fmt.Sprintf("%s does not belong in the %s block opened at line %d: expected %s",
				syntax.QuoteShort(next.Val), open.Kind, line, want))
		}
	}
}

// signal is a message: A->>B: text, with + or - for activations, or ()
// for central connections.
func (p *seqParser) signal() {
	from := p.Take()
	central := false
	if _, ok := p.Accept("()"); ok {
		central = true
	}
	arrow := p.Peek(0)
	if !seqSignalTypes[arrow.Kind] {
		p.Fail(fmt.Sprintf("an arrow after %s (->>, -->>, ->, -->, -x, --x, -), --), <<->>, ...)", syntax.QuoteShort(from.Val)))
	}
	p.Take()
	mod := ""
	switch {
	case !central && p.At("+", "-"):
		mod = p.Take().Kind
	case p.At("()"):
		p.Take()
		central = true
	}
	to := p.Expect("ACTOR", "the participant the message goes to")
	p.Expect("TXT", fmt.Sprintf("a colon and the message text after %s (A->>B: text)", syntax.QuoteShort(to.Val)))
	p.newline()
	p.ops = append(p.ops, seqOp{kind: "actor", actor: from}, seqOp{kind: "actor", actor: to},
		seqOp{kind: "message", actor: from, to: to})
	switch mod {
	case "+":
		p.ops = append(p.ops, seqOp{kind: "activate", actor: to})
	case "-":
		p.ops = append(p.ops, seqOp{kind: "deactivate", actor: from})
	}
}

// seqHint words the common sequence diagram mistakes.
func (p *seqParser) seqHint(found syntax.Token, expected string) string {
	switch found.Kind {
	case "end":
		return "this end closes no block (loop, alt, opt, par, critical, break, rect or box)"
	case "else", "and", "option":
		return fmt.Sprintf("%s is outside the block it belongs to (else in alt, and in par, option in critical)", found.Kind)
	}
	return ""
}

// apply replays the statements as sequenceDb does and reports what it
// refuses.
func (p *seqParser) apply() {
	actors := map[string]string{} // id -> box ("" for none)
	active := map[string]int{}
	box, boxName := false, ""
	var created, destroyed *syntax.Token
	boxes := 0
	for _, op := range p.ops {
		switch op.kind {
		case "boxStart":
			boxes++
			box, boxName = true, fmt.Sprint(boxes)
		case "boxEnd":
			box, boxName = false, ""
		case "actor":
			p.addActor(actors, op.actor, box && op.inBox, boxName)
		case "create":
			if _, ok := actors[op.actor.Val]; ok {
				p.report(syntax.RuleParticipant, op.actor, fmt.Sprintf("create participant %s: a participant with that id already exists (Mermaid refuses this; use an alias: create participant B2 as %s)",
					syntax.QuoteShort(op.actor.Val), op.actor.Val))
			}
			a := op.actor
			created = &a
			p.addActor(actors, op.actor, box, boxName)
		case "destroy":
			a := op.actor
			destroyed = &a
		case "activate":
			active[op.actor.Val]++
		case "deactivate":
			if active[op.actor.Val] < 1 {
				p.report(syntax.RuleActivation, op.actor, fmt.Sprintf("%s is deactivated here but has no open activation, which Mermaid refuses", syntax.QuoteShort(op.actor.Val)))
				continue
			}
			active[op.actor.Val]--
		case "message":
			created, destroyed = p.checkLifeline(op, created, destroyed)
		}
	}
}

func (p *seqParser) addActor(actors map[string]string, a syntax.Token, inBox bool, boxName string) {
	old, ok := actors[a.Val]
	if ok && inBox && old != "" && old != boxName {
		p.report(syntax.RuleParticipant, a, fmt.Sprintf("participant %s is declared in two boxes, which Mermaid refuses", syntax.QuoteShort(a.Val)))
		return
	}
	if !ok || old == "" {
		if inBox {
			actors[a.Val] = boxName
		} else {
			actors[a.Val] = old
		}
	}
}

// checkLifeline checks that a message follows a create or destroy and
// involves that participant.
func (p *seqParser) checkLifeline(op seqOp, created, destroyed *syntax.Token) (*syntax.Token, *syntax.Token) {
	switch {
	case created != nil:
		if op.to.Val != created.Val {
			p.report(syntax.RuleParticipant, *created, fmt.Sprintf("participant %s is created here, but the next message does not go to it, which Mermaid refuses",
				syntax.QuoteShort(created.Val)))
		}
		return nil, destroyed
	case destroyed != nil:
		if op.to.Val != destroyed.Val && op.actor.Val != destroyed.Val {
			p.report(syntax.RuleParticipant, *destroyed, fmt.Sprintf("participant %s is destroyed here, but the next message neither comes from it nor goes to it, which Mermaid refuses",
				syntax.QuoteShort(destroyed.Val)))
		}
		return created, nil
	}
	return created, destroyed
}

func (p *seqParser) report(rule string, at syntax.Token, msg string) {
	from, last := syntax.TokenSpan(p.code.Text, at)
	fix := "fix the diagram here; Mermaid refuses the whole diagram otherwise"
	if rule == syntax.RuleActivation {
		fix = "activate it first (activate " + strings.TrimSpace(at.Val) + " or ->>+), or remove the deactivation"
	}
	p.D.Report(rule, p.code, from, last, msg, fix)
}
