package mermaid

import (
	"fmt"
	"strings"
)

// The sequence diagram parser, after sequenceDiagram.jison's grammar, and
// the checks sequenceDb.ts makes when it applies the statements: an
// activation closed that is not open, a participant created that already
// exists or not followed by its creating message, one participant in two
// boxes.

type seqParser struct {
	parser
	code src
	// ops are the statements as sequenceDb applies them, in order.
	ops []seqOp
}

// seqOp is one step sequenceDb applies.
type seqOp struct {
	kind   string // "actor", "message", "activate", "deactivate", "create", "destroy", "boxStart", "boxEnd"
	actor  token  // the participant (the sender of a message)
	to     token  // a message's receiver
	inBox  bool
	boxTok token
}

var seqSignalTypes = map[string]bool{}

func init() {
	for _, a := range seqArrows {
		seqSignalTypes[a.kind] = true
	}
}

func parseSequence(d *diagram, code src) {
	p := &seqParser{parser: newParser(d, code, newSeqLexer(code.text)), code: code}
	p.hint = p.seqHint
	if !runParse(p.start) {
		return
	}
	p.apply()
}

func (p *seqParser) start() {
	for p.at("NEWLINE") {
		p.take()
	}
	p.expect("SD", "sequenceDiagram")
	p.document(nil)
	if !p.at(tokEOF) {
		p.fail("a statement")
	}
}

// document reads lines until a token no line starts with: the end of the
// text, or what closes the block opened by open.
func (p *seqParser) document(open *token) {
	for {
		switch p.peek(0).kind {
		case "NEWLINE", "INVALID":
			p.take()
		case tokEOF, "end", "else", "and", "option":
			return
		default:
			p.statement()
		}
	}
}

func (p *seqParser) statement() {
	t := p.peek(0)
	switch t.kind {
	case "participant", "participant_actor", "destroy":
		p.participant(false)
	case "create":
		p.take()
		if !p.at("participant", "participant_actor", "destroy") {
			p.fail("participant or actor after create")
		}
		p.participant(true)
	case "box":
		p.box()
	case "autonumber":
		p.autonumber()
	case "activate", "deactivate":
		p.take()
		a := p.expect("ACTOR", "the participant to "+t.kind)
		p.ops = append(p.ops, seqOp{kind: t.kind, actor: a})
		p.newline()
	case "note":
		p.note()
	case "links", "link", "properties", "details":
		p.take()
		a := p.expect("ACTOR", "a participant after "+t.val)
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a})
		p.expect("TXT", "a colon and the text")
		p.newline()
	case "title", "legacy_title", "acc_descr_multiline_value":
		p.take()
	case "acc_title":
		p.take()
		p.expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.take()
		p.expect("acc_descr_value", "the accessible description")
	case "loop", "rect", "opt", "break", "alt", "par", "par_over", "critical":
		p.block()
	case "ACTOR":
		p.signal()
	default:
		p.fail("a statement (a message such as A->>B: text, participant, note, loop, alt, ...)")
	}
}

func (p *seqParser) newline() {
	p.expect("NEWLINE", "the end of the line")
}

func (p *seqParser) participant(create bool) {
	kw := p.take()
	a := p.expect("ACTOR", "a participant name after "+kw.val)
	if open, ok := p.accept("CONFIG_START"); ok && kw.kind != "destroy" {
		c := p.expect("CONFIG_CONTENT", "the participant's settings inside @{ }")
		p.expect("CONFIG_END", "} to close the settings")
		parseMetadata(p.d, p.code, shapeData{text: strings.TrimSpace(c.val), from: open.from, to: c.to})
	}
	if kw.kind != "destroy" {
		if _, ok := p.accept("AS"); ok {
			p.expect("restOfLine", "the participant's label after as")
		}
	}
	p.newline()
	switch {
	case kw.kind == "destroy":
		p.ops = append(p.ops, seqOp{kind: "destroy", actor: a})
	case create:
		p.ops = append(p.ops, seqOp{kind: "create", actor: a})
	default:
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a, inBox: true})
	}
}

// box is box [color] [title], participant lines, end.
func (p *seqParser) box() {
	open := p.take()
	p.expect("restOfLine", "the box's colour and title")
	p.ops = append(p.ops, seqOp{kind: "boxStart", boxTok: open})
	for {
		switch p.peek(0).kind {
		case "NEWLINE":
			p.take()
		case "participant", "participant_actor", "destroy":
			p.participant(false)
		case "end":
			p.take()
			p.ops = append(p.ops, seqOp{kind: "boxEnd"})
			return
		default:
			line, _ := p.d.fc.lines.pos(p.code.fileOff(open.from))
			p.fail(fmt.Sprintf("participant, actor or the end of the box opened at line %d (a box holds only participant declarations)", line))
		}
	}
}

func (p *seqParser) autonumber() {
	p.take()
	switch {
	case p.at("NUM"):
		p.take()
		p.accept("NUM")
	case p.at("off"):
		p.take()
	}
	p.expect("NEWLINE", "the end of the line, a start number or off after autonumber")
}

func (p *seqParser) note() {
	p.take()
	switch {
	case p.at("left_of", "right_of"):
		p.take()
		a := p.expect("ACTOR", "the participant the note is beside")
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a})
	case p.at("over"):
		p.take()
		a := p.expect("ACTOR", "the participant the note is over")
		p.ops = append(p.ops, seqOp{kind: "actor", actor: a})
		if _, ok := p.accept(","); ok {
			b := p.expect("ACTOR", "a second participant after the comma")
			p.ops = append(p.ops, seqOp{kind: "actor", actor: b})
		}
	default:
		p.fail("left of, right of or over after note")
	}
	p.expect("TXT", "a colon and the note's text")
	p.newline()
}

// blockEnds lists what may end a section of each block, besides end.
var blockSections = map[string]string{"alt": "else", "par": "and", "par_over": "and", "critical": "option"}

// block is loop/alt/opt/par/critical/break/rect with its sections and end.
func (p *seqParser) block() {
	open := p.take()
	p.expect("restOfLine", "the block's text")
	p.enter(open)
	defer p.leave()
	section := blockSections[open.kind]
	for {
		p.document(&open)
		next := p.peek(0)
		switch {
		case next.kind == "end":
			p.take()
			return
		case section != "" && next.kind == section:
			p.take()
			p.expect("restOfLine", "the section's text")
		case next.kind == tokEOF:
			line, _ := p.d.fc.lines.pos(p.code.fileOff(open.from))
			p.failMsg(next, fmt.Sprintf("the %s block opened at line %d is never closed: expected end before the end of the diagram", open.kind, line))
		default:
			line, _ := p.d.fc.lines.pos(p.code.fileOff(open.from))
			want := "end"
			if section != "" {
				want = section + " or end"
			}
			p.failMsg(next, fmt.Sprintf("%s does not belong in the %s block opened at line %d: expected %s",
				quoteShort(next.val), open.kind, line, want))
		}
	}
}

// signal is a message: A->>B: text, with + or - for activations, or ()
// for central connections.
func (p *seqParser) signal() {
	from := p.take()
	central := false
	if _, ok := p.accept("()"); ok {
		central = true
	}
	arrow := p.peek(0)
	if !seqSignalTypes[arrow.kind] {
		p.fail(fmt.Sprintf("an arrow after %s (->>, -->>, ->, -->, -x, --x, -), --), <<->>, ...)", quoteShort(from.val)))
	}
	p.take()
	mod := ""
	switch {
	case !central && p.at("+", "-"):
		mod = p.take().kind
	case p.at("()"):
		p.take()
		central = true
	}
	to := p.expect("ACTOR", "the participant the message goes to")
	p.expect("TXT", fmt.Sprintf("a colon and the message text after %s (A->>B: text)", quoteShort(to.val)))
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
func (p *seqParser) seqHint(found token, expected string) string {
	switch found.kind {
	case "end":
		return "this end closes no block (loop, alt, opt, par, critical, break, rect or box)"
	case "else", "and", "option":
		return fmt.Sprintf("%s is outside the block it belongs to (else in alt, and in par, option in critical)", found.kind)
	}
	return ""
}

// apply replays the statements as sequenceDb does and reports what it
// refuses.
func (p *seqParser) apply() {
	actors := map[string]string{} // id -> box ("" for none)
	active := map[string]int{}
	box, boxName := false, ""
	var created, destroyed *token
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
			if _, ok := actors[op.actor.val]; ok {
				p.report(ruleParticipant, op.actor, fmt.Sprintf("create participant %s: a participant with that id already exists (Mermaid refuses this; use an alias: create participant B2 as %s)",
					quoteShort(op.actor.val), op.actor.val))
			}
			a := op.actor
			created = &a
			p.addActor(actors, op.actor, box, boxName)
		case "destroy":
			a := op.actor
			destroyed = &a
		case "activate":
			active[op.actor.val]++
		case "deactivate":
			if active[op.actor.val] < 1 {
				p.report(ruleActivation, op.actor, fmt.Sprintf("%s is deactivated here but has no open activation, which Mermaid refuses", quoteShort(op.actor.val)))
				continue
			}
			active[op.actor.val]--
		case "message":
			created, destroyed = p.checkLifeline(op, created, destroyed)
		}
	}
}

func (p *seqParser) addActor(actors map[string]string, a token, inBox bool, boxName string) {
	old, ok := actors[a.val]
	if ok && inBox && old != "" && old != boxName {
		p.report(ruleParticipant, a, fmt.Sprintf("participant %s is declared in two boxes, which Mermaid refuses", quoteShort(a.val)))
		return
	}
	if !ok || old == "" {
		if inBox {
			actors[a.val] = boxName
		} else {
			actors[a.val] = old
		}
	}
}

// checkLifeline checks that a message follows a create or destroy and
// involves that participant.
func (p *seqParser) checkLifeline(op seqOp, created, destroyed *token) (*token, *token) {
	switch {
	case created != nil:
		if op.to.val != created.val {
			p.report(ruleParticipant, *created, fmt.Sprintf("participant %s is created here, but the next message does not go to it, which Mermaid refuses",
				quoteShort(created.val)))
		}
		return nil, destroyed
	case destroyed != nil:
		if op.to.val != destroyed.val && op.actor.val != destroyed.val {
			p.report(ruleParticipant, *destroyed, fmt.Sprintf("participant %s is destroyed here, but the next message neither comes from it nor goes to it, which Mermaid refuses",
				quoteShort(destroyed.val)))
		}
		return created, nil
	}
	return created, destroyed
}

func (p *seqParser) report(rule string, at token, msg string) {
	from, last := tokenSpan(p.code.text, at)
	fix := "fix the diagram here; Mermaid refuses the whole diagram otherwise"
	if rule == ruleActivation {
		fix = "activate it first (activate " + strings.TrimSpace(at.val) + " or ->>+), or remove the deactivation"
	}
	p.d.report(rule, p.code, from, last, msg, fix)
}
