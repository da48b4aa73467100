package redact

import (
	"reflect"
)

// Scrub is the one redaction pass every write takes at the service
// boundary: it replaces secrets (Redact: private spans, keys,
// tokens, passwords) in every string reachable from the pointers it is
// given: strings, string-kinded types, slices, arrays, pointers and struct
// fields (exported ones) and map values, recursively. It returns how many it replaced.
// References, enums and ids pass unchanged: no secret shape matches them.
func Scrub(ptrs ...any) int {
	n := 0
	for _, p := range ptrs {
		if p == nil {
			continue
		}
		n += scrubValue(reflect.ValueOf(p))
	}
	return n
}

func scrubValue(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return scrubValue(v.Elem())
	case reflect.String:
		if !v.CanSet() || v.Len() == 0 {
			return 0
		}
		out, r := Redact(v.String())
		if r.Total > 0 {
			v.SetString(out)
		}
		return r.Total
	case reflect.Slice, reflect.Array:
		n := 0
		for i := range v.Len() {
			n += scrubValue(v.Index(i))
		}
		return n
	case reflect.Map:
		// Values only: keys name things (criterion ids) rather than hold
		// text. Map values are not addressable, so each is copied, cleaned
		// and put back.
		if v.IsNil() {
			return 0
		}
		n := 0
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			if m := scrubValue(e); m > 0 {
				v.SetMapIndex(k, e)
				n += m
			}
		}
		return n
	case reflect.Struct:
		n := 0
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				n += scrubValue(v.Field(i))
			}
		}
		return n
	}
	return 0
}
