package i18n

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
)

// format is how a locale file is written.
type format int

const (
	fmtJSON   format = iota // nested or flat JSON (i18next, vue-i18n, react-intl, ...)
	fmtYAML                 // YAML (Rails, Symfony, ...)
	fmtPO                   // a gettext catalog
	fmtPOT                  // a gettext template
	fmtARB                  // Flutter's Application Resource Bundle
	fmtChrome               // a Chrome extension's _locales/*/messages.json
	fmtNLS                  // VS Code's package.nls*.json
)

func (f format) String() string {
	return [...]string{"JSON", "YAML", "PO", "POT", "ARB", "messages.json", "package.nls"}[f]
}

type valueKind int

const (
	vString valueKind = iota
	vNumber
	vBool
	vNull
	vArray
	vObject // an empty object: an object with members is not a leaf
)

func (k valueKind) String() string {
	return [...]string{"a string", "a number", "a boolean", "null", "a list", "an empty object"}[k]
}

// leaf is one translated value and where it is.
type leaf struct {
	key       string // the full dotted path
	kind      valueKind
	value     string
	line, col int // the key's position
	vline     int // the value's line
	declared  []string
	hasDecl   bool // the message declares its placeholders (ARB, Chrome)
	declLine  int
	phs       []string // its placeholders, once read
	phsErr    error
	phsDone   bool
}

// form is one plural form of a unit.
type form struct {
	cat  string
	leaf *leaf
}

// unit is one message as locales are compared: a key with its value, or
// a plural family (i18next's key_one/key_other, Rails' one:/other:, a PO
// entry's msgstr[n]) under one key.
type unit struct {
	key   string
	leaf  *leaf  // the message, or a family's first form
	forms []form // a plural family's forms, by category
	po    *poEntry
}

func (u *unit) display() string {
	if u.po != nil {
		return u.po.display()
	}
	return strconv.Quote(clipText(u.key))
}

func (u *unit) line() int {
	if u.po != nil {
		return u.po.Line
	}
	return u.leaf.line
}

func (u *unit) col() int {
	if u.po != nil {
		return 1
	}
	return u.leaf.col
}

// doc is one parsed locale file (or the part of one a locale owns).
type doc struct {
	path     string
	format   format
	locale   string // from the path; "" for a template or default file
	declared string // the locale the file says it is (ARB @@locale, PO Language, Rails' top key)
	declLine int
	units    []*unit
	byKey    map[string]*unit
	objects  map[string]int // the line of each object's key, by path
	findings []check.Finding
	parsed   bool // it parsed; comparing it means something
	po       *poFile
	syntax   syntax // the placeholder syntax its set uses
	printf   bool
	// listVsString are messages that are a list here and a string in the
	// base, or the reverse.
	listVsString []*unit
}

func newDoc(p string, f format, loc string) *doc {
	return &doc{path: p, format: f, locale: loc, byKey: map[string]*unit{}, objects: map[string]int{}}
}

func (d *doc) add(u *unit) {
	if _, dup := d.byKey[u.key]; dup {
		// A later definition wins, as JSON.parse and YAML loaders keep it.
		for i, x := range d.units {
			if x.key == u.key {
				d.units[i] = u
			}
		}
	} else {
		d.units = append(d.units, u)
	}
	d.byKey[u.key] = u
}

func (d *doc) finding(rule string, line, col int, msg, fix string) {
	d.findings = append(d.findings, check.Finding{Rule: rule, File: d.path, Line: line, Col: col, Message: msg, Fix: fix})
}

// maxLeaves bounds what one file may expand to (YAML aliases can multiply
// a small file into billions of values).
const maxLeaves = 200000

// parseDoc reads a locale file of format f.
func parseDoc(p string, b []byte, f format, loc string) *doc {
	d := newDoc(p, f, loc)
	switch f {
	case fmtPO, fmtPOT:
		d.readPO(b)
	case fmtYAML:
		d.readYAML(b)
	default:
		d.readJSON(b)
	}
	return d
}

// ---- JSON ----

func (d *doc) readJSON(b []byte) {
	lines := jsonpos.NewLines(b)
	root, err := jsonpos.Parse(b, jsonpos.Options{JSON5: strings.HasSuffix(d.path, ".json5")})
	if err != nil {
		var se *jsonpos.SyntaxError
		if errors.As(err, &se) {
			l, c := lines.Pos(se.Off)
			d.finding("i18n/syntax", l, c, d.format.String()+" syntax error: "+se.Msg, "fix the JSON at this position; the file cannot be loaded until it parses")
		}
		return
	}
	if root.Kind != jsonpos.Object {
		l, c := lines.Pos(root.Off)
		d.finding("i18n/syntax", l, c, "the top level is "+root.Kind.String()+", not an object of messages", "write the messages as an object of keys and strings")
		return
	}
	d.parsed = true
	var leaves []*leaf
	switch d.format {
	case fmtARB:
		leaves = d.arbLeaves(root, lines)
	case fmtChrome:
		leaves = d.chromeLeaves(root, lines)
	case fmtNLS:
		leaves = d.nlsLeaves(root, lines)
	default:
		d.walkJSON(root, "", lines, &leaves)
	}
	d.group(leaves)
}

// dupCheck reports a key seen before in the same object.
func (d *doc) dupCheck(seen map[string]int, key, full string, line, col int) {
	if first, ok := seen[key]; ok {
		d.finding("i18n/duplicate-key", line, col, fmt.Sprintf("the key %s is defined twice in this object (first on line %d); only this one is loaded", strconv.Quote(clipText(full)), first),
			"remove one of the two, keeping the translation you want")
		return
	}
	seen[key] = line
}

func (d *doc) walkJSON(n *jsonpos.Node, prefix string, lines *jsonpos.Lines, out *[]*leaf) {
	seen := make(map[string]int, len(n.Members))
	for _, m := range n.Members {
		full := joinKey(prefix, m.Key)
		l, c := lines.Pos(m.KeyOff)
		d.dupCheck(seen, m.Key, full, l, c)
		if len(*out) >= maxLeaves {
			return
		}
		v := m.Value
		if v.Kind == jsonpos.Object && len(v.Members) > 0 {
			if _, ok := d.objects[full]; !ok {
				d.objects[full] = l
			}
			d.walkJSON(v, full, lines, out)
			continue
		}
		*out = append(*out, jsonLeaf(full, v, l, c, lines))
	}
}

func jsonLeaf(key string, v *jsonpos.Node, l, c int, lines *jsonpos.Lines) *leaf {
	lf := &leaf{key: key, line: l, col: c, vline: lines.Line(v.Off)}
	switch v.Kind {
	case jsonpos.String:
		lf.kind, lf.value = vString, v.Str
	case jsonpos.Number:
		lf.kind, lf.value = vNumber, v.Str
	case jsonpos.Bool:
		lf.kind, lf.value = vBool, v.Str
	case jsonpos.Null:
		lf.kind = vNull
	case jsonpos.Array:
		lf.kind = vArray
	default:
		lf.kind = vObject
	}
	return lf
}

func joinKey(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// arbLeaves reads an ARB file: messages at the top level, "@key" their
// metadata (declared placeholders), "@@locale" the locale.
func (d *doc) arbLeaves(root *jsonpos.Node, lines *jsonpos.Lines) []*leaf {
	var out []*leaf
	byKey := map[string]*leaf{}
	seen := map[string]int{}
	for _, m := range root.Members {
		l, c := lines.Pos(m.KeyOff)
		d.dupCheck(seen, m.Key, m.Key, l, c)
		switch {
		case m.Key == "@@locale":
			d.declared, d.declLine = m.Value.Str, l
		case strings.HasPrefix(m.Key, "@"):
		default:
			lf := jsonLeaf(m.Key, m.Value, l, c, lines)
			byKey[m.Key] = lf
			out = append(out, lf)
		}
	}
	for _, m := range root.Members {
		if !strings.HasPrefix(m.Key, "@") || strings.HasPrefix(m.Key, "@@") {
			continue
		}
		lf := byKey[m.Key[1:]]
		if lf == nil {
			continue
		}
		if ph := m.Value.Get("placeholders"); ph != nil && ph.Kind == jsonpos.Object {
			lf.hasDecl, lf.declLine = true, lines.Line(m.KeyOff)
			for _, p := range ph.Members {
				lf.declared = append(lf.declared, "{"+p.Key+"}")
			}
		}
	}
	return out
}

// chromeLeaves reads a Chrome extension's messages.json: each key an
// object with "message" and optional "placeholders"; keys are
// case-insensitive.
func (d *doc) chromeLeaves(root *jsonpos.Node, lines *jsonpos.Lines) []*leaf {
	var out []*leaf
	seen := map[string]int{}
	for _, m := range root.Members {
		l, c := lines.Pos(m.KeyOff)
		key := strings.ToLower(m.Key)
		d.dupCheck(seen, key, m.Key, l, c)
		msg := m.Value.Get("message")
		if m.Value.Kind != jsonpos.Object || msg == nil || msg.Kind != jsonpos.String {
			d.finding("i18n/syntax", l, c, "the message "+strconv.Quote(m.Key)+` has no "message" string; Chrome refuses to load the extension`,
				`write it as "`+m.Key+`": {"message": "…"}`)
			continue
		}
		lf := jsonLeaf(key, msg, l, c, lines)
		lf.hasDecl = true
		if ph := m.Value.Get("placeholders"); ph != nil && ph.Kind == jsonpos.Object {
			for _, p := range ph.Members {
				lf.declared = append(lf.declared, "$"+strings.ToLower(p.Key)+"$")
			}
		}
		out = append(out, lf)
	}
	return out
}

// nlsLeaves reads VS Code's package.nls*.json: flat keys, each a string
// or {"message", "comment"}.
func (d *doc) nlsLeaves(root *jsonpos.Node, lines *jsonpos.Lines) []*leaf {
	var out []*leaf
	seen := map[string]int{}
	for _, m := range root.Members {
		l, c := lines.Pos(m.KeyOff)
		d.dupCheck(seen, m.Key, m.Key, l, c)
		v := m.Value
		if msg := v.Get("message"); v.Kind == jsonpos.Object && msg != nil {
			v = msg
		}
		out = append(out, jsonLeaf(m.Key, v, l, c, lines))
	}
	return out
}

// ---- YAML ----

var yamlLine = check.LazyRegexp(`line (\d+)`)

func (d *doc) readYAML(b []byte) {
	var root yaml.Node
	err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&root)
	if errors.Is(err, io.EOF) {
		d.parsed = true
		return
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 0
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = strings.TrimSpace(strings.TrimPrefix(strings.Replace(msg, m[0]+":", "", 1), " "))
		}
		d.finding("i18n/syntax", line, 0, "YAML syntax error: "+msg, "fix the YAML at this line; the file cannot be loaded until it parses")
		return
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		d.finding("i18n/syntax", n.Line, n.Column, "the top level is not a mapping of keys to messages", "write the messages as key: value lines")
		return
	}
	d.parsed = true
	// Rails: one top-level key, the locale.
	if len(n.Content) == 2 && n.Content[0].Kind == yaml.ScalarNode && isLocale(n.Content[0].Value) && n.Content[1].Kind == yaml.MappingNode {
		d.declared, d.declLine = n.Content[0].Value, n.Content[0].Line
		n = n.Content[1]
	}
	// Aliases may repeat what they name, but not multiply a small file
	// into millions of values (billion laughs): the walk may take four
	// steps a node of the document, and a margin.
	w := &yamlWalker{d: d, budget: 4*countNodes(&root, 0) + 1000}
	w.walk(n, "", 0)
	if w.over {
		d.finding("i18n/syntax", 1, 1, fmt.Sprintf("the file expands to more than %d values through YAML aliases (or %d in all); it was read only that far", w.budget, maxLeaves),
			"expand the aliases by hand, or split the file")
	}
	d.group(w.out)
}

type yamlWalker struct {
	d      *doc
	out    []*leaf
	steps  int
	budget int
	over   bool
}

// countNodes counts a YAML document's nodes, aliases not followed.
func countNodes(n *yaml.Node, depth int) int {
	if n == nil || depth > 10000 {
		return 0
	}
	c := 1
	for _, k := range n.Content {
		c += countNodes(k, depth+1)
	}
	return c
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	return n
}

func (w *yamlWalker) walk(m *yaml.Node, prefix string, depth int) {
	if depth > 64 {
		return
	}
	seen := map[string]int{}
	var merges []*yaml.Node
	explicit := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
			continue
		}
		explicit[m.Content[i].Value] = true
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if w.steps++; w.steps > min(maxLeaves, w.budget) {
			w.over = true
			return
		}
		k, v := resolveAlias(m.Content[i]), m.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		full := joinKey(prefix, k.Value)
		w.d.dupCheck(seen, k.Value, full, k.Line, k.Column)
		w.value(full, k, v, depth)
	}
	for _, mv := range merges {
		mv = resolveAlias(mv)
		var maps []*yaml.Node
		if mv != nil && mv.Kind == yaml.SequenceNode {
			for _, e := range mv.Content {
				maps = append(maps, resolveAlias(e))
			}
		} else {
			maps = append(maps, mv)
		}
		for _, mm := range maps {
			if mm == nil || mm.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(mm.Content); i += 2 {
				if w.steps++; w.steps > min(maxLeaves, w.budget) {
					w.over = true
					return
				}
				k := resolveAlias(mm.Content[i])
				if k == nil || explicit[k.Value] {
					continue
				}
				explicit[k.Value] = true
				w.value(joinKey(prefix, k.Value), k, mm.Content[i+1], depth)
			}
		}
	}
}

func (w *yamlWalker) value(full string, k, v *yaml.Node, depth int) {
	v = resolveAlias(v)
	if v == nil {
		return
	}
	lf := &leaf{key: full, line: k.Line, col: k.Column, vline: v.Line}
	switch v.Kind {
	case yaml.MappingNode:
		if len(v.Content) > 0 {
			if _, ok := w.d.objects[full]; !ok {
				w.d.objects[full] = k.Line
			}
			w.walk(v, full, depth+1)
			return
		}
		lf.kind = vObject
	case yaml.SequenceNode:
		lf.kind = vArray
	case yaml.ScalarNode:
		switch v.ShortTag() {
		case "!!null":
			lf.kind = vNull
		case "!!bool":
			lf.kind, lf.value = vBool, v.Value
		case "!!int", "!!float":
			lf.kind, lf.value = vNumber, v.Value
		default:
			lf.kind, lf.value = vString, v.Value
		}
	}
	w.out = append(w.out, lf)
}

// ---- plural families ----

// group turns leaves into units, gathering plural families: keys that end
// in a plural category after "_" (i18next: item_one, item_other;
// item_ordinal_one) or ".", the categories of one object (Rails: one:,
// other:), when the family has an "other" form or two forms or more.
func (d *doc) group(leaves []*leaf) {
	type fam struct {
		stem  string
		forms []form
		other bool
	}
	fams := map[string]*fam{}
	famOf := make([]string, len(leaves))
	for i, lf := range leaves {
		stem, cat, ok := pluralSplit(lf.key, d.format)
		if !ok {
			continue
		}
		f := fams[stem]
		if f == nil {
			f = &fam{stem: stem}
			fams[stem] = f
		}
		f.forms = append(f.forms, form{cat, lf})
		f.other = f.other || cat == "other"
		famOf[i] = stem
	}
	// A stem that is also a key of its own ("item" beside "item_one")
	// keeps its forms as plain keys: i18next's v3 style is not a family.
	for _, lf := range leaves {
		delete(fams, lf.key)
	}
	// An object whose keys are plural categories but that has other keys
	// or nested objects too is no family: look at each leaf's ancestors.
	for _, lf := range leaves {
		k := lf.key
		for depth := 0; depth < 64; depth++ {
			i := strings.LastIndexByte(k, '.')
			if i < 0 {
				break
			}
			parent := k[:i]
			if f := fams[parent]; f != nil {
				if rest := lf.key[len(parent)+1:]; strings.Contains(rest, ".") || !isPluralCategory(rest) {
					delete(fams, parent)
				}
			}
			k = parent
		}
	}
	done := map[string]bool{}
	for i, lf := range leaves {
		if stem := famOf[i]; stem != "" {
			if f := fams[stem]; f != nil && (f.other || len(f.forms) > 1) {
				if !done[stem] {
					done[stem] = true
					sort.SliceStable(f.forms, func(a, b int) bool { return catRank(f.forms[a].cat) < catRank(f.forms[b].cat) })
					d.add(&unit{key: stem, leaf: f.forms[0].leaf, forms: f.forms})
				}
				continue
			}
		}
		d.add(&unit{key: lf.key, leaf: lf})
	}
}

// pluralSplit splits a key into a family stem and a plural category:
// "item_one" (i18next), "item_ordinal_two", or "item.one" (Rails and
// nested JSON).
func pluralSplit(key string, f format) (stem, cat string, ok bool) {
	i := strings.LastIndexAny(key, "_.")
	if i <= 0 {
		return "", "", false
	}
	cat = key[i+1:]
	if !isPluralCategory(cat) {
		return "", "", false
	}
	if key[i] == '_' && (f == fmtARB || f == fmtChrome || f == fmtNLS) {
		return "", "", false
	}
	stem = key[:i]
	if key[i] == '_' {
		stem = key[:i] // item_ordinal stays its own family, apart from item
	}
	return stem, cat, true
}

func catRank(c string) int {
	for i, x := range pluralCategories {
		if x == c {
			return i
		}
	}
	return len(pluralCategories)
}

// ---- PO ----

func (d *doc) readPO(b []byte) {
	f, perr := parsePO(string(b))
	d.po = f
	if perr != nil {
		d.finding("i18n/syntax", perr.Line, perr.Col, "PO syntax error: "+perr.Msg, "fix the entry; msgfmt refuses the catalog until it parses")
		return
	}
	d.parsed = true
	if lang := f.Header["Language"]; lang != "" {
		d.declared = lang
		for _, e := range f.Entries {
			if e.ID == "" && e.Ctxt == nil {
				d.declLine = e.StrLine
			}
		}
	}
	seen := map[string]int{}
	for _, e := range f.Entries {
		if e.Obsolete || (e.ID == "" && e.Ctxt == nil) {
			continue
		}
		k := e.key()
		if first, ok := seen[k]; ok {
			d.finding("i18n/duplicate-key", e.Line, 1, fmt.Sprintf("%s is defined twice (first on line %d); msgfmt refuses a duplicate message definition", e.display(), first),
				"merge the two entries (msguniq does it), keeping one translation")
			continue
		}
		seen[k] = e.Line
		d.add(&unit{key: k, po: e})
	}
}
