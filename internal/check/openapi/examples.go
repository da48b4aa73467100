package openapi

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonschema"
)

// maxExampleFindings caps the example findings of one spec.
const maxExampleFindings = 200

// schemaSet turns the spec's schemas into JSON Schema resources, one per
// schema a $ref or an example needs, compiled on demand: an invalid schema
// spoils only the examples that use it.
type schemaSet struct {
	s    *spec
	ids  map[*yaml.Node]string
	srcs map[string]schemaSrc
	c    *jsonschema.Compiler
	conv *converter
}

type schemaSrc struct {
	d *doc
	n *yaml.Node
}

func newSchemaSet(s *spec) *schemaSet {
	set := &schemaSet{s: s, ids: map[*yaml.Node]string{}, srcs: map[string]schemaSrc{}, conv: &converter{budget: 4_000_000}}
	draft := jsonschema.Draft4
	if s.v >= v31 {
		draft = jsonschema.Draft2020
	}
	set.c = &jsonschema.Compiler{Draft: draft, Regexp: lenientRegexp, Load: set.Load,
		AssertFormat: s.params.assertFormats, // 2020-12 has format as an annotation unless told
		Formats:      map[string]func(any) error{"uri-template": validateURITemplate}}
	return set
}

// id names schema node n of file d as a resource.
func (set *schemaSet) id(d *doc, n *yaml.Node) string {
	if id, ok := set.ids[n]; ok {
		return id
	}
	id := "cairn:/schema/" + strconv.Itoa(len(set.ids)) + ".json"
	set.ids[n] = id
	set.srcs[id] = schemaSrc{d, n}
	return id
}

// Load gives the compiler the resource of a schema, converted from OpenAPI
// to JSON Schema.
func (set *schemaSet) Load(url string) (any, error) {
	src, ok := set.srcs[url]
	if !ok {
		return nil, fmt.Errorf("%s is not a schema of this spec", url)
	}
	return set.convert(src.d, src.n, 0)
}

// dropKeys are OpenAPI or JSON Schema keywords that have no say in whether
// a value matches, or that would point outside the converted resource.
var dropKeys = []string{"$id", "$schema", "$anchor", "$dynamicAnchor", "$dynamicRef", "$recursiveRef",
	"$recursiveAnchor", "$comment", "discriminator", "xml", "externalDocs", "example", "examples",
	"nullable", "x-nullable", "deprecated", "description", "title"}

// convert reads an OpenAPI schema as JSON Schema: $refs become the ids of
// their targets; nullable (3.0, and x-nullable in 2.0) adds null to the
// type; 2.0's type: file is dropped; a property marked readOnly or
// writeOnly is not required (which one applies depends on the direction);
// a oneOf with a discriminator is read as anyOf, the discriminator
// choosing among branches JSON Schema alone may find ambiguous.
func (set *schemaSet) convert(d *doc, n *yaml.Node, depth int) (any, error) {
	n = deAlias(n)
	if n == nil {
		return true, nil
	}
	if depth > 1000 {
		return true, nil
	}
	if n.Kind == yaml.ScalarNode {
		if v, ok := scalarValue(n).(bool); ok {
			return v, nil
		}
		return true, nil
	}
	if n.Kind != yaml.MappingNode {
		return true, nil
	}
	out := map[string]any{}
	if ref := refOf(n); ref != nil {
		r := set.s.resolve(d, ref)
		if r.node == nil {
			return true, nil // reported as ref-unresolved; lenient here
		}
		out["$ref"] = set.id(r.doc, deAlias(r.node))
		if set.s.v < v31 {
			return out, nil
		}
	}
	nullable := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		v := deAlias(n.Content[i+1])
		if v == nil || k == "$ref" {
			continue
		}
		switch {
		case (k == "nullable" && set.s.v < v31) || (k == "x-nullable" && set.s.v == v20):
			nullable = v.Value == "true"
			continue
		case slices.Contains(dropKeys, k) || strings.HasPrefix(k, "x-"):
			continue
		case k == "format" && !set.s.params.assertFormats:
			continue
		case slices.Contains(schemaMaps, k):
			m := map[string]any{}
			var err error
			pairs(v, func(pk, pv *yaml.Node) {
				if err == nil {
					m[pk.Value], err = set.convert(d, pv, depth+1)
				}
			})
			if err != nil {
				return nil, err
			}
			out[k] = m
			continue
		case slices.Contains(schemaLists, k) || (k == "items" && v.Kind == yaml.SequenceNode):
			var l []any
			for _, it := range items(v) {
				x, err := set.convert(d, it, depth+1)
				if err != nil {
					return nil, err
				}
				l = append(l, x)
			}
			out[k] = l
			continue
		case slices.Contains(schemaOnes, k):
			if k == "additionalProperties" && v.Kind == yaml.ScalarNode {
				out[k] = scalarValue(v)
				continue
			}
			x, err := set.convert(d, v, depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = x
			continue
		}
		x, err := set.conv.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		out[k] = x
	}
	if t, ok := out["type"].(string); ok && t == "file" && set.s.v == v20 {
		delete(out, "type")
	}
	if nullable {
		switch t := out["type"].(type) {
		case string:
			out["type"] = []any{t, "null"}
		case []any:
			out["type"] = append(t, "null")
		}
		if e, ok := out["enum"].([]any); ok && !slices.Contains(e, nil) {
			out["enum"] = append(e, nil)
		}
	}
	if req, ok := out["required"].([]any); ok {
		props := val(n, "properties")
		out["required"] = slices.DeleteFunc(slices.Clone(req), func(r any) bool {
			name, _ := r.(string)
			p := val(props, name)
			return str(p, "readOnly") == "true" || str(p, "writeOnly") == "true"
		})
	}
	if _, has := out["oneOf"]; has && val(n, "discriminator") != nil {
		out["anyOf"] = out["oneOf"]
		delete(out, "oneOf")
	}
	return out, nil
}

// checkExamples validates each example the walk found against its schema.
func (s *spec) checkExamples() {
	if s.w == nil || len(s.w.examples) == 0 {
		return
	}
	set := newSchemaSet(s)
	count := 0
	for _, job := range s.w.examples {
		if s.ctx.Err() != nil {
			return
		}
		sd, sn := job.sd, job.sn
		sch, err := set.c.Compile(set.id(sd, sn))
		if err != nil {
			continue // the schema itself is wrong: openapi/schema says so where it can
		}
		conv := newConverter(len(job.vd.content))
		v, err := conv.value(job.vn, 0)
		if err != nil {
			continue
		}
		verr := sch.Validate(v)
		if verr == nil {
			continue
		}
		ve, ok := verr.(*jsonschema.ValidationError)
		if !ok {
			continue
		}
		seen := map[string]bool{}
		for _, l := range condense(ve) {
			key, n := locate(job.vn, l.loc)
			at := n
			if at == nil || (at.Kind != yaml.ScalarNode && key != nil) {
				if key != nil {
					at = key
				}
			}
			if at == nil {
				at = job.vn
			}
			msg := exampleMessage(job.what, l)
			line, col := job.vd.pos(at)
			k := fmt.Sprintf("%d:%d:%s", line, col, msg)
			if seen[k] {
				continue
			}
			seen[k] = true
			if count++; count > maxExampleFindings {
				return
			}
			f := check.Finding{Rule: ruleExampleInvalid, File: job.vd.path, Line: line, Col: col, Message: msg,
				Fix: "change the " + strings.Fields(job.what)[0] + " to match the schema, or fix the schema if the " + strings.Fields(job.what)[0] + " is right"}
			if at.Kind == yaml.ScalarNode {
				f.EndLine, f.EndCol = endOf(job.vd, at)
			}
			s.add(f)
		}
	}
}

func exampleMessage(what string, l leaf) string {
	where := ""
	if len(l.loc) > 0 {
		where = " at " + readablePath(l.loc, "")
	}
	var problem string
	if l.want != nil {
		problem = "it must be one of " + strings.Join(l.want, ", ")
	} else {
		problem = l.kind.String()
	}
	return fmt.Sprintf("%s does not match its schema%s: %s", what, where, problem)
}

// validateURITemplate checks an RFC 6570 template: braces that pair up and
// do not nest. (Read as a URL first, "/search{?q,lang}" would lose its
// closing brace to the query.)
func validateURITemplate(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	open := false
	for _, c := range s {
		switch c {
		case '{':
			if open {
				return fmt.Errorf("nested curly braces")
			}
			open = true
		case '}':
			if !open {
				return fmt.Errorf("a closing brace without its opening one")
			}
			open = false
		}
	}
	if open {
		return fmt.Errorf("no matching closing brace")
	}
	return nil
}
