package render

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service/evolution"
)

func TestAnnouncement(t *testing.T) {
	es := []evolution.Entry{{Seq: 3, Title: "Run the linter first", Path: "AGENTS.md", Confidence: 0.91}}
	want := "\n\nEvolution applied on its own since the last session:\n- change 3: Run the linter first (AGENTS.md, confidence 91%; evolution_review 3, evolution_revert 3 to undo)"
	if got := Announcement(es, nil); got != want {
		t.Errorf("Announcement =\n%q\nwant\n%q", got, want)
	}
	if got := Announcement(nil, nil); got != "" {
		t.Errorf("nothing to tell: %q", got)
	}
	if got := Announcement(es, errors.New("log unreadable")); got != "" {
		t.Errorf("an unreadable log is told: %q", got)
	}
}

// TestEvolutionWire pins the answers' field names for a draft and a pending
// candidate, which the goldens show only in part (no pending candidate, no
// decided draft): the file formats on disk may change without changing them.
func TestEvolutionWire(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	d := DraftViewOf(evolution.Draft{ID: "d1", Kind: "rule", Title: "Lint first", Status: evolution.StatusRejected, Confidence: 0.5,
		Evidence: evolution.Evidence{Sessions: []int64{4}, Count: 1, Of: 2, Statistic: "1 of 2"}, Created: at, File: "f.md", Target: "AGENTS.md",
		Decided: at, Reason: "no"})
	_, st := EvolutionStatus(evolution.Status{Pending: []evolution.Pending{{Key: "k", Kind: "rule", Title: "t", Confidence: 0.4, Sessions: 3, Why: "few", Seen: at}}})
	for _, c := range []struct {
		v    any
		want string
	}{
		{d, `{"id":"d1","kind":"rule","title":"Lint first","status":"rejected","confidence":0.5,"evidence":{"sessions":[4],"count":1,"of":2,"statistic":"1 of 2"},"created":"2026-03-01T09:00:00Z","file":"f.md","target":"AGENTS.md","decided":"2026-03-01T09:00:00Z","reason":"no"}`},
		{st.Pending, `[{"key":"k","kind":"rule","title":"t","confidence":0.4,"sessions":3,"why":"few","seen":"2026-03-01T09:00:00Z"}]`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("got  %s\nwant %s", b, c.want)
		}
	}
}
