package tasks

import (
	"slices"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// AncestorsOnBoard is a Query.PathTo on a board: root first.
func AncestorsOnBoard(b *task.Board, t *task.Task) []task.Task {
	var out []task.Task
	for a := b.Tasks.Get(t.ParentID); a != nil && t.ParentID != 0; a = b.Tasks.Get(a.ParentID) {
		out = append(out, *a)
		if a.ParentID == 0 {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// MarksOf is lifecycleMarks over lifecycles read already, in id order.
func MarksOf(ls []store.Lifecycle) map[task.ID]LifecycleMark {
	out := make(map[task.ID]LifecycleMark, len(ls))
	for _, l := range ls {
		out[l.TaskID] = LifecycleMark{ID: l.ID, Definition: l.Definition, Phase: l.Phase}
	}
	return out
}
