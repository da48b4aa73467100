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
