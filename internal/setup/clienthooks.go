package setup

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// Hooks of Codex CLI, Cursor and VS Code (GitHub Copilot agent mode), each
// written in the format its documentation gives. What each documents, and
// where it says so (read 2026-11):
//
//   - Codex CLI: https://developers.openai.com/codex/hooks and the JSON
//     Schemas in github.com/openai/codex codex-rs/hooks/schema/generated.
//     A project's hooks are <repo>/.codex/hooks.json, in Claude Code's shape
//     (event → [{matcher, hooks: [{type: "command", command, timeout}]}],
//     timeout in seconds). Events: SessionStart (matcher on source:
//     startup|resume|clear), UserPromptSubmit, PreToolUse, PostToolUse
//     (matcher on the tool: Bash, apply_patch, MCP tools), PreCompact,
//     PostCompact, PermissionRequest, Stop. There is no SessionEnd.
//   - Cursor: https://cursor.com/docs/agent/hooks. A project's hooks are
//     .cursor/hooks.json: {"version": 1, "hooks": {event: [{command,
//     matcher?}]}}, events in lower camel case (sessionStart,
//     beforeSubmitPrompt, postToolUse, postToolUseFailure, afterFileEdit,
//     afterShellExecution, preCompact, stop, sessionEnd, ...). Commands run
//     from the project root.
//   - VS Code: https://code.visualstudio.com/docs/copilot/customization/hooks
//     (github.com/microsoft/vscode-docs docs/copilot/customization/hooks.md).
//     Workspace hooks are every .github/hooks/*.json: {"hooks": {event:
//     [{type: "command", command, timeout}]}}, flat (no matcher groups),
//     timeout in seconds; events SessionStart, UserPromptSubmit, PreToolUse,
//     PostToolUse, PreCompact, SubagentStart, SubagentStop, Stop. VS Code
//     also runs the hooks of .claude/settings.json, matchers ignored.

// The agents the servers and hooks of these clients speak for: named, as
// Gemini CLI's is, so that a client's hooks and its tools share one YOU ARE
// HERE (the names the clients give themselves over MCP vary).
const (
	CodexAgent  = "codex"
	CursorAgent = "cursor"
	VSCodeAgent = "vscode"
)

// hookSpec is one client event and the cairn hook that answers it.
type hookSpec struct{ event, hook, matcher string }

// codexHookEvents: Codex has no session end and no prompt-time context
// limits; its tool events are narrowed to the shell and patches.
var codexHookEvents = []hookSpec{
	{"SessionStart", "session-start", "startup|resume|clear"},
	{"UserPromptSubmit", "user-prompt-submit", ""},
	{"PostToolUse", "post-tool-use", "Bash|apply_patch"},
	{"PreCompact", "pre-compact", ""},
	{"Stop", "stop", ""},
}

// cursorHookEvents: Cursor's beforeSubmitPrompt cannot add context (it
// answers only continue and a message for the user), so it is not wired.
// postToolUse has no matcher: Cursor's tool names have changed between
// versions, and a matcher that names none would silently record nothing.
var cursorHookEvents = []hookSpec{
	{"sessionStart", "session-start", ""},
	{"postToolUse", "post-tool-use", ""},
	{"postToolUseFailure", "post-tool-use", ""},
	{"preCompact", "pre-compact", ""},
	{"stop", "stop", ""},
	{"sessionEnd", "session-end", ""},
}

// vscodeHookEvents: VS Code's UserPromptSubmit answers with the common
// output only (no context for the model), and it has no session end.
var vscodeHookEvents = []hookSpec{
	{"SessionStart", "session-start", ""},
	{"PostToolUse", "post-tool-use", ""},
	{"PreCompact", "pre-compact", ""},
	{"Stop", "stop", ""},
}

// VSCodeHooksFile is the file init writes VS Code's hooks to.
const VSCodeHooksFile = ".github/hooks/cairn.json"

func hookCommand(command, client, hook string) (suffix, cmd string) {
	suffix = " hook --client " + client + " " + hook
	return suffix, command + suffix
}

// codexHooks adds a cairn hook to every Codex event in .codex/hooks.json
// that does not run one yet.
func codexHooks(root, command string) (Change, error) {
	const rel = ".codex/hooks.json"
	c := Change{Path: rel}
	before, err := read(root, rel)
	if err != nil {
		return c, err
	}
	c.Before = before
	doc, added, err := addHooks(before, codexHookEvents, grouped, func(hook string) (string, obj) {
		suffix, cmd := hookCommand(command, "codex", hook)
		return suffix, obj{{"type", "command"}, {"command", cmd}, {"timeout", 10}}
	})
	if err != nil {
		return c, err
	}
	c = finishHooks(c, before, doc, added)
	// What would keep the hooks from running, said, not changed: Codex
	// runs none when its config turns the feature off ("hooks", once
	// "codex_hooks", under [features]).
	if cfg, err := read(root, ".codex/config.toml"); err == nil && len(cfg) > 0 {
		var doc struct {
			Features map[string]any `toml:"features"`
		}
		if _, err := toml.Decode(string(cfg), &doc); err == nil {
			for _, k := range []string{"hooks", "codex_hooks"} {
				if v, ok := doc.Features[k].(bool); ok && !v {
					c.What += "; note: .codex/config.toml sets [features] " + k + " = false, so Codex runs no hooks"
				}
			}
		}
	}
	return c, nil
}

func finishHooks(c Change, before, doc []byte, added []string) Change {
	if len(added) == 0 {
		c.After, c.What = before, "every event runs a cairn hook already"
		return c
	}
	c.After = ensureNewline(doc)
	c.What = "adds hooks: " + strings.Join(added, ", ")
	return c
}

// cursorHooks adds a cairn hook to every Cursor event in .cursor/hooks.json
// that does not run one yet; a new file gets the version Cursor requires.
func cursorHooks(root, command string) (Change, error) {
	const rel = ".cursor/hooks.json"
	c := Change{Path: rel}
	before, err := read(root, rel)
	if err != nil {
		return c, err
	}
	c.Before = before
	doc := before
	root0, doc, err := parseDoc(doc)
	if err != nil {
		return c, fmt.Errorf("cannot merge into it (%v): fix the file, or move it aside and run init again", err)
	}
	if root0.get("version") == nil {
		doc = insert(doc, root0, "version", 1)
	}
	doc, added, err := addHooks(doc, cursorHookEvents, flat, func(hook string) (string, obj) {
		suffix, cmd := hookCommand(command, "cursor", hook)
		return suffix, obj{{"command", cmd}}
	})
	if err != nil {
		return c, err
	}
	return finishHooks(c, before, doc, added), nil
}

// vscodeHooks adds a cairn hook to every VS Code event in
// .github/hooks/cairn.json that does not run one yet. claudeRuns says the
// project's .claude/settings.json runs cairn's hooks already (or will after
// this init): VS Code runs those too, and cairn hook answers them in VS
// Code's format, so a second set would record every event twice.
func vscodeHooks(root, command string, claudeRuns bool) (Change, error) {
	c := Change{Path: VSCodeHooksFile}
	before, err := read(root, VSCodeHooksFile)
	if err != nil {
		return c, err
	}
	c.Before = before
	if claudeRuns && before == nil {
		c.After, c.What = nil, "not written: VS Code runs the cairn hooks of .claude/settings.json, and cairn hook answers them in VS Code's format"
		return c, nil
	}
	doc, added, err := addHooks(before, vscodeHookEvents, flat, func(hook string) (string, obj) {
		suffix, cmd := hookCommand(command, "vscode", hook)
		return suffix, obj{{"type", "command"}, {"command", cmd}, {"timeout", 10}}
	})
	if err != nil {
		return c, err
	}
	return finishHooks(c, before, doc, added), nil
}

// claudeRunsCairn reports whether a Claude Code settings document runs a
// cairn hook.
func claudeRunsCairn(doc []byte) bool {
	if len(doc) == 0 {
		return false
	}
	var cfg struct {
		Hooks map[string]json.RawMessage `json:"hooks"`
	}
	if json.Unmarshal(plain(doc), &cfg) != nil {
		return false
	}
	for _, list := range cfg.Hooks {
		if runsHook(list, " hook session-start") {
			return true
		}
	}
	return false
}

// serverAgentNote says, for a server entry that was there before init,
// when it runs without the --agent its hooks speak for.
func serverAgentNote(doc []byte, key, agent string) string {
	var cfg map[string]map[string]struct {
		Args []string `json:"args"`
	}
	if json.Unmarshal(plain(doc), &cfg) != nil {
		return ""
	}
	if s, ok := cfg[key]["cairn"]; ok && !containsPair(s.Args, "--agent", agent) {
		return "note: its cairn server runs without --agent " + agent + "; add it to args so the hooks and the tools share YOU ARE HERE"
	}
	return ""
}

func containsPair(args []string, flag, val string) bool {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag && args[i+1] == val {
			return true
		}
	}
	for _, a := range args {
		if a == flag+"="+val {
			return true
		}
	}
	return false
}

// withAgentNote adds to a server change, when hooks are wired and the
// server was there already, the note that it runs for another agent.
func withAgentNote(c Change, hooks bool, key, agent string) Change {
	if !hooks || !strings.HasPrefix(c.What, "cairn is configured already") {
		return c
	}
	if note := serverAgentNote(c.Before, key, agent); note != "" {
		c.What += "; " + note
	}
	return c
}
