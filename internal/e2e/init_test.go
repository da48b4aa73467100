package e2e

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// runInit runs `cairn init args...` in dir.
func runInit(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), append([]string{"init"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=", "CAIRN_DATABASE_URL=")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// snapshot reads every file under dir except the store.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".cairn" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			files[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// keptLines reports whether every line of before is still in after, in
// order (a comma added at the end of a line, to add a member after it, is
// allowed).
func keptLines(before, after string) bool {
	norm := func(s string) string { return strings.TrimSuffix(strings.TrimRight(s, " \t"), ",") }
	a := strings.Split(after, "\n")
	j := 0
	for _, l := range strings.Split(before, "\n") {
		for j < len(a) && norm(a[j]) != norm(l) {
			j++
		}
		if j == len(a) {
			return false
		}
		j++
	}
	return true
}

func TestInitEmpty(t *testing.T) {
	dir := t.TempDir()
	out, err := runInit(t, dir, "--client", "all", "--hooks")
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	t.Log(out)
	files := snapshot(t, dir)
	for _, f := range []string{".mcp.json", ".claude/settings.json", ".cursor/mcp.json", ".vscode/mcp.json", ".gemini/settings.json"} {
		if !json.Valid([]byte(files[f])) {
			t.Errorf("%s is not valid JSON:\n%s", f, files[f])
		}
		// A new file is written as a merge writes one: two-space indents
		// and a final newline, never on one line.
		var flat, pretty bytes.Buffer
		if err := json.Compact(&flat, []byte(files[f])); err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&pretty, flat.Bytes(), "", "  "); err != nil || pretty.String()+"\n" != files[f] {
			t.Errorf("%s is not pretty-printed with two spaces and a final newline:\n%s", f, files[f])
		}
		if !strings.Contains(out, "created   "+f) {
			t.Errorf("init did not say it created %s:\n%s", f, out)
		}
	}
	var mcp struct {
		MCPServers map[string]struct {
			Type       string   `json:"type"`
			Command    string   `json:"command"`
			Args       []string `json:"args"`
			AlwaysLoad bool     `json:"alwaysLoad"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(files[".mcp.json"]), &mcp); err != nil || mcp.MCPServers["cairn"].Command != "cairn" ||
		strings.Join(mcp.MCPServers["cairn"].Args, " ") != "serve" || !mcp.MCPServers["cairn"].AlwaysLoad {
		t.Errorf(".mcp.json: %+v %v", mcp, err)
	}
	var settings struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type, Command string
				Timeout       int
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(files[".claude/settings.json"]), &settings); err != nil {
		t.Fatal(err)
	}
	for event, hook := range map[string]string{"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use",
		"PostToolUseFailure": "post-tool-use", "PreCompact": "pre-compact", "Stop": "stop", "SessionEnd": "session-end"} {
		g := settings.Hooks[event]
		if len(g) != 1 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Command != "cairn hook "+hook || g[0].Hooks[0].Type != "command" {
			t.Errorf("hooks.%s: %+v", event, g)
		}
	}
	if settings.Hooks["SessionStart"][0].Matcher != "startup|resume|clear|compact" {
		t.Errorf("SessionStart matcher: %q", settings.Hooks["SessionStart"][0].Matcher)
	}
	// Gemini CLI: its server runs as the agent its hooks speak for; each
	// hook is named, its timeout in milliseconds.
	var gemini struct {
		MCPServers map[string]struct {
			Args []string `json:"args"`
		} `json:"mcpServers"`
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Name, Type, Command string
				Timeout             int
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal([]byte(files[".gemini/settings.json"]), &gemini); err != nil {
		t.Fatal(err)
	}
	if a := strings.Join(gemini.MCPServers["cairn"].Args, " "); a != "serve --agent gemini-cli" {
		t.Errorf(".gemini/settings.json: cairn args %q", a)
	}
	for event, hook := range map[string]string{"SessionStart": "session-start", "BeforeAgent": "user-prompt-submit", "AfterTool": "post-tool-use",
		"PreCompress": "pre-compact", "AfterAgent": "stop", "SessionEnd": "session-end"} {
		g := gemini.Hooks[event]
		if len(g) != 1 || len(g[0].Hooks) != 1 || g[0].Hooks[0].Command != "cairn hook --client gemini "+hook || g[0].Hooks[0].Name == "" || g[0].Hooks[0].Timeout != 10000 {
			t.Errorf(".gemini/settings.json hooks.%s: %+v", event, g)
		}
	}
	if !strings.Contains(out, "Gemini CLI runs `cairn hook --client gemini`") {
		t.Errorf("init did not say Gemini CLI's hooks run from its next session:\n%s", out)
	}
	// With hooks, Codex's server runs as the agent its hooks speak for.
	if !strings.Contains(files[".codex/config.toml"], "[mcp_servers.cairn]\ncommand = \"cairn\"\nargs = [\"serve\", \"--agent\", \"codex\"]\n") {
		t.Errorf(".codex/config.toml:\n%s", files[".codex/config.toml"])
	}
	if !strings.Contains(files["AGENTS.md"], "<!-- cairn:begin -->\n## Working memory: Cairn") {
		t.Errorf("AGENTS.md:\n%s", files["AGENTS.md"])
	}
	if _, err := os.Stat(filepath.Join(dir, ".cairn", "cairn.db")); err != nil {
		t.Errorf("the project's store was not made: %v", err)
	}
	// Twice: nothing changes.
	out, err = runInit(t, dir, "--client", "all", "--hooks")
	if err != nil || !strings.Contains(out, "Nothing to change.") {
		t.Errorf("second init: %v\n%s", err, out)
	}
	if again := snapshot(t, dir); !mapsEqual(again, files) {
		t.Errorf("the second init changed files")
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestInitExisting merges into hand-written configurations: other servers,
// permissions, a hook of the user's own, comments and trailing commas, a
// cairn entry the user wrote, an AGENTS.md with rules. Nothing of theirs is
// lost or reformatted, and a second run changes nothing.
func TestInitExisting(t *testing.T) {
	src := filepath.Join("testdata", "init", "existing")
	orig := snapshot(t, src)

	// --dry-run: a diff, and nothing written.
	dry := t.TempDir()
	copyTree(t, src, dry)
	out, err := runInit(t, dry, "--client", "all", "--hooks", "--dry-run")
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	for _, want := range []string{"would create .cairn/", "--- a/.mcp.json\n+++ b/.mcp.json\n", "+        \"cairn\": {", "+[mcp_servers.cairn]", "+<!-- cairn:begin -->"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run: no %q in:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "+++ b/.gemini/settings.json") {
		t.Errorf("dry run shows no diff for the hooks it would add to .gemini/settings.json:\n%s", out)
	}
	if got := snapshot(t, dry); !mapsEqual(got, orig) {
		t.Errorf("--dry-run wrote files")
	}
	if _, err := os.Stat(filepath.Join(dry, ".cairn")); err == nil {
		t.Errorf("--dry-run made .cairn")
	}

	dir := t.TempDir()
	copyTree(t, src, dir)
	out, err = runInit(t, dir, "--client", "all", "--hooks")
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	t.Log(out)
	files := snapshot(t, dir)
	for f, before := range orig {
		if f == ".cursor/mcp.json" || f == ".gemini/settings.json" {
			continue // one line, checked below
		}
		if !keptLines(before, files[f]) {
			t.Errorf("%s lost or reformatted lines of its own:\n--- before\n%s\n--- after\n%s", f, before, files[f])
		}
	}
	// .mcp.json: the user's server stays, cairn is added at its indentation.
	if !strings.Contains(files[".mcp.json"], "        },\n        \"cairn\": {\n            \"type\": \"stdio\",") || !json.Valid([]byte(files[".mcp.json"])) {
		t.Errorf(".mcp.json:\n%s", files[".mcp.json"])
	}
	// settings: the user's PostToolUse hook first, then cairn's; the rest
	// of the settings as they were.
	var settings map[string]any
	if err := json.Unmarshal([]byte(files[".claude/settings.json"]), &settings); err != nil {
		t.Fatalf("settings.json: %v\n%s", err, files[".claude/settings.json"])
	}
	post := settings["hooks"].(map[string]any)["PostToolUse"].([]any)
	if len(post) != 2 || !strings.Contains(files[".claude/settings.json"], "npx prettier") || settings["model"] != "sonnet" || settings["permissions"] == nil {
		t.Errorf("settings.json:\n%s", files[".claude/settings.json"])
	}
	// JSONC: comments and trailing commas kept, cairn added in tabs.
	if !strings.Contains(files[".vscode/mcp.json"], "\t\t\"cairn\": {\n\t\t\t\"type\": \"stdio\",") || !strings.Contains(files[".vscode/mcp.json"], "// browser automation") {
		t.Errorf(".vscode/mcp.json:\n%s", files[".vscode/mcp.json"])
	}
	if files[".cursor/mcp.json"] != `{ "mcpServers": {"cairn": {"command":"cairn","args":["serve","--agent","cursor"]}} }`+"\n" {
		t.Errorf(".cursor/mcp.json:\n%s", files[".cursor/mcp.json"])
	}
	// Gemini: the user's own cairn entry is left as it is, the hooks are
	// added, and init says the entry lacks the agent the hooks speak for.
	gemini := files[".gemini/settings.json"]
	if !strings.HasPrefix(gemini, `{"theme": "GitHub", "mcpServers": {"cairn": {"command": "/opt/bin/cairn", "args": ["serve", "--toolsets", "all"]}}, "hooks": {`) ||
		!json.Valid([]byte(gemini)) || !strings.Contains(gemini, `"command":"cairn hook --client gemini session-start"`) ||
		!strings.Contains(out, "updated   .gemini/settings.json: adds hooks: SessionStart, BeforeAgent, AfterTool, PreCompress, AfterAgent, SessionEnd; note: its cairn server runs without --agent gemini-cli") {
		t.Errorf("the user's own cairn entry in .gemini/settings.json was touched, or the hooks not added:\n%s\n%s", gemini, out)
	}
	if !strings.HasPrefix(files["AGENTS.md"], orig["AGENTS.md"]) {
		t.Errorf("AGENTS.md:\n%s", files["AGENTS.md"])
	}
	// Twice: nothing changes.
	out, err = runInit(t, dir, "--client", "all", "--hooks")
	if err != nil || !strings.Contains(out, "Nothing to change.") {
		t.Errorf("second init: %v\n%s", err, out)
	}
	if again := snapshot(t, dir); !mapsEqual(again, files) {
		t.Errorf("the second init changed files")
	}
}

// TestInitRefusesBrokenConfig: a configuration init cannot parse is named,
// and nothing at all is written.
func TestInitRefusesBrokenConfig(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(`{"mcpServers": {"x": }`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runInit(t, dir)
	if err == nil || !strings.Contains(out, ".mcp.json") || !strings.Contains(out, "nothing was written") {
		t.Errorf("init over a broken .mcp.json: %v\n%s", err, out)
	}
	if files := snapshot(t, dir); len(files) != 1 {
		t.Errorf("files were written: %v", files)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cairn")); err == nil {
		t.Errorf(".cairn was made")
	}
}
