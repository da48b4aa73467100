package httpserver

import (
	"fmt"
	"strings"
	"testing"
)

// TestAgentVerdictsAreChecksVerdicts: the cached check of X-Cairn-Agent
// answers as checkAgent does, for names seen once, again, and after the
// cache started over, and holds no more than its bound.
func TestAgentVerdictsAreChecksVerdicts(t *testing.T) {
	names := []string{"claude-code", "ci-bot", " ", "", "tab\there", strings.Repeat("a", 129),
		"ghp_" + strings.Repeat("A1b2", 9), "agent-7", "é-agent"}
	for i := range 2*maxAgentVerdicts + 10 {
		names = append(names, fmt.Sprint("load-", i))
	}
	var v agentVerdicts
	for round := range 3 {
		for _, n := range names {
			got, want := v.check(n), checkAgent(n)
			if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
				t.Fatalf("round %d, %q: %v, checkAgent says %v", round, n, got, want)
			}
			if len(v.m) > maxAgentVerdicts {
				t.Fatalf("%d verdicts held, more than %d", len(v.m), maxAgentVerdicts)
			}
		}
	}
	if checkAgent("ghp_"+strings.Repeat("A1b2", 9)) == nil || checkAgent("claude-code") != nil {
		t.Fatal("the names above no longer test both verdicts")
	}
}
