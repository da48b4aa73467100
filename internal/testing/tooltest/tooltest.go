// Package tooltest is what the MCP toolsets' own tests share: the real
// services over a SQLite file of the test's temporary directory, a call as
// the server would make it, and the checks every toolset's declarations
// owe the decoder and their handlers (a declared choice or bound the
// handler cannot take, an undeclared one the decoder lets through).
package tooltest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// Agent is the agent the calls are made as.
const Agent = "tester"

// Services opens a SQLite store in t's temporary directory and returns the
// services over it, rooted at a project directory (a Go module) that the
// test may fill with files.
func Services(t testing.TB) (*service.Set, string) {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	root := filepath.Join(dir, "project")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/project\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return service.New(st, service.Options{Root: root}), root
}

// host is what a handler may ask of the server: it serves some of the
// tools it knows, each from its toolset.
type host struct{ served, known []tool.Tool }

func (host) LoopChanged()              { /* no watcher in a test */ }
func (host) Version() string           { return "test" }
func (host) Settings() []brief.Setting { return nil }
func (h host) NumServed() int          { return len(h.served) }
func (h host) Served(name string) bool {
	return slices.ContainsFunc(h.served, func(t tool.Tool) bool { return t.Def.Name == name })
}
func (h host) ToolsetOf(name string) string {
	if i := slices.IndexFunc(h.known, func(t tool.Tool) bool { return t.Def.Name == name }); i >= 0 {
		return h.known[i].Toolset
	}
	return ""
}

// Call is a call by Agent over set, from a server that serves tools.
func Call(set *service.Set, tools []tool.Tool) tool.Call {
	return tool.Call{Set: set, Agent: Agent, Host: host{tools, tools}}
}

// CallServing is a call by Agent over set, from a server that knows the
// tools of known and serves those of served.
func CallServing(set *service.Set, served, known []tool.Tool) tool.Call {
	return tool.Call{Set: set, Agent: Agent, Host: host{served, known}}
}

// Find returns the tool named name.
func Find(t testing.TB, tools []tool.Tool, name string) tool.Tool {
	t.Helper()
	i := slices.IndexFunc(tools, func(d tool.Tool) bool { return d.Def.Name == name })
	if i < 0 {
		t.Fatalf("no tool %s", name)
	}
	return tools[i]
}

// Run decodes args against the tool's schema, as the server does, and
// runs its handler.
func Run(t testing.TB, c tool.Call, d tool.Tool, args any) (string, any, error) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	h, err := d.Bind(raw)
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return h(ctx, c)
}

// Table checks a toolset's declarations: each names the toolset, a name no
// other tool of it has and a description; its schema builds (a shape that
// names no argument fails here) and requires only arguments it declares.
func Table(t *testing.T, toolset string, tools []tool.Tool) {
	t.Helper()
	if len(tools) == 0 {
		t.Fatalf("toolset %s declares no tool", toolset)
	}
	seen := map[string]bool{}
	for _, d := range tools {
		name := d.Def.Name
		if seen[name] {
			t.Errorf("%s is declared twice", name)
		}
		seen[name] = true
		if d.Toolset != toolset {
			t.Errorf("%s is declared in toolset %q, want %q", name, d.Toolset, toolset)
		}
		if strings.TrimSpace(d.Def.Description) == "" {
			t.Errorf("%s has no description", name)
		}
		s := schemaOf(t, d)
		if s == nil {
			continue
		}
		for _, r := range s.Required {
			if s.Properties[r] == nil {
				t.Errorf("%s requires %s, which it does not declare", name, r)
			}
		}
		if v := d.ReadOnlyVariant; v != nil {
			if v.Def.Name != name || !v.ReadOnly() {
				t.Errorf("%s: its read-only variant is %s, read-only %v", name, v.Def.Name, v.ReadOnly())
			}
		}
	}
}

func schemaOf(t *testing.T, d tool.Tool) (s *jsonschema.Schema) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: its schema does not build: %v", d.Def.Name, r)
			s = nil
		}
	}()
	return d.Schema()
}

// Shapes checks that the decoder and the handler agree on what each
// declared choice and bound allows, for every tool of tools: a value the
// schema declares (each enum value, each bound) reaches the handler, which
// does not refuse it as a bad value of that argument; a value outside them
// is refused naming the argument, by the decoder or (for the minimums
// tools/list leaves out, see tool.WireSchema) by the handler's service.
// Other arguments the tool requires are filled with base (by tool, then
// argument) or a placeholder of their type. The handlers run over c's
// services: give them a store they may write to.
func Shapes(t *testing.T, c tool.Call, tools []tool.Tool, base map[string]map[string]any) {
	t.Helper()
	checked := 0
	for _, d := range tools {
		s := schemaOf(t, d)
		if s == nil {
			continue
		}
		for _, a := range shaped(s, nil) {
			field := strings.Join(a.path, ".")
			// A tool of several actions takes the value if one of its
			// actions does (the others refuse what they do not use); the
			// values outside are then tried with that action.
			var taker any
			for _, v := range allowed(a.schema) {
				checked++
				var err error
				for _, action := range actionsOf(s, field) {
					args := required(d, s, base)
					if action != nil {
						args["action"] = action
					}
					set(args, a.path, v)
					if _, _, err = Run(t, c, d, args); !Refused(err, field) {
						taker = action
						break
					}
				}
				if Refused(err, field) {
					t.Errorf("%s %s=%v: the schema allows it, the handler refuses it: %v", d.Def.Name, field, v, err)
				}
			}
			for _, v := range outside(a.schema) {
				checked++
				args := required(d, s, base)
				if taker != nil {
					args["action"] = taker
				}
				set(args, a.path, v)
				// The decoder refuses it; an integer's minimum of 0 or 1,
				// which tools/list does not advertise, the handler's
				// service refuses by name instead.
				_, _, err := Run(t, c, d, args)
				if !Refused(err, field) {
					t.Errorf("%s %s=%v: want it refused naming %s, got %v", d.Def.Name, field, v, field, err)
				} else if fe, _ := errors.AsType[*problem.FieldError](err); strings.Contains(fe.Problem, "does not apply") {
					t.Errorf("%s %s=%v: refused only as not an argument of action %v: %v", d.Def.Name, field, v, args["action"], err)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no tool declares a choice or a bound: nothing was checked")
	}
	t.Logf("%d values checked", checked)
}

// argument is an argument a schema constrains, by its path from the top
// (query_tasks' filters.status).
type argument struct {
	path   []string
	schema *jsonschema.Schema
}

// shaped are the arguments of s, and of the objects it nests, that declare
// a choice or a bound, in a stable order.
func shaped(s *jsonschema.Schema, at []string) []argument {
	var out []argument
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		path := append(slices.Clone(at), name)
		if len(p.Properties) > 0 {
			out = append(out, shaped(p, path)...)
			continue
		}
		if len(allowed(p)) > 0 {
			out = append(out, argument{path, p})
		}
	}
	return out
}

// set sets the argument at path in args.
func set(args map[string]any, path []string, v any) {
	for _, name := range path[:len(path)-1] {
		sub, ok := args[name].(map[string]any)
		if !ok {
			sub = map[string]any{}
			args[name] = sub
		}
		args = sub
	}
	args[path[len(path)-1]] = v
}

// actionsOf are the actions to try field's values with: each action of a
// tool declared with tool.DeclareActions, else none (a single nil).
func actionsOf(s *jsonschema.Schema, field string) []any {
	if a := s.Properties["action"]; a != nil && field != "action" && len(a.Enum) > 0 {
		return a.Enum
	}
	return []any{nil}
}

// allowed are the values p's enum and bounds declare; for a list, lists
// of one such item.
func allowed(p *jsonschema.Schema) []any {
	if p.Items != nil && p.Type == "array" {
		var out []any
		for _, v := range allowed(p.Items) {
			out = append(out, []any{v})
		}
		return out
	}
	out := slices.Clone(p.Enum)
	for _, b := range []*float64{p.Minimum, p.Maximum} {
		if b != nil && !slices.Contains(out, any(*b)) {
			out = append(out, *b)
		}
	}
	return out
}

// outside are values just outside p's enum and bounds.
func outside(p *jsonschema.Schema) []any {
	if p.Items != nil && p.Type == "array" {
		var out []any
		for _, v := range outside(p.Items) {
			out = append(out, []any{v})
		}
		return out
	}
	var out []any
	if len(p.Enum) > 0 {
		out = append(out, "none-of-these")
	}
	step := 1.0
	if p.Type == "number" {
		step = 0.5
	}
	if p.Minimum != nil && *p.Minimum > -math.MaxInt32 {
		below := *p.Minimum - step
		if p.Type == "integer" && below == 0 {
			below = -1 // an integer's 0 is the argument left out
		}
		out = append(out, below)
	}
	if p.Maximum != nil {
		out = append(out, *p.Maximum+step)
	}
	return out
}

// required are the arguments d requires: from base, else a placeholder.
func required(d tool.Tool, s *jsonschema.Schema, base map[string]map[string]any) map[string]any {
	args := map[string]any{}
	for k, v := range base[d.Def.Name] {
		args[k] = v
	}
	for _, r := range s.Required {
		if _, ok := args[r]; ok {
			continue
		}
		args[r] = placeholder(s.Properties[r])
	}
	return args
}

func placeholder(p *jsonschema.Schema) any {
	if p == nil {
		return "1"
	}
	if len(p.Enum) > 0 {
		return p.Enum[0]
	}
	typ := p.Type
	if typ == "" && len(p.Types) > 0 {
		typ = p.Types[0]
	}
	switch typ {
	case "integer", "number":
		if p.Minimum != nil {
			return *p.Minimum
		}
		return 1
	case "boolean":
		return false
	case "array":
		return []any{"1"}
	case "object":
		return map[string]any{}
	}
	return "1"
}

// Refused reports whether err is a refusal of argument field (or of an
// item of it: "status[0]").
func Refused(err error, field string) bool {
	fe, ok := errors.AsType[*problem.FieldError](err)
	return ok && (fe.Field == field || strings.HasPrefix(fe.Field, field+"["))
}

// Text is the text of out marshalled, for a test's failure message.
func Text(out any) string {
	b, err := json.Marshal(out)
	if err != nil {
		return fmt.Sprint(out)
	}
	return string(b)
}
