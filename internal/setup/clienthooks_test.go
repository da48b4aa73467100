package setup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The shapes below are written from each client's documentation (the
// sources are in clienthooks.go): what a file must be for the client to
// load it and run the hooks, checked on what init writes.

// codexEvents are the events Codex documents for hooks.json.
var codexEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "Stop", "SubagentStart", "SubagentStop"}

// cursorEvents are the agent events Cursor documents for hooks.json.
var cursorEvents = []string{"sessionStart", "sessionEnd", "beforeSubmitPrompt", "preToolUse", "postToolUse", "postToolUseFailure",
	"subagentStart", "subagentStop", "beforeShellExecution", "afterShellExecution", "beforeMCPExecution", "afterMCPExecution",
	"beforeReadFile", "afterFileEdit", "afterAgentResponse", "afterAgentThought", "preCompact", "stop"}

// vscodeEvents are the eight events VS Code documents.
var vscodeEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact", "SubagentStart", "SubagentStop", "Stop"}

// validCodexHooks: {"hooks": {Event: [{"matcher"?: string, "hooks":
// [{"type": "command", "command": string, "timeout"?: seconds}]}]}}, events
// Codex knows, SessionStart matching only its sources.
func validCodexHooks(b []byte) error {
	var doc struct {
		Hooks map[string][]struct {
			Matcher *string                      `json:"matcher"`
			Hooks   []map[string]json.RawMessage `json:"hooks"`
		} `json:"hooks"`
	}
	if err := strictObject(b, &doc, "hooks"); err != nil {
		return err
	}
	for ev, groups := range doc.Hooks {
		if !slices.Contains(codexEvents, ev) {
			return fmt.Errorf("hooks.%s: not a Codex event", ev)
		}
		for _, g := range groups {
			if ev == "SessionStart" && g.Matcher != nil {
				for _, src := range strings.Split(*g.Matcher, "|") {
					if !slices.Contains([]string{"startup", "resume", "clear"}, src) {
						return fmt.Errorf("hooks.SessionStart matcher %q: sources are startup, resume, clear", *g.Matcher)
					}
				}
			}
			if len(g.Hooks) == 0 {
				return fmt.Errorf("hooks.%s: a group without hooks", ev)
			}
			for _, h := range g.Hooks {
				if err := commandHook(h, true, "type", "command", "timeout", "statusMessage"); err != nil {
					return fmt.Errorf("hooks.%s: %w", ev, err)
				}
			}
		}
	}
	return nil
}

// validCursorHooks: {"version": 1, "hooks": {event: [{"command": string,
// "matcher"?: string, "timeout"?: seconds}]}}.
func validCursorHooks(b []byte) error {
	var doc struct {
		Version *int                                    `json:"version"`
		Hooks   map[string][]map[string]json.RawMessage `json:"hooks"`
	}
	if err := strictObject(b, &doc, "version", "hooks"); err != nil {
		return err
	}
	if doc.Version == nil || *doc.Version != 1 {
		return fmt.Errorf("version: Cursor reads version 1")
	}
	for ev, list := range doc.Hooks {
		if !slices.Contains(cursorEvents, ev) {
			return fmt.Errorf("hooks.%s: not a Cursor event", ev)
		}
		for _, h := range list {
			if err := commandHook(h, false, "command", "matcher", "timeout", "type", "loop_limit"); err != nil {
				return fmt.Errorf("hooks.%s: %w", ev, err)
			}
		}
	}
	return nil
}

// validVSCodeHooks: {"hooks": {Event: [{"type": "command", "command": string,
// "timeout"?: seconds, ...}]}}: flat, the eight events.
func validVSCodeHooks(b []byte) error {
	var doc struct {
		Hooks map[string][]map[string]json.RawMessage `json:"hooks"`
	}
	if err := strictObject(b, &doc, "hooks"); err != nil {
		return err
	}
	for ev, list := range doc.Hooks {
		if !slices.Contains(vscodeEvents, ev) {
			return fmt.Errorf("hooks.%s: not a VS Code event", ev)
		}
		for _, h := range list {
			if err := commandHook(h, true, "type", "command", "windows", "linux", "osx", "cwd", "env", "timeout"); err != nil {
				return fmt.Errorf("hooks.%s: %w", ev, err)
			}
		}
	}
	return nil
}

// strictObject decodes b into v and refuses top-level keys not listed.
func strictObject(b []byte, v any, keys ...string) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		return err
	}
	for k := range top {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("top-level key %q is not in the format", k)
		}
	}
	return json.Unmarshal(b, v)
}

// commandHook checks one hook entry: only the keys given, a non-empty
// command string, "type": "command" where typed says the format wants it,
// a positive timeout if any.
func commandHook(h map[string]json.RawMessage, typed bool, keys ...string) error {
	for k := range h {
		if !slices.Contains(keys, k) {
			return fmt.Errorf("key %q is not in the format", k)
		}
	}
	var cmd string
	if json.Unmarshal(h["command"], &cmd) != nil || strings.TrimSpace(cmd) == "" {
		return fmt.Errorf("no command string")
	}
	if typed {
		var typ string
		if json.Unmarshal(h["type"], &typ) != nil || typ != "command" {
			return fmt.Errorf("type is not \"command\"")
		}
	}
	if t, ok := h["timeout"]; ok {
		var n float64
		if json.Unmarshal(t, &n) != nil || n <= 0 || n > 600 {
			return fmt.Errorf("timeout %s is not seconds", t)
		}
	}
	return nil
}

func planApply(t *testing.T, root string, o Options) string {
	t.Helper()
	o.Root = root
	changes, err := Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(root, changes); err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, c := range changes {
		what = append(what, c.Path+": "+c.What)
	}
	return strings.Join(what, "\n")
}

func readFile(t *testing.T, root, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestClientHookFiles: init writes Codex's, Cursor's and VS Code's hook
// files in their documented shapes, each cairn hook on the events that
// carry what Cairn records, merged into a person's own file without losing
// an entry, and a second run changes nothing.
func TestClientHookFiles(t *testing.T) {
	root := t.TempDir()
	// A person's own hooks, in each client's format, to be kept.
	os.MkdirAll(filepath.Join(root, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(root, ".cursor", "hooks.json"), []byte(`{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": "./hooks/format.sh" }],
    "stop": [{ "command": "./hooks/audit.sh" }]
  }
}
`), 0o644)
	os.MkdirAll(filepath.Join(root, ".codex"), 0o755)
	os.WriteFile(filepath.Join(root, ".codex", "hooks.json"), []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .codex/hooks/guard.py"}]}]}}`+"\n"), 0o644)
	os.MkdirAll(filepath.Join(root, ".github", "hooks"), 0o755)
	os.WriteFile(filepath.Join(root, VSCodeHooksFile), []byte("{\n\t// ours\n\t\"hooks\": {\n\t\t\"PostToolUse\": [{\"type\": \"command\", \"command\": \"npx prettier --write .\"}],\n\t}\n}\n"), 0o644)

	out := planApply(t, root, Options{Clients: []string{"codex", "cursor", "vscode"}, Hooks: true})
	t.Log(out)

	codex := readFile(t, root, ".codex/hooks.json")
	if err := validCodexHooks(codex); err != nil {
		t.Errorf(".codex/hooks.json: %v\n%s", err, codex)
	}
	cursor := readFile(t, root, ".cursor/hooks.json")
	if err := validCursorHooks(cursor); err != nil {
		t.Errorf(".cursor/hooks.json: %v\n%s", err, cursor)
	}
	vscode := readFile(t, root, VSCodeHooksFile)
	if err := validVSCodeHooks(plain(vscode)); err != nil {
		t.Errorf("%s: %v\n%s", VSCodeHooksFile, err, vscode)
	}
	for _, keep := range []struct {
		file []byte
		want string
	}{{codex, "python3 .codex/hooks/guard.py"}, {cursor, "./hooks/format.sh"}, {cursor, "./hooks/audit.sh"}, {vscode, "npx prettier --write ."}, {vscode, "// ours"}} {
		if !strings.Contains(string(keep.file), keep.want) {
			t.Errorf("a person's entry %q was lost:\n%s", keep.want, keep.file)
		}
	}
	// Each event runs its cairn hook, and only once.
	for _, c := range []struct {
		file   []byte
		client string
		events map[string]string
	}{
		{codex, "codex", map[string]string{"SessionStart": "session-start", "UserPromptSubmit": "user-prompt-submit", "PostToolUse": "post-tool-use", "PreCompact": "pre-compact", "Stop": "stop"}},
		{cursor, "cursor", map[string]string{"sessionStart": "session-start", "postToolUse": "post-tool-use", "postToolUseFailure": "post-tool-use", "preCompact": "pre-compact", "stop": "stop", "sessionEnd": "session-end"}},
		{vscode, "vscode", map[string]string{"SessionStart": "session-start", "PostToolUse": "post-tool-use", "PreCompact": "pre-compact", "Stop": "stop"}},
	} {
		var doc struct {
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		json.Unmarshal(plain(c.file), &doc)
		for ev, hook := range c.events {
			want := `"cairn hook --client ` + c.client + ` ` + hook + `"`
			if n := strings.Count(string(doc.Hooks[ev]), want); n != 1 {
				t.Errorf("%s %s runs %s %d times:\n%s", c.client, ev, want, n, doc.Hooks[ev])
			}
		}
	}
	// The servers run as the agents the hooks speak for.
	if b := readFile(t, root, ".codex/config.toml"); !strings.Contains(string(b), `args = ["serve", "--agent", "codex"]`) {
		t.Errorf(".codex/config.toml:\n%s", b)
	}
	if b := readFile(t, root, ".vscode/mcp.json"); !strings.Contains(string(b), `"--agent",`) || !strings.Contains(string(b), `"vscode"`) {
		t.Errorf(".vscode/mcp.json:\n%s", b)
	}

	// Twice: nothing changes.
	changes, err := Plan(Options{Root: root, Clients: []string{"codex", "cursor", "vscode"}, Hooks: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if c.Changed() {
			t.Errorf("second run changes %s: %s", c.Path, c.What)
		}
	}
}

// TestVSCodeHooksBesideClaude: VS Code runs .claude/settings.json's hooks,
// so with Claude Code's wired no second set is written; without, it is.
func TestVSCodeHooksBesideClaude(t *testing.T) {
	root := t.TempDir()
	out := planApply(t, root, Options{Clients: []string{"claude-code", "vscode"}, Hooks: true})
	if _, err := os.Stat(filepath.Join(root, VSCodeHooksFile)); err == nil || !strings.Contains(out, "not written: VS Code runs the cairn hooks of .claude/settings.json") {
		t.Errorf("%s written beside Claude Code's hooks:\n%s", VSCodeHooksFile, out)
	}
	root = t.TempDir()
	planApply(t, root, Options{Clients: []string{"vscode"}, Hooks: true})
	if err := validVSCodeHooks(readFile(t, root, VSCodeHooksFile)); err != nil {
		t.Error(err)
	}
}

// TestHookShapeChecksFail: the shape checks refuse what the clients would
// not load, so a pass means something.
func TestHookShapeChecksFail(t *testing.T) {
	for name, c := range map[string]struct {
		check func([]byte) error
		doc   string
	}{
		"codex flat entry":        {validCodexHooks, `{"hooks":{"Stop":[{"type":"command","command":"x"}]}}`},
		"codex unknown event":     {validCodexHooks, `{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"x"}]}]}}`},
		"codex startup matcher":   {validCodexHooks, `{"hooks":{"SessionStart":[{"matcher":"compact","hooks":[{"type":"command","command":"x"}]}]}}`},
		"cursor no version":       {validCursorHooks, `{"hooks":{"stop":[{"command":"x"}]}}`},
		"cursor PascalCase":       {validCursorHooks, `{"version":1,"hooks":{"Stop":[{"command":"x"}]}}`},
		"vscode grouped":          {validVSCodeHooks, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}`},
		"vscode ms timeout":       {validVSCodeHooks, `{"hooks":{"Stop":[{"type":"command","command":"x","timeout":10000}]}}`},
		"vscode no session end":   {validVSCodeHooks, `{"hooks":{"SessionEnd":[{"type":"command","command":"x"}]}}`},
		"cursor command not text": {validCursorHooks, `{"version":1,"hooks":{"stop":[{"command":["x"]}]}}`},
	} {
		if err := c.check([]byte(c.doc)); err == nil {
			t.Errorf("%s: passed the shape check", name)
		}
	}
}

// TestCodexHooksOffSaid: hooks turned off in Codex's config are said, and
// the config is left as it is.
func TestCodexHooksOffSaid(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".codex"), 0o755)
	conf := "model = \"gpt-5.1-codex\"\n\n[features]\nhooks = false\n"
	os.WriteFile(filepath.Join(root, ".codex", "config.toml"), []byte(conf), 0o644)
	out := planApply(t, root, Options{Clients: []string{"codex"}, Hooks: true})
	if !strings.Contains(out, "[features] hooks = false, so Codex runs no hooks") {
		t.Errorf("not said:\n%s", out)
	}
	if b := readFile(t, root, ".codex/config.toml"); !strings.HasPrefix(string(b), conf) {
		t.Errorf("the features were changed:\n%s", b)
	}
}
