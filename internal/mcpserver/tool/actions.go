package tool

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
type Action[In any] struct {
	Name     string
	Args     []string
	ReadOnly bool
	Run      HandlerFunc[In]
}

// ActionArgs is what a multi-action tool's arguments tell the dispatcher:
// the action asked for, and which arguments were sent (from sent).
type ActionArgs interface {
	Verb() string
	Has(string) bool
	SentNames() []string
}

func (s Sent) SentNames() []string {
	names := make([]string, 0, len(s.names))
	for n := range s.names {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DeclareActions declares a multi-action tool. Its handler runs the action
// asked for and refuses an argument the action does not take, so a
// misplaced one is never silently dropped. Served --read-only, the tool
// keeps its read actions only (and says so), under the same name.
func DeclareActions[In ActionArgs](ts string, def mcp.Tool, actions []Action[In], shape ...func(*jsonschema.Schema)) Tool {
	t := Declare(ts, def, dispatch(actions), append(shape, actionEnum(actions))...)
	var reads []Action[In]
	for _, a := range actions {
		if a.ReadOnly {
			reads = append(reads, a)
		}
	}
	if len(reads) > 0 {
		ro := def
		ro.Annotations = ReadOnly
		ro.Description += " Read-only here: " + names(reads, " and ") + "."
		r := Declare(ts, ro, dispatch(reads), append(shape, actionEnum(reads))...)
		r.Key = def.Name + " read-only"
		t.ReadOnlyVariant = &r
	}
	return t
}

func actionEnum[In any](actions []Action[In]) func(*jsonschema.Schema) {
	vals := make([]any, len(actions))
	for i, a := range actions {
		vals[i] = a.Name
	}
	return Enum("action", vals...)
}

func names[In any](actions []Action[In], last string) string {
	ns := make([]string, len(actions))
	for i, a := range actions {
		ns[i] = a.Name
	}
	if len(ns) < 2 {
		return strings.Join(ns, "")
	}
	return strings.Join(ns[:len(ns)-1], ", ") + last + ns[len(ns)-1]
}

func dispatch[In ActionArgs](actions []Action[In]) HandlerFunc[In] {
	return func(ctx context.Context, c Call, in In) (string, any, error) {
		// One of the actions: decodeArgs checked it against the schema's enum.
		a := actions[slices.IndexFunc(actions, func(a Action[In]) bool { return a.Name == in.Verb() })]
		for _, n := range in.SentNames() {
			if n != "action" && !slices.Contains(a.Args, n) {
				return "", nil, &problem.FieldError{Field: n, Problem: "does not apply to action " + a.Name,
					Fix: "leave it out, or use an action it applies to"}
			}
		}
		return a.Run(ctx, c, in)
	}
}
