package plan

import "github.com/cairn-dev/cairn/internal/task"

// boardAround returns a board that holds what detailOnBoard reads of task
// id on b.Apply(c) (its dependencies, dependents and subtasks, and those
// tasks), worked out from b and c without building that board: Apply
// clones b's index maps on most changes and re-ranks and re-lists the
// plan, which cost a write that answers with one task's neighbours more
// than the rest of its statements. ok is false when id is not on the
// board that c brings, or c is a full reload (the caller then reads).
func boardAround(b *task.Board, c task.Changes, id task.ID) (around *task.Board, ok bool) {
	if b == nil || c.Full {
		return nil, false
	}
	changed := make(map[task.ID]*task.Task, len(c.Tasks))
	for i := range c.Tasks {
		changed[c.Tasks[i].ID] = &c.Tasks[i]
	}
	removed := make(map[task.ID]bool, len(c.Removed))
	for _, r := range c.Removed {
		removed[r] = true
	}
	get := func(x task.ID) *task.Task {
		if t := changed[x]; t != nil {
			return t
		}
		if removed[x] {
			return nil
		}
		return b.Tasks.Get(x)
	}
	if get(id) == nil {
		return nil, false
	}
	var deps, dependents, kids []task.ID
	// Its dependencies: as c lists them if it changed, else as b has them,
	// less the removed (a task's new edges change it).
	own := b.Deps[id]
	if changed[id] != nil {
		own = c.Deps[id]
	}
	for _, d := range own {
		if get(d) != nil {
			deps = append(deps, d)
		}
	}
	// Its dependents and subtasks: b's that neither changed nor went, and
	// the changed tasks that now depend on it or sit under it.
	for _, x := range b.Dependents[id] {
		if changed[x] == nil && !removed[x] {
			dependents = append(dependents, x)
		}
	}
	for _, x := range b.Children[id] {
		if changed[x] == nil && !removed[x] {
			kids = append(kids, x)
		}
	}
	for i := range c.Tasks {
		x := &c.Tasks[i]
		if x.ParentID == id {
			kids = append(kids, x.ID)
		}
		for _, d := range c.Deps[x.ID] {
			if d == id {
				dependents = append(dependents, x.ID)
				break
			}
		}
	}
	m := make(map[task.ID]*task.Task, 1+len(deps)+len(dependents)+len(kids))
	m[id] = get(id)
	for _, ids := range [][]task.ID{deps, dependents, kids} {
		for _, x := range ids {
			m[x] = get(x)
		}
	}
	around = &task.Board{Tasks: task.NewTaskMap(m), Deps: task.Deps{}, Dependents: map[task.ID][]task.ID{}, Children: map[task.ID][]task.ID{}}
	if deps != nil {
		around.Deps[id] = deps
	}
	if dependents != nil {
		around.Dependents[id] = dependents
	}
	if kids != nil {
		around.Children[id] = kids
	}
	return around, true
}
