package a11y

import (
	"bytes"
	"path"
	"strings"

	"golang.org/x/net/html"
)

// dyn stands for what a template action outputs: a byte no markup has, so
// an attribute value or a text holding it is known to come from the
// template ("alt" set to {{.Alt}} is an alt, of unknown words).
const dyn = '\x01'

// masked is a file ready for the HTML tokenizer: template actions replaced
// in place (same length, newlines kept, so every offset is the original
// file's), and what the masking learned.
type masked struct {
	src []byte
	// control says the file has control flow ({{if}}, {% for %}, {#each}):
	// markup in two branches is not two elements on one page.
	control bool
	// template says the file has template actions at all.
	template bool
	// dynTags are the offsets of template actions inside a start tag
	// outside quotes: that tag's attributes are not all known.
	dynTags []int
}

// delims are the template action delimiters masked: Go templates,
// Handlebars, Mustache, Jinja, Django, Nunjucks, Liquid, Twig, Vue, Angular
// ({{ }}, {% %}, {# #}), ERB and EJS (<% %>). Svelte's single braces are
// added for .svelte files.
var delims = [][2]string{{"{{", "}}"}, {"{%", "%}"}, {"{#", "#}"}, {"<%", "%>"}}

// mask replaces p's template actions: inside a start tag outside quotes by
// spaces (so {{if .X}}alt="y"{{end}} leaves the attribute), elsewhere an
// action that outputs becomes dyn bytes and control flow or a comment
// becomes spaces. For a Vue file only the <template> block is kept.
func mask(p string, src []byte) masked {
	out := bytes.Clone(src)
	m := masked{src: out}
	ds := delims
	ext := strings.ToLower(path.Ext(p))
	if ext == ".svelte" {
		ds = append(ds[:len(ds):len(ds)], [2]string{"{", "}"})
	}
	if ext == ".vue" {
		keepVueTemplate(out)
	}
	inTag, quote := false, byte(0)
	for i := 0; i < len(out); i++ {
		c := out[i]
		if d, ok := openDelim(out, i, ds); ok {
			end := bytes.Index(out[i+len(d[0]):], []byte(d[1]))
			if end < 0 {
				end = len(out)
			} else {
				end = i + len(d[0]) + end + len(d[1])
			}
			body := string(out[i+len(d[0]) : max(i+len(d[0]), end-len(d[1]))])
			m.template = true
			kind := actionKind(d[0], body)
			if kind == actControl {
				m.control = true
			}
			fill := byte(' ')
			switch {
			case inTag && quote == 0 && kind == actOutput && afterEquals(out, i):
				fill = dyn // an unquoted value: alt={{.Alt}}
			case inTag && quote == 0:
				if kind == actOutput {
					m.dynTags = append(m.dynTags, i)
				}
			case kind == actOutput:
				fill = dyn
			}
			for j := i; j < end; j++ {
				if out[j] != '\n' && out[j] != '\r' {
					out[j] = fill
				}
			}
			i = end - 1
			continue
		}
		switch {
		case inTag && quote != 0:
			if c == quote {
				quote = 0
			}
		case inTag:
			switch c {
			case '"', '\'':
				quote = c
			case '>':
				inTag = false
			}
		case c == '<' && i+1 < len(out) && isLetter(out[i+1]):
			inTag = true
		case c == '<' && bytes.HasPrefix(out[i:], []byte("<!--")):
			if end := bytes.Index(out[i+4:], []byte("-->")); end >= 0 {
				i += 4 + end + 2
			} else {
				i = len(out)
			}
		}
	}
	return m
}

// afterEquals reports whether the last non-space byte before i is '='.
func afterEquals(b []byte, i int) bool {
	for j := i - 1; j >= 0 && i-j < 64; j-- {
		switch b[j] {
		case ' ', '\t', '\n', '\r':
			continue
		case '=':
			return true
		}
		return false
	}
	return false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func openDelim(b []byte, i int, ds [][2]string) ([2]string, bool) {
	for _, d := range ds {
		if bytes.HasPrefix(b[i:], []byte(d[0])) {
			return d, true
		}
	}
	return [2]string{}, false
}

type actKind int

const (
	actOutput  actKind = iota // prints a value: {{.Name}}, {{ name }}, <%= x %>
	actControl                // if, for, each, else, end, block …
	actComment                // {{/* */}}, {# #}, {{! }}, <%# %>
)

// actionKind tells what a template action does from its delimiter and body.
func actionKind(open, body string) actKind {
	b := strings.TrimLeft(body, "-~+= \t\r\n")
	switch {
	case open == "{#", strings.HasPrefix(b, "/*"), strings.HasPrefix(b, "!"), open == "<%" && strings.HasPrefix(body, "#"):
		return actComment
	case open == "{%":
		// Jinja, Nunjucks, Liquid statements print nothing.
		return actControl
	case open == "<%" && !strings.HasPrefix(body, "=") && !strings.HasPrefix(body, "-"):
		return actControl // <% if x %> in ERB and EJS
	}
	word := b
	if i := strings.IndexAny(word, " \t\r\n}"); i >= 0 {
		word = word[:i]
	}
	switch strings.TrimLeft(word, "#/:@") {
	case "if", "else", "end", "range", "with", "block", "define", "template", "each", "unless", "elif", "elseif",
		"endif", "for", "endfor", "await", "then", "catch", "key", "break", "continue", "partial", "yield", "inline":
		return actControl
	}
	if strings.HasPrefix(word, "#") || strings.HasPrefix(word, "/") || strings.HasPrefix(word, ">") || strings.HasPrefix(word, ":") {
		return actControl // Handlebars and Svelte blocks, partials
	}
	return actOutput
}

// keepVueTemplate blanks a Vue single-file component outside its top-level
// <template> block (the script and style are not markup).
func keepVueTemplate(b []byte) {
	start := bytes.Index(b, []byte("<template"))
	end := bytes.LastIndex(b, []byte("</template>"))
	if start < 0 || end < start {
		blank(b, 0, len(b))
		return
	}
	if gt := bytes.IndexByte(b[start:], '>'); gt >= 0 {
		blank(b, 0, start+gt+1)
	}
	blank(b, end, len(b))
}

func blank(b []byte, from, to int) {
	for i := from; i < to; i++ {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}

// node is an element of the document, with where it starts in the file.
type node struct {
	tag      string
	attrs    []html.Attribute
	off, end int // the start tag's span
	parent   *node
	children []*node
	text     []string // its own text, in order, between children
	// dynamic: a template action sits among the start tag's attributes,
	// so an attribute that seems missing may be there.
	dynamic bool
	// foreign: inside <svg> or <math>, whose elements HTML's rules do
	// not describe.
	foreign bool
	// dynContent: its content comes from a template or a framework
	// binding (v-html, innerHTML), so it is not known to be empty.
	dynContent bool
}

// attr returns the value of the attribute, and whether it is present;
// framework bindings (:alt, v-bind:alt, [alt], [attr.alt], bind:alt) count
// as the attribute, with a dynamic value.
func (n *node) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Key == name {
			return a.Val, true
		}
	}
	for _, a := range n.attrs {
		if boundName(a.Key) == name {
			return string(dyn), true
		}
	}
	return "", false
}

// boundName is the attribute a framework binding sets, "" if none.
func boundName(k string) string {
	switch {
	case strings.HasPrefix(k, "v-bind:"):
		return k[len("v-bind:"):]
	case strings.HasPrefix(k, ":"):
		return k[1:]
	case strings.HasPrefix(k, "bind:"):
		return k[len("bind:"):]
	case strings.HasPrefix(k, "[attr.") && strings.HasSuffix(k, "]"):
		return k[len("[attr.") : len(k)-1]
	case strings.HasPrefix(k, "[") && strings.HasSuffix(k, "]"):
		return strings.ToLower(k[1 : len(k)-1])
	}
	return ""
}

func (n *node) has(name string) bool { _, ok := n.attr(name); return ok }

// doc is a parsed file.
type doc struct {
	root  *node // a synthetic root; its children are the top-level elements
	all   []*node
	lines []int // line starts
	m     masked
}

var voidTags = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true, "input": true,
	"link": true, "meta": true, "source": true, "track": true, "wbr": true, "param": true, "keygen": true,
}

// closesSame are elements a start tag of the same kind closes (an li
// before an li), the common implied end tags.
var closesSame = map[string][]string{
	"li": {"li"}, "dt": {"dt", "dd"}, "dd": {"dt", "dd"}, "option": {"option"}, "tr": {"tr", "td", "th"},
	"td": {"td", "th"}, "th": {"td", "th"}, "p": {"p"},
}

// maxDepth bounds the open-element stack: deeper elements are attached to
// the deepest one, so hostile nesting costs no more than flat markup.
const maxDepth = 256

// parse tokenizes the masked file and builds its element tree with the
// byte offset of each start tag.
func parse(p string, src []byte) *doc {
	m := mask(p, src)
	d := &doc{root: &node{tag: "#root", off: 0}, lines: lineStarts(src), m: m}
	z := html.NewTokenizer(bytes.NewReader(m.src))
	z.SetMaxBuf(0)
	stack := []*node{d.root}
	off := 0
	dynTag := 0
	for {
		tt := z.Next()
		raw := len(z.Raw())
		start := off
		off += raw
		switch tt {
		case html.ErrorToken:
			return d
		case html.TextToken:
			top := stack[len(stack)-1]
			top.text = append(top.text, string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			n := &node{tag: string(name), off: start, end: off}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				n.attrs = append(n.attrs, html.Attribute{Key: string(k), Val: string(v)})
			}
			for dynTag < len(m.dynTags) && m.dynTags[dynTag] < start {
				dynTag++
			}
			if dynTag < len(m.dynTags) && m.dynTags[dynTag] < off {
				n.dynamic = true
			}
			for _, a := range n.attrs {
				if a.Key == "v-html" || a.Key == "v-text" || a.Key == "[innerhtml]" || a.Key == "dangerouslysetinnerhtml" || a.Key == "x-text" || a.Key == "x-html" {
					n.dynContent = true
				}
			}
			if closes, ok := closesSame[n.tag]; ok {
				top := stack[len(stack)-1]
				for _, c := range closes {
					if top.tag == c && len(stack) > 1 {
						stack = stack[:len(stack)-1]
						break
					}
				}
			}
			parent := stack[len(stack)-1]
			n.parent = parent
			n.foreign = parent.foreign || parent.tag == "svg" || parent.tag == "math"
			parent.children = append(parent.children, n)
			d.all = append(d.all, n)
			if tt == html.StartTagToken && !voidTags[n.tag] && len(stack) < maxDepth {
				stack = append(stack, n)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].tag == string(name) {
					stack = stack[:i]
					break
				}
			}
		}
	}
}

// lineStarts returns the offset of each line's start.
func lineStarts(b []byte) []int {
	out := []int{0}
	for i, c := range b {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// pos turns an offset into a 1-based line and column.
func (d *doc) pos(off int) (int, int) {
	lo, hi := 0, len(d.lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1, off - d.lines[lo] + 1
}

// maxVisit bounds the elements textOf reads under one element.
const maxVisit = 500

// textOf returns n's text content (its own and its descendants'), with
// images' alt text, as the accessible name computation reads it; and
// whether some of it comes from a template. Hidden subtrees are skipped.
func textOf(n *node) (string, bool) {
	var b strings.Builder
	dynamic := false
	stack := []*node{n}
	visited := 0
	for len(stack) > 0 && b.Len() < 4096 {
		if visited++; visited > maxVisit {
			// A subtree this large is not a link's or a button's: call its
			// name unknown rather than read it all for every ancestor.
			return b.String(), true
		}
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c != n && hidden(c) {
			continue
		}
		if c.dynContent {
			dynamic = true
		}
		for _, t := range c.text {
			b.WriteString(t)
			b.WriteByte(' ')
		}
		switch c.tag {
		case "img", "area":
			if alt, ok := c.attr("alt"); ok {
				b.WriteString(alt)
			}
		case "svg":
			if l, ok := c.attr("aria-label"); ok {
				b.WriteString(l)
			}
			for _, k := range c.children {
				if k.tag == "title" {
					b.WriteString(strings.Join(k.text, " "))
				}
			}
		case "input":
			if t, _ := c.attr("type"); t == "image" {
				if alt, ok := c.attr("alt"); ok {
					b.WriteString(alt)
				}
			}
		}
		if c != n {
			if l, ok := c.attr("aria-label"); ok {
				b.WriteString(l)
			}
			if c.has("aria-labelledby") {
				dynamic = true // names from elsewhere: assume given
			}
		}
		if len(stack)+len(c.children) > maxVisit {
			return b.String(), true
		}
		for i := len(c.children) - 1; i >= 0; i-- {
			stack = append(stack, c.children[i])
		}
	}
	s := b.String()
	if strings.ContainsRune(s, dyn) {
		dynamic = true
	}
	return s, dynamic
}

// hidden reports whether n is out of the accessibility tree by its own
// attributes.
func hidden(n *node) bool {
	if v, ok := n.attr("aria-hidden"); ok && v == "true" {
		return true
	}
	if n.has("hidden") {
		return true
	}
	switch n.tag {
	case "script", "style", "template", "noscript", "title", "head":
		return true
	}
	return false
}

func newTokenizer(src []byte) *html.Tokenizer { return html.NewTokenizer(bytes.NewReader(src)) }
