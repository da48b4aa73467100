package jsonschema

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func compile(t *testing.T, draft Draft, schema string) *Schema {
	t.Helper()
	c := &Compiler{Draft: draft}
	if err := c.AddResource("test:s.json", decode(t, schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("test:s.json")
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	return s
}

// leaves flattens an error tree to "location kind" lines, as the openapi
// check reads them.
func leaves(e *ValidationError) []string {
	if len(e.Causes) == 0 {
		return []string{"/" + strings.Join(e.InstanceLocation, "/") + " " + reflect.TypeOf(e.Kind).Name()}
	}
	var out []string
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		draft  Draft
		schema string
		value  string
		want   []string // leaf errors; nil: valid
	}{
		{"type", Draft2020, `{"type": "string"}`, `3`, []string{"/ Type"}},
		{"integer accepts 1.0", Draft2020, `{"type": "integer"}`, `1.0`, nil},
		{"integer refuses 1.5", Draft2020, `{"type": "integer"}`, `1.5`, []string{"/ Type"}},
		{"enum compares numbers by value", Draft2020, `{"enum": [1, "a"]}`, `1.00`, nil},
		{"enum", Draft2020, `{"enum": [1, "a"]}`, `"b"`, []string{"/ Enum"}},
		{"const object", Draft2020, `{"const": {"a": [1]}}`, `{"a": [1.0]}`, nil},
		{"every error kept, where it is", Draft2020,
			`{"type": "object", "required": ["id"], "properties": {"n": {"minimum": 1}, "tags": {"items": {"type": "string"}}}}`,
			`{"n": 0, "tags": ["a", 2, 3]}`, []string{"/ Required", "/n Minimum", "/tags/1 Type", "/tags/2 Type"}},
		{"additionalProperties false names them all", Draft2020,
			`{"properties": {"a": {}}, "additionalProperties": false}`, `{"a": 1, "b": 2, "c": 3}`, []string{"/ AdditionalProperties"}},
		{"patternProperties", Draft2020, `{"patternProperties": {"^x-": {"type": "string"}}}`, `{"x-a": 1, "y": 1}`, []string{"/x-a Type"}},
		{"draft 4 exclusiveMaximum is a flag", Draft4, `{"maximum": 5, "exclusiveMaximum": true}`, `5`, []string{"/ ExclusiveMaximum"}},
		{"draft 4 maximum alone", Draft4, `{"maximum": 5}`, `5`, nil},
		{"2020 exclusiveMinimum is a number", Draft2020, `{"exclusiveMinimum": 5}`, `5`, []string{"/ ExclusiveMinimum"}},
		{"draft 4 $ref hides its siblings", Draft4, `{"definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "minLength": 9}`, `"ab"`, nil},
		{"2020 $ref keeps its siblings", Draft2020, `{"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "minLength": 9}`, `"ab"`, []string{"/ MinLength"}},
		{"draft 4 tuple items and additionalItems", Draft4, `{"items": [{"type": "string"}], "additionalItems": false}`, `["a", 1]`, []string{"/ AdditionalItems"}},
		{"prefixItems then items", Draft2020, `{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}}`, `["a", 1, "b"]`, []string{"/2 Type"}},
		{"anyOf keeps each branch", Draft2020, `{"anyOf": [{"type": "string"}, {"required": ["a"]}]}`, `{}`, []string{"/ Type", "/ Required"}},
		{"oneOf matching two", Draft2020, `{"oneOf": [{"type": "integer"}, {"minimum": 0}]}`, `3`, []string{"/ OneOf"}},
		{"oneOf matching one", Draft2020, `{"oneOf": [{"type": "integer"}, {"type": "string"}]}`, `3`, nil},
		{"not", Draft2020, `{"not": {"type": "null"}}`, `null`, []string{"/ Not"}},
		{"if then else", Draft2020, `{"if": {"properties": {"k": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}}`, `{"k": "z"}`, []string{"/ Required"}},
		{"propertyNames", Draft2020, `{"propertyNames": {"pattern": "^[a-z]+$"}}`, `{"ok": 1, "Bad": 2}`, []string{"/ Pattern"}},
		{"unevaluatedProperties sees through allOf and $ref", Draft2020,
			`{"$defs": {"ext": {"patternProperties": {"^x-": true}}}, "$ref": "#/$defs/ext", "allOf": [{"properties": {"a": true}}], "unevaluatedProperties": false}`,
			`{"a": 1, "x-b": 2, "c": 3}`, []string{"/c FalseSchema"}},
		{"unevaluatedProperties ignores failed branches", Draft2020,
			`{"anyOf": [{"properties": {"a": true}, "required": ["a"]}, {"properties": {"b": true}, "required": ["b"]}], "unevaluatedProperties": false}`,
			`{"b": 1, "a": 2}`, nil},
		{"unevaluatedProperties after a failed anyOf branch", Draft2020,
			`{"anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": true}}], "unevaluatedProperties": false}`,
			`{"a": 1, "b": 2}`, []string{"/a FalseSchema"}},
		{"dependentRequired", Draft2020, `{"dependentRequired": {"a": ["b"]}}`, `{"a": 1}`, []string{"/ DependentRequired"}},
		{"draft 4 dependencies", Draft4, `{"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}`, `{"a": 1, "c": 2}`, []string{"/ Required", "/ DependentRequired"}},
		{"contains", Draft2020, `{"contains": {"const": 1}, "maxContains": 1}`, `[1, 1]`, []string{"/ MaxContains"}},
		{"uniqueItems", Draft2020, `{"uniqueItems": true}`, `[1, {"a": 1}, 1.0]`, []string{"/ UniqueItems"}},
		{"multipleOf with decimals", Draft2020, `{"multipleOf": 0.01}`, `19.99`, nil},
		{"draft 4 asserts format", Draft4, `{"format": "date-time"}`, `"2024-02-30T10:00:00Z"`, []string{"/ Format"}},
		{"2020 format is an annotation", Draft2020, `{"format": "date-time"}`, `"nope"`, nil},
		{"false schema", Draft2020, `{"properties": {"a": false}}`, `{"a": 1}`, []string{"/a FalseSchema"}},
		{"recursion through $ref", Draft2020, `{"properties": {"next": {"$ref": "#"}, "v": {"type": "integer"}}}`, `{"next": {"next": {"v": "x"}}}`, []string{"/next/next/v Type"}},
		{"an anchor", Draft2020, `{"$defs": {"n": {"$anchor": "num", "type": "number"}}, "items": {"$ref": "#num"}}`, `[1, "a"]`, []string{"/1 Type"}},
		{"$dynamicRef to the outermost anchor", Draft2020,
			`{"$id": "https://x.test/root", "$dynamicAnchor": "node", "type": "object", "properties": {"kids": {"items": {"$dynamicRef": "#node"}}}, "required": ["name"]}`,
			`{"name": "a", "kids": [{"kids": [{}]}]}`, []string{"/kids/0 Required", "/kids/0/kids/0 Required"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := compile(t, tc.draft, tc.schema).Validate(decode(t, tc.value))
			if tc.want == nil {
				if err != nil {
					t.Errorf("want valid, got %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("want %v, got %v", tc.want, err)
			}
			var got []string
			for _, l := range leaves(ve) {
				if !strings.HasSuffix(l, " Reference") {
					got = append(got, l)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("leaves %q, want %q\n%v", got, tc.want, ve)
			}
		})
	}
}

// TestBadSchemasDoNotCompile: a schema that breaks its draft's rules is
// an error, so that an example is never judged by a schema that is wrong.
func TestBadSchemasDoNotCompile(t *testing.T) {
	for _, tc := range []struct {
		draft  Draft
		schema string
	}{
		{Draft4, `{"items": true}`},
		{Draft4, `{"required": []}`},
		{Draft4, `{"exclusiveMinimum": 3}`},
		{Draft4, `{"enum": [1, 1]}`},
		{Draft2020, `{"type": "file"}`},
		{Draft2020, `{"minLength": -1}`},
		{Draft2020, `{"required": "a"}`},
		{Draft2020, `{"properties": []}`},
		{Draft2020, `{"$ref": "#/$defs/missing"}`},
		{Draft2020, `{"multipleOf": 0}`},
		{Draft2020, `{"pattern": "("}`},
	} {
		c := &Compiler{Draft: tc.draft}
		if err := c.AddResource("test:s.json", decode(t, tc.schema)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Compile("test:s.json"); err == nil {
			t.Errorf("draft %d %s compiled", tc.draft, tc.schema)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		format     string
		good, bads []string
	}{
		{"date-time", []string{"1985-04-12T23:20:50.52Z", "1990-12-31T15:59:60-08:00", "2024-02-29t00:00:00+01:00"},
			[]string{"1985-04-12 23:20:50Z", "1985-04-12T23:20:50", "2023-02-29T00:00:00Z", "1990-12-31T22:59:60Z"}},
		{"date", []string{"2024-02-29"}, []string{"2024-2-1", "2023-02-29"}},
		{"time", []string{"23:20:50.52Z", "08:30:06+05:30"}, []string{"23:20:50.52", "24:00:00Z", "08:30:06 +05:30"}},
		{"duration", []string{"P1Y2M3DT4H5M6S", "P4W", "PT0S", "P1D"}, []string{"TBD", "P", "PT", "P1H", "P1S2M", "P1Y2W"}},
		{"email", []string{"a.b+c@example.com", `"a b"@x.org`, "x@[127.0.0.1]", "x@[IPv6:::1]"}, []string{"no-at", "a..b@x.org", ".a@x.org", "a@-x.org"}},
		{"hostname", []string{"example.com", "a-b.c"}, []string{"-a.com", "a_b.com", strings.Repeat("a", 64) + ".com"}},
		{"ipv4", []string{"127.0.0.1"}, []string{"127.0.0.01", "256.1.1.1", "1.2.3"}},
		{"ipv6", []string{"::1", "fe80::1"}, []string{"127.0.0.1", "fe80::1%eth0", ":::"}},
		{"uri", []string{"https://example.com/a?b#c", "urn:isbn:0451450523"}, []string{"/relative", "http://[::1/x"}},
		{"uri-reference", []string{"/relative#x", "https://x.org"}, []string{`a\b`}},
		{"json-pointer", []string{"", "/a~1b/0", "/"}, []string{"#/foo", "/a~2"}},
		{"relative-json-pointer", []string{"0", "1/a", "2#"}, []string{"", "01/a", "/a"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"}},
		{"semver", []string{"1.2.3", "1.0.0-rc.1+build.5"}, []string{"1.2", "01.2.3", "1.2.3-01"}},
		{"period", []string{"2024-01-01T00:00:00Z/P1D", "P1D/2024-01-01T00:00:00Z"}, []string{"2024-01-01T00:00:00Z", "P1D/P2D"}},
	} {
		f := formats[tc.format]
		for _, g := range tc.good {
			if err := f(g); err != nil {
				t.Errorf("%s %q: %v", tc.format, g, err)
			}
		}
		for _, b := range tc.bads {
			if f(b) == nil {
				t.Errorf("%s %q passed", tc.format, b)
			}
		}
		if f(3) != nil {
			t.Errorf("%s: a number is not a string to check", tc.format)
		}
	}
}

// TestLoopsEnd: references that loop without reading the value end, with
// an error, even where each level branches.
func TestLoopsEnd(t *testing.T) {
	for _, schema := range []string{
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}`,
		`{"anyOf": [{"$ref": "#"}, {"$ref": "#"}, {"$ref": "#"}]}`,
	} {
		err := compile(t, Draft2020, schema).Validate(decode(t, `{"x": [1, 2]}`))
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(ve.Error(), "loop") {
			t.Errorf("%s: %v", schema, err)
		}
	}
	// A deep value through a recursive schema is fine.
	deep := strings.Repeat(`{"next": `, 500) + `{}` + strings.Repeat(`}`, 500)
	if err := compile(t, Draft2020, `{"properties": {"next": {"$ref": "#"}}}`).Validate(decode(t, deep)); err != nil {
		t.Errorf("deep value: %v", err)
	}
}
