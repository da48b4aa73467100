package openapi

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pb33f/go-yaml"

	"github.com/cairn-dev/cairn/internal/check"
)

// walker goes through a spec's objects, following $refs into other files,
// for the rules that need to know what each object is.
type walker struct {
	s *spec

	ops      map[string]opSite       // operationId: where it is first used
	visited  map[*yaml.Node]bool     // objects whose insides were walked
	frag     map[*yaml.Node]bool     // objects from other files already shape-checked
	paths    map[string]*yaml.Node   // a path with its variables unnamed: its first key
	schemes  map[string]bool         // security scheme names
	badParam map[*yaml.Node]bool     // path-level parameters already reported unused
	examples []exampleJob            // examples to check against their schemas
	exSeen   map[*yaml.Node]bool     // example values already queued
	inPath   map[*yaml.Node]struct{} // path items being walked (callbacks can loop)
}

type opSite struct {
	node      *yaml.Node
	label     string // "GET /pets"
	file      string
	line, col int
}

func newWalker(s *spec) *walker {
	return &walker{s: s, ops: map[string]opSite{}, visited: map[*yaml.Node]bool{}, frag: map[*yaml.Node]bool{},
		paths: map[string]*yaml.Node{}, badParam: map[*yaml.Node]bool{}, exSeen: map[*yaml.Node]bool{},
		inPath: map[*yaml.Node]struct{}{}}
}

var methods2 = []string{"get", "put", "post", "delete", "options", "head", "patch"}
var methods3 = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

func (w *walker) methods() []string {
	switch w.s.v {
	case v20:
		return methods2
	case v32:
		return append(slices.Clip(methods3), "query")
	}
	return methods3
}

// finding adds a finding at node n of file d.
func (w *walker) finding(rule string, d *doc, n *yaml.Node, msg, fix string) {
	line, col := d.pos(n)
	f := check.Finding{Rule: rule, File: d.path, Line: line, Col: col, Message: msg, Fix: fix}
	if n != nil && n.Kind == yaml.ScalarNode {
		f.EndLine, f.EndCol = endOf(d, n)
	}
	w.s.add(f)
}

// obj is the object n stands for, its $refs followed. An object brought
// from another file is checked there against its part of the OpenAPI
// schema, once.
func (w *walker) obj(d *doc, n *yaml.Node, kind string) (*doc, *yaml.Node, bool) {
	n = deAlias(n)
	if n == nil {
		return d, nil, false
	}
	if refOf(n) == nil {
		return d, n, n.Kind == yaml.MappingNode
	}
	t, ok := w.s.deref(d, n)
	if !ok {
		return d, nil, false
	}
	td, tn := t.doc, t.node
	if td != w.s.root && !w.frag[tn] {
		w.frag[tn] = true
		if sch := schemaFor(w.s.v); sch.err == nil && sch.defs[kind] != nil {
			w.s.validateShape(td, tn, t.key, sch.defs[kind], pointerLabel(t.ptr))
		}
	}
	return td, tn, tn.Kind == yaml.MappingNode || (kind == kindSchema && tn.Kind == yaml.ScalarNode)
}

// once reports whether n is walked for the first time.
func (w *walker) once(n *yaml.Node) bool {
	if w.visited[n] {
		return false
	}
	w.visited[n] = true
	return true
}

func pointerLabel(ptr string) string {
	if ptr == "" {
		return ""
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return readablePath(parts, "")
}

func (w *walker) walk() {
	root := w.s.root
	m := root.root
	w.securitySchemes()
	if w.s.v == v20 {
		pairs(val(m, "paths"), func(k, v *yaml.Node) {
			if !strings.HasPrefix(k.Value, "x-") {
				w.pathItem(root, k, v, true)
			}
		})
		pairs(val(m, "definitions"), func(_, v *yaml.Node) { w.schema(root, v) })
		pairs(val(m, "parameters"), func(_, v *yaml.Node) { w.params(root, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{v}}) })
		pairs(val(m, "responses"), func(_, v *yaml.Node) { w.response(root, v) })
		w.security(root, val(m, "security"))
		return
	}
	w.servers(root, val(m, "servers"))
	pairs(val(m, "paths"), func(k, v *yaml.Node) {
		if !strings.HasPrefix(k.Value, "x-") {
			w.pathItem(root, k, v, true)
		}
	})
	pairs(val(m, "webhooks"), func(k, v *yaml.Node) { w.pathItem(root, k, v, false) })
	comps := val(m, "components")
	pairs(val(comps, "schemas"), func(_, v *yaml.Node) { w.schema(root, v) })
	pairs(val(comps, "parameters"), func(_, v *yaml.Node) {
		w.params(root, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{v}})
	})
	pairs(val(comps, "responses"), func(_, v *yaml.Node) { w.response(root, v) })
	pairs(val(comps, "requestBodies"), func(_, v *yaml.Node) { w.requestBody(root, v) })
	pairs(val(comps, "headers"), func(_, v *yaml.Node) { w.header(root, v) })
	pairs(val(comps, "callbacks"), func(_, v *yaml.Node) { w.callback(root, v) })
	pairs(val(comps, "pathItems"), func(k, v *yaml.Node) { w.pathItem(root, k, v, false) })
	w.security(root, val(m, "security"))
}

// --- paths and operations ---

var templateVarRE = check.LazyRegexp(`\{([^{}/]*)\}`)

// pathItem walks one path item. Under paths (template true) its key is a
// path template whose variables the operations must declare.
func (w *walker) pathItem(d *doc, key, n *yaml.Node, template bool) {
	pd, pn, ok := w.obj(d, n, kindPathItem)
	if !ok {
		return
	}
	if _, busy := w.inPath[pn]; busy {
		return
	}
	w.inPath[pn] = struct{}{}
	defer delete(w.inPath, pn)

	var vars []string
	if template {
		vars = w.pathTemplate(d, key)
	}
	w.servers(pd, val(pn, "servers"))
	pathParams := w.params(pd, val(pn, "parameters"))
	hasOps := false
	for _, m := range w.methods() {
		mk, op := get(pn, m)
		if op == nil {
			continue
		}
		hasOps = true
		// An operation is not meant to be a $ref, but tools follow one.
		od, on, ok := w.obj(pd, op, kindOperation)
		if !ok {
			continue // its $ref does not resolve: nothing to say of its parameters
		}
		w.operation(od, key, mk, on, pathParams, vars, template)
	}
	if !template || !hasOps {
		return
	}
	for _, p := range pathParams {
		if p.known && p.in == "path" && !slices.Contains(vars, p.name) && !w.badParam[p.at] {
			w.badParam[p.at] = true
			w.finding(rulePathParamUnused, p.doc, p.at,
				fmt.Sprintf("path parameter %s is declared for %s, whose template has no {%s}", p.name, key.Value, p.name),
				fmt.Sprintf("add {%s} to the path, or remove the parameter (or make it in: query)", p.name))
		}
	}
}

// pathTemplate checks a path key's variables, and whether another path is
// the same one with other variable names; it returns the variables.
func (w *walker) pathTemplate(d *doc, key *yaml.Node) []string {
	var vars []string
	for _, m := range templateVarRE().FindAllStringSubmatch(key.Value, -1) {
		name := m[1]
		if slices.Contains(vars, name) {
			w.finding(ruleParamDuplicate, d, key, fmt.Sprintf("path %s has the variable {%s} twice", key.Value, name),
				"give each variable of the path its own name")
			continue
		}
		vars = append(vars, name)
	}
	shape := templateVarRE().ReplaceAllString(key.Value, "{}")
	if first, ok := w.paths[shape]; ok && first.Value != key.Value {
		w.finding(rulePathIdentical, d, key,
			fmt.Sprintf("path %s is the same path as %s (line %d): only the names of their variables differ", key.Value, first.Value, first.Line),
			"merge the two path items into one, with one name for each variable")
	} else if !ok {
		w.paths[shape] = key
	}
	return vars
}

// param is a parameter as a list declares it.
type param struct {
	name, in string
	known    bool       // false: its $ref does not resolve
	doc      *doc       // the file of at
	at       *yaml.Node // where the list names it: the $ref, or the inline name
}

// params walks a list of parameters, reporting a name and location given
// twice, and returns them.
func (w *walker) params(d *doc, list *yaml.Node) []param {
	var out []param
	seen := map[string]bool{}
	for _, it := range items(list) {
		pd, pn, ok := w.obj(d, it, kindParameter)
		if !ok {
			out = append(out, param{known: false, doc: d, at: it})
			continue
		}
		p := param{name: str(pn, "name"), in: str(pn, "in"), known: true, doc: d, at: it}
		if r := refOf(it); r != nil {
			p.at = r
		} else if _, nv := get(it, "name"); nv != nil {
			p.at = nv
		}
		out = append(out, p)
		k := p.in + "\x00" + p.name
		if p.in == "header" {
			k = strings.ToLower(k)
		}
		if seen[k] && p.name != "" {
			w.finding(ruleParamDuplicate, d, p.at, fmt.Sprintf("parameter %s (in: %s) is declared twice in this list", p.name, p.in),
				"remove one of the two declarations")
		}
		seen[k] = true
		if w.once(pn) {
			w.paramBody(pd, pn)
		}
	}
	return out
}

func (w *walker) paramBody(d *doc, n *yaml.Node) {
	if w.s.v == v20 {
		if str(n, "in") == "body" {
			w.schema(d, val(n, "schema"))
		}
		return
	}
	schema := val(n, "schema")
	w.schema(d, schema)
	w.exampleHolder(d, n, d, schema, w.valueExample(d, schema))
	pairs(val(n, "content"), func(k, v *yaml.Node) { w.mediaType(d, k, v) })
}

// valueExample keeps the examples of a parameter or header that are
// values: a string example of an array or object schema is the value
// serialized (ids=1,2), which its style, not its schema, describes.
func (w *walker) valueExample(d *doc, schema *yaml.Node) func(*yaml.Node) bool {
	t := ""
	if _, sn, ok := w.obj(d, schema, kindSchema); ok {
		t = str(sn, "type")
	}
	return func(v *yaml.Node) bool {
		return !(v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" && (t == "array" || t == "object"))
	}
}

// operation checks one operation: its operationId, its parameters against
// the path template (when it is under paths), and walks what it holds.
func (w *walker) operation(d *doc, pathKey, methodKey, op *yaml.Node, pathParams []param, vars []string, template bool) {
	label := strings.ToUpper(methodKey.Value) + " " + pathKey.Value
	if idKey, id := get(op, "operationId"); id != nil && id.Kind == yaml.ScalarNode && id.Value != "" {
		line, col := d.pos(id)
		if first, dup := w.ops[id.Value]; dup && first.node != op {
			w.finding(ruleOperationIDDuplicate, d, id,
				fmt.Sprintf("operationId %s of %s is also the operationId of %s (%s:%d)", id.Value, label, first.label, first.file, first.line),
				"give each operation its own operationId: generated clients name their methods by it")
		} else if !dup {
			w.ops[id.Value] = opSite{node: op, label: label, file: d.path, line: line, col: col}
		}
	} else if template {
		at := methodKey
		if idKey != nil {
			at = idKey
		}
		w.finding(ruleOperationIDMissing, d, at, label+" has no operationId",
			"add operationId: a unique camelCase name such as "+suggestOpID(methodKey.Value, pathKey.Value))
	}
	opParams := w.params(d, val(op, "parameters"))
	w.requestBody(d, val(op, "requestBody"))
	pairs(val(op, "responses"), func(k, v *yaml.Node) {
		if !strings.HasPrefix(k.Value, "x-") {
			w.response(d, v)
		}
	})
	pairs(val(op, "callbacks"), func(_, v *yaml.Node) { w.callback(d, v) })
	w.security(d, val(op, "security"))
	w.servers(d, val(op, "servers"))
	if !template {
		return
	}
	declared := map[string]bool{}
	for _, p := range slices.Concat(pathParams, opParams) {
		if !p.known {
			return // a parameter we cannot read may be the one
		}
		if p.in == "path" {
			declared[p.name] = true
		}
	}
	for _, v := range vars {
		if !declared[v] {
			w.finding(rulePathParamUndeclared, w.s.root, pathKey,
				fmt.Sprintf("%s: path variable {%s} has no parameter declared with name: %s and in: path", label, v, v),
				fmt.Sprintf("declare it in the path item's or the operation's parameters: {name: %s, in: path, required: true, schema: {type: string}}", v))
		}
	}
	for _, p := range opParams {
		if p.in == "path" && !slices.Contains(vars, p.name) {
			w.finding(rulePathParamUnused, p.doc, p.at,
				fmt.Sprintf("%s declares path parameter %s, but its path has no {%s}", label, p.name, p.name),
				fmt.Sprintf("add {%s} to the path, or remove the parameter (or make it in: query)", p.name))
		}
	}
}

// suggestOpID proposes an operationId from a method and path.
func suggestOpID(method, p string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.Split(p, "/") {
		seg = strings.Trim(seg, "{}")
		if seg == "" {
			continue
		}
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func (w *walker) requestBody(d *doc, n *yaml.Node) {
	bd, bn, ok := w.obj(d, n, kindRequestBody)
	if !ok || !w.once(bn) {
		return
	}
	pairs(val(bn, "content"), func(k, v *yaml.Node) { w.mediaType(bd, k, v) })
}

func (w *walker) response(d *doc, n *yaml.Node) {
	rd, rn, ok := w.obj(d, n, kindResponse)
	if !ok || !w.once(rn) {
		return
	}
	if w.s.v == v20 {
		schema := val(rn, "schema")
		w.schema(rd, schema)
		pairs(val(rn, "examples"), func(k, v *yaml.Node) {
			if strings.Contains(strings.ToLower(k.Value), "json") {
				w.example(rd, schema, rd, v, "example "+k.Value)
			}
		})
		return
	}
	pairs(val(rn, "content"), func(k, v *yaml.Node) { w.mediaType(rd, k, v) })
	pairs(val(rn, "headers"), func(_, v *yaml.Node) { w.header(rd, v) })
	pairs(val(rn, "links"), func(_, v *yaml.Node) { w.obj(rd, v, kindLink) })
}

func (w *walker) header(d *doc, n *yaml.Node) {
	hd, hn, ok := w.obj(d, n, kindHeader)
	if !ok || !w.once(hn) {
		return
	}
	schema := val(hn, "schema")
	w.schema(hd, schema)
	w.exampleHolder(hd, hn, hd, schema, w.valueExample(hd, schema))
	pairs(val(hn, "content"), func(k, v *yaml.Node) { w.mediaType(hd, k, v) })
}

// mediaType walks one media type of a content map. Its examples are
// checked when they are JSON values: a string example of a non-JSON media
// type (XML, CSV) is the serialized body, not a value of the schema.
func (w *walker) mediaType(d *doc, key, n *yaml.Node) {
	if !isMap(n) || !w.once(n) {
		return
	}
	schema := val(n, "schema")
	w.schema(d, schema)
	mt := strings.ToLower(key.Value)
	if strings.Contains(mt, "json") || strings.HasPrefix(mt, "*/*") {
		w.exampleHolder(d, n, d, schema)
	} else {
		w.exampleHolder(d, n, d, schema, func(v *yaml.Node) bool { return v.Kind != yaml.ScalarNode || v.Tag != "!!str" })
	}
	pairs(val(n, "encoding"), func(_, e *yaml.Node) {
		pairs(val(e, "headers"), func(_, v *yaml.Node) { w.header(d, v) })
	})
}

func (w *walker) callback(d *doc, n *yaml.Node) {
	cd, cn, ok := w.obj(d, n, kindCallback)
	if !ok {
		return
	}
	pairs(cn, func(k, v *yaml.Node) {
		if !strings.HasPrefix(k.Value, "x-") {
			w.pathItem(cd, k, v, false)
		}
	})
}

// --- schemas and examples ---

var schemaMaps = []string{"properties", "patternProperties", "definitions", "$defs", "dependentSchemas"}
var schemaLists = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
var schemaOnes = []string{"not", "additionalProperties", "additionalItems", "contains", "propertyNames",
	"if", "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "items"}

// schema walks a schema and its subschemas for their examples and
// defaults.
func (w *walker) schema(d *doc, n *yaml.Node) {
	n = deAlias(n)
	if n == nil || n.Kind != yaml.MappingNode || !w.once(n) {
		return
	}
	if refOf(n) != nil {
		if sd, sn, ok := w.obj(d, n, kindSchema); ok {
			w.schema(sd, sn)
		}
		if w.s.v < v31 {
			return // in 2.0 and 3.0 a $ref's siblings are ignored
		}
	}
	if ex := val(n, "example"); ex != nil {
		w.example(d, n, d, ex, "example")
	}
	if w.s.v >= v31 {
		for i, ex := range items(val(n, "examples")) {
			w.example(d, n, d, ex, fmt.Sprintf("examples[%d]", i))
		}
	}
	if def := val(n, "default"); def != nil {
		w.example(d, n, d, def, "default")
	}
	w.enumTypes(d, n)
	for _, k := range schemaMaps {
		pairs(val(n, k), func(_, v *yaml.Node) { w.schema(d, v) })
	}
	for _, k := range schemaLists {
		for _, it := range items(val(n, k)) {
			w.schema(d, it)
		}
	}
	for _, k := range schemaOnes {
		v := val(n, k)
		if v != nil && v.Kind == yaml.SequenceNode { // items as a list (2019 and before)
			for _, it := range items(v) {
				w.schema(d, it)
			}
			continue
		}
		w.schema(d, v)
	}
}

// exampleHolder queues the example and examples of a media type,
// parameter or header, checked against schema.
func (w *walker) exampleHolder(d *doc, n *yaml.Node, sd *doc, schema *yaml.Node, keep ...func(*yaml.Node) bool) {
	kept := func(v *yaml.Node) bool { return len(keep) == 0 || keep[0](v) }
	if ex := val(n, "example"); ex != nil && kept(ex) {
		w.example(sd, schema, d, ex, "example")
	}
	pairs(val(n, "examples"), func(k, v *yaml.Node) {
		ed, en, ok := w.obj(d, v, kindExample)
		if !ok || val(en, "externalValue") != nil {
			return
		}
		if value := val(en, "value"); value != nil && kept(value) {
			w.example(sd, schema, ed, value, "example "+k.Value)
		}
	})
}

// exampleJob is an example to check against its schema.
type exampleJob struct {
	sd   *doc
	sn   *yaml.Node
	vd   *doc
	vn   *yaml.Node
	what string
}

// example queues an example. A null example is taken as no example: specs
// generated from code write null for one that is not set.
func (w *walker) example(sd *doc, schema *yaml.Node, vd *doc, value *yaml.Node, what string) {
	schema = deAlias(schema)
	value = deAlias(value)
	if schema == nil || value == nil || w.exSeen[value] || (value.Kind == yaml.ScalarNode && value.ShortTag() == "!!null") {
		return
	}
	w.exSeen[value] = true
	w.examples = append(w.examples, exampleJob{sd: sd, sn: schema, vd: vd, vn: value, what: what})
}

// --- security and servers ---

func (w *walker) securitySchemes() {
	root := w.s.root.root
	var defs *yaml.Node
	if w.s.v == v20 {
		defs = val(root, "securityDefinitions")
	} else {
		defs = val(val(root, "components"), "securitySchemes")
	}
	w.schemes = map[string]bool{}
	pairs(defs, func(k, v *yaml.Node) {
		w.schemes[k.Value] = true
		if w.s.v != v20 {
			w.obj(w.s.root, v, kindSecurity)
		}
	})
}

// security checks a list of security requirements: each names schemes
// that must be defined.
func (w *walker) security(d *doc, list *yaml.Node) {
	where := "components.securitySchemes"
	if w.s.v == v20 {
		where = "securityDefinitions"
	}
	for _, req := range items(list) {
		pairs(req, func(k, _ *yaml.Node) {
			if w.schemes[k.Value] || (w.s.v >= v32 && strings.ContainsAny(k.Value, "/#:")) {
				return
			}
			w.finding(ruleSecurityUndefined, d, k,
				fmt.Sprintf("security requirement names scheme %s, which %s does not define", k.Value, where),
				fmt.Sprintf("define %s under %s, or name one that is defined there", k.Value, where))
		})
	}
}

func (w *walker) servers(d *doc, list *yaml.Node) {
	for _, srv := range items(list) {
		urlKey, url := get(srv, "url")
		if url == nil || url.Kind != yaml.ScalarNode {
			continue
		}
		vars := val(srv, "variables")
		for _, m := range templateVarRE().FindAllStringSubmatch(url.Value, -1) {
			if k, _ := get(vars, m[1]); k == nil {
				at := url
				if urlKey == nil {
					at = srv
				}
				w.finding(ruleServerVariable, d, at,
					fmt.Sprintf("server URL %s uses {%s}, which the server's variables do not define", url.Value, m[1]),
					fmt.Sprintf("add variables: {%s: {default: ...}} to this server", m[1]))
			}
		}
		pairs(vars, func(k, v *yaml.Node) {
			enum := val(v, "enum")
			def := val(v, "default")
			if enum == nil || enum.Kind != yaml.SequenceNode || def == nil || def.Kind != yaml.ScalarNode {
				return
			}
			for _, e := range items(enum) {
				if e.Kind == yaml.ScalarNode && e.Value == def.Value {
					return
				}
			}
			w.finding(ruleServerVariable, d, def,
				fmt.Sprintf("server variable %s has default %s, which is not in its enum", k.Value, def.Value),
				"make the default one of the enum's values, or add it to the enum")
		})
	}
}

// enumTypes reports enum values that are not of the schema's type: no
// value could ever match them (Redocly's no-enum-type-mismatch).
func (w *walker) enumTypes(d *doc, n *yaml.Node) {
	enum := val(n, "enum")
	tn := val(n, "type")
	if enum == nil || enum.Kind != yaml.SequenceNode || tn == nil {
		return
	}
	var types []string
	switch tn.Kind {
	case yaml.ScalarNode:
		types = []string{tn.Value}
	case yaml.SequenceNode:
		for _, t := range items(tn) {
			types = append(types, t.Value)
		}
	default:
		return
	}
	if str(n, "nullable") == "true" || str(n, "x-nullable") == "true" {
		types = append(types, "null")
	}
	for _, e := range items(enum) {
		got := jsonType(e)
		if got == "" || slices.Contains(types, got) || (got == "integer" && slices.Contains(types, "number")) {
			continue
		}
		if got == "null" && w.s.v < v31 {
			continue // 3.0.3 lets nullable schemas list null; many omit nullable
		}
		w.finding(ruleEnumType, d, e,
			fmt.Sprintf("enum value %s is %s, but the schema's type is %s: no value can match it", describe(e), article(got), strings.Join(types, " or ")),
			"make the enum value a "+strings.Join(types, " or ")+" (quote it if it is a string), or fix the type")
	}
}

// jsonType is the JSON Schema type of a node's value; "" when unknown.
func jsonType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "object"
	case yaml.SequenceNode:
		return "array"
	case yaml.ScalarNode:
		switch v := scalarValue(n).(type) {
		case nil:
			return "null"
		case bool:
			return "boolean"
		case string:
			return "string"
		case interface{ String() string }: // json.Number
			if strings.ContainsAny(v.String(), ".eE") {
				return "number"
			}
			return "integer"
		}
	}
	return ""
}
