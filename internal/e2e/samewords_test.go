package e2e

import (
	"encoding/json"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestCLIAndMCPRefuseAlike: the same bad input, through the CLI and through
// MCP, is refused by the same service rule with the same words. Only the
// hint at the end (a command, or a tool) is each surface's own, so where a
// case has one, the words before it are compared.
func TestCLIAndMCPRefuseAlike(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
	s.OK("create_task", args{"title": "a plain task"})
	s.OK("memory_add_decision", args{"title": "a decision"})
	s.Close()
	for _, tc := range []struct {
		name   string
		cli    []string
		tool   string
		args   args
		before string // compare only up to here: what follows is the surface's hint
	}{
		{"unknown status", []string{"tasks", "--status", "finished"}, "get_tasks", args{"status": "finished"}, ""},
		{"unknown priority", []string{"tasks", "--priority", "urgent"}, "get_tasks", args{"priority": "urgent"}, ""},
		{"tasks limit over the page", []string{"tasks", "--limit", "51"}, "get_tasks", args{"limit": 51}, ""},
		{"negative offset", []string{"tasks", "--offset", "-1", "--limit", "5"}, "get_tasks", args{"offset": -1}, ""},
		{"not a task id", []string{"show", "abc"}, "get_task", args{"id": "abc"}, ""},
		{"memory search limit", []string{"memory", "search", "--limit", "51"}, "memory_search", args{"limit": 51}, ""},
		{"unknown entry type", []string{"memory", "search", "--type", "rumour"}, "memory_search", args{"type": "rumour"}, ""},
		{"unknown loop status", []string{"loops", "--status", "sleeping"}, "loop_list", args{"status": "sleeping"}, ""},
		{"a task that is not a loop", []string{"loop", "1"}, "loop_status", args{"id": "1"}, "; "},
		{"not an entry id", []string{"memory", "show", "x1"}, "memory_get", args{"ids": []string{"x1"}}, "; "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cli := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(cairn(t, dir, true, tc.cli...)), "cairn: "))
			s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
			mcp := strings.TrimPrefix(s.Err(tc.tool, tc.args).Text, "error: ")
			if tc.before != "" {
				cli, mcp = upToLast(cli, tc.before), upToLast(mcp, tc.before)
			}
			t.Logf("%s", cli)
			if cli == "" || cli != mcp {
				t.Errorf("cairn %s and %s refuse differently:\n  CLI: %s\n  MCP: %s", strings.Join(tc.cli, " "), tc.tool, cli, mcp)
			}
		})
	}
}

// upToLast is s before the last sep in it.
func upToLast(s, sep string) string {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i]
	}
	return s
}

// TestCLIJSONIsTheToolsJSON: `cairn memory search --json` and `cairn memory
// show --json` print what memory_search and memory_get put in
// structuredContent.
func TestCLIJSONIsTheToolsJSON(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	s.OK("memory_add_decision", args{"title": "Use FTS5 for memory search", "rationale": "always there"})
	search := s.OK("memory_search", args{"query": "fts5"}).Structured
	get := s.OK("memory_get", args{"ids": []string{"m1", "m7"}}).Structured
	s.Close()
	for _, tc := range []struct {
		cli  []string
		want map[string]any
	}{
		{[]string{"memory", "search", "fts5", "--json"}, search},
		{[]string{"memory", "show", "m1", "m7", "--json"}, get},
	} {
		cmd := exec.Command(cairntest.Binary(t), tc.cli...)
		cmd.Dir = dir
		out, _ := cmd.Output() // show exits 1 for the missing m7, after printing
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("cairn %s: %v\n%s", strings.Join(tc.cli, " "), err, out)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("cairn %s printed\n%v\nthe tool's structuredContent is\n%v", strings.Join(tc.cli, " "), got, tc.want)
		}
	}
}
