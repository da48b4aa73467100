package task

import (
	"cmp"
	"slices"
)

// Listed is a task in a board's id order (ByID), with its parent, and its
// status and priority as small numbers, so a scan of the plan filters on
// them without reading each task (b.Tasks.Get(l.ID) is the task). It holds
// no pointer: the list is copied on each change and never scanned by the
// collector.
type Listed struct {
	ID       ID
	Parent   ID    // the task's ParentID
	Status   uint8 // index in Statuses; len(Statuses) if unknown
	Priority uint8 // index in PrioritiesLowFirst; len(PrioritiesLowFirst) if unknown
}

// StatusCode is s's index in Statuses, len(Statuses) if s is none of them:
// the code Listed carries.
func StatusCode(s Status) uint8 {
	switch s {
	case StatusPending:
		return 0
	case StatusInProgress:
		return 1
	case StatusBlocked:
		return 2
	case StatusDone:
		return 3
	case StatusDeferred:
		return 4
	case StatusCancelled:
		return 5
	}
	return uint8(len(Statuses))
}

// PriorityCode is p's index in PrioritiesLowFirst, len(PrioritiesLowFirst)
// if p is none of them: the code Listed carries.
func PriorityCode(p Priority) uint8 {
	switch p {
	case PriorityLow:
		return 0
	case PriorityMedium:
		return 1
	case PriorityHigh:
		return 2
	case PriorityCritical:
		return 3
	}
	return uint8(len(PrioritiesLowFirst))
}

func listed(t *Task) Listed {
	return Listed{ID: t.ID, Parent: t.ParentID, Status: StatusCode(t.Status), Priority: PriorityCode(t.Priority)}
}

// ByID returns the board's tasks in id order, to be read and not changed.
// The list is made on the board's first call and kept (a board never
// changes); Apply carries it over to the next board, patched, so a plan
// listed again and again after small changes is not sorted each time.
// ByID is safe for concurrent use.
func (b *Board) ByID() []Listed {
	b.byIDOnce.Do(func() { // unless Apply did (relist)
		out := make([]Listed, 0, b.Tasks.Len())
		for _, t := range b.Tasks.All() {
			out = append(out, listed(t))
		}
		slices.SortFunc(out, func(x, y Listed) int { return cmp.Compare(x.ID, y.ID) })
		b.byID = out
	})
	b.byIDDone.Store(true)
	return b.byID
}

// relist gives nb, which Apply made from b with c, b's id order with c's
// tasks put in (replacing their old entries) and its removed tasks taken
// out, when b has one; otherwise nb lists itself when asked. The runs of
// b's list between changes are copied whole.
func (nb *Board) relist(b *Board, c Changes) {
	if !b.byIDDone.Load() {
		return
	}
	old := b.ByID()
	// The entries of c's tasks, the last of an id winning as in Apply.
	put := make([]Listed, len(c.Tasks))
	for i := range c.Tasks {
		put[i] = listed(&c.Tasks[i])
	}
	slices.SortStableFunc(put, func(x, y Listed) int { return cmp.Compare(x.ID, y.ID) })
	n := 0
	for k, l := range put {
		if k+1 < len(put) && put[k+1].ID == l.ID {
			continue // a later entry of the id wins
		}
		put[n] = l
		n++
	}
	put = put[:n]
	// Every id whose old entry goes: c's tasks' and the removed ones.
	drop := make([]ID, 0, len(put)+len(c.Removed))
	for _, l := range put {
		drop = append(drop, l.ID)
	}
	drop = slices.Compact(slices.Sorted(slices.Values(append(drop, c.Removed...))))
	out := make([]Listed, 0, len(old)+len(put))
	i := 0 // old[:i] is done with
	for _, id := range drop {
		j, found := slices.BinarySearchFunc(old[i:], id, func(l Listed, id ID) int { return cmp.Compare(l.ID, id) })
		out = append(out, old[i:i+j]...)
		i += j
		if found {
			i++
		}
		if len(put) > 0 && put[0].ID == id {
			out = append(out, put[0])
			put = put[1:]
		}
	}
	out = append(out, old[i:]...)
	nb.byIDOnce.Do(func() { nb.byID = out })
	nb.byIDDone.Store(true)
}
