package agent

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name, want string
	}{
		{"claude-code/3f2a9c1e", ""},
		{"ci-bot", ""},
		{"", "blank"},
		{"a\x00b", "control character"},
		{strings.Repeat("x", MaxLen+1), "too long"},
		// A name is stored with every session, focus and claim: one that
		// carries a token is refused, not stored (issue 34, attack 9).
		{"bot-ghp_" + strings.Repeat("aB3", 12), "secret"},
	} {
		err := Check(c.name)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Check(%.20q) = %v, want %q", c.name, err, c.want)
		}
	}
	if FromClient("bot-ghp_"+strings.Repeat("aB3", 12)) != "" {
		t.Error("FromClient kept a name holding a token")
	}
}
