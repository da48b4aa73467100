// Package designtokens is the hands' check of design token files (tool
// validate_design_tokens): the Design Tokens Community Group format
// (DTCG, the 2025.10 draft and the earlier ones) and the older Style
// Dictionary shape, including Adobe Spectrum's and Tokens Studio's
// variants.
//
// Files are *.tokens, *.tokens.json, JSON or JSON5 under a tokens/,
// design-tokens/ or properties/ folder (Style Dictionary's), and any JSON
// whose first bytes show a $value (or Spectrum's token-types $schema).
// Every token file of the project is read (through Input.Source) to
// resolve aliases across files, as Style Dictionary merges its sources;
// findings are reported for the files given.
//
// Parsed with internal/jsonpos (JSON, and JSON5 for *.json5), which keeps
// each key's line and the keys JSON parsers drop when repeated. Checked:
//   - syntax; duplicate keys;
//   - aliases ({group.token}, Style Dictionary's {group.token.value},
//     aliases inside strings, and the newest draft's $ref JSON Pointers)
//     that do not resolve or name a group; alias cycles, with the path;
//     aliases to deprecated tokens;
//   - types: unknown $type, DTCG tokens whose type cannot be determined
//     (own, inherited from a group, or through the alias), a type that an
//     alias or a composite part's alias contradicts;
//   - values by type: color (hex, CSS color functions, named colors, the
//     Color module's {colorSpace, components, alpha, hex} with ranges),
//     dimension ({value, unit} with px/rem, or "16px"), duration (ms, s),
//     cubicBezier (four numbers, x in [0, 1]), fontWeight (1-1000 or the
//     named weights), number, fontFamily, strokeStyle, and the composite
//     border, transition, shadow (one or a list), gradient and
//     typography with their required parts;
//   - a token that is also a group; names with $, {, } or .; the kinds of
//     $description, $extensions, $deprecated.
//
// Style Dictionary files and files that use Tokens Studio's types
// (spacing, boxShadow, fontFamilies, ...) are checked leniently: aliases,
// cycles, colors and font weights, not the DTCG value grammars their tools
// do not use.
//
// Param "format": auto (the default: DTCG if a file has any $value),
// dtcg or style-dictionary.
//
// Not checked: YAML and JavaScript token sources, $extends (group
// inheritance), the Resolver module's sets and modifiers, alias cycles
// through $extends, gamut or contrast.
package designtokens

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/findcap"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker checks design token files.
type Checker struct{}

// New returns the design tokens checker.
func New() *Checker { return &Checker{} }

// Name is "designtokens".
func (*Checker) Name() string { return "designtokens" }

// Rules lists the rules of the design tokens check.
func (*Checker) Rules() []check.Rule { return slices.Clone(rules) }

// tokenDirs are folders whose JSON files are tokens.
var tokenDirs = setOf("tokens token design-tokens design_tokens designtokens properties")

// skipNames are JSON files that are never tokens.
var skipNames = setOf("package.json package-lock.json composer.json tsconfig.json jsconfig.json manifest.json config.json")

// Wants picks token files by name (*.tokens, *.tokens.json, JSON in a
// tokens/ or properties/ folder) or by content ($value in the first bytes).
func (*Checker) Wants(p string, head []byte) bool {
	return wants(p, head)
}

func wants(p string, head []byte) bool {
	base := path.Base(p)
	lower := strings.ToLower(base)
	if strings.HasSuffix(lower, ".tokens") || strings.HasSuffix(lower, ".tokens.json") {
		return true
	}
	ext := path.Ext(lower)
	if ext != ".json" && ext != ".json5" {
		return false
	}
	if strings.HasPrefix(base, "$") || skipNames[lower] || strings.HasPrefix(lower, "tsconfig") {
		return false
	}
	h := strings.TrimLeft(string(head), "\ufeff \t\r\n")
	if strings.Contains(h, "json-schema.org") {
		return false // a JSON Schema (of tokens, maybe), not tokens
	}
	if !strings.HasPrefix(h, "{") && !strings.HasPrefix(h, "//") && !strings.HasPrefix(h, "/*") {
		return false
	}
	dirs := strings.Split(path.Dir(p), "/")
	for _, part := range dirs {
		if part == "dist" || part == "build" {
			return false // a build's output, not the tokens a person edits
		}
	}
	for _, part := range dirs {
		if tokenDirs[strings.ToLower(part)] {
			return true
		}
	}
	return strings.Contains(h, `"$value"`) || strings.Contains(h, "$value:") || strings.Contains(h, "/token-types/")
}

type options struct{ format string }

func readParams(params map[string]string) (options, error) {
	var o options
	for k, v := range params {
		switch k {
		case "format":
			v = strings.ToLower(strings.TrimSpace(v))
			switch v {
			case "", "auto":
				o.format = ""
			case "dtcg", "style-dictionary":
				o.format = v
			default:
				return o, &problem.FieldError{Field: "params.format", Problem: problem.Quote(v) + " is not a token format", Fix: "use auto, dtcg or style-dictionary"}
			}
		default:
			return o, &problem.FieldError{Field: "params." + k, Problem: "is not a param of the designtokens check", Fix: "use format"}
		}
	}
	return o, nil
}

// maxExtraFiles bounds the files read beside the given ones.
const maxExtraFiles = 5000

type run struct {
	ctx    context.Context
	in     *check.Input
	opt    options
	t      *tree
	files  []*tfile
	byNode map[*jsonpos.Node]*token
	kids   map[string][]string
	res    check.Result
}

// Check parses the given files and the project's other token files, then
// checks the given files' tokens.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	opt, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	r := &run{ctx: ctx, in: in, opt: opt, t: newTree(), byNode: map[*jsonpos.Node]*token{}}
	given := map[string]bool{}
	for _, f := range in.Files {
		given[f.Path] = true
		r.files = append(r.files, parseFile(r.t, f.Path, f.Content, true, opt.format))
	}
	extra := r.loadProject(given)
	if err := ctx.Err(); err != nil {
		return check.Result{}, err
	}
	for _, tok := range r.t.order {
		r.byNode[tok.node] = tok
	}
	for i, tok := range r.t.order {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return check.Result{}, err
			}
		}
		if tok.file.given {
			r.checkToken(tok)
		}
	}
	r.cycles()
	for _, f := range r.files {
		r.res.Findings = append(r.res.Findings, f.findings...)
	}
	r.res.Notes = r.notes(extra)
	r.res.Findings = findcap.Apply(r.res.Findings)
	return r.res, nil
}

// loadProject reads the project's other token files, to resolve aliases.
func (r *run) loadProject(given map[string]bool) int {
	src := r.in.Source
	if src == nil {
		return 0
	}
	all, err := src.Files("")
	if err != nil {
		return 0
	}
	dirs := map[string]bool{}
	for p := range given {
		dirs[path.Dir(p)] = true
	}
	n := 0
	for _, p := range all {
		if given[p] || n >= maxExtraFiles {
			continue
		}
		ext := strings.ToLower(path.Ext(p))
		if ext != ".json" && ext != ".json5" && ext != ".tokens" {
			continue
		}
		byPath := wants(p, []byte("{"))
		if !byPath && !dirs[path.Dir(p)] && !strings.Contains(p, "/tokens/") {
			continue
		}
		b, err := src.ReadFile(p)
		if err != nil || !wants(p, b[:min(len(b), 512)]) {
			continue
		}
		if r.ctx.Err() != nil {
			return n
		}
		r.files = append(r.files, parseFile(r.t, p, b, false, r.opt.format))
		n++
	}
	return n
}

func (r *run) notes(extra int) []string {
	var dt, sd, studio int
	for _, f := range r.files {
		if !f.given || f.root == nil {
			continue
		}
		if f.dialect == dtcg {
			dt++
		} else {
			sd++
		}
		if f.studio {
			studio++
		}
	}
	var out []string
	shape := fmt.Sprintf("%d DTCG file%s, %d in the Style Dictionary shape", dt, plural(dt), sd)
	if studio > 0 {
		shape += fmt.Sprintf(", %d with Tokens Studio types (values checked leniently)", studio)
	}
	out = append(out, shape)
	if extra > 0 {
		out = append(out, fmt.Sprintf("aliases resolved against %d tokens in %d files, %d of them read beside the files checked", len(r.t.order), len(r.files), extra))
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// checkToken checks one token of a given file.
func (r *run) checkToken(tok *token) {
	r.refs(tok)
	if tok.ref != nil {
		r.pointer(tok, tok.ref)
	}
	typ := r.typeOf(tok)
	if typ == "" && tok.file.dialect == dtcg && !tok.sets {
		tok.file.findAt(ruleMissingType, tok.keyOff, "", fmt.Sprintf("%s has no type: none of its own, none from a group, none through an alias", tok.name),
			`set "$type" on the token or on its group`)
	}
	if tok.value != nil && !tok.sets {
		(&vctx{r: r, tok: tok}).check(tok.typ, tok.value, "")
	}
}

// refs reports every alias in the token's value that does not resolve,
// and aliases of deprecated tokens.
func (r *run) refs(tok *token) {
	if tok.value == nil {
		return
	}
	walkStrings(tok.value, 0, func(n *jsonpos.Node) {
		for _, ref := range findRefs(n.Str) {
			targets, why := r.resolve(ref)
			if targets == nil {
				tok.file.find(ruleUnresolved, n, "", fmt.Sprintf("%s: the alias {%s} %s", tok.name, ref, why), r.suggest(ref))
				continue
			}
			if len(targets) > 0 && !tok.deprecated && r.deprecated(targets[0]) {
				tok.file.find(ruleDeprecated, n, "", fmt.Sprintf("%s aliases {%s}, which is deprecated", tok.name, ref), "alias the token that replaces it")
			}
		}
	})
}

func (r *run) deprecated(t *token) bool {
	if t.deprecated {
		return true
	}
	name := t.name
	for {
		i := strings.LastIndexByte(name, '.')
		if i < 0 {
			return false
		}
		name = name[:i]
		if r.t.groupDeprecated[name] {
			return true
		}
	}
}

// walkStrings calls fn for every string in n (not inside $extensions).
func walkStrings(n *jsonpos.Node, depth int, fn func(*jsonpos.Node)) {
	if depth > 64 {
		return
	}
	switch n.Kind {
	case jsonpos.String:
		fn(n)
	case jsonpos.Array:
		for _, e := range n.Elems {
			walkStrings(e, depth+1, fn)
		}
	case jsonpos.Object:
		for _, m := range n.Members {
			if m.Key != "$extensions" {
				walkStrings(m.Value, depth+1, fn)
			}
		}
	}
}

// findRefs returns the {paths} in a string.
func findRefs(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '{' && s[j] != '}' && s[j] != '\n' && j-i < 256 {
			j++
		}
		if j < len(s) && s[j] == '}' && j > i+1 {
			ref := strings.TrimSpace(s[i+1 : j])
			if ref != "" && !strings.ContainsAny(ref, "\"':,") {
				out = append(out, ref)
			}
			i = j
		}
	}
	return out
}

// wholeRef returns the path of a string that is exactly one alias.
func wholeRef(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 3 || t[0] != '{' || t[len(t)-1] != '}' {
		return "", false
	}
	inner := t[1 : len(t)-1]
	if strings.ContainsAny(inner, "{}") {
		return "", false
	}
	refs := findRefs(t)
	if len(refs) != 1 {
		return "", false
	}
	return refs[0], true
}

// resolve finds the tokens a dotted path names; why says why there is
// none.
func (r *run) resolve(ref string) ([]*token, string) {
	if ts := r.t.tokens[ref]; ts != nil {
		return ts, ""
	}
	if base, ok := strings.CutSuffix(ref, ".value"); ok {
		if ts := r.t.tokens[base]; ts != nil {
			return ts, ""
		}
	}
	if r.t.raw[ref] {
		return []*token{}, "" // a plain value of a Style Dictionary file
	}
	if _, ok := r.t.groups[ref]; ok {
		if r.t.tokens[ref+".$root"] != nil {
			return nil, "names a group; an alias names a token, here {" + ref + ".$root}"
		}
		return nil, "names a group, not a token"
	}
	return nil, "names no token"
}

// suggest proposes a token for an alias that names none: one whose path
// ends the same way, or the group's root.
func (r *run) suggest(ref string) string {
	if r.t.tokens[ref+".$root"] != nil {
		return "write {" + ref + ".$root}"
	}
	parent, last := "", ref
	if i := strings.LastIndexByte(ref, '.'); i >= 0 {
		parent, last = ref[:i], ref[i+1:]
	}
	var near []string
	for _, name := range r.children()[parent] {
		if editDistance(name[len(name)-len(lastSegment(name)):], last, 2) <= 2 {
			near = append(near, name)
		}
	}
	slices.Sort(near)
	if len(near) > 0 && len(near) <= 3 {
		return "did you mean {" + strings.Join(near, "} or {") + "}?"
	}
	return "point the alias at an existing token, or add the token"
}

func lastSegment(name string) string { return name[strings.LastIndexByte(name, '.')+1:] }

// children indexes token names by their parent path, once.
func (r *run) children() map[string][]string {
	if r.kids == nil {
		r.kids = map[string][]string{}
		for name := range r.t.tokens {
			parent := ""
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				parent = name[:i]
			}
			r.kids[parent] = append(r.kids[parent], name)
		}
	}
	return r.kids
}

// editDistance is the Levenshtein distance of a and b, or max+1 once it
// is known to exceed max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max || len(a) > 64 || len(b) > 64 {
		return max + 1
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// pointer resolves a $ref JSON Pointer ("#/color/blue/$value") in the
// token's own file; a pointer into another file is not followed.
func (r *run) pointer(tok *token, ref *jsonpos.Node) *jsonpos.Node {
	if ref.Kind != jsonpos.String {
		tok.file.find(ruleInvalidProp, ref, "", tok.name+": $ref must be a JSON Pointer string such as \"#/color/blue\"", "write the pointer as a string")
		return nil
	}
	p := ref.Str
	if !strings.HasPrefix(p, "#") || tok.file.root == nil {
		return nil
	}
	n := tok.file.root
	for _, seg := range strings.Split(strings.TrimPrefix(p[1:], "/"), "/") {
		if p == "#" || p == "#/" {
			break
		}
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		var next *jsonpos.Node
		switch n.Kind {
		case jsonpos.Object:
			next = n.Get(seg)
		case jsonpos.Array:
			var i int
			if _, err := fmt.Sscanf(seg, "%d", &i); err == nil && i >= 0 && i < len(n.Elems) && fmt.Sprint(i) == seg {
				next = n.Elems[i]
			}
		}
		if next == nil {
			tok.file.find(ruleUnresolved, ref, "", fmt.Sprintf("%s: the $ref %q leads nowhere: %q is not in the document there", tok.name, p, seg), "point $ref at an existing location (#/group/token)")
			return nil
		}
		n = next
	}
	return n
}

// aliasValue handles a value (or part of one) that is an alias: it checks
// that the alias's type fits typ and reports whether n was an alias.
func (r *run) aliasValue(tok *token, typ string, n *jsonpos.Node, where string) bool {
	switch n.Kind {
	case jsonpos.Object:
		if ref := n.Get("$ref"); ref != nil && len(n.Members) == 1 {
			r.pointer(tok, ref)
			return true
		}
		return false
	case jsonpos.String:
	default:
		return false
	}
	ref, whole := wholeRef(n.Str)
	if !whole {
		return len(findRefs(n.Str)) > 0 // an alias inside text: not checked as a value
	}
	targets, _ := r.resolve(ref)
	if len(targets) == 0 || typ == "" {
		return true
	}
	for _, t := range targets {
		if tt := r.typeOf(t); compatible(typ, tt) {
			return true
		}
	}
	tt := r.typeOf(targets[0])
	what := tok.name
	if where != "" {
		what += " (" + where + ")"
	}
	tok.file.find(ruleTypeMismatch, n, "", fmt.Sprintf("%s is %s, but its alias {%s} is %s", what, article(typ), ref, article(tt)),
		"alias a "+typ+" token, or change the type")
	return true
}

func article(t string) string {
	t = strings.TrimPrefix(strings.TrimPrefix(t, "sd:"), "spectrum:")
	if t == "" {
		return "untyped"
	}
	if strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// typeOf is a token's type: its own or its group's, else its alias's.
func (r *run) typeOf(tok *token) string {
	if tok.resolved || tok.resolving {
		return tok.rtype
	}
	tok.resolving = true
	t := tok.typ
	if t == "" {
		var target *token
		if tok.value != nil && tok.value.Kind == jsonpos.String {
			if ref, ok := wholeRef(tok.value.Str); ok {
				if ts, _ := r.resolve(ref); len(ts) > 0 {
					target = ts[0]
				}
			}
		} else if tok.ref != nil && tok.ref.Kind == jsonpos.String {
			if n := r.pointerQuiet(tok); n != nil {
				target = r.byNode[n]
			}
		}
		if target != nil {
			t = r.typeOf(target)
		}
	}
	tok.resolving, tok.resolved, tok.rtype = false, true, t
	return t
}

// pointerQuiet resolves a token's $ref without reporting.
func (r *run) pointerQuiet(tok *token) *jsonpos.Node {
	given := tok.file.given
	tok.file.given = false
	n := r.pointer(tok, tok.ref)
	tok.file.given = given
	return n
}

// edges are the tokens a token's value refers to, by name.
func (r *run) edges(tok *token) []string {
	var out []string
	if tok.value != nil {
		walkStrings(tok.value, 0, func(n *jsonpos.Node) {
			for _, ref := range findRefs(n.Str) {
				if ts, _ := r.resolve(ref); len(ts) > 0 {
					out = append(out, ts[0].name)
				}
			}
		})
	}
	if tok.ref != nil {
		if n := r.pointerQuiet(tok); n != nil {
			if t := r.byNode[n]; t != nil {
				out = append(out, t.name)
			}
		}
	}
	return out
}

// cycles finds the alias cycles (Tarjan's strongly connected components
// over token names) and reports each token of a cycle that is in a given
// file, with the cycle's path.
func (r *run) cycles() {
	adj := map[string][]string{}
	var names []string
	for _, tok := range r.t.order {
		if _, ok := adj[tok.name]; !ok {
			names = append(names, tok.name)
			adj[tok.name] = nil
		}
		adj[tok.name] = append(adj[tok.name], r.edges(tok)...)
	}
	index, low := map[string]int{}, map[string]int{}
	on := map[string]bool{}
	var stack []string
	next := 0
	var sccs [][]string
	var strong func(v string, depth int)
	strong = func(v string, depth int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range adj[v] {
			if _, seen := index[w]; !seen {
				if depth < 100000 {
					strong(w, depth+1)
				}
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			if len(scc) > 1 || slices.Contains(adj[v], v) {
				sccs = append(sccs, scc)
			}
		}
	}
	for _, v := range names {
		if _, seen := index[v]; !seen {
			strong(v, 0)
		}
	}
	for _, scc := range sccs {
		in := map[string]bool{}
		for _, n := range scc {
			in[n] = true
		}
		// One path a cycle, from its first token in file order.
		first := scc[0]
		for _, tok := range r.t.order {
			if in[tok.name] {
				first = tok.name
				break
			}
		}
		where := cyclePath(first, adj, in)
		if len(scc) > 3 {
			where = fmt.Sprintf("%d tokens, %s", len(scc), where)
		}
		reported := 0
		var last *token
		for _, name := range scc {
			for _, tok := range r.t.tokens[name] {
				if !tok.file.given {
					continue
				}
				if reported++; reported >= findcap.PerRule {
					continue // counted below, not worded one by one
				}
				at := tok.keyOff
				if tok.value != nil {
					at = tok.value.Off
				}
				tok.file.findAt(ruleCycle, at, "", fmt.Sprintf("%s is in an alias cycle: %s", name, where),
					"give one token of the cycle an explicit value")
				last = tok
			}
		}
		if reported >= findcap.PerRule && last != nil {
			last.file.findAt(ruleCycle, last.keyOff, "", fmt.Sprintf("and %d more tokens of this cycle, not listed", reported-findcap.PerRule+1),
				"give one token of the cycle an explicit value")
		}
	}
}

// cyclePath walks from start inside its cycle back to start.
func cyclePath(start string, adj map[string][]string, in map[string]bool) string {
	path := []string{start}
	seen := map[string]bool{start: true}
	cur := start
	for len(path) < 50 {
		next := ""
		for _, w := range adj[cur] {
			if w == start {
				return strings.Join(append(path, start), " → ")
			}
			if in[w] && !seen[w] && next == "" {
				next = w
			}
		}
		if next == "" {
			break
		}
		path = append(path, next)
		seen[next] = true
		cur = next
	}
	return strings.Join(path, " → ") + " → …"
}
