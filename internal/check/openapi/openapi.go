// Package openapi validates OpenAPI documents: Swagger 2.0, OpenAPI 3.0,
// 3.1 and 3.2, in YAML or JSON, with their $refs across the project's
// files. It is the "openapi" check of Cairn's hands (MCP tool
// validate_openapi).
//
// The parser is pb33f/libopenapi's: it reads YAML, and JSON directly into the
// same node tree with JSON's own lines, detects the version, and embeds the
// official OpenAPI JSON Schema of each version. Every file is checked on
// that tree, so each finding has the line and column of the original file:
// of the spec, or of the file a $ref leads to.
//
// Why libopenapi rather than kin-openapi: kin-openapi has no validation of
// 2.0 documents and no loader for their $refs; it stops at the first $ref
// that does not resolve, with no line; and most of its validation errors
// carry no position. libopenapi's parser gives every node its line and
// column in YAML and in JSON, and carries the published schemas of 2.0,
// 3.0, 3.1 and 3.2. Its document model is not used: building it fails
// whole on one bad $ref too, so the rules walk the node tree themselves,
// following $refs file by file. The schemas are run by Cairn's own JSON
// Schema validator (internal/check/internal/jsonschema, drafts 4 and
// 2020-12), which keeps every error with its place in the document.
//
// What is checked, each a rule (see Rules):
//
//   - openapi/syntax: the file, or a file a $ref leads to, does not parse;
//     YAML aliases that would expand without end.
//   - openapi/schema: the document breaks its version's OpenAPI JSON Schema
//     (as Spectral's oas2-schema/oas3-schema do), and so does each object a
//     $ref brings from another file, against its part of that schema (a
//     response without its description, a parameter "in: nowhere"). Of the
//     alternatives of a oneOf only the one that got furthest is reported.
//   - openapi/ref-unresolved: a $ref to a file or a JSON pointer that does
//     not exist (or leaves the project, or does not parse).
//   - openapi/ref-not-followed (info): a $ref to a URL (http, https, or any
//     scheme), or to a file when the content was given inline. Cairn reads
//     no network: such a $ref is said, never fetched.
//   - openapi/operation-id-duplicate (among paths, webhooks and callbacks),
//     openapi/operation-id-missing (warning; under paths only).
//   - openapi/path-param-undeclared, openapi/path-param-unused: a path
//     template variable without its `in: path` parameter, and the reverse.
//   - openapi/param-duplicate: the same name and location twice in one list.
//   - openapi/path-identical: two paths that differ only in the names of
//     their template variables.
//   - openapi/example-invalid: an example (or a schema's default) that does
//     not match its schema, validated as JSON Schema (draft 4 semantics for
//     2.0 and 3.0 with nullable and x-nullable, 2020-12 for 3.1). Left
//     alone, as not values of the schema: null examples (generators write
//     null for "none"), string examples of non-JSON media types (a
//     serialized body) and of array or object parameters and headers (a
//     serialized value, ids=1,2), externalValue. readOnly and writeOnly
//     properties are not required (either may apply), and a oneOf with a
//     discriminator is read as anyOf.
//   - openapi/enum-type: an enum value that is not of its schema's type.
//   - openapi/security-undefined: a security requirement naming a scheme
//     that securitySchemes (securityDefinitions in 2.0) does not define.
//   - openapi/server-variable: a server URL {variable} that the server's
//     variables do not define, or a default outside its enum.
//   - openapi/component-unused (warning): a component nothing $refs.
//
// Files: Wants takes .yaml, .yml and .json files whose first bytes show a
// top-level openapi or swagger key, or (for generated specs with sorted
// keys, such as Stripe's and Kubernetes') a top-level components, paths
// or definitions key and no $schema; Check skips a file that turns out to
// have neither openapi nor swagger at its top. Files that $refs lead to
// are read through the project (check.Source), within it and under the
// size cap, at most 500 per spec.
//
// Params:
//
//   - example_formats: "assert" (default) checks an example's string
//     formats (date-time, email, uuid, ...) as JSON Schema defines them;
//     "ignore" treats format as an annotation.
//
// The published schemas have bugs that would report valid documents; they
// are patched in memory (the 3.1 Link's server, named "body") or their
// findings dropped (anything inside an x- extension).
//
// Not checked: the content of remote $refs (said, not fetched); $refs by
// JSON Schema $id or $anchor (said as not followed); the semantics of
// links, callbacks' runtime expressions, discriminator mappings beyond
// their $refs, and regular expressions Go cannot compile (they match
// everything); style rules (descriptions, tags, casing) that are taste
// rather than errors.
package openapi

import (
	"bytes"
	"context"
	"path"
	"slices"
	"strings"

	"github.com/pb33f/go-yaml"
	"github.com/pb33f/libopenapi/datamodel"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/findcap"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker is the OpenAPI check.
type Checker struct{}

// New returns the OpenAPI checker.
func New() *Checker { return &Checker{} }

// Name is "openapi".
func (*Checker) Name() string { return "openapi" }

// Wants reports whether path is a YAML or JSON file whose first bytes say
// it is an OpenAPI document: a top-level openapi or swagger key, or, for a
// spec whose keys are sorted (generated ones are: components, definitions
// and paths come before openapi and swagger), a top-level components,
// paths or definitions key. Check confirms on the whole file and skips one
// that has neither openapi nor swagger at its top.
func (*Checker) Wants(p string, head []byte) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".yaml", ".yml":
		return headWants(yamlTopKeys(head))
	case ".json":
		return headWants(jsonTopKeys(head))
	}
	return false
}

func headWants(keys []string) bool {
	sure, maybe := false, false
	for _, k := range keys {
		switch k {
		case "openapi", "swagger":
			sure = true
		case "components", "paths", "definitions", "securityDefinitions", "basePath":
			maybe = true
		case "$schema", "$id", "asyncapi":
			return false // a JSON Schema or an AsyncAPI document
		}
	}
	return sure || maybe
}

// yamlTopKeys lists the keys at the top level of a YAML head.
func yamlTopKeys(head []byte) []string {
	var keys []string
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		line = bytes.TrimRight(line, "\r")
		if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-' {
			continue
		}
		k, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		keys = append(keys, strings.Trim(strings.TrimSpace(string(k)), `"'`))
	}
	return keys
}

// jsonTopKeys lists the keys at depth one of a JSON head.
func jsonTopKeys(head []byte) []string {
	var keys []string
	depth := 0
	for i := 0; i < len(head); i++ {
		switch head[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(head) && head[j] != '"' {
				if head[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(head) {
				return keys
			}
			s := string(head[i+1 : j])
			i = j
			if depth == 1 {
				if rest := bytes.TrimLeft(head[j+1:], " \t\r\n"); len(rest) > 0 && rest[0] == ':' {
					keys = append(keys, s)
				}
			}
		}
	}
	return keys
}

// params are the checker's options.
type params struct {
	assertFormats bool
}

func readParams(m map[string]string) (params, error) {
	p := params{assertFormats: true}
	for k, v := range m {
		switch k {
		case "example_formats":
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "", "assert":
			case "ignore":
				p.assertFormats = false
			default:
				return p, &problem.FieldError{Field: "params.example_formats", Problem: problem.Quote(v) + " is not a choice",
					Fix: `use "assert" (check examples' string formats, the default) or "ignore"`}
			}
		default:
			return p, &problem.FieldError{Field: "params." + k, Problem: "is not a parameter of the openapi check",
				Fix: "the openapi check reads only example_formats"}
		}
	}
	return p, nil
}

// Check validates each spec in in.Files, reading the files its $refs lead
// to through in.Source.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	p, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	var res check.Result
	fl := &files{src: in.Source, cache: map[string]*loaded{}}
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		s := &spec{ctx: ctx, files: fl, params: p, refs: map[*yaml.Node]*resolved{}}
		// A spec is also a file its neighbours' $refs may lead to.
		s.checkFile(f)
		res.Findings = append(res.Findings, s.findings...)
		if s.skipped != "" {
			res.Skipped = append(res.Skipped, check.Skipped{Path: f.Path, Reason: s.skipped})
		}
	}
	res.Findings = findcap.Apply(append(res.Findings, fl.syntax...))
	return res, nil
}

// spec is the check of one spec file.
type spec struct {
	ctx    context.Context
	files  *files
	params params
	root   *doc
	v      version
	refs   map[*yaml.Node]*resolved

	findings []check.Finding
	skipped  string
	used     map[string]bool // components $refs point into: "/components/schemas/Pet"

	w *walker
}

func (s *spec) add(f check.Finding) { s.findings = append(s.findings, f) }

func (s *spec) checkFile(f check.File) {
	d := &doc{path: f.Path, content: f.Content}
	s.root = d
	info, se := parseRoot(f.Content)
	if se != nil {
		if se.col == 0 {
			se.col = indentCol(f.Content, se.line)
		}
		s.add(check.Finding{Rule: ruleSyntax, File: d.path, Line: se.line, Col: d.byteCol(se.line, se.col),
			Message: "the file does not parse: " + se.msg, Fix: "fix the syntax at this line"})
		return
	}
	root := info.RootNode.Content[0]
	if k, _ := get(root, "openapi"); k == nil && root.Kind == yaml.MappingNode {
		if k, _ := get(root, "swagger"); k == nil {
			s.skipped = "not an OpenAPI document: it has no openapi or swagger key at its top"
			return
		}
	}
	if root.Kind != yaml.MappingNode {
		line, col := d.pos(root)
		s.add(check.Finding{Rule: ruleSyntax, File: d.path, Line: line, Col: col,
			Message: "the document is " + describe(root) + ", not an object with openapi or swagger at its top",
			Fix:     "write the spec as a mapping whose first key is openapi: 3.1.0 (or swagger: \"2.0\")"})
		return
	}
	d.root = root
	s.files.cache[d.path] = &loaded{doc: d}
	switch info.SpecFormat {
	case datamodel.OAS2:
		s.v = v20
	case datamodel.OAS3:
		s.v = v30
	case datamodel.OAS31:
		s.v = v31
	case datamodel.OAS32:
		s.v = v32
	}
	if s.v == 0 || info.Error != nil || info.APISchema == "" {
		s.badVersion(root)
		return
	}
	if sch := schemaFor(s.v); sch.err == nil {
		s.validateShape(d, root, nil, sch.root, "")
	}
	s.scanRefs()
	s.w = newWalker(s)
	s.w.walk()
	s.unusedComponents()
	s.checkExamples()
}

// indentCol is the column of the first character of a line that is not
// a space: where a parser that gave only the line meant.
func indentCol(content []byte, line int) int {
	for i := 1; i < line; i++ {
		j := bytes.IndexByte(content, '\n')
		if j < 0 {
			return 0
		}
		content = content[j+1:]
	}
	n := 0
	for n < len(content) && (content[n] == ' ' || content[n] == '\t') {
		n++
	}
	return n + 1
}

// badVersion reports an openapi or swagger version Cairn does not check.
func (s *spec) badVersion(root *yaml.Node) {
	k, v := get(root, "openapi")
	if k == nil {
		k, v = get(root, "swagger")
	}
	node := v
	if node == nil {
		node = k
	}
	line, col := s.root.pos(node)
	what := "the version"
	if k != nil {
		what = k.Value + " " + describe(v)
	}
	s.add(check.Finding{Rule: ruleSchema, File: s.root.path, Line: line, Col: col,
		Message: what + " is not an OpenAPI version: use swagger: \"2.0\" or openapi: 3.0.x, 3.1.x or 3.2.x",
		Fix:     "write the version as a string: openapi: 3.1.0, or swagger: \"2.0\""})
}

// scanRefs resolves every $ref of the spec and of the files they lead to,
// reporting those that do not resolve and those not followed, and records
// what they point at for component-unused.
func (s *spec) scanRefs() {
	queue := []*doc{s.root}
	seen := map[*doc]bool{s.root: true}
	for len(queue) > 0 {
		if s.ctx.Err() != nil {
			return
		}
		d := queue[0]
		queue = queue[1:]
		s.scanNode(d, d.root, "", func(t *doc) {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		})
	}
}

// namedMaps are the keys whose values map names to objects: there a key
// such as "default" or "$ref" is a name, not a keyword.
var namedMaps = map[string]bool{"properties": true, "patternProperties": true, "definitions": true, "$defs": true,
	"dependentSchemas": true, "schemas": true, "responses": true, "parameters": true, "headers": true,
	"requestBodies": true, "securitySchemes": true, "links": true, "callbacks": true, "pathItems": true,
	"paths": true, "webhooks": true, "securityDefinitions": true, "examples": true, "content": true, "encoding": true}

// dataKeys hold values, not OpenAPI objects: a "$ref" inside is data.
var dataKeys = []string{"example", "default", "enum", "const", "value", "examples"}

func (s *spec) scanNode(d *doc, n *yaml.Node, parentKey string, follow func(*doc)) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			named := namedMaps[parentKey]
			if k.Value == "$ref" && v.Kind == yaml.ScalarNode && !named {
				s.scanRef(d, v, follow)
				continue
			}
			if strings.HasPrefix(k.Value, "x-") && !named {
				continue
			}
			if slices.Contains(dataKeys, k.Value) && !named && !(k.Value == "examples" && v.Kind == yaml.MappingNode) {
				continue
			}
			if k.Value == "mapping" && parentKey == "discriminator" {
				s.scanMapping(d, v)
				continue
			}
			s.scanNode(d, v, k.Value, follow)
		}
	case yaml.SequenceNode:
		for _, it := range n.Content {
			s.scanNode(d, it, "", follow) // items are objects, never names
		}
	}
}

func (s *spec) scanRef(d *doc, ref *yaml.Node, follow func(*doc)) {
	r := s.resolve(d, ref)
	line, col := d.pos(ref)
	endLine, endCol := endOf(d, ref)
	switch {
	case r.node != nil:
		s.markUsed(r.doc, r.ptr)
		if r.doc != d {
			follow(r.doc)
		}
	case r.remote:
		why := "Cairn reads no network, so what it points to is not checked"
		if !strings.Contains(ref.Value, "://") && !strings.HasPrefix(ref.Value, "#") {
			why = "what it points to is not checked"
			if s.files.src == nil {
				why = "inline content has no project to read it from, so it is not checked"
			}
		}
		if _, frag, ok := strings.Cut(ref.Value, "#"); ok && frag != "" && !strings.HasPrefix(frag, "/") {
			why = "it names a JSON Schema anchor, which Cairn does not resolve"
		}
		s.add(check.Finding{Rule: ruleRefNotFollowed, File: d.path, Line: line, Col: col, EndLine: endLine, EndCol: endCol,
			Message: "$ref " + ref.Value + " was not followed: " + why,
			Fix:     "nothing to fix if it is meant; to have it checked, keep a copy in the project and $ref that file"})
	default:
		s.add(check.Finding{Rule: ruleRefUnresolved, File: d.path, Line: line, Col: col, EndLine: endLine, EndCol: endCol,
			Message: "$ref " + ref.Value + " does not resolve: " + r.why,
			Fix:     "point the $ref at a file and a JSON pointer that exist (#/components/schemas/Name), or add what it names"})
	}
}

// scanMapping counts a discriminator's mapping values as $refs: they are
// $refs, or schema names under components/schemas.
func (s *spec) scanMapping(d *doc, m *yaml.Node) {
	pairs(m, func(_, v *yaml.Node) {
		if v.Kind != yaml.ScalarNode {
			return
		}
		ref := v.Value
		if !strings.Contains(ref, "#") && !strings.Contains(ref, "/") && !strings.Contains(ref, ".") {
			ref = "#/components/schemas/" + ref
		}
		if file, ptr, remote, why := refLocation(d, ref); !remote && why == "" {
			if file == "" {
				file = d.path
			}
			if l, ok := s.files.cache[file]; ok && l.doc != nil {
				s.markUsed(l.doc, ptr)
			}
		}
	})
}

// --- component-unused ---

// used holds, for the spec file, the components $refs point into.
func (s *spec) markUsed(d *doc, ptr string) {
	if d != s.root || ptr == "" {
		return
	}
	if s.used == nil {
		s.used = map[string]bool{}
	}
	parts := strings.SplitN(ptr[1:], "/", 4)
	depth := 3 // /components/schemas/Name
	if s.v == v20 {
		depth = 2 // /definitions/Name
	}
	if len(parts) >= depth {
		s.used["/"+strings.Join(parts[:depth], "/")] = true
	}
}

// componentSections are the sections whose entries are used by $ref.
var componentSections = []string{"schemas", "responses", "parameters", "examples", "requestBodies", "headers", "links", "callbacks", "pathItems"}

var sectionNoun = map[string]string{"schemas": "schema", "responses": "response", "parameters": "parameter",
	"examples": "example", "requestBodies": "request body", "headers": "header", "links": "link",
	"callbacks": "callback", "pathItems": "path item"}

func (s *spec) unusedComponents() {
	report := func(section string, k *yaml.Node, kind string) {
		if s.used[section+"/"+escapePointer(k.Value)] {
			return
		}
		line, col := s.root.pos(k)
		endLine, endCol := endOf(s.root, k)
		s.add(check.Finding{Rule: ruleComponentUnused, File: s.root.path, Line: line, Col: col, EndLine: endLine, EndCol: endCol,
			Message: kind + " " + k.Value + " is defined but nothing $refs it",
			Fix:     "$ref it where it is meant to be used, or remove it"})
	}
	if s.v == v20 {
		for _, sec := range []struct{ key, kind string }{{"definitions", "definition"}, {"parameters", "parameter"}, {"responses", "response"}} {
			pairs(val(s.root.root, sec.key), func(k, _ *yaml.Node) {
				if !strings.HasPrefix(k.Value, "x-") {
					report("/"+sec.key, k, sec.kind)
				}
			})
		}
		return
	}
	comps := val(s.root.root, "components")
	for _, sec := range componentSections {
		pairs(val(comps, sec), func(k, _ *yaml.Node) {
			if !strings.HasPrefix(k.Value, "x-") {
				report("/components/"+sec, k, sectionNoun[sec])
			}
		})
	}
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
