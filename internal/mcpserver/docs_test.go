package mcpserver_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver"
)

const readme = "../../README.md"

// toolTable matches a generated block: <!-- tools:NAME --> … <!-- /tools -->.
var toolTable = regexp.MustCompile(`(?s)<!-- tools:([a-z]+) -->\n.*?<!-- /tools -->`)

// TestReadmeToolTables: the README's tool tables are generated from the
// declarations, like the schema snapshots; a drift fails here. Regenerate
// with go generate ./internal/mcpserver (or this test with -update).
func TestReadmeToolTables(t *testing.T) {
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var failed error
	out := toolTable.ReplaceAllStringFunc(string(b), func(block string) string {
		name := toolTable.FindStringSubmatch(block)[1]
		seen[name] = true
		table, err := mcpserver.ToolTable(name)
		if err != nil {
			failed = err
			return block
		}
		return "<!-- tools:" + name + " -->\n" + table + "<!-- /tools -->"
	})
	if failed != nil {
		t.Fatal(failed)
	}
	for _, ts := range mcpserver.ToolsetNames() {
		if !seen[ts] {
			t.Errorf("README.md has no generated table for toolset %s: add <!-- tools:%s --><!-- /tools --> where it belongs and run go generate ./internal/mcpserver", ts, ts)
		}
	}
	if out == string(b) {
		return
	}
	if *update {
		if err := os.WriteFile(readme, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's tool tables differ from the declarations (- README, + declarations):\n%s\nRun go generate ./internal/mcpserver",
		lineDiff(string(b), out))
}
