package render

import (
	"errors"
	"testing"

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
