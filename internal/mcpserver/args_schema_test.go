package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	loopstools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/loops"
	memorytools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/memory"
	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	"github.com/cairn-dev/cairn/internal/service"
)

// errDecoded is what the test services answer: the arguments got past
// decoding.
var errDecoded = errors.New("the arguments were decoded")

// decodeCall runs a tool's real handler on raw arguments, with services that
// record being reached. It returns whether decoding accepted the arguments,
// and the message of the refusal if not.
func decodeCall(t *testing.T, tl tool.Tool, raw string) (accepted bool, msg string) {
	t.Helper()
	reached := false
	s := &server{log: slog.New(slog.DiscardHandler), opts: Options{
		Services: func(context.Context) (*service.Set, error) { reached = true; return nil, errDecoded },
	}}
	res, err := s.handler(tl)(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tl.Def.Name, Arguments: json.RawMessage(raw)}})
	if err != nil {
		t.Fatalf("%s %s: protocol error %v", tl.Key, raw, err)
	}
	if reached {
		return true, ""
	}
	if !res.IsError || len(res.Content) != 1 {
		t.Fatalf("%s %s: neither refused nor passed on: %+v", tl.Key, raw, res)
	}
	return false, strings.TrimPrefix(res.Content[0].(*mcp.TextContent).Text, "error: ")
}

// advertised is a tool's input schema as tools/list sends it, resolved for
// the SDK's validator.
func advertised(t *testing.T, tl tool.Tool) (*jsonschema.Schema, *jsonschema.Resolved) {
	t.Helper()
	var s jsonschema.Schema
	b, err := json.Marshal(definition(tl).InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: resolve the advertised schema: %v", tl.Key, err)
	}
	return &s, r
}

// everyTool is every declared tool and read-only variant.
func everyTool() []tool.Tool {
	var out []tool.Tool
	for _, tl := range allTools() {
		out = append(out, tl)
		if tl.ReadOnlyVariant != nil {
			out = append(out, *tl.ReadOnlyVariant)
		}
	}
	return out
}

// TestDecodeMatchesSchemaValidator holds decodeArgs to the JSON Schema
// validator the SDK uses (jsonschema-go), on every tool's advertised schema:
// at each enum value, each bound and each side of it, both accept or both
// refuse. The decoder's documented leniencies (an enum's case, an empty
// optional enum) are checked apart: it accepts them.
func TestDecodeMatchesSchemaValidator(t *testing.T) {
	cases := 0
	for _, tl := range everyTool() {
		if tl.Always {
			continue // toolsets needs no services to reach; its names are checked past the schema (TestToolsetsCall)
		}
		s, resolved := advertised(t, tl)
		base := validArgs(s)
		check := func(name string, v any) {
			t.Helper()
			args := map[string]any{}
			for k, x := range base {
				args[k] = x
			}
			args[name] = v
			raw, err := json.Marshal(args)
			if err != nil {
				t.Fatal(err)
			}
			var instance any
			_ = json.Unmarshal(raw, &instance)
			want := resolved.Validate(instance) == nil
			got, msg := decodeCall(t, tl, string(raw))
			cases++
			switch {
			case got && !want:
				t.Errorf("%s %s: decoded, but the schema refuses it", tl.Key, raw)
			case !got && want:
				t.Errorf("%s %s: refused (%s), but the schema accepts it", tl.Key, raw, msg)
			case !got && !strings.HasPrefix(msg, name):
				t.Errorf("%s %s: the refusal does not start with the field: %s", tl.Key, raw, msg)
			}
		}
		if ok, msg := decodeCall(t, tl, mustJSON(base)); !ok || resolved.Validate(base) != nil {
			t.Fatalf("%s: the base arguments %s are not valid: %s", tl.Key, mustJSON(base), msg)
		}
		for _, name := range sortedKeys(s.Properties) {
			p := s.Properties[name]
			for _, v := range probes(p) {
				check(name, v)
			}
			if p.Type == "array" && p.Items != nil {
				for _, v := range probes(p.Items) {
					check(name, []any{v})
				}
			}
			if p.Type == "string" && len(p.Enum) > 0 {
				// Leniencies: the case and the space around a value, an
				// empty optional choice.
				lenient := []any{strings.ToUpper(p.Enum[0].(string)), " " + p.Enum[0].(string) + " "}
				if !slices.Contains(s.Required, name) {
					lenient = append(lenient, "")
				}
				for _, v := range lenient {
					args := map[string]any{name: v}
					for k, x := range base {
						if k != name {
							args[k] = x
						}
					}
					if ok, msg := decodeCall(t, tl, mustJSON(args)); !ok {
						t.Errorf("%s %s: refused: %s", tl.Key, mustJSON(args), msg)
					}
				}
			}
		}
	}
	t.Logf("%d cases", cases)
}

// validArgs are arguments that satisfy s: its required ones, each with a
// value that every check accepts.
func validArgs(s *jsonschema.Schema) map[string]any {
	args := map[string]any{}
	for _, name := range s.Required {
		p := s.Properties[name]
		switch {
		case len(p.Enum) > 0:
			args[name] = p.Enum[0]
		case p.Type == "array":
			args[name] = []any{"1"}
		case p.Type == "object":
			args[name] = map[string]any{}
		case p.Type == "integer" || p.Type == "number":
			args[name] = 1
		default:
			args[name] = "1" // an id or text alike
		}
	}
	return args
}

// probes are the values worth trying against a property's keywords: each
// enum value and one outside it; each bound, and the numbers either side.
func probes(p *jsonschema.Schema) []any {
	out := slices.Clone(p.Enum)
	if len(p.Enum) > 0 {
		out = append(out, "nope")
	}
	for _, b := range []*float64{p.Minimum, p.Maximum, p.ExclusiveMinimum, p.ExclusiveMaximum} {
		if b == nil {
			continue
		}
		out = append(out, *b-1, *b, *b+1)
		if p.Type == "number" {
			out = append(out, *b-0.5, *b+0.5)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestDeclaredKeywordsChecked: every keyword a tool's schema declares is one
// decodeArgs enforces (checkedKeywords) or one that only describes. A new
// keyword in a declaration fails here until the decoder checks it.
func TestDeclaredKeywordsChecked(t *testing.T) {
	describes := []string{"type", "properties", "required", "description", "title"}
	for _, tl := range everyTool() {
		b, err := json.Marshal(tl.Schema())
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		var walk func(path string, s map[string]any)
		walk = func(path string, s map[string]any) {
			for k, v := range s {
				switch {
				case k == "properties":
					for name, p := range v.(map[string]any) {
						walk(path+"."+name, p.(map[string]any))
					}
				case k == "items":
					walk(path+"[]", v.(map[string]any))
				case k == "enum":
					for _, e := range v.([]any) {
						if _, ok := e.(string); !ok {
							t.Errorf("%s%s: enum value %v is not a string; checkString compares strings", tl.Key, path, e)
						}
					}
				case k == "pattern":
					if _, err := regexp.Compile(v.(string)); err != nil {
						t.Errorf("%s%s: pattern: %v", tl.Key, path, err)
					}
				case slices.Contains(describes, k) || slices.Contains(tool.CheckedKeywords, k):
				default:
					t.Errorf("%s%s declares %q, which decodeArgs does not check: add it to checkValue", tl.Key, path, k)
				}
			}
		}
		walk("", doc)
	}
}

// keywordArgs exercises the keywords no tool declares yet.
type keywordArgs struct {
	Code  string          `json:"code,omitempty"`
	Name  string          `json:"name,omitempty"`
	Tags  []string        `json:"tags,omitempty"`
	Ratio float64         `json:"ratio,omitempty"`
	Pick  tool.StringList `json:"pick,omitempty"`
}

// TestCheckedKeywords: the keywords that no declaration uses yet are
// enforced as the SDK's validator enforces them, with messages that name
// the field and say what to do.
func TestCheckedKeywords(t *testing.T) {
	ptr := func(n int) *int { return &n }
	f := func(x float64) *float64 { return &x }
	tl := tool.Declare("test", mcp.Tool{Name: "keywords"}, func(context.Context, tool.Call, keywordArgs) (string, any, error) { return "", nil, nil },
		func(s *jsonschema.Schema) {
			s.Properties["code"].Pattern = "^[A-Z]{2}[0-9]+$"
			s.Properties["name"].MinLength, s.Properties["name"].MaxLength = ptr(2), ptr(5)
			s.Properties["tags"].MinItems, s.Properties["tags"].MaxItems, s.Properties["tags"].UniqueItems = ptr(1), ptr(3), true
			s.Properties["ratio"].ExclusiveMinimum, s.Properties["ratio"].ExclusiveMaximum = f(0), f(1)
			// A fresh schema: StringList's is shared by every field of its type.
			s.Properties["pick"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: []any{"red", "green"}}}
		})
	_, resolved := advertised(t, tl)
	for _, c := range []struct {
		args string
		want string // the refusal; "" accepts
	}{
		{`{"code":"AB12"}`, ""},
		{`{"code":"ab12"}`, `code is "ab12": use a value that matches ^[A-Z]{2}[0-9]+$`},
		{`{"name":"ab"}`, ""},
		{`{"name":"abcde"}`, ""},
		{`{"name":"é"}`, "name is 1 character long: give at least 2 characters"},
		{`{"name":"ééééé"}`, ""},
		{`{"name":"abcdef"}`, "name is 6 characters long: shorten it to 5 characters"},
		{`{"tags":["a"]}`, ""},
		{`{"tags":[]}`, "tags has 0 items: pass at least 1"},
		{`{"tags":["a","b","c","d"]}`, "tags has 4 items: pass at most 3"},
		{`{"tags":["a","b","a"]}`, "tags[2] repeats item 0: pass each value once"},
		{`{"ratio":0.5}`, ""},
		{`{"ratio":1}`, "ratio is 1: use more than 0 and less than 1, or leave it out"},
		{`{"ratio":-0.5}`, "ratio is -0.5: use more than 0 and less than 1, or leave it out"},
		{`{"pick":["red","green"]}`, ""},
		{`{"pick":["red","blue"]}`, `pick has "blue": use red or green`},
		{`{"pick":["red",""]}`, `pick has "": use red or green`},
		{`{"pick":"blue"}`, `pick has "blue": use red or green`}, // a list of one, sent as its value
	} {
		var instance any
		if err := json.Unmarshal([]byte(c.args), &instance); err != nil {
			t.Fatal(err)
		}
		ok, msg := decodeCall(t, tl, c.args)
		if want := c.want == ""; ok != want || msg != c.want {
			t.Errorf("%s: accepted %v, %q; want %v, %q", c.args, ok, msg, want, c.want)
		}
		if schemaOK := resolved.Validate(instance) == nil; schemaOK != ok {
			t.Errorf("%s: the decoder accepts it: %v; the schema: %v", c.args, ok, schemaOK)
		}
	}
}

// TestArgumentRefusals pins the words of the schema's refusals, and that an
// enum's value reaches the handler as declared, whatever its case.
func TestArgumentRefusals(t *testing.T) {
	byKey := map[string]tool.Tool{}
	for _, tl := range everyTool() {
		byKey[tl.Key] = tl
	}
	for _, c := range []struct {
		tool, args, want string
	}{
		{"get_big_picture", `{"format":"xml"}`, `format is "xml": use text or json`},
		{"get_big_picture", `{"limit":1001}`, "limit is 1001: pass a limit from 1 to 1000"},
		{"list_siblings", `{"limit":51}`, "limit is 51: pass a limit from 1 to 50"},
		{"create_task", `{"title":"t","priority":"urgent"}`, `priority is "urgent": use critical, high, medium or low`},
		{"query_tasks", `{"sort":{"field":"size"}}`, `sort.field is "size": use priority, created, updated or status`},
		{"memory_search", `{"type":["decision","note"]}`, `type has "note": use decision, mistake, convention, pattern, preference, insight, tool_outcome, workflow_outcome or context`},
		{"loop_start", `{"objective":"o","completion_criteria":"c","priority":"urgent"}`, `priority is "urgent": use critical, high, medium or low`},
		{"observation", `{"type":"decision","title":"t"}`, `type is "decision": use memory_add_decision for a decision, which keeps its own fields`},
		{"observation", `{"type":"note","title":"t"}`, `type is "note": use pattern, preference, insight, tool_outcome, workflow_outcome or context`},
		{"session", `{"action":"stop"}`, `action is "stop": use start, update, end, get or list`},
		{"session read-only", `{"action":"start"}`, `action is "start": use get or list`},
		{"bootstrap", `{"budget_tokens":100}`, "budget_tokens is 100: use 300 to 20000 (default 1500)"},
		{"claim_task", `{"lease_seconds":86401}`, "lease_seconds is 86401: use 1 to 86400 (default 900)"},
		{"observation", `{"type":"insight","title":"t","expires_in_days":4000}`, "expires_in_days is 4000: use 1 to 3650, or leave it out"},
		{"loop_record", `{"id":"1","last_action":"a","percentage":100.5}`, "percentage is 100.5: use 0 to 100, or leave it out"},
		{"memory_context", `{"id":"m1","before":21}`, "before is 21: use 0 to 20, or leave it out"},
	} {
		ok, msg := decodeCall(t, byKey[c.tool], c.args)
		if ok || msg != c.want {
			t.Errorf("%s %s: accepted %v, %q; want %q", c.tool, c.args, ok, msg, c.want)
		}
	}

	in, err := tool.DecodeArgs[plantools.CreateTaskArgs](json.RawMessage(`{"title":"t","priority":" HIGH ","status":"In-Progress"}`), toolSchema(t, "create_task"))
	if err != nil || in.Priority != "high" || in.Status != "in-progress" {
		t.Errorf("create_task with HIGH, In-Progress: %+v, %v; want the declared spellings", in, err)
	}
	if l, err := tool.DecodeArgs[loopstools.LoopStartArgs](json.RawMessage(`{"objective":"o","completion_criteria":"c","priority":"normal"}`), toolSchema(t, "loop_start")); err != nil || l.Priority != "normal" {
		t.Errorf("loop_start with the old priority normal: %+v, %v; want it passed on for the service to read", l, err)
	}
	if q, err := tool.DecodeArgs[plantools.QueryTasksArgs](json.RawMessage(`{"sort":{"field":"id"}}`), toolSchema(t, "query_tasks")); err != nil || q.Sort.Field != "id" {
		t.Errorf("query_tasks sorted by id, the default order: %+v, %v", q.Sort, err)
	}
	q, err := tool.DecodeArgs[memorytools.MemorySearchArgs](json.RawMessage(`{"type":"Decision"}`), toolSchema(t, "memory_search"))
	if err != nil || !slices.Equal(q.Type, tool.StringList{"decision"}) {
		t.Errorf("memory_search with type Decision: %+v, %v", q.Type, err)
	}
	if _, err := tool.DecodeArgs[loopstools.LoopRecordArgs](json.RawMessage(fmt.Sprintf(`{"id":"1","last_action":"a","percentage":%g}`, math.SmallestNonzeroFloat64)), toolSchema(t, "loop_record")); err != nil {
		t.Errorf("a tiny percentage: %v", err)
	}
}
