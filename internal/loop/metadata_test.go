package loop

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMetadataRoundTrip: the free-form keys are written beside the known
// ones and read back as they were; a state stored before metadata existed
// reads with none.
func TestMetadataRoundTrip(t *testing.T) {
	m := Metadata{CreatedBy: "codex", Priority: "high", Tags: []string{"ci"}, ExecutionMode: "strict",
		Extra: map[string]any{"ticket": "CI-412", "runs": map[string]any{"ci": 30.0}}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"created_by":"codex","priority":"high","tags":["ci"],"execution_mode":"strict","runs":{"ci":30},"ticket":"CI-412"}`; string(b) != want {
		t.Fatalf("marshal:\n got %s\nwant %s", b, want)
	}
	var back Metadata
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.CreatedBy != "codex" || back.Extra["ticket"] != "CI-412" || len(back.Extra) != 2 {
		t.Fatalf("unmarshal: %+v", back)
	}
	var old State
	if err := json.Unmarshal([]byte(`{"objective":"x","metadata":{"priority":"low","execution_mode":"default"}}`), &old); err != nil || old.Metadata.Extra != nil || old.Description != "" {
		t.Fatalf("an old state: %+v %v", old, err)
	}
	if b, _ := json.Marshal(Metadata{Priority: "low"}); string(b) != `{"priority":"low","execution_mode":""}` {
		t.Fatalf("no extra: %s", b)
	}
}

func TestValidateMetadata(t *testing.T) {
	deep := map[string]any{"a": map[string]any{"b": map[string]any{"c": map[string]any{"d": map[string]any{"e": 1.0}}}}}
	many := map[string]any{}
	for i := range 40 {
		many["k"+strings.Repeat("x", i)] = 1.0
	}
	for name, c := range map[string]struct {
		in   map[string]any
		want string // "" passes
	}{
		"empty":        {nil, ""},
		"plain":        {map[string]any{"ticket": "CI-412", "owner.team": "infra", "runs": []any{1.0, 2.0}}, ""},
		"known key":    {map[string]any{"tags": []any{"x"}}, `sets "tags"`},
		"bad key":      {map[string]any{"has space": 1.0}, "has the key"},
		"too deep":     {deep, "nests deeper than 4"},
		"too many":     {many, "has 40 keys"},
		"too large":    {map[string]any{"blob": strings.Repeat("x", MaxMetadataBytes)}, "over the limit of 4096"},
		"nested key":   {map[string]any{"a": map[string]any{"9lives": 1.0}}, `has the key "9lives"`},
		"array nested": {map[string]any{"a": []any{[]any{[]any{[]any{[]any{1.0}}}}}}, "nests deeper"},
	} {
		err := ValidateMetadata(c.in)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}
