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
// changes); Apply carries a made list over to the boards that follow as
// patches (relist), applied on the first call, so a plan listed again and
// again after small changes is not sorted each time, and a board never
// listed copies no list. ByID is safe for concurrent use.
func (b *Board) ByID() []Listed {
	b.byIDOnce.Do(func() {
		if p := b.listCarry.Load(); p != nil {
			b.byID = p.list()
		} else {
			out := make([]Listed, 0, b.Tasks.Len())
			for _, t := range b.Tasks.All() {
				out = append(out, listed(t))
			}
			slices.SortFunc(out, func(x, y Listed) int { return cmp.Compare(x.ID, y.ID) })
			b.byID = out
		}
		b.byIDDone.Store(true)
		b.listCarry.Store(nil) // the board it came from can go
	})
	return b.byID
}

// listCarry is a board's id order not made yet: from's (made), with the
// patches of the Applies since put in, in turn.
type listCarry struct {
	from    *Board
	patches []listPatch
	n       int // ids the patches name
}

// listPatch is what one Apply changes in the id order: the entries of its
// tasks (one per id, the last of an id winning as in Apply, which replace
// the ids' old entries) and the ids it removes.
type listPatch struct {
	put     []Listed
	removed []ID
}

// relist gives nb, which Apply made from b with c, b's id order (made or
// carried) with c as one more patch, when b has one; otherwise nb lists
// itself when asked. Past a quarter of the plan's ids, patches would cost
// more than a sort: nb lists itself too.
func (nb *Board) relist(b *Board, c Changes) {
	var carry listCarry
	if p := b.listCarry.Load(); p != nil {
		carry = *p
		carry.patches = carry.patches[:len(carry.patches):len(carry.patches)] // append copies
	} else if b.byIDDone.Load() {
		carry.from = b
	} else {
		return
	}
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
	carry.patches = append(carry.patches, listPatch{put: put[:n], removed: c.Removed})
	carry.n += n + len(c.Removed)
	if carry.n > len(carry.from.ByID())/4+64 {
		return
	}
	nb.listCarry.Store(&carry)
}

// list is the id order the carry stands for: from's, with the last word of
// the patches on each id they name (an entry, or none for a removed id; in
// one patch, an entry over a removal, as Apply has it) put in, and the
// runs of from's list between them copied whole.
func (p *listCarry) list() []Listed {
	old := p.from.ByID()
	last := make(map[ID]*Listed, p.n)
	for _, pt := range p.patches {
		for _, id := range pt.removed {
			last[id] = nil
		}
		for i := range pt.put {
			last[pt.put[i].ID] = &pt.put[i]
		}
	}
	drop := make([]ID, 0, len(last)) // every id whose old entry goes
	for id := range last {
		drop = append(drop, id)
	}
	slices.Sort(drop)
	out := make([]Listed, 0, len(old)+len(drop))
	i := 0 // old[:i] is done with
	for _, id := range drop {
		j, found := slices.BinarySearchFunc(old[i:], id, func(l Listed, id ID) int { return cmp.Compare(l.ID, id) })
		out = append(out, old[i:i+j]...)
		i += j
		if found {
			i++
		}
		if l := last[id]; l != nil {
			out = append(out, *l)
		}
	}
	return append(out, old[i:]...)
}
