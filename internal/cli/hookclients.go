package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/setup"
)

// The hooks of Codex CLI, Cursor and VS Code (Copilot agent mode). Where
// each documents its payloads and answers is in internal/setup
// (clienthooks.go); the recorded payloads are in
// internal/e2e/testdata/hooks/{codex,cursor,vscode}.
const (
	clientCodex  = "codex"
	clientCursor = "cursor"
	clientVSCode = "vscode"
)

var hookClients = []string{clientClaude, clientGemini, clientCodex, clientCursor, clientVSCode}

// clientAgents are the agents each client's hooks speak for by default:
// those its server is started with by cairn init.
var clientAgents = map[string]string{
	clientClaude: hookAgent,
	clientGemini: setup.GeminiAgent,
	clientCodex:  setup.CodexAgent,
	clientCursor: setup.CursorAgent,
	clientVSCode: setup.VSCodeAgent,
}

// clientInput holds the fields of the other clients' payloads that Claude
// Code's do not have.
type clientInput struct {
	// VS Code: its common fields are in lower camel case.
	SessionIDCamel     string `json:"sessionId"`
	HookEventNameCamel string `json:"hookEventName"`
	// Cursor: every event has these.
	ConversationID string   `json:"conversation_id"`
	GenerationID   string   `json:"generation_id"`
	WorkspaceRoots []string `json:"workspace_roots"`
	CursorVersion  string   `json:"cursor_version"`
	// Cursor's postToolUse and postToolUseFailure.
	ToolOutput   json.RawMessage `json:"tool_output"`
	ErrorMessage string          `json:"error_message"`
	FailureType  string          `json:"failure_type"`
	// Codex: every turn-scoped event has its turn.
	TurnID string `json:"turn_id"`
}

// detectClient names the client a payload is from, when the command did
// not say (--client not given): VS Code runs the hooks of
// .claude/settings.json too, and wants its answers as JSON.
func detectClient(in hookInput) string {
	switch {
	case in.HookEventNameCamel != "" && in.HookEventName == "":
		return clientVSCode
	case in.ConversationID != "" || in.CursorVersion != "" || len(in.WorkspaceRoots) > 0:
		return clientCursor
	case in.TurnID != "":
		return clientCodex
	}
	return clientClaude
}

// eventName is the client's name for the event it ran the hook on.
func (in hookInput) eventName(client, event string) string {
	if in.HookEventName != "" {
		return in.HookEventName
	}
	if in.HookEventNameCamel != "" {
		return in.HookEventNameCamel
	}
	names := map[string]string{"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit",
		"post-tool-use": "PostToolUse", "pre-compact": "PreCompact", "stop": "Stop", "session-end": "SessionEnd"}
	if client == clientGemini {
		names["user-prompt-submit"], names["post-tool-use"], names["pre-compact"], names["stop"] = "BeforeAgent", "AfterTool", "PreCompress", "AfterAgent"
	}
	return names[event]
}

// sessionID is the client's own id of its session.
func (in hookInput) sessionID(client string) string {
	ids := []string{in.SessionID, in.SessionIDCamel, in.ConversationID}
	if client == clientCursor {
		// Every Cursor event carries the conversation; only some the session.
		ids = []string{in.ConversationID, in.SessionID}
	}
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" {
			return id
		}
	}
	return ""
}

// projectDir is the directory the payload says the agent works in.
func (in hookInput) projectDir() string {
	if in.Cwd != "" {
		return in.Cwd
	}
	for _, r := range in.WorkspaceRoots {
		if r != "" {
			return r
		}
	}
	return ""
}

// writeContext gives the model text, in the form the client wants: plain
// text for Claude Code; hookSpecificOutput.additionalContext for Gemini
// CLI, Codex and VS Code; additional_context for Cursor.
func writeContext(w io.Writer, client, eventName, text string) error {
	switch client {
	case clientClaude:
		_, err := io.WriteString(w, text)
		return err
	case clientCursor:
		return json.NewEncoder(w).Encode(map[string]string{"additional_context": text})
	}
	return json.NewEncoder(w).Encode(map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": eventName, "additionalContext": text}})
}

// writeNothing answers an event with nothing to say. Cursor and VS Code
// parse a hook's stdout as JSON: they get an empty object, which asks for
// nothing; the others get no output.
func writeNothing(w io.Writer, client string) error {
	if client == clientCursor || client == clientVSCode {
		_, err := io.WriteString(w, "{}\n")
		return err
	}
	return nil
}

// clientToolUse reads what a tool call of Codex, Cursor or VS Code did.
func clientToolUse(agent, client string, in hookInput) memories.ToolUse {
	u := memories.ToolUse{Agent: agent, Tool: in.ToolName}
	var ti map[string]any
	_ = json.Unmarshal(in.ToolInput, &ti)
	if s, ok := jsonString(in.ToolInput); ok {
		// Cursor has sent a tool's input as a JSON string.
		_ = json.Unmarshal([]byte(s), &ti)
	}
	command, _ := ti["command"].(string)
	switch client {
	case clientCodex:
		switch in.ToolName {
		case "apply_patch", "Edit", "Write":
			u.Files = patchFiles(firstString(ti, "command", "patch", "input"))
			return u
		case "Bash", "shell", "exec_command", "local_shell":
			u.Command = command
		}
	case clientCursor:
		switch in.ToolName {
		case "Shell", "Terminal", "run_terminal_cmd":
			u.Command = command
		default:
			if isEditTool(in.ToolName) {
				u.Files = inputFiles(ti)
				return u
			}
		}
	case clientVSCode:
		switch {
		case in.ToolName == "runTerminalCommand" || in.ToolName == "run_in_terminal":
			u.Command = command
		case isEditTool(in.ToolName):
			u.Files = inputFiles(ti)
			return u
		}
	}
	if u.Command == "" {
		return u
	}
	if in.HookEventName == "postToolUseFailure" || in.HookEventName == "PostToolUseFailure" {
		msg := in.ErrorMessage
		if msg == "" {
			msg = in.Error
		}
		u.Failed, u.Error = !in.IsInterrupt, msg
		return u
	}
	resp := in.ToolResponse
	if len(resp) == 0 {
		resp = in.ToolOutput
	}
	u.Output, u.Failed, u.Error = shellResult(resp)
	return u
}

// isEditTool reports whether a tool of Cursor or VS Code writes files.
func isEditTool(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"edit", "write", "create", "replace", "patch", "delete", "insert"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// inputFiles are the files a tool's input names.
func inputFiles(ti map[string]any) []string {
	var out []string
	for _, k := range []string{"file_path", "filePath", "path", "target_file", "targetFile"} {
		if s, ok := ti[k].(string); ok && s != "" {
			out = append(out, s)
		}
	}
	if files, ok := ti["files"].([]any); ok {
		for _, f := range files {
			if s, ok := f.(string); ok && s != "" {
				out = append(out, s)
			}
		}
	}
	if reps, ok := ti["replacements"].([]any); ok {
		for _, r := range reps {
			if m, ok := r.(map[string]any); ok {
				out = append(out, inputFiles(m)...)
			}
		}
	}
	return out
}

// patchFiles are the files a Codex patch adds, updates, deletes or moves
// to ("*** Update File: path" and the like, one a line).
func patchFiles(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(line, p); ok && strings.TrimSpace(f) != "" {
				out = append(out, strings.TrimSpace(f))
			}
		}
	}
	return out
}

// shellResult reads a shell tool's result, a string or an object with an
// exit code and what it printed (the clients differ, and have changed).
func shellResult(resp json.RawMessage) (output string, failed bool, errText string) {
	if s, ok := jsonString(resp); ok {
		var inner json.RawMessage = []byte(s)
		if json.Valid(inner) && strings.HasPrefix(strings.TrimSpace(s), "{") {
			return shellResult(inner)
		}
		return textShellResult(s)
	}
	var r map[string]any
	if json.Unmarshal(resp, &r) != nil {
		return "", false, ""
	}
	out := strings.TrimSpace(firstString(r, "output", "aggregated_output", "stdout") + "\n" + firstString(r, "stderr"))
	for _, k := range []string{"exit_code", "exitCode"} {
		if c, ok := r[k].(float64); ok && c != 0 {
			return "", true, strings.TrimSpace(fmt.Sprintf("exit status %d\n%s", int(c), out))
		}
	}
	return out, false, ""
}

// textShellResult reads a shell's result given as the text the model
// reads. Codex hands its hooks that text (core/src/tools/context.rs,
// post_tool_use_response: the truncated model output, no exit code of its
// own): a header, "Exit code: N" (or, from its unified exec, "Process
// exited with code N") and "Wall time: ..." lines, then "Output:" and what
// the command printed.
func textShellResult(s string) (output string, failed bool, errText string) {
	header, body, found := strings.Cut(s, "Output:\n")
	if !found {
		return strings.TrimSpace(s), false, ""
	}
	code := -1
	for _, line := range strings.Split(header, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"Exit code: ", "Process exited with code "} {
			if v, ok := strings.CutPrefix(line, p); ok {
				fmt.Sscanf(v, "%d", &code)
			}
		}
	}
	body = strings.TrimSpace(body)
	if code > 0 {
		return "", true, strings.TrimSpace(fmt.Sprintf("exit status %d\n%s", code, body))
	}
	if code < 0 {
		return strings.TrimSpace(s), false, ""
	}
	return body, false, ""
}

func jsonString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
