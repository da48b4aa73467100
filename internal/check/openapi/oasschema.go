package openapi

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonschema"
)

// version is the OpenAPI version a spec declares.
type version int

const (
	v20 version = iota + 1
	v30
	v31
	v32
)

func (v version) String() string {
	switch v {
	case v20:
		return "2.0"
	case v30:
		return "3.0"
	case v31:
		return "3.1"
	case v32:
		return "3.2"
	}
	return "?"
}

// kinds of object a $ref may stand for, each validated in its own file
// against its part of the OpenAPI schema.
const (
	kindResponse    = "response"
	kindParameter   = "parameter"
	kindPathItem    = "pathItem"
	kindRequestBody = "requestBody"
	kindHeader      = "header"
	kindExample     = "example"
	kindLink        = "link"
	kindCallback    = "callback"
	kindSchema      = "schema"
	kindSecurity    = "securityScheme"
	kindOperation   = "operation"
)

// defPointers maps each kind to its definition in each version's schema.
var defPointers = map[version]map[string]string{
	v20: {kindResponse: "/definitions/response", kindParameter: "/definitions/parameter",
		kindPathItem: "/definitions/pathItem", kindSchema: "/definitions/schema", kindOperation: "/definitions/operation"},
	v30: {kindResponse: "/definitions/Response", kindParameter: "/definitions/Parameter",
		kindPathItem: "/definitions/PathItem", kindRequestBody: "/definitions/RequestBody",
		kindHeader: "/definitions/Header", kindExample: "/definitions/Example", kindLink: "/definitions/Link",
		kindCallback: "/definitions/Callback", kindSchema: "/definitions/Schema", kindSecurity: "/definitions/SecurityScheme",
		kindOperation: "/definitions/Operation"},
	v31: {kindResponse: "/$defs/response", kindParameter: "/$defs/parameter",
		kindPathItem: "/$defs/path-item", kindRequestBody: "/$defs/request-body",
		kindHeader: "/$defs/header", kindExample: "/$defs/example", kindLink: "/$defs/link",
		kindCallback: "/$defs/callbacks", kindSecurity: "/$defs/security-scheme", kindOperation: "/$defs/operation"},
}

func init() { defPointers[v32] = defPointers[v31] }

// oasSchema is one version's OpenAPI schema (as libopenapi embeds it),
// compiled: the whole document and the definitions $refs stand for.
type oasSchema struct {
	root *jsonschema.Schema
	defs map[string]*jsonschema.Schema
	err  error
}

var (
	oasMu      sync.Mutex
	oasByVer   = map[version]*oasSchema{}
	oasSources = map[version]string{
		v20: datamodel.OpenAPI2SchemaData, v30: datamodel.OpenAPI3SchemaData,
		v31: datamodel.OpenAPI31SchemaData, v32: datamodel.OpenAPI32SchemaData,
	}
)

// schemaFor compiles (once) and returns version v's OpenAPI schema.
func schemaFor(v version) *oasSchema {
	oasMu.Lock()
	defer oasMu.Unlock()
	if s, ok := oasByVer[v]; ok {
		return s
	}
	s := compileOAS(v)
	oasByVer[v] = s
	return s
}

func compileOAS(v version) *oasSchema {
	doc, err := decodeJSON(oasSources[v])
	if err != nil {
		return &oasSchema{err: err}
	}
	patchOAS(v, doc)
	c := &jsonschema.Compiler{Regexp: lenientRegexp}
	url := "cairn:oas-" + v.String() + ".json"
	if err := c.AddResource(url, doc); err != nil {
		return &oasSchema{err: err}
	}
	if v == v20 {
		// The 2.0 schema takes some of its definitions from draft 4's.
		parts, err := decodeJSON(draft4Parts)
		if err != nil {
			return &oasSchema{err: err}
		}
		if err := c.AddResource(draft4URL, parts); err != nil {
			return &oasSchema{err: err}
		}
	}
	s := &oasSchema{defs: map[string]*jsonschema.Schema{}}
	if s.root, err = c.Compile(url); err != nil {
		return &oasSchema{err: err}
	}
	for k, p := range defPointers[v] {
		if d, err := c.Compile(url + "#" + p); err == nil {
			s.defs[k] = d
		}
	}
	return s
}

// patchOAS fixes known bugs of the published schemas, which would report
// valid documents: the 3.1 schema of 2022-10-07 names a Link's server
// "body", and types a Link's parameters as strings where the specification
// allows any value or expression.
func patchOAS(v version, doc any) {
	if v < v31 {
		return
	}
	root, _ := doc.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	link, _ := defs["link"].(map[string]any)
	props, _ := link["properties"].(map[string]any)
	if props == nil {
		return
	}
	if body, ok := props["body"]; ok {
		if _, has := props["server"]; !has {
			props["server"] = body
			delete(props, "body")
		}
	}
	props["parameters"] = map[string]any{"type": "object"}
}

// lenientRegexp compiles patterns with Go's regexp; a pattern it does not
// support (ECMA-262 lookarounds, backreferences) matches everything rather
// than failing a valid document.
func lenientRegexp(s string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(s)
	if err != nil {
		return anyMatch(s), nil
	}
	return re, nil
}

type anyMatch string

func (a anyMatch) String() string            { return string(a) }
func (a anyMatch) MatchString(s string) bool { return true }

// maxSchemaFindings caps the schema findings of one object, so that a
// document with the wrong shape throughout says so without flooding.
const maxSchemaFindings = 100

// decodeJSON decodes a JSON document, its numbers as json.Number.
func decodeJSON(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// draft4URL is draft 4's metaschema, of which the OpenAPI 2.0 schema uses
// a few definitions: draft4Parts has those, as the draft defines them.
const draft4URL = "http://json-schema.org/draft-04/schema"

const draft4Parts = `{
  "$schema": "http://json-schema.org/draft-04/schema#",
  "definitions": {
    "positiveInteger": {"type": "integer", "minimum": 0},
    "positiveIntegerDefault0": {"allOf": [{"$ref": "#/definitions/positiveInteger"}, {"default": 0}]},
    "simpleTypes": {"enum": ["array", "boolean", "integer", "null", "number", "object", "string"]},
    "stringArray": {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": true}
  },
  "properties": {
    "title": {"type": "string"},
    "description": {"type": "string"},
    "default": {},
    "multipleOf": {"type": "number", "minimum": 0, "exclusiveMinimum": true},
    "maximum": {"type": "number"},
    "exclusiveMaximum": {"type": "boolean", "default": false},
    "minimum": {"type": "number"},
    "exclusiveMinimum": {"type": "boolean", "default": false},
    "pattern": {"type": "string", "format": "regex"},
    "uniqueItems": {"type": "boolean", "default": false},
    "enum": {"type": "array", "minItems": 1, "uniqueItems": true},
    "type": {"anyOf": [
      {"$ref": "#/definitions/simpleTypes"},
      {"type": "array", "items": {"$ref": "#/definitions/simpleTypes"}, "minItems": 1, "uniqueItems": true}
    ]}
  }
}`

// validateShape checks node (in file d) against schema sch, returning the
// findings of rule openapi/schema at the lines the errors are.
func (s *spec) validateShape(d *doc, node, key *yaml.Node, sch *jsonschema.Schema, what string) {
	conv := newConverter(len(d.content))
	inst, err := conv.value(node, 0)
	if err != nil {
		line, col := d.pos(node)
		s.add(check.Finding{Rule: ruleSyntax, File: d.path, Line: line, Col: col, Message: err.Error(),
			Fix: "use fewer YAML aliases, or write the repeated parts out"})
		return
	}
	verr := sch.Validate(inst)
	if verr == nil {
		return
	}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		return
	}
	leaves := condense(ve)
	seen := map[string]bool{}
	n := 0
	for _, l := range leaves {
		if inExtension(l.loc) {
			continue // an extension's content is free; the published schemas sometimes say otherwise
		}
		for _, f := range s.leafFindings(d, node, key, l, what) {
			k := fmt.Sprintf("%d:%d:%s", f.Line, f.Col, f.Message)
			if seen[k] {
				continue
			}
			seen[k] = true
			if n++; n > maxSchemaFindings {
				return
			}
			s.add(f)
		}
	}
}

// inExtension reports whether loc is inside an x- extension.
func inExtension(loc []string) bool {
	for _, seg := range loc {
		if strings.HasPrefix(seg, "x-") {
			return true
		}
	}
	return false
}

// leaf is one schema error worth reporting.
type leaf struct {
	loc  []string
	kind jsonschema.Kind
	// want merges the allowed values (or types) of branches that all
	// failed at the same place on an enum, const or type.
	want []string
	note string // what else the error says (why a name is not allowed)
}

// condense reduces a validation error tree to the errors a person should
// read: of a oneOf or anyOf, only the branch that got furthest into the
// document, not the error of every alternative.
func condense(e *jsonschema.ValidationError) []leaf {
	switch k := e.Kind.(type) {
	case jsonschema.OneOf:
		if len(k.Subschemas) > 1 {
			return []leaf{{loc: e.InstanceLocation, kind: k}}
		}
		return bestBranch(e)
	case jsonschema.AnyOf:
		return bestBranch(e)
	case jsonschema.PropertyNames:
		// The name is the problem: place it at the key, with why.
		var why []string
		for _, c := range e.Causes {
			for _, l := range condense(c) {
				why = append(why, l.kind.String())
			}
		}
		return []leaf{{loc: append(slices.Clip(e.InstanceLocation), k.Property), kind: k, note: strings.Join(why, "; ")}}
	}
	if len(e.Causes) == 0 {
		return []leaf{{loc: e.InstanceLocation, kind: e.Kind}}
	}
	var out []leaf
	for _, c := range e.Causes {
		out = append(out, condense(c)...)
	}
	return out
}

func bestBranch(e *jsonschema.ValidationError) []leaf {
	var branches [][]leaf
	for _, c := range e.Causes {
		ls := condense(c)
		if isRefAlternative(ls, len(e.InstanceLocation)) && len(e.Causes) > 1 {
			continue
		}
		branches = append(branches, ls)
	}
	if len(branches) == 0 {
		return []leaf{{loc: e.InstanceLocation, kind: e.Kind}}
	}
	depth := func(ls []leaf) int {
		d := 0
		for _, l := range ls {
			d = max(d, len(l.loc))
		}
		return d
	}
	best := 0
	for _, b := range branches {
		best = max(best, depth(b))
	}
	var top [][]leaf
	for _, b := range branches {
		if depth(b) == best {
			top = append(top, b)
		}
	}
	// Every branch stopped at the same value on what it must be: merge them
	// into one "must be one of".
	if merged, ok := mergeWants(top, best); ok {
		return []leaf{merged}
	}
	slices.SortStableFunc(top, func(a, b []leaf) int { return len(a) - len(b) })
	return top[0]
}

// isRefAlternative reports whether a branch failed only for want of a
// $ref: the Reference Object alternative, never the one meant.
func isRefAlternative(ls []leaf, at int) bool {
	if len(ls) != 1 || len(ls[0].loc) != at {
		return false
	}
	r, ok := ls[0].kind.(jsonschema.Required)
	return ok && len(r.Missing) == 1 && r.Missing[0] == "$ref"
}

func mergeWants(top [][]leaf, depth int) (leaf, bool) {
	var out leaf
	var wants []string
	for _, b := range top {
		for _, l := range b {
			if len(l.loc) != depth {
				continue
			}
			switch k := l.kind.(type) {
			case jsonschema.Enum:
				for _, w := range k.Want {
					wants = append(wants, display(w))
				}
			case jsonschema.Const:
				wants = append(wants, display(k.Want))
			default:
				return leaf{}, false
			}
			out.loc, out.kind = l.loc, l.kind
		}
	}
	if out.kind == nil || len(top) < 2 {
		return leaf{}, false
	}
	slices.Sort(wants)
	out.want = slices.Compact(wants)
	return out, true
}

func display(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

// leafFindings places one schema error in its file: at the field a
// missing or unknown field belongs to, else at the value that is wrong.
func (s *spec) leafFindings(d *doc, root, rootKey *yaml.Node, l leaf, what string) []check.Finding {
	if _, ok := l.kind.(jsonschema.PropertyNames); ok {
		// The error is the object's; the name is one of its keys.
		l.loc = findKey(root, l.loc)
	}
	key, n := locate(root, l.loc)
	if len(l.loc) == 0 {
		key = rootKey
	}
	where := readablePath(l.loc, what)
	at := func(node *yaml.Node, msg, fix string) check.Finding {
		line, col := d.pos(node)
		f := check.Finding{Rule: ruleSchema, File: d.path, Line: line, Col: col, Message: msg, Fix: fix}
		if node != nil && node.Kind == yaml.ScalarNode {
			f.EndLine, f.EndCol = endOf(d, node)
		}
		return f
	}
	anchor := key
	if anchor == nil {
		anchor = n
	}
	switch k := l.kind.(type) {
	case jsonschema.Required:
		return []check.Finding{at(anchor, fmt.Sprintf("%s is missing the required field%s %s", where, plural(len(k.Missing)), quoteAll(k.Missing)),
			"add "+quoteAll(k.Missing)+" here, as the OpenAPI "+s.v.String()+" specification requires")}
	case jsonschema.AdditionalProperties:
		var out []check.Finding
		for _, p := range k.Properties {
			pk, _ := get(n, p)
			if pk == nil {
				pk = anchor
			}
			out = append(out, at(pk, fmt.Sprintf("%s has the field %q, which OpenAPI %s does not define here", where, p, s.v),
				"remove or rename "+strconv.Quote(p)+" (a typo?), or make it an extension: x-"+strings.TrimPrefix(p, "x-")))
		}
		return out
	case jsonschema.Type:
		return []check.Finding{at(anchor, fmt.Sprintf("%s is %s; OpenAPI %s wants %s here", where, article(k.Got), s.v, strings.Join(k.Want, " or ")),
			"write "+where+" as "+article(strings.Join(k.Want, " or ")))}
	}
	if pn, ok := l.kind.(jsonschema.PropertyNames); ok && key != nil {
		parent := readablePath(l.loc[:len(l.loc)-1], what)
		return []check.Finding{at(key, fmt.Sprintf("%s has the name %q, which OpenAPI %s does not allow: %s", parent, pn.Property, s.v, l.note),
			"rename it so that it matches what the specification allows (components take letters, digits, '.', '_' and '-')")}
	}
	if _, ok := l.kind.(jsonschema.FalseSchema); ok && key != nil && len(l.loc) > 0 {
		// unevaluatedProperties: false, or a property the schema forbids.
		parent := readablePath(l.loc[:len(l.loc)-1], what)
		return []check.Finding{at(key, fmt.Sprintf("%s has the field %q, which OpenAPI %s does not allow here", parent, key.Value, s.v),
			"remove "+strconv.Quote(key.Value)+" (it belongs to another kind of object, or is a typo), or make it an extension: x-"+strings.TrimPrefix(key.Value, "x-"))}
	}
	if o, ok := l.kind.(jsonschema.OneOf); ok && len(o.Subschemas) > 1 {
		return []check.Finding{at(anchor, fmt.Sprintf("%s fits more than one of the forms OpenAPI %s allows here, where it must fit exactly one (both schema and content, say, or both example and examples)", where, s.v),
			"keep only the fields of one form")}
	}
	if l.want != nil {
		return []check.Finding{at(n, fmt.Sprintf("%s is %s; it must be one of %s", where, describe(n), strings.Join(l.want, ", ")),
			"use one of "+strings.Join(l.want, ", "))}
	}
	if _, ok := l.kind.(jsonschema.Enum); ok {
		return []check.Finding{at(n, fmt.Sprintf("%s is %s; %s", where, describe(n), l.kind.String()),
			"use a value the OpenAPI "+s.v.String()+" specification allows here")}
	}
	return []check.Finding{at(anchor, fmt.Sprintf("%s: %s", where, l.kind.String()),
		"make "+where+" match what the OpenAPI "+s.v.String()+" specification allows here")}
}

// findKey finds the location of a key named loc's last segment at loc's
// depth, preferring the one whose path shares most with loc.
func findKey(root *yaml.Node, loc []string) []string {
	if len(loc) == 0 {
		return loc
	}
	name, depth := loc[len(loc)-1], len(loc)
	best, bestScore := loc, -1
	var path []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if len(path) >= depth || n == nil {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if len(path) == depth-1 && k == name {
					score := 0
					for j := range path {
						if path[j] == loc[j] {
							score++
						}
					}
					if score > bestScore {
						best, bestScore = append(slices.Clone(path), k), score
					}
					continue
				}
				path = append(path, k)
				walk(n.Content[i+1])
				path = path[:len(path)-1]
			}
		case yaml.SequenceNode:
			for i, it := range n.Content {
				path = append(path, strconv.Itoa(i))
				walk(it)
				path = path[:len(path)-1]
			}
		}
	}
	walk(deAlias(root))
	return best
}

// locate finds the node at loc under root, and the key node that names it.
func locate(root *yaml.Node, loc []string) (key, n *yaml.Node) {
	n = deAlias(root)
	for _, seg := range loc {
		switch {
		case n == nil:
			return key, nil
		case n.Kind == yaml.MappingNode:
			k, v := get(n, seg)
			if k == nil {
				return key, n
			}
			key, n = k, v
		case n.Kind == yaml.SequenceNode:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.Content) {
				return key, n
			}
			key, n = nil, deAlias(n.Content[i])
		default:
			return key, n
		}
	}
	return key, n
}

// readablePath writes an instance location as a person reads it:
// paths./pets/{id}.get.parameters[0].in.
func readablePath(loc []string, what string) string {
	var b strings.Builder
	b.WriteString(what)
	for _, seg := range loc {
		if _, err := strconv.Atoi(seg); err == nil {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if strings.ContainsAny(seg, ". /[]") {
			b.WriteString(strconv.Quote(seg))
		} else {
			b.WriteString(seg)
		}
	}
	if b.Len() == 0 {
		return "the document"
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

func article(t string) string {
	switch {
	case t == "null":
		return "null"
	case strings.HasPrefix(t, "a") || strings.HasPrefix(t, "o") || strings.HasPrefix(t, "i"):
		return "an " + t
	}
	return "a " + t
}

// endOf is the last line and byte column of a one-line scalar.
func endOf(d *doc, n *yaml.Node) (int, int) {
	if n.Kind != yaml.ScalarNode || strings.ContainsAny(n.Value, "\n\\'\"") {
		return 0, 0
	}
	w := len(n.Value)
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		w += 2
	case 0, yaml.FlowStyle:
	default:
		return 0, 0
	}
	if w == 0 {
		return 0, 0
	}
	_, col := d.pos(n)
	return n.Line, col + w - 1
}
