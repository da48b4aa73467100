package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestWorkPrompts gets each working prompt with its arguments, checks that
// its text is assembled from the project (not canned), that a bad argument
// is refused by name, and that its arguments complete.
func TestWorkPrompts(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	id := s.OK("create_task", args{"title": "Import the CSV ledger", "description": "parse and store"}).Str("id")
	s.OK("switch_focus", args{"task_id": id})
	s.OK("memory_add_convention", args{"title": "Wrap errors with the operation name", "content": "fmt.Errorf(\"import: %w\", err)"})
	s.OK("memory_add_mistake", args{"title": "CSV parser dropped quoted commas", "root_cause": "split on commas", "fix": "use encoding/csv", "prevention": "a test with quotes"})
	s.OK("memory_add_decision", args{"title": "Ledger import streams rows", "rationale": "files are large"})
	sid := s.OK("session", args{"action": "start", "goal": "import the ledger"}).Structured["session"].(map[string]any)["id"].(string)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	list, err := s.Session.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	for _, want := range []string{"bootstrap", "plan_task", "diagnose_error", "review_before_commit", "handoff", "session_restore", "task_context"} {
		if !slices.Contains(names, want) {
			t.Fatalf("prompts/list lacks %s: %v", want, names)
		}
	}
	get := func(name string, a map[string]string) string {
		t.Helper()
		r, err := s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: a})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		text := r.Messages[0].Content.(*mcp.TextContent).Text
		if len(text) > 12<<10 {
			t.Errorf("%s is %d bytes", name, len(text))
		}
		return text
	}
	for _, c := range []struct {
		name string
		args map[string]string
		want []string
	}{
		{"bootstrap", nil, []string{"Import the CSV ledger", "Wrap errors with the operation name"}},
		{"bootstrap", map[string]string{"task_id": id, "budget_tokens": "800"}, []string{"Import the CSV ledger"}},
		{"plan_task", map[string]string{"description": "stream the ledger import", "parent": id}, []string{"Ledger import streams rows", "Import the CSV ledger", "create_task"}},
		{"diagnose_error", map[string]string{"error": "CSV parser dropped quoted commas in field 3"}, []string{"use encoding/csv", "memory_add_mistake"}},
		{"review_before_commit", nil, []string{"Import the CSV ledger", "Wrap errors with the operation name", "CSV parser dropped quoted commas", "Checklist"}},
		{"review_before_commit", map[string]string{"task_id": id}, []string{"parse and store"}},
		{"handoff", nil, []string{"import the ledger", "Import the CSV ledger", "session action end"}},
		{"handoff", map[string]string{"session_id": sid}, []string{"import the ledger"}},
	} {
		text := get(c.name, c.args)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v lacks %q:\n%s", c.name, c.args, w, text)
			}
		}
	}
	// A bad argument is refused, named.
	for _, c := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"plan_task", nil, "description"},
		{"plan_task", map[string]string{"description": "x", "parent": "999"}, "parent"},
		{"diagnose_error", nil, "error"},
		{"bootstrap", map[string]string{"budget_tokens": "lots"}, "budget_tokens"},
		{"review_before_commit", map[string]string{"task_id": "999"}, "task_id"},
		{"handoff", map[string]string{"session_id": "s999"}, "s999"},
	} {
		if _, err := s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: c.name, Arguments: c.args}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: %v, want a refusal naming %s", c.name, c.args, err, c.want)
		}
	}
	complete := func(prompt, arg, prefix string) []string {
		t.Helper()
		r, err := s.Session.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: prompt},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: prefix}})
		if err != nil {
			t.Fatalf("complete %s.%s: %v", prompt, arg, err)
		}
		return r.Completion.Values
	}
	for _, c := range []struct{ prompt, arg, prefix, want string }{
		{"bootstrap", "task_id", "", id},
		{"plan_task", "parent", "", id},
		{"plan_task", "description", "imp", "Import the CSV ledger"},
		{"diagnose_error", "error", "csv", "CSV parser dropped quoted commas"},
		{"review_before_commit", "task_id", "", id},
		{"handoff", "session_id", "s", sid},
	} {
		if got := complete(c.prompt, c.arg, c.prefix); !slices.Contains(got, c.want) {
			t.Errorf("complete %s.%s %q: %v, want %q among them", c.prompt, c.arg, c.prefix, got, c.want)
		}
	}
	if got := complete("diagnose_error", "error", "zzz"); len(got) != 0 {
		t.Errorf("completion of a prefix nothing has: %v", got)
	}
}
