package cairntest

import (
	"strings"
	"testing"
)

// BigPicture returns the text outline (get_big_picture).
func BigPicture(tb testing.TB, s *Server) string {
	tb.Helper()
	return s.OK("get_big_picture", map[string]any{}).Text
}

// WantCurrent fails tb unless the current task is titled title and the big
// picture marks exactly one task YOU ARE HERE.
func WantCurrent(tb testing.TB, s *Server, title string) {
	tb.Helper()
	r := s.OK("get_current_task", map[string]any{})
	if got, _ := r.Structured["title"].(string); got != title {
		tb.Fatalf("current task = %q, want %q\n%s", got, title, BigPicture(tb, s))
	}
	if n := strings.Count(BigPicture(tb, s), "<-- YOU ARE HERE"); n != 1 {
		tb.Fatalf("big picture has %d YOU ARE HERE markers, want 1", n)
	}
}
