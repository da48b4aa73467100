package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	focustools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/focus"
	"github.com/cairn-dev/cairn/internal/problem"
)

// maxFieldErrorLen bounds an argument error, whatever the input: a message
// names the field and the fix, and never echoes a large value.
const maxFieldErrorLen = 400

// goInternals must never show in a message the model reads.
var goInternals = []string{"json:", "go struct", "go value", "reflect", "unmarshal", "*mcp.", "main.",
	"strconv", "interface {", "map[string]", "[]uint8", "mcpserver.", "*task."}

var argSeeds = []string{
	``, `null`, `{}`, `[]`, `"x"`, `1`, `true`, `{`, `}`, `{"a":}`, `{"title":"t","body":""}`,
	`{"title":12,"body":""}`, `{"title":"t"}`, `{"title":null,"body":null}`, `{"title":"t","body":"","x":1}`,
	`{"Title":"t","body":""}`, `{"title":"t","title":"u","body":""}`, `{"title":"a\ud800b","body":""}`,
	"{\"title\":\"a\xffb\",\"body\":\"\"}", `{"title":"\ud83d\ude00","body":"\\u0041"}`, `{"body":"\\\ud800"}`,
	`{"task_id":"12"}`, `{"task_id":12}`, `{"task_id":-1}`, `{"task_id":1.5}`, `{"task_id":"abc"}`,
	`{"task_id":1e308}`, `{"task_id":123456789012345678901234567890}`, `{"task_id":[]}`, `{"task_id":{}}`,
	`{"include_body":true}`, `{"include_body":"true"}`, `{"include_body":1}`,
	`{"offset":0,"limit":20}`, `{"offset":-1}`, `{"offset":1.5}`, `{"offset":1e308}`, `{"limit":"5"}`,
	`{"offset":9223372036854775807}`, `{"offset":9223372036854775808}`, `{"format":"json"}`, `{"format":1}`,
	`{"order":"logical"}`, `{"order":["logical"]}`, `{"` + strings.Repeat("k", 300) + `":1}`,
	`{"body":"` + strings.Repeat("\\u0000", 100) + `"}`, `{"title":[[[[[[[[[[]]]]]]]]]]}`, `  {"title":"t","body":""}  `,
	`{"title":"t","body":""} x`, `{"format":"XML"}`, `{"format":" Json "}`, `{"format":""}`, `{"limit":1001}`, `{"order":"Logical"}`, "{\"title\":\"\x8e\",\"title\":\"\",\"body\":\"\"}", "{\"title\":\"t\",\"body\":\"\"}\n", `{"":1}`, `{"offset":-0}`, `{"limit":1e2}`,
}

// FuzzDecodeArgs feeds arbitrary bytes to decodeArgs for every argument
// struct of the focus tools: it never panics, and every error is a
// *problem.FieldError with a short message free of Go internals.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range argSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fuzzDecode[focustools.NewTaskArgs](t, "create_new_task", raw)
		fuzzDecode[focustools.BodyArgs](t, "update_current_task", raw)
		fuzzDecode[focustools.IncludeBodyArgs](t, "peek_context", raw)
		fuzzDecode[focustools.PageArgs](t, "get_stack_overview", raw)
		fuzzDecode[focustools.BigPictureArgs](t, "get_big_picture", raw)
		fuzzDecode[focustools.CompletedArgs](t, "get_completed_tasks", raw)
		fuzzDecode[tool.NoArgs](t, "get_current_task", raw)
		fuzzDecode[focustools.TaskIDArgs](t, "switch_focus", raw)
	})
}

// fuzzDecode decodes raw as the arguments of the tool named name, whose
// argument struct is In, with the tool's schema: enums and bounds too.
func fuzzDecode[In any](t *testing.T, name string, raw []byte) (In, error) {
	t.Helper()
	schema := toolSchema(t, name)
	in, err := tool.DecodeArgs[In](json.RawMessage(raw), schema)
	if err != nil {
		checkFieldError(t, raw, err)
		return in, err
	}
	checkAccepted(t, raw, schema)
	// What the handler gets is valid by the schema the tool declares, as
	// the SDK's validator reads it: an enum's value as declared, a number
	// within its bounds, an id as a string.
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var instance any
	if err := json.Unmarshal(b, &instance); err != nil {
		t.Fatal(err)
	}
	if err := resolvedSchema(t, name).Validate(instance); err != nil {
		t.Fatalf("decoded %q as %s, which the declared schema refuses: %v", clipBytes(raw), b, err)
	}
	return in, nil
}

var resolvedSchemas = map[string]*jsonschema.Resolved{}

// resolvedSchema is the advertised schema of the tool named name, resolved
// for the SDK's validator, once.
func resolvedSchema(t *testing.T, name string) *jsonschema.Resolved {
	if r, ok := resolvedSchemas[name]; ok {
		return r
	}
	for _, tl := range allTools() {
		if tl.Def.Name == name {
			_, r := advertised(t, tl)
			resolvedSchemas[name] = r
			return r
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func checkFieldError(t *testing.T, raw []byte, err error) {
	t.Helper()
	var fe *problem.FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("decode %q: error %T is not a *problem.FieldError: %v", clipBytes(raw), err, err)
	}
	msg := err.Error()
	if len(msg) >= maxFieldErrorLen {
		t.Fatalf("decode %d bytes: message is %d bytes: %q", len(raw), len(msg), clipBytes([]byte(msg)))
	}
	if fe.Field == "" || fe.Problem == "" || fe.Fix == "" {
		t.Fatalf("decode %q: a field error without field, problem or fix: %#v", clipBytes(raw), fe)
	}
	if !utf8.ValidString(msg) {
		t.Fatalf("decode %q: message is not valid UTF-8: %q", clipBytes(raw), msg)
	}
	lower := strings.ToLower(msg)
	for _, bad := range goInternals {
		if strings.Contains(lower, bad) {
			t.Fatalf("decode %q: message shows Go internals (%q): %s", clipBytes(raw), bad, msg)
		}
	}
}

// checkAccepted checks what decodeArgs promises of what it accepts: an
// object (or nothing), only the tool's own argument names, every required one
// present and not null, and only valid UTF-8 text.
func checkAccepted(t *testing.T, raw []byte, schema *jsonschema.Schema) {
	t.Helper()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		t.Fatalf("accepted %q, which is not a JSON object: %v", clipBytes(raw), err)
	}
	for name := range fields {
		if _, ok := schema.Properties[name]; !ok {
			t.Fatalf("accepted %q with the unknown argument %q", clipBytes(raw), name)
		}
	}
	for _, name := range schema.Required {
		if b, ok := fields[name]; !ok || string(bytes.TrimSpace(b)) == "null" {
			t.Fatalf("accepted %q without the required %q", clipBytes(raw), name)
		}
	}
	for name, v := range fields { // a repeated name counts once: the last value
		if !utf8.Valid(v) {
			t.Fatalf("accepted invalid UTF-8 in %q: %q", name, clipBytes(raw))
		}
		// encoding/json turns a lone surrogate escape into U+FFFD: more
		// U+FFFD decoded than the client sent means replaced text.
		var decoded any
		if json.Unmarshal(v, &decoded) == nil {
			sent := bytes.Count(v, []byte("\uFFFD")) + bytes.Count(bytes.ToLower(v), []byte(`\ufffd`))
			if got := countReplacement(decoded); got > sent {
				t.Fatalf("accepted %q, which decodes to replaced text (%d U+FFFD, %d sent)", clipBytes(raw), got, sent)
			}
		}
	}
}

func countReplacement(v any) int {
	switch v := v.(type) {
	case string:
		return strings.Count(v, "\uFFFD")
	case []any:
		n := 0
		for _, x := range v {
			n += countReplacement(x)
		}
		return n
	case map[string]any:
		n := 0
		for k, x := range v {
			n += strings.Count(k, "\uFFFD") + countReplacement(x)
		}
		return n
	}
	return 0
}

func clipBytes(b []byte) []byte {
	if len(b) > 200 {
		return append(b[:200:200], "…"...)
	}
	return b
}
