package mcpserver

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/problem"
)

// An action is one action of a multi-action tool, declared once: the
// arguments it takes besides "action", whether it only reads, and what it
// does.
type action[In any] struct {
	name     string
	args     []string
	readOnly bool
	run      handlerFunc[In]
}

// actionArgs is what a multi-action tool's arguments tell the dispatcher:
// the action asked for, and which arguments were sent (from sent).
type actionArgs interface {
	verb() string
	has(string) bool
	sentNames() []string
}

func (s sent) sentNames() []string {
	names := make([]string, 0, len(s.names))
	for n := range s.names {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// declareActions declares a multi-action tool. Its handler runs the action
// asked for and refuses an argument the action does not take, so a
// misplaced one is never silently dropped. Served --read-only, the tool
// keeps its read actions only (and says so), under the same name.
func declareActions[In actionArgs](ts string, def mcp.Tool, actions []action[In], shape ...func(*jsonschema.Schema)) tool {
	t := declare(ts, def, dispatch(actions), append(shape, actionEnum(actions))...)
	var reads []action[In]
	for _, a := range actions {
		if a.readOnly {
			reads = append(reads, a)
		}
	}
	if len(reads) > 0 {
		ro := def
		ro.Annotations = readOnly
		ro.Description += " Read-only here: " + names(reads, " and ") + "."
		r := declare(ts, ro, dispatch(reads), append(shape, actionEnum(reads))...)
		r.key = def.Name + " read-only"
		t.readOnlyVariant = &r
	}
	return t
}

func actionEnum[In any](actions []action[In]) func(*jsonschema.Schema) {
	vals := make([]any, len(actions))
	for i, a := range actions {
		vals[i] = a.name
	}
	return enum("action", vals...)
}

func names[In any](actions []action[In], last string) string {
	ns := make([]string, len(actions))
	for i, a := range actions {
		ns[i] = a.name
	}
	if len(ns) < 2 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + last + ns[len(ns)-1]
}

func dispatch[In actionArgs](actions []action[In]) handlerFunc[In] {
	return func(ctx context.Context, c call, in In) (string, any, error) {
		// One of the actions: decodeArgs checked it against the schema's enum.
		a := actions[slices.IndexFunc(actions, func(a action[In]) bool { return a.name == in.verb() })]
		for _, n := range in.sentNames() {
			if n != "action" && !slices.Contains(a.args, n) {
				return "", nil, &problem.FieldError{Field: n, Problem: "does not apply to action " + a.name,
					Fix: "leave it out, or use an action it applies to"}
			}
		}
		return a.run(ctx, c, in)
	}
}
