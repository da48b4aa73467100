package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A small editor for JSON (and JSONC: comments and trailing commas, as
// VS Code and Claude Code accept) that inserts members and array elements
// as text, so everything else in the file keeps its bytes: order,
// indentation, comments.

// node is a value in the document, with its byte offsets.
type node struct {
	kind       byte // '{', '[' or 's' (any scalar)
	start, end int  // the value's bytes: doc[start:end]
	members    []member
	elems      []*node
}

type member struct {
	key string
	val *node
}

// plain blanks out comments and trailing commas, keeping every offset, so
// the result is strict JSON that lines up with the original.
func plain(doc []byte) []byte { return blank(doc, true) }

// blank blanks out comments, and trailing commas if commas is set.
func blank(doc []byte, commas bool) []byte {
	b := bytes.Clone(doc)
	scan(b, func(i int) int {
		switch {
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
			return i
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			end := len(b)
			if j := bytes.Index(b[i+2:], []byte("*/")); j >= 0 {
				end = i + 2 + j + 2
			}
			for ; i < end; i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			return i
		}
		return i + 1
	})
	if commas {
		scan(b, func(i int) int {
			if b[i] == ',' {
				j := i + 1
				for j < len(b) && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r') {
					j++
				}
				if j < len(b) && (b[j] == '}' || b[j] == ']') {
					b[i] = ' '
				}
			}
			return i + 1
		})
	}
	return b
}

// scan calls fn at every byte outside strings; fn returns where to go on.
func scan(b []byte, fn func(i int) int) {
	for i := 0; i < len(b); {
		if b[i] == '"' {
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			i++
			continue
		}
		i = fn(i)
	}
}

type parser struct {
	b   []byte
	pos int
}

func (p *parser) ws() {
	for p.pos < len(p.b) && (p.b[p.pos] == ' ' || p.b[p.pos] == '\t' || p.b[p.pos] == '\n' || p.b[p.pos] == '\r') {
		p.pos++
	}
}

func (p *parser) fail(what string) error {
	line := bytes.Count(p.b[:min(p.pos, len(p.b))], []byte("\n")) + 1
	return fmt.Errorf("line %d: %s", line, what)
}

func (p *parser) value() (*node, error) {
	p.ws()
	if p.pos >= len(p.b) {
		return nil, p.fail("unexpected end")
	}
	n := &node{start: p.pos}
	switch p.b[p.pos] {
	case '{':
		n.kind = '{'
		p.pos++
		p.ws()
		if p.pos < len(p.b) && p.b[p.pos] == '}' {
			p.pos++
			break
		}
		for {
			p.ws()
			k, err := p.value()
			if err != nil {
				return nil, err
			}
			var key string
			if k.kind != 's' || json.Unmarshal(p.b[k.start:k.end], &key) != nil {
				return nil, p.fail("an object key must be a string")
			}
			p.ws()
			if p.pos >= len(p.b) || p.b[p.pos] != ':' {
				return nil, p.fail("expected ':'")
			}
			p.pos++
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			if n.get(key) != nil {
				// Parsers keep one of the two, not all the same one: an
				// edit could land in the one a client discards.
				return nil, p.fail(fmt.Sprintf("key %q appears twice in one object; remove one", key))
			}
			n.members = append(n.members, member{key, v})
			p.ws()
			if p.pos < len(p.b) && p.b[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.b) && p.b[p.pos] == '}' {
				p.pos++
				break
			}
			return nil, p.fail("expected ',' or '}'")
		}
	case '[':
		n.kind = '['
		p.pos++
		p.ws()
		if p.pos < len(p.b) && p.b[p.pos] == ']' {
			p.pos++
			break
		}
		for {
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, v)
			p.ws()
			if p.pos < len(p.b) && p.b[p.pos] == ',' {
				p.pos++
				continue
			}
			if p.pos < len(p.b) && p.b[p.pos] == ']' {
				p.pos++
				break
			}
			return nil, p.fail("expected ',' or ']'")
		}
	default:
		n.kind = 's'
		dec := json.NewDecoder(bytes.NewReader(p.b[p.pos:]))
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, p.fail("not a JSON value")
		}
		p.pos += int(dec.InputOffset())
	}
	n.end = p.pos
	return n, nil
}

// parseDoc parses a JSON or JSONC document whose top level is an object.
// An empty document is an empty object.
func parseDoc(doc []byte) (*node, []byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{\n}\n") // a new file is written pretty-printed, as merges are
	}
	p := &parser{b: plain(doc)}
	n, err := p.value()
	if err != nil {
		return nil, nil, err
	}
	p.ws()
	if p.pos != len(p.b) {
		return nil, nil, p.fail("text after the top-level value")
	}
	if n.kind != '{' {
		return nil, nil, fmt.Errorf("the top level is not an object")
	}
	return n, doc, nil
}

func (n *node) get(key string) *node {
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// indentUnit guesses the file's indentation step (default two spaces).
func indentUnit(doc []byte) string {
	for _, line := range strings.Split(string(doc), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)]
		}
	}
	return "  "
}

// lineIndent is the whitespace that starts the line holding offset i.
func lineIndent(doc []byte, i int) string {
	start := bytes.LastIndexByte(doc[:i], '\n') + 1
	end := start
	for end < len(doc) && (doc[end] == ' ' || doc[end] == '\t') {
		end++
	}
	return string(doc[start:end])
}

// render writes v as JSON indented by unit, starting at indent.
func render(v any, indent, unit string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(indent, unit)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// insert adds an item (a member "key": value, or with key "" an array
// element) at the end of container n, in the style of the file.
func insert(doc []byte, n *node, key string, v any) []byte {
	unit := indentUnit(doc)
	closeAt := n.end - 1 // the '}' or ']'
	var count int
	var last *node
	if n.kind == '{' {
		count = len(n.members)
		if count > 0 {
			last = n.members[count-1].val
		}
	} else {
		count = len(n.elems)
		if count > 0 {
			last = n.elems[count-1]
		}
	}
	oneLine := !bytes.Contains(doc[n.start:n.end], []byte("\n"))
	var indent string
	switch {
	case count > 0 && !oneLine:
		var firstStart int
		if n.kind == '{' {
			// the key's line: search back from the first value for its line
			firstStart = n.members[0].val.start
		} else {
			firstStart = n.elems[0].start
		}
		indent = lineIndent(doc, firstStart)
	default:
		indent = lineIndent(doc, n.start) + unit
	}
	item := render(v, indent, unit)
	if key != "" {
		item = render(key, "", "") + ": " + item
	}
	if oneLine && count > 0 {
		item = render(key, "", "") + ": " + render(v, "", "")
		if key == "" {
			item = render(v, "", "")
		}
		at := last.end
		return splice(doc, at, ", "+item)
	}
	if oneLine && count == 0 && bytes.Count(doc, []byte("\n")) <= 1 {
		// A document written on one line stays on one line.
		item := render(v, "", "")
		if key != "" {
			item = render(key, "", "") + ": " + item
		}
		return splice2(doc, n.start+1, closeAt, item)
	}
	if count == 0 {
		// {} or [] (maybe with blanks between): open it up.
		closeIndent := lineIndent(doc, n.start)
		return splice2(doc, n.start+1, closeAt, "\n"+indent+item+"\n"+closeIndent)
	}
	// After the last item, and after its trailing comma if it has one.
	at := last.end
	if j := bytes.IndexByte(blank(doc, false)[at:closeAt], ','); j >= 0 {
		// a trailing comma (JSONC): keep the style
		return splice(doc, at+j+1, "\n"+indent+item+",")
	}
	return splice(doc, at, ",\n"+indent+item)
}

func splice(doc []byte, at int, s string) []byte {
	out := make([]byte, 0, len(doc)+len(s))
	out = append(out, doc[:at]...)
	out = append(out, s...)
	return append(out, doc[at:]...)
}

// splice2 replaces doc[from:to] with s.
func splice2(doc []byte, from, to int, s string) []byte {
	out := make([]byte, 0, len(doc)+len(s))
	out = append(out, doc[:from]...)
	out = append(out, s...)
	return append(out, doc[to:]...)
}

// ensurePath makes sure the objects named by path exist, creating empty
// ones, and returns the document and the innermost one.
func ensurePath(doc []byte, path ...string) ([]byte, *node, error) {
	root, doc, err := parseDoc(doc)
	if err != nil {
		return nil, nil, err
	}
	n := root
	for i, k := range path {
		child := n.get(k)
		if child == nil {
			doc = insert(doc, n, k, obj{})
			return ensurePath(doc, path...)
		}
		if child.kind != '{' {
			return nil, nil, fmt.Errorf("%q is not an object", strings.Join(path[:i+1], "."))
		}
		n = child
	}
	return doc, n, nil
}
