package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestInitWritesOnlyInsideTheProject replays the attacks of issue 34 (1,
// 12, 13) on Plan and Apply: nothing is written where a committed link
// points, a file too large or ambiguous to edit is refused, and the
// predictable temporary name is gone.
func TestInitWritesOnlyInsideTheProject(t *testing.T) {
	t.Run("a temporary name committed as a link", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		victim := filepath.Join(outside, "victim")
		os.WriteFile(victim, []byte("keep me"), 0o644)
		for _, name := range []string{".mcp.json.cairn-tmp", "AGENTS.md.cairn-tmp"} {
			if err := os.Symlink(victim, filepath.Join(root, name)); err != nil {
				t.Fatal(err)
			}
		}
		changes, err := Plan(Options{Root: root, Clients: []string{"claude-code"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := Apply(root, changes); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep me" {
			t.Fatalf("init wrote through a committed link: %q", b)
		}
		if b, err := os.ReadFile(filepath.Join(root, ".mcp.json")); err != nil || !strings.Contains(string(b), "cairn") {
			t.Fatalf(".mcp.json: %q %v", b, err)
		}
	})
	t.Run("a client directory that is a link", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		settings := filepath.Join(outside, "settings.json")
		os.WriteFile(settings, []byte("{}\n"), 0o644)
		if err := os.Symlink(outside, filepath.Join(root, ".claude")); err != nil {
			t.Fatal(err)
		}
		changes, err := Plan(Options{Root: root, Clients: []string{"claude-code"}, Hooks: true})
		if err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("Plan: %v", err)
		}
		Apply(root, changes)
		if b, _ := os.ReadFile(settings); string(b) != "{}\n" {
			t.Fatalf("hooks were merged into the linked settings: %q", b)
		}
	})
	t.Run("a config over 1 MiB", func(t *testing.T) {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"x":"`+strings.Repeat("a", 2<<20)+`"}`), 0o644)
		if _, err := Plan(Options{Root: root, Clients: []string{"claude-code"}}); err == nil || !strings.Contains(err.Error(), "by hand") {
			t.Fatalf("Plan: %v", err)
		}
	})
	t.Run("duplicate keys", func(t *testing.T) {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, ".mcp.json"), []byte(`{"mcpServers": {}, "mcpServers": {"x": {"command": "x"}}}`), 0o644)
		if _, err := Plan(Options{Root: root, Clients: []string{"claude-code"}}); err == nil || !strings.Contains(err.Error(), "appears twice") {
			t.Fatalf("Plan: %v", err)
		}
	})
}

// TestCodexConfigParsedBeforeEdited: valid TOML whose servers are an
// inline table, or text that is not TOML, is refused rather than made
// invalid (issue 34, attack 13); a table-form config gains cairn.
func TestCodexConfigParsedBeforeEdited(t *testing.T) {
	for _, c := range []struct{ name, before, want string }{
		{"inline servers", "mcp_servers = { other = { command = \"x\" } }\n", "add Cairn by hand"},
		{"an unclosed header", "[mcp_servers.cairn\ncommand = \"x\"\n", "not valid TOML"},
		{"tables", "[mcp_servers.other]\ncommand = \"x\"\n", ""},
		{"cairn there", "[mcp_servers.\"cairn\"]\ncommand = \"y\"\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			os.MkdirAll(filepath.Join(root, ".codex"), 0o755)
			os.WriteFile(filepath.Join(root, ".codex", "config.toml"), []byte(c.before), 0o644)
			ch, err := codexConfig(root, "cairn", []string{"serve"})
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("codexConfig: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if _, err := toml.Decode(string(ch.After), &doc); err != nil {
				t.Fatalf("the edit is not TOML: %v\n%s", err, ch.After)
			}
			if doc["mcp_servers"].(map[string]any)["cairn"] == nil {
				t.Fatalf("no cairn server:\n%s", ch.After)
			}
		})
	}
}
