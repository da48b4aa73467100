package loop

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cairn-dev/cairn/internal/problem"
)

// A loop's description and free-form metadata (seed 001's Ralph task: a
// detailed description beside the one-line objective, and metadata that
// takes any property beside created_by, priority, tags and execution_mode).

// Limits on the description and the free-form metadata.
const (
	MaxDescription   = 8 << 10 // bytes
	MaxMetadataBytes = 4 << 10 // bytes of the metadata's JSON
	MaxMetadataKeys  = 32      // keys at any depth
	MaxMetadataDepth = 4       // objects and arrays nested in the top object
)

// knownMetadata are the keys Metadata holds in its own fields.
var knownMetadata = []string{"created_by", "priority", "tags", "execution_mode"}

// validKey says whether k is a metadata key: a letter, then up to 63
// letters, digits, '_', '.' or '-' (checked by hand: a package-level
// regexp is compiled by every cairn process at start, hooks included).
func validKey(k string) bool {
	if len(k) == 0 || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// ValidateMetadata checks free-form metadata: a JSON object of at most
// MaxMetadataKeys keys (named like identifiers, none of the keys Metadata
// holds itself), nested at most MaxMetadataDepth deep, at most
// MaxMetadataBytes as JSON.
func ValidateMetadata(extra map[string]any) error {
	if len(extra) == 0 {
		return nil
	}
	fe := func(problemText, fix string) error {
		return &problem.FieldError{Field: "metadata", Problem: problemText, Fix: fix}
	}
	for k := range extra {
		if slices.Contains(knownMetadata, k) {
			return fe("sets "+problem.Quote(k)+", which is an argument of its own", "pass "+k+" as its own argument")
		}
	}
	keys := 0
	var walk func(v any, depth int, at string) error
	walk = func(v any, depth int, at string) error {
		switch v := v.(type) {
		case map[string]any:
			if depth > MaxMetadataDepth {
				return fe(fmt.Sprintf("nests deeper than %d levels at %s", MaxMetadataDepth, at), "flatten it")
			}
			for k, x := range v {
				keys++
				if !validKey(k) {
					return fe("has the key "+problem.Quote(problem.Clip(k, 40)), "name keys with letters, digits, _ . - (a letter first, up to 64)")
				}
				if err := walk(x, depth+1, at+"."+k); err != nil {
					return err
				}
			}
		case []any:
			if depth > MaxMetadataDepth {
				return fe(fmt.Sprintf("nests deeper than %d levels at %s", MaxMetadataDepth, at), "flatten it")
			}
			for i, x := range v {
				if err := walk(x, depth+1, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(extra, 1, "metadata"); err != nil {
		return err
	}
	if keys > MaxMetadataKeys {
		return fe(fmt.Sprintf("has %d keys", keys), fmt.Sprintf("keep at most %d", MaxMetadataKeys))
	}
	b, err := json.Marshal(extra)
	if err != nil {
		return fe("is not JSON: "+err.Error(), "pass a JSON object")
	}
	if len(b) > MaxMetadataBytes {
		return fe(fmt.Sprintf("is %d bytes as JSON, over the limit of %d", len(b), MaxMetadataBytes), "keep it small: it is shown with the loop")
	}
	return nil
}

// metadataFields is Metadata without its methods, for encoding.
type metadataFields Metadata

// MarshalJSON writes the known fields, then the free-form ones in the
// same object (seed 001's additionalProperties).
func (m Metadata) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(metadataFields(m))
	if err != nil || len(m.Extra) == 0 {
		return b, err
	}
	extra, err := json.Marshal(m.Extra) // sorted keys
	if err != nil {
		return nil, err
	}
	if len(extra) <= 2 {
		return b, nil
	}
	out := append(b[:len(b)-1:len(b)-1], ',')
	return append(out, extra[1:]...), nil
}

// UnmarshalJSON reads the known fields and keeps the rest as Extra.
func (m *Metadata) UnmarshalJSON(b []byte) error {
	var f metadataFields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for _, k := range knownMetadata {
		delete(all, k)
	}
	*m = Metadata(f)
	if len(all) > 0 {
		m.Extra = all
	}
	return nil
}
