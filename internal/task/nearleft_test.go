package task

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestBoardNearLeft: Board.NearLeft answers as NearLeft does over the
// task's left siblings sorted out of the whole level (position, then id),
// for every task of random boards (positions repeated, every status, roots
// and nested levels, a task whose parent is not on the board) and every
// limit from 0 to 8.
func TestBoardNearLeft(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 200 {
		n := 1 + rng.IntN(40)
		var tasks []Task
		for i := 1; i <= n; i++ {
			parent := ID(0)
			if i > 1 && rng.IntN(3) > 0 {
				parent = ID(1 + rng.IntN(min(i-1, 3))) // a few wide levels
			}
			if rng.IntN(20) == 0 {
				parent = ID(n + 5) // not on the board
			}
			tasks = append(tasks, tk(ID(i), parent, rng.IntN(8), Statuses[rng.IntN(len(Statuses))]))
		}
		b := NewBoard(tasks, nil)
		for _, cur := range tasks {
			var sibs []Task
			for _, s := range tasks {
				if s.ParentID == cur.ParentID && (cur.ParentID == 0 || b.Tasks.Has(cur.ParentID)) {
					sibs = append(sibs, s)
				}
			}
			slices.SortFunc(sibs, func(x, y Task) int { return cmp.Or(cmp.Compare(x.Position, y.Position), cmp.Compare(x.ID, y.ID)) })
			var left []Task
			for i, s := range sibs {
				if s.ID == cur.ID {
					left = sibs[:i]
				}
			}
			for limit := range 9 {
				want, wantMore := NearLeft(left, limit)
				got, more := b.NearLeft(b.Tasks.Get(cur.ID), limit)
				if diff := gocmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" || more != wantMore {
					t.Fatalf("round %d, task %s, limit %d: more %d, want %d; shown (-want +got):\n%s", round, cur.ID, limit, more, wantMore, diff)
				}
			}
		}
	}
}
