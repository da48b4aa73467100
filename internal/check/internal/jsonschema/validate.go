package jsonschema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ValidationError is a failure at InstanceLocation (the path of keys and
// indexes in the value); Causes are the failures it is made of (the
// branches of an anyOf or oneOf, the keywords of a schema).
type ValidationError struct {
	InstanceLocation []string
	Kind             Kind
	Causes           []*ValidationError
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	var walk func(e *ValidationError, depth int)
	walk = func(e *ValidationError, depth int) {
		if depth > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s/%s: %s", strings.Repeat("  ", depth), strings.Join(e.InstanceLocation, "/"), e.Kind)
		for _, c := range e.Causes {
			walk(c, depth+1)
		}
	}
	walk(e, 0)
	return b.String()
}

// Kind is what failed.
type Kind interface{ String() string }

// The kinds of failure.
type (
	// Group holds the failures of one schema's keywords.
	Group struct{}
	// Reference is a failure through $ref or $dynamicRef.
	Reference   struct{ URL string }
	FalseSchema struct{}
	Type        struct {
		Got  string
		Want []string
	}
	Const struct{ Got, Want any }
	Enum  struct {
		Got  any
		Want []any
	}
	Format struct {
		Got  any
		Want string
		Err  error
	}
	Required          struct{ Missing []string }
	DependentRequired struct {
		Prop    string
		Missing []string
	}
	AdditionalProperties struct{ Properties []string }
	PropertyNames        struct{ Property string }
	MinProperties        struct{ Got, Want int }
	MaxProperties        struct{ Got, Want int }
	MinItems             struct{ Got, Want int }
	MaxItems             struct{ Got, Want int }
	AdditionalItems      struct{ Count int }
	UniqueItems          struct{ Duplicates [2]int }
	Contains             struct{}
	MinContains          struct{ Got, Want int }
	MaxContains          struct{ Got, Want int }
	MinLength            struct{ Got, Want int }
	MaxLength            struct{ Got, Want int }
	Pattern              struct{ Got, Want string }
	Minimum              struct{ Got, Want *big.Rat }
	Maximum              struct{ Got, Want *big.Rat }
	ExclusiveMinimum     struct{ Got, Want *big.Rat }
	ExclusiveMaximum     struct{ Got, Want *big.Rat }
	MultipleOf           struct{ Got, Want *big.Rat }
	Not                  struct{}
	// RefCycle: references loop without reading the value.
	RefCycle struct{}
	// TooDeep: the value and schema nest deeper than the validator goes.
	TooDeep struct{}
	AllOf   struct{}
	AnyOf   struct{}
	// OneOf: Subschemas are the two branches that both matched, or none
	// when no branch did.
	OneOf struct{ Subschemas []int }
)

func (Group) String() string       { return "validation failed" }
func (r Reference) String() string { return "does not match " + r.URL }
func (FalseSchema) String() string { return "no value is allowed here" }
func (t Type) String() string {
	return fmt.Sprintf("got %s, want %s", t.Got, strings.Join(t.Want, " or "))
}
func (c Const) String() string { return fmt.Sprintf("value must be %s", show(c.Want)) }
func (e Enum) String() string {
	w := make([]string, len(e.Want))
	for i, v := range e.Want {
		w[i] = show(v)
	}
	return "value must be one of " + strings.Join(w, ", ")
}
func (f Format) String() string {
	return fmt.Sprintf("%s is not a valid %s: %v", show(f.Got), f.Want, f.Err)
}
func (r Required) String() string { return "missing properties " + quoted(r.Missing) }
func (d DependentRequired) String() string {
	return fmt.Sprintf("properties %s are required when %q is present", quoted(d.Missing), d.Prop)
}
func (a AdditionalProperties) String() string {
	return "additional properties " + quoted(a.Properties) + " are not allowed"
}
func (p PropertyNames) String() string { return fmt.Sprintf("invalid property name %q", p.Property) }
func (m MinProperties) String() string {
	return fmt.Sprintf("at least %d properties are wanted, got %d", m.Want, m.Got)
}
func (m MaxProperties) String() string {
	return fmt.Sprintf("at most %d properties are allowed, got %d", m.Want, m.Got)
}
func (m MinItems) String() string {
	return fmt.Sprintf("at least %d items are wanted, got %d", m.Want, m.Got)
}
func (m MaxItems) String() string {
	return fmt.Sprintf("at most %d items are allowed, got %d", m.Want, m.Got)
}
func (a AdditionalItems) String() string {
	return fmt.Sprintf("%d more items than the schema allows", a.Count)
}
func (u UniqueItems) String() string {
	return fmt.Sprintf("items at %d and %d are equal", u.Duplicates[0], u.Duplicates[1])
}
func (Contains) String() string { return "no item matches the contains schema" }
func (m MinContains) String() string {
	return fmt.Sprintf("at least %d items must match contains, %d do", m.Want, m.Got)
}
func (m MaxContains) String() string {
	return fmt.Sprintf("at most %d items may match contains, %d do", m.Want, m.Got)
}
func (m MinLength) String() string {
	return fmt.Sprintf("length must be at least %d, got %d", m.Want, m.Got)
}
func (m MaxLength) String() string {
	return fmt.Sprintf("length must be at most %d, got %d", m.Want, m.Got)
}
func (p Pattern) String() string { return fmt.Sprintf("%q does not match pattern %q", p.Got, p.Want) }
func (m Minimum) String() string {
	return fmt.Sprintf("must be at least %s, got %s", ratString(m.Want), ratString(m.Got))
}
func (m Maximum) String() string {
	return fmt.Sprintf("must be at most %s, got %s", ratString(m.Want), ratString(m.Got))
}
func (m ExclusiveMinimum) String() string {
	return fmt.Sprintf("must be greater than %s, got %s", ratString(m.Want), ratString(m.Got))
}
func (m ExclusiveMaximum) String() string {
	return fmt.Sprintf("must be less than %s, got %s", ratString(m.Want), ratString(m.Got))
}
func (m MultipleOf) String() string {
	return fmt.Sprintf("%s is not a multiple of %s", ratString(m.Got), ratString(m.Want))
}
func (Not) String() string      { return "matches the schema it must not" }
func (RefCycle) String() string { return "the schema's references loop" }
func (TooDeep) String() string  { return "nested too deep to validate" }
func (AllOf) String() string    { return "does not match all of allOf" }
func (AnyOf) String() string    { return "matches none of anyOf" }
func (o OneOf) String() string {
	if len(o.Subschemas) > 1 {
		return fmt.Sprintf("matches both oneOf branches %d and %d", o.Subschemas[0], o.Subschemas[1])
	}
	return "matches none of oneOf"
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func show(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case nil:
		return "null"
	case json.Number:
		return string(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprint(v)
}

func quoted(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// Validate validates v (decoded JSON: maps, slices, strings, bools, nil,
// json.Number) against s; the error is a *ValidationError.
func (s *Schema) Validate(v any) error {
	vd := &validator{}
	r := vd.validate(s, v, nil, nil, 0)
	if r.err == nil {
		return nil
	}
	return r.err
}

type validator struct{}

// result is a schema's verdict on a value: its error, and when valid the
// properties and items it evaluated (for unevaluated*).
type result struct {
	err      *ValidationError
	props    map[string]bool
	items    map[int]bool
	allItems bool
}

// scope is the chain of schemas entered through references, for
// $dynamicRef.
type scope struct {
	s      *Schema
	at     int // the depth in the value: one value per depth along a chain
	parent *scope
}

// maxDepth bounds the recursion (values nest at most 10,000 deep where
// the openapi check reads them; loops are caught below).
const maxDepth = 50_000

func (vd *validator) validate(s *Schema, v any, loc []string, sc *scope, depth int) result {
	fail := func(k Kind) result {
		return result{err: &ValidationError{InstanceLocation: slices.Clone(loc), Kind: k}}
	}
	if s.always {
		return result{props: allKeys(v), allItems: true}
	}
	if s.never {
		return fail(FalseSchema{})
	}
	if depth > maxDepth {
		return fail(TooDeep{})
	}
	// A schema met again on the same value has looped without reading
	// any of it (a $ref to itself through anyOf, say): that is an error
	// of the schema, and the end of the loop.
	for p := sc; p != nil && p.at == len(loc); p = p.parent {
		if p.s == s {
			return fail(RefCycle{})
		}
	}
	sc = &scope{s, len(loc), sc}
	var errs []*ValidationError
	var props map[string]bool
	items := map[int]bool{}
	allItems := false
	evaluated := func(r result) {
		for k := range r.props {
			if props == nil {
				props = map[string]bool{}
			}
			props[k] = true
		}
		for i := range r.items {
			items[i] = true
		}
		allItems = allItems || r.allItems
	}
	add := func(e *ValidationError) { errs = append(errs, e) }
	addKind := func(k Kind) { add(&ValidationError{InstanceLocation: slices.Clone(loc), Kind: k}) }
	wrap := func(k Kind, causes []*ValidationError) {
		add(&ValidationError{InstanceLocation: slices.Clone(loc), Kind: k, Causes: causes})
	}
	self := func(sub *Schema) result { return vd.validate(sub, v, loc, sc, depth+1) }
	child := func(sub *Schema, x any, tok string) result {
		return vd.validate(sub, x, append(slices.Clip(loc), tok), sc, depth+1)
	}

	t := typeOf(v)
	if len(s.types) > 0 {
		ok := slices.Contains(s.types, t) || (t == "number" && slices.Contains(s.types, "integer") && isInteger(v))
		if !ok {
			return fail(Type{Got: t, Want: s.types})
		}
	}
	if s.hasConst && !equal(v, s.constV) {
		return fail(Const{Got: v, Want: s.constV})
	}
	if s.enum != nil && !slices.ContainsFunc(s.enum, func(e any) bool { return equal(v, e) }) {
		return fail(Enum{Got: v, Want: s.enum})
	}
	if s.formatFn != nil {
		if err := s.formatFn(v); err != nil {
			return fail(Format{Got: v, Want: s.format, Err: err})
		}
	}
	if s.ref != nil {
		r := vd.validate(s.ref, v, loc, sc, depth+1)
		if s.draft == Draft4 {
			return r
		}
		if r.err != nil {
			add(refError(loc, s.ref, r.err))
		} else {
			evaluated(r)
		}
	}

	switch x := v.(type) {
	case map[string]any:
		if s.minProps >= 0 && len(x) < s.minProps {
			addKind(MinProperties{Got: len(x), Want: s.minProps})
		}
		if s.maxProps >= 0 && len(x) > s.maxProps {
			addKind(MaxProperties{Got: len(x), Want: s.maxProps})
		}
		if missing := missingOf(x, s.required); missing != nil {
			addKind(Required{Missing: missing})
		}
		if s.draft == Draft4 {
			for _, name := range sortedKeys(s.dependentSchemas) {
				if _, ok := x[name]; ok {
					if r := self(s.dependentSchemas[name]); r.err != nil {
						add(r.err)
					}
				}
			}
			for _, name := range sortedKeys(s.dependentRequired) {
				if _, ok := x[name]; ok {
					if missing := missingOf(x, s.dependentRequired[name]); missing != nil {
						addKind(DependentRequired{Prop: name, Missing: missing})
					}
				}
			}
		}
		var extra []string
		for _, name := range sortedKeys(x) {
			pv := x[name]
			ev := false
			if ps, ok := s.properties[name]; ok {
				ev = true
				if r := child(ps, pv, name); r.err != nil {
					add(r.err)
				}
			}
			for _, pp := range s.patternProps {
				if pp.re.MatchString(name) {
					ev = true
					if r := child(pp.sch, pv, name); r.err != nil {
						add(r.err)
					}
				}
			}
			if !ev {
				switch {
				case s.additionalFalse:
					extra = append(extra, name)
					ev = true
				case s.additional != nil:
					ev = true
					if r := child(s.additional, pv, name); r.err != nil {
						add(r.err)
					}
				}
			}
			if ev {
				if props == nil {
					props = map[string]bool{}
				}
				props[name] = true
			}
		}
		if len(extra) > 0 {
			addKind(AdditionalProperties{Properties: extra})
		}
		if s.propertyNames != nil {
			for _, name := range sortedKeys(x) {
				if r := vd.validate(s.propertyNames, name, loc, sc, depth+1); r.err != nil {
					e := r.err
					causes := []*ValidationError{e}
					if _, ok := e.Kind.(Group); ok {
						causes = e.Causes
					}
					add(&ValidationError{InstanceLocation: slices.Clone(loc), Kind: PropertyNames{Property: name}, Causes: causes})
				}
			}
		}
		if s.draft != Draft4 {
			for _, name := range sortedKeys(s.dependentSchemas) {
				if _, ok := x[name]; ok {
					if r := self(s.dependentSchemas[name]); r.err != nil {
						add(r.err)
					} else {
						evaluated(r)
					}
				}
			}
			for _, name := range sortedKeys(s.dependentRequired) {
				if _, ok := x[name]; ok {
					if missing := missingOf(x, s.dependentRequired[name]); missing != nil {
						addKind(DependentRequired{Prop: name, Missing: missing})
					}
				}
			}
		}
	case []any:
		if s.minItems >= 0 && len(x) < s.minItems {
			addKind(MinItems{Got: len(x), Want: s.minItems})
		}
		if s.maxItems >= 0 && len(x) > s.maxItems {
			addKind(MaxItems{Got: len(x), Want: s.maxItems})
		}
		if s.uniqueItems && len(x) > 1 {
			if i, j := duplicates(x); i >= 0 {
				addKind(UniqueItems{Duplicates: [2]int{i, j}})
			}
		}
		n := 0
		if s.itemsList != nil {
			n = min(len(s.itemsList), len(x))
			for i := range n {
				if r := child(s.itemsList[i], x[i], strconv.Itoa(i)); r.err != nil {
					add(r.err)
				}
				items[i] = true
			}
		}
		rest := s.items
		if s.draft == Draft4 && s.itemsList != nil {
			rest = s.additionalItems
			if s.additionalItemsOff && n < len(x) {
				addKind(AdditionalItems{Count: len(x) - n})
			}
		}
		if s.draft == Draft4 && s.itemsList == nil && s.items != nil {
			rest = s.items
		}
		if rest != nil {
			for i := n; i < len(x); i++ {
				if r := child(rest, x[i], strconv.Itoa(i)); r.err != nil {
					add(r.err)
				}
			}
			allItems = true
		}
		if s.contains != nil {
			var cerrs []*ValidationError
			matched := 0
			for i, it := range x {
				if r := child(s.contains, it, strconv.Itoa(i)); r.err != nil {
					cerrs = append(cerrs, r.err)
				} else {
					matched++
					items[i] = true
				}
			}
			if s.minContains >= 0 {
				if matched < s.minContains {
					wrap(MinContains{Got: matched, Want: s.minContains}, cerrs)
				}
			} else if matched == 0 {
				wrap(Contains{}, cerrs)
			}
			if s.maxContains >= 0 && matched > s.maxContains {
				addKind(MaxContains{Got: matched, Want: s.maxContains})
			}
		}
	case string:
		if s.minLength >= 0 || s.maxLength >= 0 {
			n := utf8.RuneCountInString(x)
			if s.minLength >= 0 && n < s.minLength {
				addKind(MinLength{Got: n, Want: s.minLength})
			}
			if s.maxLength >= 0 && n > s.maxLength {
				addKind(MaxLength{Got: n, Want: s.maxLength})
			}
		}
		if s.pattern != nil && !s.pattern.MatchString(x) {
			addKind(Pattern{Got: x, Want: s.pattern.String()})
		}
	default:
		if n, ok := ratOf(v); ok {
			if s.minimum != nil && n.Cmp(s.minimum) < 0 {
				addKind(Minimum{Got: n, Want: s.minimum})
			}
			if s.maximum != nil && n.Cmp(s.maximum) > 0 {
				addKind(Maximum{Got: n, Want: s.maximum})
			}
			if s.exclMin != nil && n.Cmp(s.exclMin) <= 0 {
				addKind(ExclusiveMinimum{Got: n, Want: s.exclMin})
			}
			if s.exclMax != nil && n.Cmp(s.exclMax) >= 0 {
				addKind(ExclusiveMaximum{Got: n, Want: s.exclMax})
			}
			if s.multipleOf != nil && !new(big.Rat).Quo(n, s.multipleOf).IsInt() {
				addKind(MultipleOf{Got: n, Want: s.multipleOf})
			}
		}
	}

	if s.dynRef != nil {
		target := s.dynRef
		if s.dynTargets != nil {
			// The outermost schema of the dynamic scope whose resource
			// has the anchor.
			var chain []*Schema
			for p := sc; p != nil; p = p.parent {
				chain = append(chain, p.s)
			}
			for i := len(chain) - 1; i >= 0; i-- {
				if a, ok := s.dynTargets[chain[i].resourceBase]; ok {
					target = a
					break
				}
			}
		}
		r := vd.validate(target, v, loc, sc, depth+1)
		if r.err != nil {
			add(refError(loc, target, r.err))
		} else {
			evaluated(r)
		}
	}
	if s.not != nil {
		if r := self(s.not); r.err == nil {
			addKind(Not{})
		}
	}
	if len(s.allOf) > 0 {
		var causes []*ValidationError
		for _, sub := range s.allOf {
			if r := self(sub); r.err != nil {
				causes = append(causes, r.err)
			} else {
				evaluated(r)
			}
		}
		if causes != nil {
			wrap(AllOf{}, causes)
		}
	}
	if len(s.anyOf) > 0 {
		var causes []*ValidationError
		matched := false
		for _, sub := range s.anyOf {
			if r := self(sub); r.err != nil {
				causes = append(causes, r.err)
			} else {
				matched = true
				evaluated(r)
			}
		}
		if !matched {
			wrap(AnyOf{}, causes)
		}
	}
	if len(s.oneOf) > 0 {
		var causes []*ValidationError
		first := -1
		for i, sub := range s.oneOf {
			r := self(sub)
			if r.err != nil {
				if first < 0 {
					causes = append(causes, r.err)
				}
				continue
			}
			if first >= 0 {
				addKind(OneOf{Subschemas: []int{first, i}})
				first = -2
				break
			}
			first = i
			evaluated(r)
		}
		if first == -1 {
			wrap(OneOf{}, causes)
		}
	}
	if s.ifS != nil {
		if r := self(s.ifS); r.err == nil {
			evaluated(r)
			if s.thenS != nil {
				if r := self(s.thenS); r.err != nil {
					add(r.err)
				} else {
					evaluated(r)
				}
			}
		} else if s.elseS != nil {
			if r := self(s.elseS); r.err != nil {
				add(r.err)
			} else {
				evaluated(r)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok && s.unevalProps != nil {
		for _, name := range sortedKeys(obj) {
			if props[name] {
				continue
			}
			if r := child(s.unevalProps, obj[name], name); r.err != nil {
				add(r.err)
			}
			if props == nil {
				props = map[string]bool{}
			}
			props[name] = true
		}
	}
	if arr, ok := v.([]any); ok && s.unevalItems != nil && !allItems {
		for i := range arr {
			if items[i] {
				continue
			}
			if r := child(s.unevalItems, arr[i], strconv.Itoa(i)); r.err != nil {
				add(r.err)
			}
			items[i] = true
		}
	}

	switch len(errs) {
	case 0:
		return result{props: props, items: items, allItems: allItems}
	case 1:
		return result{err: errs[0]}
	}
	return result{err: &ValidationError{InstanceLocation: slices.Clone(loc), Kind: Group{}, Causes: errs}}
}

func refError(loc []string, target *Schema, err *ValidationError) *ValidationError {
	causes := []*ValidationError{err}
	if _, ok := err.Kind.(Group); ok {
		causes = err.Causes
	}
	return &ValidationError{InstanceLocation: slices.Clone(loc), Kind: Reference{URL: target.loc}, Causes: causes}
}

func allKeys(v any) map[string]bool {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func missingOf(obj map[string]any, req []string) []string {
	var missing []string
	for _, r := range req {
		if _, ok := obj[r]; !ok {
			missing = append(missing, r)
		}
	}
	return missing
}

func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.Number, float64, float32, int, int64, int32:
		return "number"
	}
	return "invalid"
}

func isInteger(v any) bool {
	r, ok := ratOf(v)
	return ok && r.IsInt()
}

// equal is JSON equality: numbers by value, objects by their members.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equal(a[i], bl[i]) {
				return false
			}
		}
		return true
	case string, bool, nil:
		return a == b
	}
	ra, ok1 := ratOf(a)
	rb, ok2 := ratOf(b)
	return ok1 && ok2 && ra.Cmp(rb) == 0
}

// duplicates finds the first pair of equal items.
func duplicates(l []any) (int, int) {
	for i := 1; i < len(l); i++ {
		for j := range i {
			if equal(l[i], l[j]) {
				return j, i
			}
		}
	}
	return -1, -1
}
