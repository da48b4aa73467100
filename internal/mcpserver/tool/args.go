package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/words"
)

// IDArg is a task id argument. The schema says string ("12"), but an agent
// that sends the number 12 means the same task, so both are accepted.
type IDArg string

// UnmarshalJSON accepts a JSON string or an integer.
func (a *IDArg) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = IDArg(s)
		return nil
	}
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		*a = IDArg(strconv.FormatInt(n, 10))
		return nil
	}
	return &json.UnmarshalTypeError{Value: jsonKind(b), Type: reflect.TypeFor[string]()}
}

// IDList is a list of ids; like IDArg, each may be a string or an integer,
// and a single id stands for a list of one.
type IDList []string

// UnmarshalJSON accepts an id or an array of ids.
func (l *IDList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] != '[' {
		var a IDArg
		if err := a.UnmarshalJSON(b); err != nil {
			return err
		}
		*l = IDList{string(a)}
		return nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(b, &raws); err != nil {
		return err
	}
	out := make(IDList, len(raws))
	for i, r := range raws {
		var a IDArg
		if err := a.UnmarshalJSON(r); err != nil {
			return &itemError{index: i, kind: jsonKind(r), want: "an id string or integer"}
		}
		out[i] = string(a)
	}
	*l = out
	return nil
}

// itemError is an item of a list argument of the wrong kind; decodeObject
// names the field it belongs to.
type itemError struct {
	index int
	kind  string // what the item is
	want  string // what it must be
}

func (e *itemError) Error() string {
	return fmt.Sprintf("item %d is %s, not %s", e.index, e.kind, e.want)
}

var schemaOpts = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[IDList]():     {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	reflect.TypeFor[IDArg]():      {Type: "string"},
	reflect.TypeFor[StringList](): {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
}}

// InputSchema derives a tool's input schema from its argument struct.
func InputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](schemaOpts)
	if err != nil {
		panic(err) // a programming error in a declaration, caught by every test
	}
	compact(s)
	if s.Properties == nil {
		// A tool without arguments says so: with no "properties" some
		// clients invent one.
		s.Properties = map[string]*jsonschema.Schema{}
	}
	return s
}

// compact drops "null" from a property's types (an optional field may be
// null or absent alike) and "additionalProperties": false (an argument a
// tool does not take is refused by name, with the list of those it takes):
// saying either in every schema costs tokens on every turn.
func compact(s *jsonschema.Schema) {
	if s.Type == "object" {
		s.AdditionalProperties = nil
	}
	for _, p := range s.Properties {
		if len(p.Types) == 2 && p.Types[0] == "null" {
			p.Type, p.Types = p.Types[1], nil
		}
		compact(p)
	}
}

// WireSchema is s as tools/list sends it: without an integer's minimum of
// 0 or 1 (offsets, counts and limits start there, and the services refuse
// less by name), which would cost tokens on every turn for what a model
// assumes anyway. Decoding keeps s, bounds and all, for its messages.
func WireSchema(s *jsonschema.Schema) *jsonschema.Schema {
	w := s.CloneSchemas()
	var strip func(*jsonschema.Schema)
	strip = func(s *jsonschema.Schema) {
		for _, p := range s.Properties {
			p.Minimum = advertisedMin(p)
			strip(p)
		}
	}
	strip(w)
	return w
}

// advertisedMin is p's minimum as tools/list declares it: none for an
// integer's minimum of 0 or 1 (see wireSchema). Decoding enforces this one,
// the bound the client was shown, and leaves less to the services.
func advertisedMin(p *jsonschema.Schema) *float64 {
	if p.Type == "integer" && p.Minimum != nil && (*p.Minimum == 0 || *p.Minimum == 1) {
		return nil
	}
	return p.Minimum
}

// fullSchemas caches fullSchema: deriving a schema is most of what decoding
// such an argument would cost.
var fullSchemas sync.Map // reflect.Type → *jsonschema.Schema

// fullSchema is the schema derived from t, for decoding an object whose
// advertised schema was shortened to a description.
func fullSchema(t reflect.Type) *jsonschema.Schema {
	if s, ok := fullSchemas.Load(t); ok {
		return s.(*jsonschema.Schema)
	}
	s, err := jsonschema.ForType(t, schemaOpts)
	if err != nil {
		panic(err)
	}
	compact(s)
	fullSchemas.Store(t, s)
	return s
}

// DecodeArgs decodes a tool's arguments into In and validates them against
// the schema the tool declares, in one place: a handler gets arguments of
// the declared types, names, enums and bounds (see checkValue for the
// keywords). Unlike a plain unmarshal or a schema validator, it checks every
// field separately, so each error names the field, what is wrong with it and
// how to fix it, and never shows Go types or echoes a large value.
//
// It is stricter than the schema in two ways: an argument the tool does not
// take is refused (the schema leaves out "additionalProperties": false to
// save tokens), and text must be valid UTF-8. It is more lenient, as the
// services are, in four: null is an absent argument; an id may be a number
// (IDArg) and a single value stands for a list of one (IDList, StringList);
// an enum's value is matched ignoring case and surrounding space, and
// handed on as declared; and an optional enum left empty ("") is absent.
func DecodeArgs[In any](raw json.RawMessage, schema *jsonschema.Schema) (In, error) {
	var in In
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	err := decodeObject(raw, reflect.ValueOf(&in).Elem(), schema, "arguments", "")
	if r, ok := any(&in).(interface{ record(map[string]bool) }); ok && err == nil {
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(raw, &fields) // decodeObject has read it already
		sent := make(map[string]bool, len(fields))
		for name, v := range fields {
			if string(bytes.TrimSpace(v)) != "null" {
				sent[name] = true
			}
		}
		r.record(sent)
	}
	return in, err
}

// Sent records which arguments a call carried (null counts as absent). An
// argument struct that embeds it gets it filled by decodeArgs, so a rule can
// depend on what was sent rather than on zero values.
type Sent struct{ names map[string]bool }

func (s *Sent) record(names map[string]bool) { s.names = names }

// Has reports whether the call carried the argument.
func (s Sent) Has(name string) bool { return s.names[name] }

// decodeObject decodes a JSON object into the struct v, field by field. A
// field that is itself a struct (query_tasks' filters, sort) is decoded the
// same way, and its errors name the path ("filters.status"). what and prefix
// name the object in errors.
func decodeObject(raw []byte, v reflect.Value, schema *jsonschema.Schema, what, prefix string) error {
	var fields map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &fields) != nil {
		return &problem.FieldError{Field: what, Problem: "must be a JSON object",
			Fix: "send " + what + " as an object with the fields " + fieldList(schema)}
	}
	byName := fieldsOf(v.Type())
	// Report problems in a stable order: unknown names first, then by name.
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := byName[name]; !ok {
			where := "this tool"
			if prefix != "" {
				where = strings.TrimSuffix(prefix, ".")
			}
			return &problem.FieldError{Field: problem.Quote(prefix + name), Problem: "is not an argument of " + where,
				Fix: "use only " + fieldList(schema)}
		}
	}
	for _, name := range schema.Required {
		if b, ok := fields[name]; !ok || string(bytes.TrimSpace(b)) == "null" {
			return &problem.FieldError{Field: prefix + name, Problem: "is required", Fix: "pass " + name + " as " + describe(schema, name)}
		}
	}
	for _, name := range names {
		b := bytes.TrimSpace(fields[name])
		if string(b) == "null" {
			continue // an absent optional field
		}
		f := v.FieldByIndex(byName[name])
		sub := schema.Properties[name]
		if f.Kind() == reflect.Struct && sub != nil && sub.Type == "object" {
			if len(sub.Properties) == 0 {
				sub = fullSchema(f.Type())
			}
			if err := decodeObject(b, f, sub, prefix+name, prefix+name+"."); err != nil {
				return err
			}
			continue
		}
		if err := json.Unmarshal(b, f.Addr().Interface()); err != nil {
			return argError(err, b, schema, prefix, name)
		}
		if !validText(b) {
			return &problem.FieldError{Field: prefix + name, Problem: "is not valid UTF-8", Fix: "send " + name + " as UTF-8 text"}
		}
		if sub != nil && constrains(sub) { // most arguments are free text, ids and flags
			a := arg{field: prefix + name, name: name, required: slices.Contains(schema.Required, name), args: argsOf(v), item: -1, single: b[0] != '['}
			if err := checkValue(f, sub, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// argError says what is wrong with the value b of argument name: the wrong
// kind of value, or, in a list of the right kind, the wrong kind of item.
func argError(err error, b []byte, schema *jsonschema.Schema, prefix, name string) error {
	if fe, ok := errors.AsType[*problem.FieldError](err); ok { // a type's own UnmarshalJSON knows best
		return fe
	}
	want := describe(schema, name)
	if ie, ok := errors.AsType[*itemError](err); ok {
		return &problem.FieldError{Field: fmt.Sprintf("%s%s[%d]", prefix, name, ie.index), Problem: "is " + ie.kind + ", not " + ie.want,
			Fix: "pass " + name + " as a list of ids, strings or integers"}
	}
	if kind := jsonKind(b); kind == "an array" && strings.HasPrefix(want, "an array") {
		var items []json.RawMessage
		_ = json.Unmarshal(b, &items)
		for i, it := range items {
			if k := jsonKind(it); k != "a string" {
				return &problem.FieldError{Field: fmt.Sprintf("%s%s[%d]", prefix, name, i), Problem: "is " + k + ", not a string",
					Fix: "pass " + name + " as " + want}
			}
		}
	}
	return &problem.FieldError{Field: prefix + name, Problem: "must be " + want + ", not " + jsonKind(b),
		Fix: "pass " + name + " as " + want}
}

// fieldIndexes caches jsonFields by type: deriving it was a fifth of what
// decoding a call's arguments cost.
var fieldIndexes sync.Map // reflect.Type → map[string][]int

// fieldsOf is jsonFields(t), derived once; the map is only read.
func fieldsOf(t reflect.Type) map[string][]int {
	if m, ok := fieldIndexes.Load(t); ok {
		return m.(map[string][]int)
	}
	m := jsonFields(t)
	fieldIndexes.Store(t, m)
	return m
}

// jsonFields maps the JSON names of a struct's fields to their indexes.
func jsonFields(t reflect.Type) map[string][]int {
	m := make(map[string][]int)
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for name, idx := range jsonFields(f.Type) { // promoted, as encoding/json does
				m[name] = append([]int{i}, idx...)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Index
	}
	return m
}

func fieldList(s *jsonschema.Schema) string {
	if len(s.Properties) == 0 {
		return "{} (this tool takes no arguments)"
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// describe says in words what a property takes.
func describe(s *jsonschema.Schema, name string) string {
	p := s.Properties[name]
	if p == nil {
		return "a value"
	}
	if len(p.Enum) > 0 {
		vals := make([]string, len(p.Enum))
		for i, e := range p.Enum {
			vals[i] = fmt.Sprintf("%q", e)
		}
		return "one of " + strings.Join(vals, ", ")
	}
	var what string
	switch p.Type {
	case "string":
		what = "a string"
	case "integer":
		what = "an integer"
		if p.Minimum != nil && p.Maximum != nil {
			what = "an integer from " + strconv.FormatFloat(*p.Minimum, 'f', -1, 64) + " to " + strconv.FormatFloat(*p.Maximum, 'f', -1, 64)
		}
	case "boolean":
		what = "true or false"
	case "number":
		what = "a number"
	case "array":
		what = "an array"
		if p.Items != nil && p.Items.Type == "string" {
			what = "an array of strings"
		}
	case "object":
		what = "an object"
	default:
		what = "a value"
	}
	return what
}

// jsonKind names the kind of a JSON value, quoting a number only when short:
// an error message never echoes a large input.
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "empty"
	}
	switch b[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	if len(b) <= 24 {
		return "the number " + string(b)
	}
	return "a number"
}

// validText reports whether a raw JSON value is valid UTF-8 with no escaped
// lone surrogate ("\ud800"). encoding/json quietly replaces either with
// U+FFFD, which would store text the client never sent.
func validText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		i++ // the escaped character; an escaped backslash is skipped whole
		if i >= len(b) || b[i] != 'u' {
			continue
		}
		r, ok := hex4(b[i+1:])
		if !ok {
			continue
		}
		i += 4
		switch {
		case r >= 0xD800 && r < 0xDC00: // a high surrogate needs a low one next
			if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
				if lo, ok := hex4(b[i+3:]); ok && lo >= 0xDC00 && lo < 0xE000 {
					i += 6
					continue
				}
			}
			return false
		case r >= 0xDC00 && r < 0xE000: // a low surrogate alone
			return false
		}
	}
	return true
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// arg names the argument checkValue checks, for its messages.
type arg struct {
	field    string // the argument's path: "sort.field", "type"
	name     string // the property's own name: "field", "type"
	required bool
	args     any  // the argument struct (a pointer), for its enumFixer and enumAliaser
	item     int  // the item of a list checked, or -1
	single   bool // a list sent as its one value (StringList, IDList): its item is named as the argument
}

// at names what is checked in a message: the argument, or its item
// ("tags[2]"). It is built only for a message: most calls have none.
func (a arg) at() string {
	if a.item < 0 || a.single {
		return a.field
	}
	return a.field + "[" + strconv.Itoa(a.item) + "]"
}

// enumFixer is an argument struct that words the fix for a value outside an
// enum itself, where it knows better than the list of values (observation:
// a decision has a tool of its own).
type enumFixer interface {
	EnumFix(name, value string) string
}

// enumAliaser is an argument struct that takes a value outside an enum, an
// older word the service still reads (loops' "normal" priority), as is.
type enumAliaser interface {
	EnumAlias(name, value string) bool
}

func argsOf(v reflect.Value) any {
	if v.CanAddr() {
		return v.Addr().Interface()
	}
	return nil
}

// CheckedKeywords are the schema keywords checkValue enforces beyond the
// types, names and required arguments that decodeObject checks.
// TestDeclaredKeywordsChecked holds every declaration to them.
var CheckedKeywords = []string{"enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "items"}

// checkValue checks the decoded value v of an argument against its schema
// p: the keywords its Go type does not already guarantee (checkedKeywords).
// An enum's value is matched ignoring case and surrounding space and set to
// its declared spelling, so handlers and services see one spelling.
func checkValue(v reflect.Value, p *jsonschema.Schema, a arg) error {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		return checkString(v, p, a)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return checkNumber(float64(v.Int()), strconv.FormatInt(v.Int(), 10), p, a)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return checkNumber(float64(v.Uint()), strconv.FormatUint(v.Uint(), 10), p, a)
	case reflect.Float32, reflect.Float64:
		return checkNumber(v.Float(), strconv.FormatFloat(v.Float(), 'g', -1, 64), p, a)
	case reflect.Slice:
		return checkList(v, p, a)
	}
	return nil
}

func checkString(v reflect.Value, p *jsonschema.Schema, a arg) error {
	s := v.String()
	if len(p.Enum) > 0 {
		if s == "" && !a.required {
			return nil // an optional choice left empty is absent
		}
		want := strings.TrimSpace(s)
		i := slices.IndexFunc(p.Enum, func(e any) bool { return enumString(e) == s }) // as declared, mostly
		if i < 0 {
			i = slices.IndexFunc(p.Enum, func(e any) bool { return strings.EqualFold(enumString(e), want) })
		}
		if i < 0 {
			if al, ok := a.args.(enumAliaser); ok && al.EnumAlias(a.name, want) {
				return nil
			}
			fix := ""
			if f, ok := a.args.(enumFixer); ok {
				fix = f.EnumFix(a.name, want)
			}
			if fix == "" {
				fix = "use " + choices(p.Enum)
			}
			// In the services' words: a value "is" wrong, a list "has" one.
			if a.item >= 0 {
				return &problem.FieldError{Field: a.field, Problem: "has " + problem.Quote(s), Fix: fix}
			}
			return &problem.FieldError{Field: a.field, Problem: "is " + problem.Quote(s), Fix: fix}
		}
		if e := enumString(p.Enum[i]); e != s && v.CanSet() {
			v.SetString(e)
			s = e
		}
	}
	if p.MinLength != nil || p.MaxLength != nil {
		n := utf8.RuneCountInString(s)
		if p.MaxLength != nil && n > *p.MaxLength {
			return &problem.FieldError{Field: a.at(), Problem: "is " + words.Plural(n, "character", "characters") + " long",
				Fix: "shorten it to " + words.Plural(*p.MaxLength, "character", "characters")}
		}
		if p.MinLength != nil && n < *p.MinLength {
			return &problem.FieldError{Field: a.at(), Problem: "is " + words.Plural(n, "character", "characters") + " long",
				Fix: "give at least " + words.Plural(*p.MinLength, "character", "characters")}
		}
	}
	if p.Pattern != "" && !pattern(p.Pattern).MatchString(s) {
		return &problem.FieldError{Field: a.at(), Problem: "is " + problem.Quote(s),
			Fix: "use a value that matches " + problem.Clip(p.Pattern, 80)}
	}
	return nil
}

// enumString is an enum's value as a string; the declarations' enums are of
// strings (task.Status and the like), which TestDeclaredKeywordsChecked holds
// them to.
func enumString(e any) string {
	if s, ok := e.(string); ok {
		return s
	}
	if v := reflect.ValueOf(e); v.Kind() == reflect.String {
		return v.String()
	}
	return ""
}

// patterns caches the compiled patterns of the schemas, by source.
var patterns sync.Map // string → *regexp.Regexp

// pattern compiles a schema's pattern once. Declarations are tested
// (TestDeclaredKeywordsChecked), so one that does not compile is a
// programming error.
func pattern(src string) *regexp.Regexp {
	if re, ok := patterns.Load(src); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(src)
	patterns.Store(src, re)
	return re
}

func checkNumber(n float64, text string, p *jsonschema.Schema, a arg) error {
	lo, hi := advertisedMin(p), p.Maximum
	if (lo == nil || n >= *lo) && (hi == nil || n <= *hi) &&
		(p.ExclusiveMinimum == nil || n > *p.ExclusiveMinimum) && (p.ExclusiveMaximum == nil || n < *p.ExclusiveMaximum) {
		return nil
	}
	return &problem.FieldError{Field: a.at(), Problem: "is " + text, Fix: rangeFix(p, a)}
}

// rangeFix says which numbers an argument takes, with the bounds of its
// full schema (an integer's minimum of 0 or 1 too), and its default if its
// description gives one.
func rangeFix(p *jsonschema.Schema, a arg) string {
	num := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	if a.name == "limit" && p.Minimum != nil && p.Maximum != nil {
		// A page's limit, worded as every list's page rule words it.
		return "pass a limit from " + num(*p.Minimum) + " to " + num(*p.Maximum)
	}
	var fix string
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		fix = "use " + num(*p.Minimum) + " to " + num(*p.Maximum)
	case p.Maximum != nil:
		fix = "use " + num(*p.Maximum) + " or less"
	case p.Minimum != nil:
		fix = "use " + num(*p.Minimum) + " or more"
	case p.ExclusiveMinimum != nil && p.ExclusiveMaximum != nil:
		fix = "use more than " + num(*p.ExclusiveMinimum) + " and less than " + num(*p.ExclusiveMaximum)
	case p.ExclusiveMaximum != nil:
		fix = "use less than " + num(*p.ExclusiveMaximum)
	default:
		fix = "use more than " + num(*p.ExclusiveMinimum)
	}
	switch {
	case strings.HasPrefix(p.Description, "default "):
		fix += " (" + p.Description + ")"
	case !a.required:
		fix += ", or leave it out"
	}
	return fix
}

func checkList(v reflect.Value, p *jsonschema.Schema, a arg) error {
	n := v.Len()
	if p.MaxItems != nil && n > *p.MaxItems {
		return &problem.FieldError{Field: a.at(), Problem: "has " + words.Plural(n, "item", "items"),
			Fix: "pass at most " + strconv.Itoa(*p.MaxItems)}
	}
	if p.MinItems != nil && n < *p.MinItems {
		return &problem.FieldError{Field: a.at(), Problem: "has " + words.Plural(n, "item", "items"),
			Fix: "pass at least " + strconv.Itoa(*p.MinItems)}
	}
	items := p.Items != nil && constrains(p.Items)
	if !items && !p.UniqueItems {
		return nil
	}
	item := a
	item.required = true // an item is there: "" is a value
	for i := range n {
		item.item = i
		if items {
			if err := checkValue(v.Index(i), p.Items, item); err != nil {
				return err
			}
		}
		if p.UniqueItems && v.Index(i).Comparable() {
			for j := range i {
				if v.Index(j).Equal(v.Index(i)) {
					return &problem.FieldError{Field: item.at(), Problem: "repeats item " + strconv.Itoa(j),
						Fix: "pass each value once"}
				}
			}
		}
	}
	return nil
}

// constrains reports whether p has a keyword checkValue enforces.
func constrains(p *jsonschema.Schema) bool {
	return len(p.Enum) > 0 || p.Minimum != nil || p.Maximum != nil || p.ExclusiveMinimum != nil || p.ExclusiveMaximum != nil ||
		p.MinLength != nil || p.MaxLength != nil || p.Pattern != "" || p.MinItems != nil || p.MaxItems != nil || p.UniqueItems ||
		(p.Items != nil && constrains(p.Items))
}

// choices words an enum's values: "a, b or c".
func choices(enum []any) string {
	vs := make([]string, len(enum))
	for i, e := range enum {
		vs[i] = fmt.Sprint(e)
	}
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

type NoArgs struct{}

// StringList is a list argument that also accepts a single string, as the
// plan specification's "array|string" filters do.
type StringList []string

// UnmarshalJSON accepts a string or an array of strings.
func (l *StringList) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = StringList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*l = ss
	return nil
}
