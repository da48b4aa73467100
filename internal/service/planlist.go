package service

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
	var match []*task.Task
	for _, t := range b.Tasks {
		if (len(q.Statuses) == 0 || slices.Contains(q.Statuses, t.Status)) &&
			(len(q.Priorities) == 0 || slices.Contains(q.Priorities, t.Priority)) {
			match = append(match, t)
		}
	}
	key := func(t *task.Task) int64 { return int64(t.ID) }
	switch q.Sort {
	case store.SortPriority:
		key = func(t *task.Task) int64 { return rank(task.PrioritiesLowFirst, t.Priority) }
	case store.SortStatus:
		key = func(t *task.Task) int64 { return rank(task.Statuses, t.Status) }
	case store.SortCreated:
		key = func(t *task.Task) int64 { return t.CreatedAt.UnixMicro() }
	case store.SortUpdated:
		key = func(t *task.Task) int64 { return t.UpdatedAt.UnixMicro() }
	}
	less := func(x, y *task.Task) int {
		c := cmp.Or(cmp.Compare(key(x), key(y)), cmp.Compare(x.ID, y.ID))
		if q.Desc {
			return -c
		}
		return c
	}
	total, off := len(match), max(q.Offset, 0)
	if q.Limit > 0 && off+q.Limit < total {
		match = firstN(match, off+q.Limit, less)
	} else {
		slices.SortFunc(match, less)
	}
	match = match[min(off, len(match)):]
	if q.Limit > 0 {
		match = match[:min(q.Limit, len(match))]
	}
	out := make([]task.Task, len(match))
	for i, t := range match {
		out[i] = *t // a board's tasks carry no body
	}
	return out, total
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
