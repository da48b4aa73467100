package runs

import "testing"

func TestParseTestVerdicts(t *testing.T) {
	cases := []struct {
		name    string
		runner  Runner
		output  string
		exitOK  bool
		want    Outcome
		counted bool
	}{
		{"a pipe hides pytest's exit status", Pytest, "F.\n=== 1 failed, 1 passed in 0.02s ===\n", true, TestsFailed, true},
		{"a pipe hides go test's exit status", GoTest, "--- FAIL: TestX (0.00s)\nFAIL\nFAIL\tx\t0.01s\nFAIL\n", true, TestsFailed, false},
		{"tests passed but the command failed after", GoTest, "ok  \tx\t0.01s\n", false, TestsFailed, false},
		{"pytest's exit 5 is no tests", Pytest, "=== no tests ran in 0.01s ===\n", false, NoTests, true},
		{"unknown output: the exit status", Script, "building...\ndone\n", true, TestsPassed, false},
		{"unknown output, failed", Script, "building...\nboom\n", false, TestsFailed, false},
		{"no runner given: detected", "", "Exit code 1\n  Tests:       1 failed, 2 passed, 3 total\n", false, TestsFailed, true},
		{"gemini's framing", GoTest, "Output: ok  \tledger/internal/ledger\t0.412s\nProcess Group PGID: 48211", true, TestsPassed, false},
		{"plain closing line", Other, "Result: 3 passed, 0 failed\n", true, TestsPassed, true},
		{"all skipped is no tests", Pytest, "=== 3 skipped in 0.01s ===\n", true, NoTests, true},
	}
	for _, c := range cases {
		got := ParseTest(c.runner, c.output, c.exitOK)
		if got.Outcome != c.want || got.Counted != c.counted {
			t.Errorf("%s: outcome %q counted %v; want %q %v (%+v)", c.name, got.Outcome, got.Counted, c.want, c.counted, got)
		}
	}
}

func TestParseTestCRAndColour(t *testing.T) {
	out := "\x1b[2m Test Files \x1b[22m \x1b[1m\x1b[32m1 passed\x1b[39m\x1b[22m\x1b[90m (1)\x1b[39m\n" +
		"running\rrunning.\r\x1b[2m      Tests \x1b[22m \x1b[1m\x1b[32m4 passed\x1b[39m\x1b[22m\x1b[90m (4)\x1b[39m\n"
	got := ParseTest(Vitest, out, true)
	if got.Outcome != TestsPassed || got.Passed != 4 || got.Summary != "Tests 4 passed (4)" {
		t.Errorf("%+v", got)
	}
}
