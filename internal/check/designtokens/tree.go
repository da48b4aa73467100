package designtokens

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
)

// dialect is the shape of a token file.
type dialect int

const (
	dtcg  dialect = iota // $value, $type (the Design Tokens Format Module)
	sdict                // value, type (Style Dictionary before DTCG, Adobe Spectrum)
)

func (d dialect) String() string {
	if d == dtcg {
		return "DTCG"
	}
	return "Style Dictionary"
}

// tfile is one parsed token file.
type tfile struct {
	src      []byte
	path     string
	given    bool // checked, not only read to resolve aliases
	lines    *jsonpos.Lines
	root     *jsonpos.Node
	dialect  dialect
	studio   bool // uses Tokens Studio's types: its values are checked leniently
	findings []check.Finding
}

func (f *tfile) pos(off int) (int, int) { return f.lines.Pos(off) }

func (f *tfile) find(rule string, n *jsonpos.Node, sev check.Severity, msg, fix string) {
	f.findAt(rule, n.Off, sev, msg, fix)
}

func (f *tfile) findAt(rule string, off int, sev check.Severity, msg, fix string) {
	if !f.given {
		return
	}
	l, c := f.pos(off)
	f.findings = append(f.findings, check.Finding{Rule: rule, Severity: sev, File: f.path, Line: l, Col: c, Message: msg, Fix: fix})
}

// token is one design token.
type token struct {
	name       string // dotted path
	file       *tfile
	keyOff     int
	node       *jsonpos.Node // the token's object
	value      *jsonpos.Node // $value or value; nil for a $ref token
	ref        *jsonpos.Node // a token-level $ref (JSON Pointer alias)
	typ        string        // its $type, or its group's
	typeNode   *jsonpos.Node
	deprecated bool
	sets       bool // Spectrum's "sets": one token per mode under it
	resolving  bool
	resolved   bool
	rtype      string // the type after following aliases
}

// tree is every token the check knows, across files.
type tree struct {
	tokens map[string][]*token
	groups map[string]*jsonpos.Node
	// raw are plain values of Style Dictionary files that are no token
	// ("baseline": "16"): Style Dictionary resolves aliases to them too.
	raw   map[string]bool
	order []*token // in file order
	// groupDeprecated are the groups marked $deprecated.
	groupDeprecated map[string]bool
}

func newTree() *tree {
	return &tree{tokens: map[string][]*token{}, groups: map[string]*jsonpos.Node{}, raw: map[string]bool{}, groupDeprecated: map[string]bool{}}
}

// studioTypes are Tokens Studio's types beside the specification's.
var studioTypes = sync.OnceValue(func() map[string]bool {
	return setOf("spacing sizing borderRadius borderWidth fontFamilies fontWeights fontSizes lineHeights letterSpacing paragraphSpacing paragraphIndent textCase textDecoration boxShadow composition asset boolean text other opacity")
})

// sdTypes are the types Style Dictionary's own transforms know beside the
// specification's.
var sdTypes = sync.OnceValue(func() map[string]bool {
	return setOf("fontSize size time asset content icon html fontStyle lineHeight letterSpacing")
})

// maxTokens bounds what one check reads.
const maxTokens = 200000

// parseFile parses a token file and adds its tokens to t.
func parseFile(t *tree, p string, b []byte, given bool, force string) *tfile {
	f := &tfile{src: b, path: p, given: given, lines: jsonpos.NewLines(b)}
	root, err := jsonpos.Parse(b, jsonpos.Options{JSON5: strings.HasSuffix(p, ".json5")})
	if err != nil {
		var se *jsonpos.SyntaxError
		if errors.As(err, &se) {
			f.findAt(ruleSyntax, se.Off, "", "JSON syntax error: "+se.Msg, "fix the JSON at this position; no tool reads the file until it parses")
		}
		return f
	}
	if root.Kind != jsonpos.Object {
		f.find(ruleSyntax, root, "", "the top level is "+root.Kind.String()+", not an object of tokens and groups", "write the tokens as an object")
		return f
	}
	f.root = root
	switch force {
	case "dtcg":
		f.dialect = dtcg
	case "style-dictionary":
		f.dialect = sdict
	default:
		f.dialect = sdict
		if hasMember(root, "$value", 0) {
			f.dialect = dtcg
		}
	}
	f.studio = usesStudio(root, 0)
	f.dups(root, 0)
	w := walker{t: t, f: f}
	if f.dialect == dtcg {
		w.dtcg(root, nil, "", false, 0)
	} else {
		w.sd(root, nil, 0)
	}
	return f
}

// hasMember reports whether key is a member of any object in n.
func hasMember(n *jsonpos.Node, key string, depth int) bool {
	if depth > 64 {
		return false
	}
	switch n.Kind {
	case jsonpos.Object:
		for _, m := range n.Members {
			if m.Key == key || hasMember(m.Value, key, depth+1) {
				return true
			}
		}
	}
	return false
}

func usesStudio(n *jsonpos.Node, depth int) bool {
	if depth > 64 || n.Kind != jsonpos.Object {
		return false
	}
	for _, m := range n.Members {
		if m.Key == "$type" && m.Value.Kind == jsonpos.String && studioTypes()[m.Value.Str] {
			return true
		}
		if usesStudio(m.Value, depth+1) {
			return true
		}
	}
	return false
}

// dups reports repeated keys in every object of the file.
func (f *tfile) dups(n *jsonpos.Node, depth int) {
	if depth > jsonpos.DefaultMaxDepth {
		return
	}
	switch n.Kind {
	case jsonpos.Object:
		seen := make(map[string]int, len(n.Members))
		for i, m := range n.Members {
			if j, ok := seen[m.Key]; ok {
				first := n.Members[j]
				l, _ := f.pos(first.KeyOff)
				if string(f.src[first.Value.Off:first.Value.End]) == string(f.src[m.Value.Off:m.Value.End]) {
					f.findAt(ruleDuplicate, m.KeyOff, check.Warning, fmt.Sprintf("the key %q is defined twice in this object, the same both times (first on line %d)", m.Key, l),
						"remove the copy")
				} else {
					f.findAt(ruleDuplicate, m.KeyOff, "", fmt.Sprintf("the key %q is defined twice in this object (first on line %d); only this one is read", m.Key, l),
						"remove one of the two, or rename it")
				}
			} else {
				seen[m.Key] = i
			}
			f.dups(m.Value, depth+1)
		}
	case jsonpos.Array:
		for _, e := range n.Elems {
			f.dups(e, depth+1)
		}
	}
}

type walker struct {
	t *tree
	f *tfile
}

func joinPath(parent []string, name string) []string {
	out := make([]string, len(parent), len(parent)+1)
	copy(out, parent)
	return append(out, name)
}

func (w *walker) add(tok *token) {
	if len(w.t.order) >= maxTokens {
		return
	}
	w.t.tokens[tok.name] = append(w.t.tokens[tok.name], tok)
	w.t.order = append(w.t.order, tok)
}

// dtcg walks a group of a DTCG file.
func (w *walker) dtcg(obj *jsonpos.Node, path []string, inherited string, deprecated bool, depth int) {
	if depth > 128 {
		return
	}
	name := strings.Join(path, ".")
	if len(path) > 0 {
		w.t.groups[name] = obj
	}
	if m, ok := obj.Member("$type"); ok {
		if w.checkType(m.Value) {
			inherited = m.Value.Str
		}
	}
	if m, ok := obj.Member("$deprecated"); ok && isDeprecated(m.Value) {
		deprecated = true
		w.t.groupDeprecated[name] = true
	}
	w.props(obj)
	for _, m := range obj.Members {
		if strings.HasPrefix(m.Key, "$") {
			if m.Key == "$root" && m.Value.Kind == jsonpos.Object {
				w.dtcgToken(m, joinPath(path, "$root"), inherited, deprecated, depth)
			}
			continue
		}
		w.checkName(m)
		v := m.Value
		if v.Kind != jsonpos.Object {
			w.f.findAt(ruleInvalidProp, m.KeyOff, check.Warning, fmt.Sprintf("%q is %s, neither a token (an object with $value) nor a group", joinName(path, m.Key), kindName(v)),
				`write it as "`+m.Key+`": {"$value": …}`)
			continue
		}
		if isTokenObj(v) {
			w.dtcgToken(m, joinPath(path, m.Key), inherited, deprecated, depth)
			continue
		}
		w.dtcg(v, joinPath(path, m.Key), inherited, deprecated, depth+1)
	}
}

// isTokenObj reports whether a DTCG object is a token: it has $value,
// or it is a $ref alias with nothing else but $-properties.
func isTokenObj(v *jsonpos.Node) bool {
	if v.Get("$value") != nil {
		return true
	}
	if v.Get("$ref") == nil {
		return false
	}
	for _, m := range v.Members {
		if !strings.HasPrefix(m.Key, "$") {
			return false
		}
	}
	return true
}

func joinName(path []string, key string) string {
	if len(path) == 0 {
		return key
	}
	return strings.Join(path, ".") + "." + key
}

func kindName(v *jsonpos.Node) string {
	switch v.Kind {
	case jsonpos.Array, jsonpos.Object:
		return "an " + v.Kind.String()
	}
	return "a " + v.Kind.String()
}

func (w *walker) dtcgToken(m jsonpos.Member, path []string, inherited string, deprecated bool, depth int) {
	v := m.Value
	tok := &token{name: strings.Join(path, "."), file: w.f, keyOff: m.KeyOff, node: v, value: v.Get("$value"), typ: inherited, deprecated: deprecated}
	if tm, ok := v.Member("$type"); ok {
		tok.typeNode = tm.Value
		if w.checkType(tm.Value) {
			tok.typ = tm.Value.Str
		} else {
			tok.typ = ""
		}
	}
	if tok.value == nil {
		tok.ref = v.Get("$ref")
	}
	if dm, ok := v.Member("$deprecated"); ok {
		tok.deprecated = isDeprecated(dm.Value)
	}
	w.props(v)
	for _, c := range v.Members {
		if !strings.HasPrefix(c.Key, "$") && c.Value.Kind == jsonpos.Object {
			w.f.findAt(ruleTokenAndGroup, c.KeyOff, "", fmt.Sprintf("%s has a $value and the child %q: an object is a token or a group, not both", tok.name, c.Key),
				"move the value into \"$root\" beside the children, or the children into a group of their own")
			break
		}
	}
	w.add(tok)
}

func isDeprecated(v *jsonpos.Node) bool {
	return v.Kind == jsonpos.Bool && v.Str == "true" || v.Kind == jsonpos.String
}

// checkType reports an unknown or malformed $type; it returns whether the
// type can be used.
func (w *walker) checkType(v *jsonpos.Node) bool {
	if v.Kind != jsonpos.String {
		w.f.find(ruleInvalidProp, v, "", "$type must be a string naming a type, not "+kindName(v), `write "$type": "color" (or another type)`)
		return false
	}
	if dtcgTypes()[v.Str] || studioTypes()[v.Str] || sdTypes()[v.Str] || v.Str == "string" {
		// "string": the format's own group example uses it, ahead of a
		// definition.
		return true
	}
	if w.f.dialect == dtcg {
		fix := "use one of " + dtcgTypeList
		if t, ok := caseless()[strings.ToLower(v.Str)]; ok {
			fix = "$type is case-sensitive: write " + t
		}
		w.f.find(ruleUnknownType, v, "", fmt.Sprintf("$type %q is not a type of the Design Tokens format", v.Str), fix)
	}
	return true
}

var dtcgTypeList = "color, dimension, fontFamily, fontWeight, duration, cubicBezier, number, strokeStyle, border, transition, shadow, gradient, typography"

var dtcgTypes = sync.OnceValue(func() map[string]bool { return setOf(strings.ReplaceAll(dtcgTypeList, ",", "")) })

var caseless = sync.OnceValue(func() map[string]string {
	return func() map[string]string {
		m := map[string]string{}
		for t := range dtcgTypes() {
			m[strings.ToLower(t)] = t
		}
		return m
	}()
})

// props checks the kind of a group's or token's $description,
// $extensions and $deprecated.
func (w *walker) props(obj *jsonpos.Node) {
	for _, m := range obj.Members {
		v := m.Value
		switch m.Key {
		case "$description":
			if v.Kind != jsonpos.String {
				w.f.find(ruleInvalidProp, v, "", "$description must be a string, not "+kindName(v), "write the description as a string")
			}
		case "$extensions":
			if v.Kind != jsonpos.Object {
				w.f.find(ruleInvalidProp, v, "", "$extensions must be an object keyed by vendor, not "+kindName(v), `write "$extensions": {"com.example.tool": …}`)
			}
		case "$deprecated":
			if v.Kind != jsonpos.Bool && v.Kind != jsonpos.String {
				w.f.find(ruleInvalidProp, v, "", "$deprecated must be true, false or a string saying why, not "+kindName(v), "write true, false or an explanation")
			}
		}
	}
}

// checkName reports names the format forbids.
func (w *walker) checkName(m jsonpos.Member) {
	if strings.ContainsAny(m.Key, "{}.") {
		w.f.findAt(ruleInvalidName, m.KeyOff, "", fmt.Sprintf("the name %q contains %s, which aliases use as syntax: it cannot be referenced", m.Key, badChars(m.Key)),
			"rename it without {, } and . (nest a group instead of a dot)")
	}
}

func badChars(s string) string {
	var out []string
	for _, c := range []string{"{", "}", "."} {
		if strings.Contains(s, c) {
			out = append(out, "'"+c+"'")
		}
	}
	return strings.Join(out, " and ")
}

// sd walks a group of a Style Dictionary file: an object with "value"
// is a token; Spectrum's objects with "sets" are a token per mode.
func (w *walker) sd(obj *jsonpos.Node, path []string, depth int) {
	if depth > 128 {
		return
	}
	if len(path) > 0 {
		w.t.groups[strings.Join(path, ".")] = obj
	}
	for _, m := range obj.Members {
		v := m.Value
		if strings.HasPrefix(m.Key, "$") {
			continue
		}
		if v.Kind != jsonpos.Object {
			w.rawValue(joinName(path, m.Key), v, 0)
			continue
		}
		p := joinPath(path, m.Key)
		switch {
		case v.Get("value") != nil:
			w.add(w.sdToken(m, p))
		case v.Get("sets") != nil && v.Get("sets").Kind == jsonpos.Object:
			tok := w.sdToken(m, p)
			tok.sets = true
			for _, s := range v.Get("sets").Members {
				if s.Value.Kind == jsonpos.Object && s.Value.Get("value") != nil {
					st := w.sdToken(s, append(joinPath(p, "sets"), s.Key))
					if tok.typ == "" {
						tok.typ = st.typ
					}
					w.add(st)
				}
			}
			w.add(tok)
		default:
			w.sd(v, p, depth+1)
		}
	}
}

// rawValue indexes a plain value of a Style Dictionary file, and the
// items of a list by index ({saturation.7}).
func (w *walker) rawValue(name string, v *jsonpos.Node, depth int) {
	if len(w.t.raw) >= maxTokens || depth > 8 {
		return
	}
	w.t.raw[name] = true
	if v.Kind == jsonpos.Array {
		for i, e := range v.Elems {
			w.rawValue(name+"."+strconv.Itoa(i), e, depth+1)
		}
	}
}

func (w *walker) sdToken(m jsonpos.Member, path []string) *token {
	v := m.Value
	tok := &token{name: strings.Join(path, "."), file: w.f, keyOff: m.KeyOff, node: v, value: v.Get("value")}
	for _, key := range []string{"type", "$type"} {
		if t := v.Get(key); t != nil && t.Kind == jsonpos.String {
			tok.typ, tok.typeNode = sdType(t.Str), t
			break
		}
	}
	if tok.typ == "" {
		if a := v.Get("attributes"); a != nil {
			if c := a.Get("category"); c != nil && c.Kind == jsonpos.String {
				tok.typ = sdType(c.Str)
			}
		}
	}
	if tok.typ == "" {
		if s := v.Get("$schema"); s != nil && s.Kind == jsonpos.String {
			tok.typ = spectrumType(s.Str)
		}
	}
	if d := v.Get("deprecated"); d != nil && isDeprecated(d) {
		tok.deprecated = true
	}
	return tok
}

// sdType maps Style Dictionary's types and CTI categories to the
// format's where they mean the same; others are kept as they are.
func sdType(s string) string {
	switch s {
	case "size", "fontSize", "font-size":
		return "sd:size"
	case "time":
		return "sd:time"
	case "font-weight":
		return "fontWeight"
	case "font-family":
		return "fontFamily"
	}
	return s
}

// spectrumType reads the type of an Adobe Spectrum token from its $schema
// (".../schemas/token-types/color.json").
func spectrumType(schema string) string {
	i := strings.LastIndex(schema, "/token-types/")
	if i < 0 {
		return ""
	}
	t := strings.TrimSuffix(schema[i+len("/token-types/"):], ".json")
	switch t {
	case "color", "color-set":
		return "color"
	case "dimension", "font-size":
		return "sd:size"
	case "font-weight":
		return "fontWeight"
	case "font-family":
		return "fontFamily"
	case "opacity", "multiplier":
		return "sd:number"
	case "alias", "set", "scale-set", "system-set", "token":
		return ""
	}
	return "spectrum:" + t
}
