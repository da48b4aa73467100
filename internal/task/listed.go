package task

import (
	"cmp"
	"slices"
)

// Listed is a task in a board's id order (ByID), with its status and
// priority as small numbers, so a scan of the plan filters on them without
// reading each task.
type Listed struct {
	T        *Task
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
	return Listed{T: t, Status: StatusCode(t.Status), Priority: PriorityCode(t.Priority)}
}

// ByID returns the board's tasks in id order, to be read and not changed.
// The list is made on the board's first call and kept (a board never
// changes); Apply carries it over to the next board, patched, so a plan
// listed again and again after small changes is not sorted each time.
// ByID is safe for concurrent use.
func (b *Board) ByID() []Listed {
	b.byIDOnce.Do(func() {
		if b.byID != nil {
			return // carried over by Apply
		}
		out := make([]Listed, 0, len(b.Tasks))
		for _, t := range b.Tasks {
			out = append(out, listed(t))
		}
		slices.SortFunc(out, func(x, y Listed) int { return cmp.Compare(x.T.ID, y.T.ID) })
		b.byID = out
	})
	b.byIDDone.Store(true)
	return b.byID
}

// relist gives nb, which Apply made from b with c, b's id order with c's
// tasks put in (replacing their old entries) and its removed tasks taken
// out, when b has one; otherwise nb lists itself when asked.
func (nb *Board) relist(b *Board, c Changes) {
	if !b.byIDDone.Load() {
		return
	}
	old := b.ByID()
	// The new board's entries for c's tasks (the last of an id wins, as in
	// Apply), and every id whose old entry goes.
	put := make([]Listed, 0, len(c.Tasks))
	for i := range c.Tasks {
		if t := nb.Tasks[c.Tasks[i].ID]; t == &c.Tasks[i] {
			put = append(put, listed(t))
		}
	}
	slices.SortFunc(put, func(x, y Listed) int { return cmp.Compare(x.T.ID, y.T.ID) })
	drop := make([]ID, 0, len(put)+len(c.Removed))
	for _, l := range put {
		drop = append(drop, l.T.ID)
	}
	drop = append(drop, c.Removed...)
	slices.Sort(drop)
	out := make([]Listed, 0, len(old)+len(put))
	for _, l := range old {
		id := l.T.ID
		for len(put) > 0 && put[0].T.ID < id {
			out = append(out, put[0])
			put = put[1:]
		}
		for len(drop) > 0 && drop[0] < id {
			drop = drop[1:]
		}
		if len(drop) > 0 && drop[0] == id {
			continue
		}
		out = append(out, l)
	}
	out = append(out, put...)
	nb.byIDOnce.Do(func() { nb.byID = out })
	nb.byIDDone.Store(true)
}
