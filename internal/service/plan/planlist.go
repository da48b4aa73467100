package plan

import (
	"cmp"
	"slices"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// onBoard says whether List can answer q from the board: the board's tasks
// carry no bodies, and times are left to the store, which compares them in
// its own precision.
func onBoard(q store.Query) bool {
	return !q.WithBody && q.CreatedAfter.IsZero() && q.CreatedBefore.IsZero() &&
		q.UpdatedAfter.IsZero() && q.UpdatedBefore.IsZero()
}

// queryBoard is store.Tx.Query over a board (see onBoard for the queries it
// answers): the page of b's tasks that q selects, in q's order, and how
// many q selects in all.
func queryBoard(b *task.Board, q store.Query) ([]task.Task, int) {
	// The filter is on the codes ByID carries, not on the tasks: a scan of
	// the plan then reads one small array, not every task.
	var statuses, priorities uint64
	for _, s := range q.Statuses {
		statuses |= 1 << task.StatusCode(s)
	}
	for _, p := range q.Priorities {
		priorities |= 1 << task.PriorityCode(p)
	}
	keep := func(l task.Listed) bool {
		return (len(q.Statuses) == 0 || statuses&(1<<l.Status) != 0) &&
			(len(q.Priorities) == 0 || priorities&(1<<l.Priority) != 0)
	}
	all := b.ByID()
	off := max(q.Offset, 0)
	if q.Sort == "" || q.Sort == store.SortID {
		// The list is in the order asked for (or its reverse): the page is
		// the matches from off on, and the rest are only counted.
		var page []*task.Task
		total := 0
		visit := func(l task.Listed) {
			if !keep(l) {
				return
			}
			if total >= off && (q.Limit <= 0 || total < off+q.Limit) {
				page = append(page, b.Tasks.Get(l.ID))
			}
			total++
		}
		if q.Desc {
			for i := len(all) - 1; i >= 0; i-- {
				visit(all[i])
			}
		} else {
			for _, l := range all {
				visit(l)
			}
		}
		return copyTasks(page), total
	}
	var match []*task.Task
	for _, l := range all {
		if keep(l) {
			match = append(match, b.Tasks.Get(l.ID))
		}
	}
	var key func(t *task.Task) int64
	switch q.Sort {
	case store.SortPriority:
		key = func(t *task.Task) int64 { return rank(task.PrioritiesLowFirst, t.Priority) }
	case store.SortStatus:
		key = func(t *task.Task) int64 { return rank(task.Statuses, t.Status) }
	case store.SortCreated:
		key = func(t *task.Task) int64 { return t.CreatedAt.UnixMicro() }
	case store.SortUpdated:
		key = func(t *task.Task) int64 { return t.UpdatedAt.UnixMicro() }
	default:
		key = func(t *task.Task) int64 { return int64(t.ID) }
	}
	less := func(x, y *task.Task) int {
		c := cmp.Or(cmp.Compare(key(x), key(y)), cmp.Compare(x.ID, y.ID))
		if q.Desc {
			return -c
		}
		return c
	}
	total := len(match)
	if q.Limit > 0 && off+q.Limit < total {
		match = firstN(match, off+q.Limit, less)
	} else {
		slices.SortFunc(match, less)
	}
	match = match[min(off, len(match)):]
	if q.Limit > 0 {
		match = match[:min(q.Limit, len(match))]
	}
	return copyTasks(match), total
}

// copyTasks copies a page of a board's tasks (which carry no body).
func copyTasks(ts []*task.Task) []task.Task {
	out := make([]task.Task, len(ts))
	for i, t := range ts {
		out[i] = *t
	}
	return out
}

// firstN returns the n least of ts in order (n < len(ts)), keeping a sorted
// run of the best so far: a page of 20 among a thousand tasks costs a pass,
// not a sort.
func firstN(ts []*task.Task, n int, less func(x, y *task.Task) int) []*task.Task {
	best := make([]*task.Task, 0, n+1)
	for _, t := range ts {
		if len(best) == n && less(t, best[n-1]) >= 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(best, t, less)
		best = slices.Insert(best, i, t)
		if len(best) > n {
			best = best[:n]
		}
	}
	return best
}

// rank is a value's place in the store's order for it (its index in
// values, unknown ones last), as the stores' CASE expressions rank it.
func rank[T comparable](values []T, v T) int64 {
	if i := slices.Index(values, v); i >= 0 {
		return int64(i)
	}
	return int64(len(values))
}

// depsOnBoard is store.Tx.DepsOf over a board: the visible dependencies of
// each of ts that has any, in id order.
func depsOnBoard(b *task.Board, ts []task.Task) task.Deps {
	deps := task.Deps{}
	for _, t := range ts {
		if ds := b.Deps[t.ID]; len(ds) > 0 {
			deps[t.ID] = slices.Sorted(slices.Values(ds))
		}
	}
	return deps
}
