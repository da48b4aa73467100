package cli

import (
	"encoding/json"
	"testing"
)

func TestGeminiShellFailure(t *testing.T) {
	for _, tc := range []struct {
		name, resp string
		failed     bool
		text       string
	}{
		{"success", `{"llmContent":"Output: ok  \tledger\t0.4s\nProcess Group PGID: 12","returnDisplay":"ok"}`, false, ""},
		{"exit code", `{"llmContent":"Output: FAIL TestPosting\nsecond line\nExit Code: 1\nProcess Group PGID: 12"}`, true,
			"exit status 1\nFAIL TestPosting\nsecond line"},
		{"no output", `{"llmContent":"Output: (empty)\nExit Code: 127\nProcess Group PGID: 12"}`, true, "exit status 127"},
		{"execution error", `{"llmContent":"Output: (empty)\nError: spawn ENOENT","error":{"message":"spawn ENOENT","type":"shell_execute_error"}}`, true,
			"spawn ENOENT"},
		{"signal", `{"llmContent":"Output: partial\nSignal: 9"}`, true, "signal 9\npartial"},
		{"output that looks like a trailer stays", `{"llmContent":"Output: Exit Code: 3"}`, false, ""},
		{"parts", `{"llmContent":[{"text":"Output: boom\n"},{"text":"Exit Code: 2"}]}`, true, "exit status 2\nboom"},
		{"not JSON", `nope`, false, ""},
		{"cancelled", `{"llmContent":"Command was cancelled by user before it could complete. There was no output before it was cancelled."}`, false, ""},
	} {
		failed, text := geminiShellFailure(json.RawMessage(tc.resp))
		if failed != tc.failed || text != tc.text {
			t.Errorf("%s: got %v %q, want %v %q", tc.name, failed, text, tc.failed, tc.text)
		}
	}
}

// TestToolUseEdits: the text replacements of Claude Code's Edit and
// MultiEdit and Gemini CLI's replace are read from their payloads; a
// Write, a failed edit and an edit that changes nothing give none.
func TestToolUseEdits(t *testing.T) {
	for _, tc := range []struct {
		name, tool, event, input string
		want                     int
	}{
		{"edit", "Edit", "PostToolUse", `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, 1},
		{"multi", "MultiEdit", "PostToolUse", `{"file_path":"/p/a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d"}]}`, 2},
		{"gemini", "replace", "AfterTool", `{"file_path":"/p/a.go","old_string":"x","new_string":"y","instruction":"z"}`, 1},
		{"write", "Write", "PostToolUse", `{"file_path":"/p/a.go","content":"package a"}`, 0},
		{"failed", "Edit", "PostToolUseFailure", `{"file_path":"/p/a.go","old_string":"a","new_string":"b"}`, 0},
		{"no change", "Edit", "PostToolUse", `{"file_path":"/p/a.go","old_string":"a","new_string":"a"}`, 0},
	} {
		u := toolUse("a", hookInput{ToolName: tc.tool, HookEventName: tc.event, ToolInput: json.RawMessage(tc.input)})
		if len(u.Edits) != tc.want {
			t.Errorf("%s: %d edits %+v, want %d", tc.name, len(u.Edits), u.Edits, tc.want)
		}
		for _, e := range u.Edits {
			if e.Path != "/p/a.go" || e.Old == "" {
				t.Errorf("%s: edit %+v", tc.name, e)
			}
		}
	}
}
