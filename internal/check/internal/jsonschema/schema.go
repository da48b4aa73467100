// Package jsonschema validates JSON values against JSON Schema drafts 4
// and 2020-12, the dialects of the OpenAPI schemas (2.0 and 3.0 are
// draft 4, 3.1 and 3.2 are 2020-12), with every error kept: where in the
// value it is and what failed, and for anyOf and oneOf the errors of each
// branch, so that a finding can name a line and the branch that was meant.
//
// It is Cairn's own, small and compiled on demand: the general-purpose
// validators either compile every draft's metaschema when the program
// starts (a cost every cairn process, each hook, would pay) or stop at the
// first error without saying where it is.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Draft is a JSON Schema dialect.
type Draft int

// The drafts read.
const (
	Draft4    Draft = 4
	Draft2020 Draft = 2020
)

// Regexp is a compiled pattern.
type Regexp interface {
	MatchString(string) bool
	String() string
}

// Compiler compiles schemas from resources: documents added by URL or
// given by Load on demand.
type Compiler struct {
	// Draft is the dialect of a resource that does not say ($schema).
	Draft Draft
	// AssertFormat makes format an assertion in 2020-12, as it always is
	// in draft 4.
	AssertFormat bool
	// Formats adds or replaces format checks, by name.
	Formats map[string]func(any) error
	// Regexp compiles patterns; default Go's regexp.
	Regexp func(string) (Regexp, error)
	// Load returns the document of a URL no resource was added for.
	Load func(url string) (any, error)

	docs    map[string]*resource
	ids     map[string]target // absolute $id → where it is
	anchors map[string]target // absolute url#anchor → where it is
	schemas map[string]*Schema
}

type resource struct {
	url   string
	doc   any
	draft Draft
}

type target struct {
	res *resource
	ptr string // JSON pointer in res.doc
}

// AddResource adds document doc (decoded JSON, numbers as json.Number)
// under url.
func (c *Compiler) AddResource(u string, doc any) error {
	c.init()
	u = stripFragment(u)
	if _, ok := c.docs[u]; ok {
		return fmt.Errorf("jsonschema: %s added twice", u)
	}
	r := &resource{url: u, doc: doc, draft: c.draftOf(doc)}
	c.docs[u] = r
	c.index(r, doc, u, "")
	return nil
}

func (c *Compiler) init() {
	if c.docs == nil {
		c.docs, c.ids, c.anchors, c.schemas = map[string]*resource{}, map[string]target{}, map[string]target{}, map[string]*Schema{}
	}
	if c.Draft == 0 {
		c.Draft = Draft2020
	}
}

func (c *Compiler) draftOf(doc any) Draft {
	m, _ := doc.(map[string]any)
	s, _ := m["$schema"].(string)
	switch {
	case strings.Contains(s, "draft-04"):
		return Draft4
	case strings.Contains(s, "2020-12"):
		return Draft2020
	}
	return c.Draft
}

// index records the $ids and anchors of r's document, each against the
// base URI in force where it is.
func (c *Compiler) index(r *resource, v any, base, ptr string) {
	switch v := v.(type) {
	case map[string]any:
		idKey := "$id"
		if r.draft == Draft4 {
			idKey = "id"
		}
		if id, ok := v[idKey].(string); ok {
			if _, isRef := v["$ref"]; !(isRef && r.draft == Draft4) {
				abs := resolve(base, id)
				if u, frag, _ := strings.Cut(abs, "#"); frag == "" || frag == "/" {
					base = u
					c.ids[u] = target{r, ptr}
				} else if r.draft == Draft4 && !strings.HasPrefix(frag, "/") {
					c.anchors[abs] = target{r, ptr}
				}
			}
		}
		if r.draft == Draft2020 {
			for _, k := range []string{"$anchor", "$dynamicAnchor"} {
				if a, ok := v[k].(string); ok {
					c.anchors[base+"#"+a] = target{r, ptr}
				}
			}
		}
		for k, sub := range v {
			if k == "enum" || k == "const" || k == "default" || k == "examples" || k == "example" {
				continue
			}
			c.index(r, sub, base, ptr+"/"+escape(k))
		}
	case []any:
		for i, sub := range v {
			c.index(r, sub, base, ptr+"/"+strconv.Itoa(i))
		}
	}
}

// Compile compiles the schema at u (a resource's URL, with a JSON pointer
// or anchor fragment or none).
func (c *Compiler) Compile(u string) (*Schema, error) {
	c.init()
	t, err := c.lookup(u)
	if err != nil {
		return nil, err
	}
	return c.compileAt(t)
}

func (c *Compiler) lookup(abs string) (target, error) {
	u, frag, _ := strings.Cut(abs, "#")
	if t, ok := c.anchors[abs]; ok && frag != "" && !strings.HasPrefix(frag, "/") {
		return t, nil
	}
	t, ok := c.ids[u]
	if !ok {
		r, ok := c.docs[u]
		if !ok {
			if c.Load == nil {
				return target{}, fmt.Errorf("jsonschema: no resource %s", u)
			}
			doc, err := c.Load(u)
			if err != nil {
				return target{}, err
			}
			if err := c.AddResource(u, doc); err != nil {
				return target{}, err
			}
			r = c.docs[u]
		}
		t = target{r, ""}
	}
	if frag == "" {
		return t, nil
	}
	if !strings.HasPrefix(frag, "/") {
		if at, ok := c.anchors[u+"#"+frag]; ok {
			return at, nil
		}
		return target{}, fmt.Errorf("jsonschema: no anchor %q in %s", frag, u)
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return target{}, fmt.Errorf("jsonschema: bad fragment in %s: %w", abs, err)
	}
	return target{t.res, t.ptr + frag}, nil
}

func (c *Compiler) compileAt(t target) (*Schema, error) {
	loc := t.res.url + "#" + t.ptr
	if s, ok := c.schemas[loc]; ok {
		return s, nil
	}
	v, err := pointer(t.res.doc, t.ptr)
	if err != nil {
		return nil, err
	}
	base := c.baseAt(t)
	s := &Schema{loc: loc, draft: t.res.draft}
	c.schemas[loc] = s
	if err := c.fill(s, t.res, v, base, t.ptr); err != nil {
		delete(c.schemas, loc)
		return nil, err
	}
	return s, nil
}

// baseAt is the base URI in force at t: the resource's URL changed by
// every $id on the way down.
func (c *Compiler) baseAt(t target) string {
	base := t.res.url
	var v any = t.res.doc
	idKey := "$id"
	if t.res.draft == Draft4 {
		idKey = "id"
	}
	apply := func(v any) {
		if m, ok := v.(map[string]any); ok {
			if id, ok := m[idKey].(string); ok {
				if _, isRef := m["$ref"]; isRef && t.res.draft == Draft4 {
					return
				}
				if u, frag, _ := strings.Cut(resolve(base, id), "#"); frag == "" || frag == "/" {
					base = u
				}
			}
		}
	}
	apply(v)
	if t.ptr == "" {
		return base
	}
	for _, tok := range strings.Split(t.ptr[1:], "/") {
		tok = unescape(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return base
			}
			v = x[i]
		default:
			return base
		}
		apply(v)
	}
	return base
}

// Schema is a compiled schema.
type Schema struct {
	loc   string
	draft Draft
	// boolean schemas
	always, never bool

	ref, dynRef   *Schema
	dynTargets    map[string]*Schema // a $dynamicRef's candidates, by resource base
	dynamicAnchor string
	resourceBase  string

	types    []string
	enum     []any
	hasConst bool
	constV   any
	format   string
	formatFn func(any) error

	minimum, maximum, exclMin, exclMax, multipleOf *big.Rat

	minLength, maxLength, minItems, maxItems, minProps, maxProps, minContains, maxContains int
	pattern                                                                                Regexp
	uniqueItems                                                                            bool

	properties         map[string]*Schema
	patternProps       []patternProp
	additional         *Schema
	additionalFalse    bool
	propertyNames      *Schema
	required           []string
	dependentRequired  map[string][]string
	dependentSchemas   map[string]*Schema
	items              *Schema
	itemsList          []*Schema // draft 4's array form, or prefixItems
	additionalItems    *Schema
	additionalItemsOff bool
	contains           *Schema

	allOf, anyOf, oneOf []*Schema
	not, ifS, thenS     *Schema
	elseS               *Schema
	unevalProps         *Schema
	unevalItems         *Schema
}

type patternProp struct {
	re  Regexp
	sch *Schema
}

// Location is the schema's URL and JSON pointer.
func (s *Schema) Location() string { return s.loc }

func (c *Compiler) fill(s *Schema, r *resource, v any, base, ptr string) error {
	s.minLength, s.maxLength, s.minItems, s.maxItems, s.minProps, s.maxProps, s.minContains, s.maxContains = -1, -1, -1, -1, -1, -1, -1, -1
	s.resourceBase = base
	if b, ok := v.(bool); ok {
		if r.draft == Draft4 {
			return fmt.Errorf("jsonschema: %s: a draft 4 schema is an object, not %v", s.loc, b)
		}
		s.always, s.never = b, !b
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("jsonschema: %s: a schema is an object", s.loc)
	}
	d4 := r.draft == Draft4
	bad := func(k, want string) error {
		return fmt.Errorf("jsonschema: %s: %s must be %s", s.loc, k, want)
	}
	sub := func(k string, x any, p string) (*Schema, error) {
		return c.compileAt(target{r, ptr + "/" + escape(k) + p})
	}
	one := func(k string) (*Schema, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		return sub(k, x, "")
	}
	list := func(k string, min int) ([]*Schema, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		l, ok := x.([]any)
		if !ok || len(l) < min {
			return nil, bad(k, "a non-empty array of schemas")
		}
		out := make([]*Schema, len(l))
		for i := range l {
			var err error
			if out[i], err = sub(k, l[i], "/"+strconv.Itoa(i)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	schemaMap := func(k string) (map[string]*Schema, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		mm, ok := x.(map[string]any)
		if !ok {
			return nil, bad(k, "an object of schemas")
		}
		out := make(map[string]*Schema, len(mm))
		for name := range mm {
			var err error
			if out[name], err = sub(k, mm[name], "/"+escape(name)); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	count := func(k string, dst *int) error {
		x, ok := m[k]
		if !ok {
			return nil
		}
		n, ok := ratOf(x)
		if !ok || !n.IsInt() || n.Sign() < 0 || !n.Num().IsInt64() {
			return bad(k, "a non-negative integer")
		}
		*dst = int(min(n.Num().Int64(), 1<<31))
		return nil
	}
	number := func(k string) (*big.Rat, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		n, ok := ratOf(x)
		if !ok {
			return nil, bad(k, "a number")
		}
		return n, nil
	}
	strs := func(k string, nonEmpty bool) ([]string, error) {
		x, ok := m[k]
		if !ok {
			return nil, nil
		}
		l, ok := x.([]any)
		if !ok || (nonEmpty && len(l) == 0) {
			return nil, bad(k, "an array of strings")
		}
		out := make([]string, 0, len(l))
		for _, e := range l {
			str, ok := e.(string)
			if !ok || slices.Contains(out, str) {
				return nil, bad(k, "an array of distinct strings")
			}
			out = append(out, str)
		}
		return out, nil
	}
	var err error

	// $ref: in draft 4 the schema is its target and nothing else.
	if x, ok := m["$ref"]; ok {
		ref, ok := x.(string)
		if !ok {
			return bad("$ref", "a string")
		}
		t, err := c.lookup(resolve(base, ref))
		if err != nil {
			return err
		}
		if s.ref, err = c.compileAt(t); err != nil {
			return err
		}
		if d4 {
			return nil
		}
	}
	if !d4 {
		if x, ok := m["$dynamicRef"]; ok {
			ref, ok := x.(string)
			if !ok {
				return bad("$dynamicRef", "a string")
			}
			abs := resolve(base, ref)
			t, err := c.lookup(abs)
			if err != nil {
				return err
			}
			if s.dynRef, err = c.compileAt(t); err != nil {
				return err
			}
			if _, frag, _ := strings.Cut(abs, "#"); frag != "" && !strings.HasPrefix(frag, "/") && s.dynRef.dynamicAnchor == frag {
				// Every schema of that $dynamicAnchor, by the base of its
				// resource, compiled now: validation only reads.
				s.dynTargets = map[string]*Schema{}
				for key, t := range c.anchors {
					if base, name, _ := strings.Cut(key, "#"); name == frag {
						if a, err := c.compileAt(t); err == nil && a.dynamicAnchor == frag {
							s.dynTargets[base] = a
						}
					}
				}
			}
		}
		if a, ok := m["$dynamicAnchor"].(string); ok {
			s.dynamicAnchor = a
		}
	}

	if x, ok := m["type"]; ok {
		switch t := x.(type) {
		case string:
			s.types = []string{t}
		case []any:
			for _, e := range t {
				str, ok := e.(string)
				if !ok || slices.Contains(s.types, str) {
					return bad("type", "a type name or an array of distinct type names")
				}
				s.types = append(s.types, str)
			}
			if d4 && len(s.types) == 0 {
				return bad("type", "a non-empty array")
			}
		default:
			return bad("type", "a type name or an array of them")
		}
		for _, t := range s.types {
			if !slices.Contains([]string{"null", "boolean", "object", "array", "number", "string", "integer"}, t) {
				return bad("type", "one of null, boolean, object, array, number, string, integer")
			}
		}
	}
	if x, ok := m["enum"]; ok {
		l, ok := x.([]any)
		if !ok || (d4 && len(l) == 0) {
			return bad("enum", "a non-empty array")
		}
		if d4 {
			if i, _ := duplicates(l); i >= 0 {
				return bad("enum", "an array of distinct values")
			}
		}
		s.enum = l
		if s.enum == nil {
			s.enum = []any{}
		}
	}
	if x, ok := m["const"]; ok && !d4 {
		s.hasConst, s.constV = true, x
	}
	if x, ok := m["format"]; ok {
		f, ok := x.(string)
		if !ok {
			return bad("format", "a string")
		}
		if d4 || c.AssertFormat {
			s.format = f
			if fn, ok := c.Formats[f]; ok {
				s.formatFn = fn
			} else {
				s.formatFn = formats[f]
			}
			if f == "regex" {
				s.formatFn = c.regexFormat
			}
		}
	}
	if s.minimum, err = number("minimum"); err != nil {
		return err
	}
	if s.maximum, err = number("maximum"); err != nil {
		return err
	}
	if s.multipleOf, err = number("multipleOf"); err != nil {
		return err
	}
	if s.multipleOf != nil && s.multipleOf.Sign() <= 0 {
		return bad("multipleOf", "greater than 0")
	}
	for _, k := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
		x, ok := m[k]
		if !ok {
			continue
		}
		if d4 {
			b, ok := x.(bool)
			if !ok {
				return bad(k, "a boolean")
			}
			if b && k == "exclusiveMinimum" {
				s.exclMin, s.minimum = s.minimum, nil
			}
			if b && k == "exclusiveMaximum" {
				s.exclMax, s.maximum = s.maximum, nil
			}
			continue
		}
		n, err := number(k)
		if err != nil {
			return err
		}
		if k == "exclusiveMinimum" {
			s.exclMin = n
		} else {
			s.exclMax = n
		}
	}
	for k, dst := range map[string]*int{"minLength": &s.minLength, "maxLength": &s.maxLength, "minItems": &s.minItems,
		"maxItems": &s.maxItems, "minProperties": &s.minProps, "maxProperties": &s.maxProps} {
		if err := count(k, dst); err != nil {
			return err
		}
	}
	if !d4 {
		if err := count("minContains", &s.minContains); err != nil {
			return err
		}
		if err := count("maxContains", &s.maxContains); err != nil {
			return err
		}
	}
	if x, ok := m["pattern"]; ok {
		p, ok := x.(string)
		if !ok {
			return bad("pattern", "a string")
		}
		if s.pattern, err = c.compileRegexp(p); err != nil {
			return bad("pattern", "a regular expression")
		}
	}
	if x, ok := m["uniqueItems"]; ok {
		b, ok := x.(bool)
		if !ok {
			return bad("uniqueItems", "a boolean")
		}
		s.uniqueItems = b
	}

	if s.properties, err = schemaMap("properties"); err != nil {
		return err
	}
	if x, ok := m["patternProperties"]; ok {
		mm, ok := x.(map[string]any)
		if !ok {
			return bad("patternProperties", "an object of schemas")
		}
		names := make([]string, 0, len(mm))
		for k := range mm {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, p := range names {
			re, err := c.compileRegexp(p)
			if err != nil {
				return bad("patternProperties", "keyed by regular expressions")
			}
			sch, err := sub("patternProperties", mm[p], "/"+escape(p))
			if err != nil {
				return err
			}
			s.patternProps = append(s.patternProps, patternProp{re, sch})
		}
	}
	if x, ok := m["additionalProperties"]; ok {
		if b, ok := x.(bool); ok && d4 {
			s.additionalFalse = !b
		} else if ok && !b {
			s.additionalFalse = true
		} else if !ok || b {
			if s.additional, err = sub("additionalProperties", x, ""); err != nil {
				return err
			}
		}
	}
	if !d4 {
		if s.propertyNames, err = one("propertyNames"); err != nil {
			return err
		}
	}
	if s.required, err = strs("required", d4); err != nil {
		return err
	}
	if d4 {
		if x, ok := m["dependencies"]; ok {
			mm, ok := x.(map[string]any)
			if !ok {
				return bad("dependencies", "an object")
			}
			for name, dep := range mm {
				switch dep := dep.(type) {
				case []any:
					if s.dependentRequired == nil {
						s.dependentRequired = map[string][]string{}
					}
					var req []string
					for _, e := range dep {
						str, ok := e.(string)
						if !ok {
							return bad("dependencies", "of arrays of strings or schemas")
						}
						req = append(req, str)
					}
					s.dependentRequired[name] = req
				default:
					sch, err := sub("dependencies", dep, "/"+escape(name))
					if err != nil {
						return err
					}
					if s.dependentSchemas == nil {
						s.dependentSchemas = map[string]*Schema{}
					}
					s.dependentSchemas[name] = sch
				}
			}
		}
	} else {
		if s.dependentSchemas, err = schemaMap("dependentSchemas"); err != nil {
			return err
		}
		if x, ok := m["dependentRequired"]; ok {
			mm, ok := x.(map[string]any)
			if !ok {
				return bad("dependentRequired", "an object")
			}
			s.dependentRequired = map[string][]string{}
			for name, dep := range mm {
				l, ok := dep.([]any)
				if !ok {
					return bad("dependentRequired", "of arrays of strings")
				}
				for _, e := range l {
					str, ok := e.(string)
					if !ok {
						return bad("dependentRequired", "of arrays of strings")
					}
					s.dependentRequired[name] = append(s.dependentRequired[name], str)
				}
			}
		}
	}

	if d4 {
		if x, ok := m["items"]; ok {
			if _, isList := x.([]any); isList {
				if s.itemsList, err = list("items", 0); err != nil {
					return err
				}
			} else if s.items, err = sub("items", x, ""); err != nil {
				return err
			}
		}
		if x, ok := m["additionalItems"]; ok {
			if b, ok := x.(bool); ok {
				s.additionalItemsOff = !b
			} else if s.additionalItems, err = sub("additionalItems", x, ""); err != nil {
				return err
			}
		}
	} else {
		if s.itemsList, err = list("prefixItems", 1); err != nil {
			return err
		}
		if s.items, err = one("items"); err != nil {
			return err
		}
		if s.contains, err = one("contains"); err != nil {
			return err
		}
		if s.unevalProps, err = one("unevaluatedProperties"); err != nil {
			return err
		}
		if s.unevalItems, err = one("unevaluatedItems"); err != nil {
			return err
		}
		if s.ifS, err = one("if"); err != nil {
			return err
		}
		if s.thenS, err = one("then"); err != nil {
			return err
		}
		if s.elseS, err = one("else"); err != nil {
			return err
		}
	}
	if s.allOf, err = list("allOf", 1); err != nil {
		return err
	}
	if s.anyOf, err = list("anyOf", 1); err != nil {
		return err
	}
	if s.oneOf, err = list("oneOf", 1); err != nil {
		return err
	}
	if s.not, err = one("not"); err != nil {
		return err
	}
	return nil
}

func (c *Compiler) compileRegexp(p string) (Regexp, error) {
	if c.Regexp != nil {
		return c.Regexp(p)
	}
	return goRegexp(p)
}

func (c *Compiler) regexFormat(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	_, err := c.compileRegexp(s)
	return err
}

// ratOf reads a JSON number.
func ratOf(v any) (*big.Rat, bool) {
	var s string
	switch v := v.(type) {
	case json.Number:
		s = string(v)
	case float64:
		s = strconv.FormatFloat(v, 'g', -1, 64)
	case int:
		s = strconv.Itoa(v)
	case int64:
		s = strconv.FormatInt(v, 10)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// resolve resolves ref against base.
func resolve(base, ref string) string {
	if ref == "" {
		return base
	}
	if strings.HasPrefix(ref, "#") {
		return stripFragment(base) + ref
	}
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	if b.Opaque != "" && !r.IsAbs() {
		// cairn:oas-3.0.json and the like: no hierarchy to resolve in.
		if r.Path == "" {
			return stripFragment(base) + "#" + r.Fragment
		}
		return ref
	}
	return b.ResolveReference(r).String()
}

func stripFragment(u string) string {
	u, _, _ = strings.Cut(u, "#")
	return u
}

func escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

func unescape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// pointer finds the value at JSON pointer ptr in doc.
func pointer(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	v := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescape(tok)
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, fmt.Errorf("jsonschema: no %s", ptr)
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("jsonschema: no %s", ptr)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("jsonschema: no %s", ptr)
		}
	}
	return v, nil
}
