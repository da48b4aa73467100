package memories

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/words"
)

// IndexLine is a memory hit in one line: its id, what it is, when.
func IndexLine(h Hit) string {
	line := h.ID.String() + " "
	if h.Type == memory.Mistake && h.Occurrences > 1 {
		line += fmt.Sprintf("×%d ", h.Occurrences)
	}
	line += words.OneLine(h.Title, 160)
	if !h.CreatedAt.IsZero() {
		line += " (" + h.CreatedAt.Format(time.DateOnly) + ")"
	}
	return line
}
