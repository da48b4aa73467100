package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"
)

// detailField is one type-specific field of Entry: its name in the details
// document and where it is in the struct.
type detailField struct {
	name  string
	index int
	kind  reflect.Kind // String, Slice (of string) or Int
}

// detailFields are Entry's fields tagged `detail:"name"`, in struct order.
var detailFields = func() []detailField {
	t := reflect.TypeFor[Entry]()
	var out []detailField
	for i := range t.NumField() {
		f := t.Field(i)
		name := f.Tag.Get("detail")
		if name == "" {
			continue
		}
		k := f.Type.Kind()
		if k != reflect.String && k != reflect.Int && !(k == reflect.Slice && f.Type.Elem().Kind() == reflect.String) {
			panic("memory: detail field " + f.Name + " must be a string, []string or int")
		}
		out = append(out, detailField{name: name, index: i, kind: k})
	}
	return out
}()

// DetailNames lists the names of the type-specific fields, as the details
// document spells them.
func DetailNames() []string {
	out := make([]string, len(detailFields))
	for i, f := range detailFields {
		out[i] = f.name
	}
	return out
}

// eachDetail calls fn with each text detail of e: a string field's pointer
// or a list field's pointer (the other nil).
func (e *Entry) eachDetail(fn func(name string, s *string, l *[]string)) {
	v := reflect.ValueOf(e).Elem()
	for _, f := range detailFields {
		switch f.kind {
		case reflect.String:
			fn(f.name, v.Field(f.index).Addr().Interface().(*string), nil)
		case reflect.Slice:
			fn(f.name, nil, v.Field(f.index).Addr().Interface().(*[]string))
		}
	}
}

// EachText calls fn with every text e holds: title, content, facts, files
// and each text detail, so a rule over all of them (redaction) needs no
// list of fields.
func (e *Entry) EachText(fn func(s *string)) {
	fn(&e.Title)
	fn(&e.Content)
	for _, l := range []*[]string{&e.Facts, &e.Files} {
		for i := range *l {
			fn(&(*l)[i])
		}
	}
	e.eachDetail(func(_ string, s *string, l *[]string) {
		if s != nil {
			fn(s)
			return
		}
		for i := range *l {
			fn(&(*l)[i])
		}
	})
}

// Details is e's type-specific fields as one JSON object, empty fields left
// out; nil when every one is empty. Stores keep it in one column.
func (e Entry) Details() []byte {
	v := reflect.ValueOf(e)
	var b bytes.Buffer
	for _, f := range detailFields {
		fv := v.Field(f.index)
		if fv.IsZero() || (f.kind == reflect.Slice && fv.Len() == 0) {
			continue
		}
		val, err := json.Marshal(fv.Interface())
		if err != nil { // strings, lists of strings and ints always encode
			panic(err)
		}
		if b.Len() == 0 {
			b.WriteByte('{')
		} else {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(f.name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(val)
	}
	if b.Len() == 0 {
		return nil
	}
	b.WriteByte('}')
	return b.Bytes()
}

// SetDetails reads a details document (as Details writes it) into e's
// type-specific fields. Unknown names are ignored, so a document written by
// a newer Cairn still reads; empty or null input sets nothing.
func (e *Entry) SetDetails(doc []byte) error {
	doc = bytes.TrimSpace(doc)
	if len(doc) == 0 || string(doc) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return fmt.Errorf("details of entry %s: %w", e.ID, err)
	}
	v := reflect.ValueOf(e).Elem()
	for _, f := range detailFields {
		raw, ok := m[f.name]
		if !ok || string(raw) == "null" {
			continue
		}
		if err := json.Unmarshal(raw, v.Field(f.index).Addr().Interface()); err != nil {
			return fmt.Errorf("details of entry %s: %s: %w", e.ID, f.name, err)
		}
	}
	if len(e.Alternatives) == 0 {
		e.Alternatives = nil
	}
	if len(e.Examples) == 0 {
		e.Examples = nil
	}
	return nil
}

// Occurrence is one time a known mistake was recorded: when, where, and
// what that run said. Occurrence 1 is the entry's own first recording.
type Occurrence struct {
	N         int // 1 for the first
	At        time.Time
	SessionID string
	Branch    string
	Title     string // the error as this run worded it
	Content   string
	// The analysis this run gave (the entry keeps its first root cause,
	// fix and prevention unless a later run replaces them).
	RootCause  string `json:"root_cause,omitempty"`
	Fix        string `json:"fix,omitempty"`
	Prevention string `json:"prevention,omitempty"`
}

// OccurrenceOf is the occurrence e records, numbered n, with the analysis
// it gave: the first occurrence keeps the first analysis whatever later
// replaces it.
func OccurrenceOf(e Entry, n int) Occurrence {
	return Occurrence{N: n, At: e.CreatedAt, SessionID: e.SessionID, Branch: e.Branch, Title: e.Title, Content: e.Content,
		RootCause: e.RootCause, Fix: e.Fix, Prevention: e.Prevention}
}

// Extra is the occurrence's own analysis as a JSON document, nil when it
// has none.
func (o Occurrence) Extra() []byte {
	if o.RootCause == "" && o.Fix == "" && o.Prevention == "" {
		return nil
	}
	b, _ := json.Marshal(struct {
		RootCause  string `json:"root_cause,omitempty"`
		Fix        string `json:"fix,omitempty"`
		Prevention string `json:"prevention,omitempty"`
	}{o.RootCause, o.Fix, o.Prevention})
	return b
}

// SetExtra reads what Extra wrote.
func (o *Occurrence) SetExtra(doc []byte) error {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil
	}
	return json.Unmarshal(doc, o)
}

// Folded is a known mistake recorded again.
type Folded struct {
	Entry      Entry      // the known mistake, counted
	Occurrence Occurrence // this recording
	// The analysis fields (root_cause, fix, prevention) this recording
	// filled in where the entry had none, replaced (replace set), or gave
	// differently and left with the occurrence, the entry's kept.
	Added, Replaced, Kept []string
}

// Fold is a known mistake k recorded again as e. The first root cause, fix
// and prevention stay unless replace is set (then e's non-empty ones
// replace them); the occurrence holds the analysis e gave, and the first
// occurrence the first analysis, so nothing recorded is lost. Facts, tags and files are
// merged; k's title and content stay (e's are the occurrence's).
func Fold(k, e Entry, replace bool) Folded {
	k.Occurrences++
	r := Folded{Occurrence: OccurrenceOf(e, k.Occurrences)}
	for _, f := range []struct {
		name string
		dst  *string
		src  string
	}{
		{"root_cause", &k.RootCause, e.RootCause},
		{"fix", &k.Fix, e.Fix},
		{"prevention", &k.Prevention, e.Prevention},
	} {
		switch {
		case f.src == "" || f.src == *f.dst:
		case *f.dst == "":
			*f.dst = f.src
			r.Added = append(r.Added, f.name)
		case replace:
			*f.dst = f.src
			r.Replaced = append(r.Replaced, f.name)
		default:
			r.Kept = append(r.Kept, f.name)
		}
	}
	k.Facts = Union(k.Facts, e.Facts)
	k.Tags = Union(k.Tags, e.Tags)
	k.Files = Union(k.Files, e.Files)
	for p, h := range e.FileHashes {
		if k.FileHashes == nil {
			k.FileHashes = map[string]string{}
		}
		k.FileHashes[p] = h
	}
	k.UpdatedAt = e.CreatedAt
	r.Entry = k
	return r
}
