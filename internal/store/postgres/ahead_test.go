package postgres_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// reads are a transaction's reads of the plan that ReadAhead can send ahead.
type reads struct {
	Task       task.Task
	Children   []task.Task
	Open       []task.Task // OpenChildren
	Deps       []task.ID
	Dependents []task.ID
	Focuses    map[string]task.ID
	Claim      task.Claim
	Claimed    bool
	Lifecycles []store.Lifecycle
	Claims     map[task.ID]task.Claim
	Ancestors  []task.Task
	Imports    []store.Import
}

// at is the time the tests' claims are read at.
var at = time.Now()

func readAll(ctx context.Context, tx store.Tx, parent, child, dep task.ID) (r reads, err error) {
	if r.Claims, err = tx.Claims(ctx, store.ClaimQuery{Now: at}); err != nil {
		return r, err
	}
	if r.Ancestors, _, err = tx.Query(ctx, store.Query{PathTo: child}); err != nil {
		return r, err
	}
	if r.Imports, err = tx.Imports(ctx, store.ImportQuery{Task: child}); err != nil {
		return r, err
	}
	if r.Task, err = store.Task(ctx, tx, parent); err != nil {
		return r, err
	}
	if r.Children, err = store.Children(ctx, tx, parent, false); err != nil {
		return r, err
	}
	if r.Open, err = store.OpenChildren(ctx, tx, parent); err != nil {
		return r, err
	}
	if r.Deps, err = store.TaskDeps(ctx, tx, child); err != nil {
		return r, err
	}
	if r.Dependents, err = store.Dependents(ctx, tx, dep); err != nil {
		return r, err
	}
	if r.Focuses, err = tx.Focuses(ctx); err != nil {
		return r, err
	}
	if r.Claim, r.Claimed, err = store.TaskClaim(ctx, tx, child); err != nil {
		return r, err
	}
	r.Lifecycles, _, err = tx.Lifecycles(ctx, store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: []task.ID{child}})
	return r, err
}

// TestReadAheadAnswersAsReads: reads sent ahead answer as the reads do (in
// a View, where ReadAhead does nothing, the reads are made as they come),
// and a write after them is seen by the reads that follow it, whether the
// write is sent at once or late: an answer sent ahead is never stale.
func TestReadAheadAnswersAsReads(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	var parent, child, dep task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		if parent, err = tx.CreateTask(ctx, task.New("parent", "p", now), store.Placement{}); err != nil {
			return err
		}
		if child, err = tx.CreateTask(ctx, task.New("child", "", now), store.Placement{Parent: parent.ID}); err != nil {
			return err
		}
		if dep, err = tx.CreateTask(ctx, task.New("dep", "", now), store.Placement{}); err != nil {
			return err
		}
		if err := tx.SetDeps(ctx, child.ID, []task.ID{dep.ID}); err != nil {
			return err
		}
		if err := tx.SetFocus(ctx, "a1", child.ID, now); err != nil {
			return err
		}
		if _, err := tx.ClaimTask(ctx, task.Claim{TaskID: child.ID, Agent: "a1", ClaimedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			return err
		}
		if err := tx.SetImported(ctx, "github", "7", child.ID); err != nil {
			return err
		}
		_, err = tx.PutLifecycle(ctx, store.Lifecycle{TaskID: child.ID, Definition: "story", Phase: "SYNC", Status: store.LifecycleOpen,
			StartedAt: now, PhaseSince: now, UpdatedAt: now, State: []byte("{}")})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var want reads
	err = s.View(ctx, func(tx store.Tx) (err error) {
		want, err = readAll(ctx, tx, parent.ID, child.ID, dep.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	all := []store.Read{{Of: store.ReadTask, ID: parent.ID}, {Of: store.ReadChildren, ID: parent.ID}, {Of: store.ReadOpenChildren, ID: parent.ID},
		{Of: store.ReadTaskDeps, ID: child.ID},
		{Of: store.ReadDependents, ID: dep.ID}, {Of: store.ReadFocuses}, {Of: store.ReadTaskClaim, ID: child.ID},
		{Of: store.ReadOpenLifecycles, ID: child.ID}}
	type aheader interface {
		ReadAhead(context.Context, ...store.Read)
	}
	for _, view := range []bool{true, false} {
		run := s.Update
		if view {
			run = s.View
		}
		err := run(ctx, func(tx store.Tx) error {
			tx.(aheader).ReadAhead(ctx, all...)
			got, err := readAll(ctx, tx, parent.ID, child.ID, dep.ID)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("view %v: read ahead\n%+v\nwant\n%+v", view, got, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// Writes after the reads were sent ahead: late (UpdateTask, SetFocus,
	// SetDeps, DropClaim), at once (CreateTask).
	err = s.Update(ctx, func(tx store.Tx) error {
		tx.(aheader).ReadAhead(ctx, all...)
		if _, err := store.Task(ctx, tx, parent.ID); err != nil { // the reads are in
			return err
		}
		p := parent
		p.Title = "parent 2"
		if err := tx.UpdateTask(ctx, p); err != nil {
			return err
		}
		if err := tx.SetFocus(ctx, "a1", dep.ID, now); err != nil {
			return err
		}
		if err := tx.SetDeps(ctx, child.ID, nil); err != nil {
			return err
		}
		if _, err := tx.CreateTask(ctx, task.New("child 2", "", now), store.Placement{Parent: parent.ID}); err != nil {
			return err
		}
		if err := tx.DropClaim(ctx, child.ID); err != nil {
			return err
		}
		got, err := readAll(ctx, tx, parent.ID, child.ID, dep.ID)
		if err != nil {
			return err
		}
		if got.Task.Title != "parent 2" || len(got.Children) != 2 || len(got.Open) != 2 || len(got.Deps) != 0 || len(got.Dependents) != 0 ||
			got.Focuses["a1"] != dep.ID || got.Claimed || len(got.Claims) != 0 {
			t.Errorf("reads after writes answered from before them: %+v", got)
		}
		// Sent ahead after the writes, they see them.
		tx.(aheader).ReadAhead(ctx, all...)
		again, err := readAll(ctx, tx, parent.ID, child.ID, dep.ID)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(again, got) {
			t.Errorf("read ahead after the writes\n%+v\nwant\n%+v", again, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCreateUnderCurrent: sent with the next statement, the task goes
// under the agent's current task as the focus service finds it (current:
// the focus's task when visible and open), after its last child, and is a
// root task in zen (no focus, a focus on a closed or removed task, or a
// cleared focus); the agent's focus moves onto it.
func TestCreateUnderCurrent(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	type creator interface {
		CreateUnderCurrent(ctx context.Context, agent string, t task.Task, open []task.Status, at time.Time, into *task.Task) error
	}
	open := []task.Status{task.StatusPending, task.StatusInProgress, task.StatusBlocked, task.StatusDeferred}
	var openTask, doneTask, gone task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		mk := func(title string, st task.Status) task.Task {
			if err != nil {
				return task.Task{}
			}
			var x task.Task
			x, err = tx.CreateTask(ctx, task.Task{Title: title, Status: st, Priority: task.PriorityMedium, CreatedAt: now, UpdatedAt: now}, store.Placement{})
			return x
		}
		openTask, doneTask, gone = mk("open", task.StatusInProgress), mk("done", task.StatusDone), mk("gone", task.StatusPending)
		if err != nil {
			return err
		}
		if _, err := tx.CreateTask(ctx, task.New("first child", "", now), store.Placement{Parent: openTask.ID}); err != nil {
			return err
		}
		if _, err := tx.RemoveSubtree(ctx, gone.ID, now); err != nil {
			return err
		}
		for agent, id := range map[string]task.ID{"on-open": openTask.ID, "on-done": doneTask.ID, "on-gone": gone.ID, "cleared": 0} {
			if err := tx.SetFocus(ctx, agent, id, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent  string
		parent task.ID
	}{{"on-open", openTask.ID}, {"on-done", 0}, {"on-gone", 0}, {"cleared", 0}, {"never", 0}} {
		err := s.Update(ctx, func(tx store.Tx) error {
			var kids []task.Task
			kids, err := store.Children(ctx, tx, c.parent, false)
			if err != nil {
				return err
			}
			var got task.Task
			if err := tx.(creator).CreateUnderCurrent(ctx, c.agent, task.New("new "+c.agent, "", now), open, now, &got); err != nil {
				return err
			}
			if got.ID != 0 {
				t.Errorf("%s: created before it was sent: %+v", c.agent, got)
			}
			// The next statement carries it.
			focuses, err := tx.Focuses(ctx)
			if err != nil {
				return err
			}
			if focuses[c.agent] != got.ID || got.ID == 0 {
				t.Errorf("%s: focus on %s after creating %+v", c.agent, focuses[c.agent], got)
			}
			stored, err := store.Task(ctx, tx, got.ID)
			if err != nil {
				return err
			}
			// As CreateTask places it: the one it creates next follows it.
			next, err := tx.CreateTask(ctx, task.New("next", "", now), store.Placement{Parent: c.parent})
			if err != nil {
				return err
			}
			last := kids[len(kids)-1]
			if got != stored || got.ParentID != c.parent || got.Position <= last.Position || got.Num <= last.Num ||
				next.ID != got.ID+1 || next.Position != got.Position+1 || next.Num != got.Num+1 ||
				got.Status != task.StatusPending || got.Priority != task.PriorityMedium {
				t.Errorf("%s: created %+v (stored %+v), then %+v; want under %s after %+v", c.agent, got, stored, next, c.parent, last)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadAheadNeverAsked: reads sent ahead that nobody asks for go with
// COMMIT and change nothing: a View commits (read only), an Update does
// not bump the version.
func TestReadAheadNeverAsked(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	a := createTask(t, s, "a")
	before := version(t, s)
	reads := []store.Read{{Of: store.ReadTask, ID: a.ID}, {Of: store.ReadFocuses}, {Of: store.ReadClaims}}
	for _, run := range []func(context.Context, func(store.Tx) error) error{s.View, s.Update} {
		err := run(ctx, func(tx store.Tx) error {
			tx.(interface {
				ReadAhead(context.Context, ...store.Read)
			}).ReadAhead(ctx, reads...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if v := version(t, s); v != before {
		t.Errorf("version %d after reads alone; want %d", v, before)
	}
}

// TestReadAheadOfFocusedTask: the children and dependencies of the task an
// agent's focus is on, and its parent and siblings, read ahead with the
// focus, answer the reads of those tasks by id as the reads do: for a task
// with them and one without, a root and a child, for an agent with no
// focus (the reads run when made), and not after a write made after they
// were sent (the reads see the write).
func TestReadAheadOfFocusedTask(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	parent := createTask(t, s, "parent")
	now := time.Now().UTC().Truncate(time.Microsecond)
	var kids []task.Task
	var dep task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		// A finished child first: the open children are not all of them.
		if _, err := tx.CreateTask(ctx, task.Task{Title: "zero", Status: task.StatusDone, Priority: task.PriorityMedium, CreatedAt: now, UpdatedAt: now},
			store.Placement{Parent: parent.ID}); err != nil {
			return err
		}
		for _, title := range []string{"one", "two"} {
			k, err := tx.CreateTask(ctx, task.New(title, "", now), store.Placement{Parent: parent.ID})
			if err != nil {
				return err
			}
			kids = append(kids, k)
		}
		if dep, err = tx.CreateTask(ctx, task.New("dep", "", now), store.Placement{}); err != nil {
			return err
		}
		if err := tx.SetDeps(ctx, parent.ID, []task.ID{dep.ID, kids[1].ID}); err != nil {
			return err
		}
		if err := tx.SetFocus(ctx, "on-parent", parent.ID, now); err != nil {
			return err
		}
		return tx.SetFocus(ctx, "on-leaf", dep.ID, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	type aheader interface {
		ReadAhead(context.Context, ...store.Read)
	}
	type answer struct {
		Children []task.Task
		Open     []task.Task
		Deps     []task.ID
	}
	read := func(tx store.Tx, id task.ID) (a answer, err error) {
		if a.Children, err = store.Children(ctx, tx, id, false); err != nil {
			return a, err
		}
		if a.Open, err = store.OpenChildren(ctx, tx, id); err != nil {
			return a, err
		}
		a.Deps, err = store.TaskDeps(ctx, tx, id)
		return a, err
	}
	want := map[task.ID]answer{}
	err = s.View(ctx, func(tx store.Tx) error {
		for _, id := range []task.ID{parent.ID, dep.ID} {
			a, err := read(tx, id)
			if err != nil {
				return err
			}
			want[id] = a
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want[parent.ID].Children) != 3 || len(want[parent.ID].Open) != 2 || len(want[parent.ID].Deps) != 2 {
		t.Fatalf("seeded wrong: %+v", want[parent.ID])
	}
	// Its neighbours: the focused task's parent and siblings.
	type around struct {
		Parent   task.Task
		Found    bool
		Siblings []task.Task
		Open     []task.Task // the open siblings
	}
	readAround := func(tx store.Tx, of task.ID) (a around, err error) {
		if of == 0 {
			return a, nil
		}
		t, err := store.Task(ctx, tx, of)
		if err != nil {
			return a, err
		}
		if t.ParentID != 0 {
			a.Parent, err = store.Task(ctx, tx, t.ParentID)
			if err != nil {
				return a, err
			}
			a.Found = true
		}
		if a.Siblings, err = store.Children(ctx, tx, t.ParentID, false); err != nil {
			return a, err
		}
		a.Open, err = store.OpenChildren(ctx, tx, t.ParentID)
		return a, err
	}
	wantAround := map[task.ID]around{}
	err = s.View(ctx, func(tx store.Tx) error {
		for _, id := range []task.ID{parent.ID, kids[0].ID, dep.ID} {
			a, err := readAround(tx, id)
			if err != nil {
				return err
			}
			wantAround[id] = a
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx store.Tx) error { return tx.SetFocus(ctx, "on-kid", kids[0].ID, now) }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		agent string
		id    task.ID
	}{{"on-parent", parent.ID}, {"on-leaf", dep.ID}, {"on-kid", kids[0].ID}, {"nobody", parent.ID}} {
		err := s.Update(ctx, func(tx store.Tx) error {
			tx.(aheader).ReadAhead(ctx, store.Read{Of: store.ReadChildren, Agent: c.agent}, store.Read{Of: store.ReadTaskDeps, Agent: c.agent},
				store.Read{Of: store.ReadChildren, Agent: c.agent, Up: 1}, store.Read{Of: store.ReadTask, Agent: c.agent, Up: 1},
				store.Read{Of: store.ReadOpenChildren, Agent: c.agent}, store.Read{Of: store.ReadOpenChildren, Agent: c.agent, Up: 1})
			if _, _, err := store.FocusedTask(ctx, tx, c.agent); err != nil {
				return err
			}
			if w, ok := want[c.id]; ok {
				got, err := read(tx, c.id)
				if err != nil {
					return err
				}
				if !reflect.DeepEqual(got, w) {
					t.Errorf("%s: read ahead with the focus\n%+v\nwant\n%+v", c.agent, got, w)
				}
			}
			got, err := readAround(tx, c.id)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(got, wantAround[c.id]) {
				t.Errorf("%s: parent and siblings read ahead with the focus\n%+v\nwant\n%+v", c.agent, got, wantAround[c.id])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A write after the reads were sent, before they are used.
	err = s.Update(ctx, func(tx store.Tx) error {
		tx.(aheader).ReadAhead(ctx, store.Read{Of: store.ReadChildren, Agent: "on-parent"}, store.Read{Of: store.ReadTaskDeps, Agent: "on-parent"},
			store.Read{Of: store.ReadOpenChildren, Agent: "on-parent"})
		if _, _, err := store.FocusedTask(ctx, tx, "on-parent"); err != nil {
			return err
		}
		if _, err := tx.CreateTask(ctx, task.New("three", "", now), store.Placement{Parent: parent.ID}); err != nil {
			return err
		}
		if err := tx.SetDeps(ctx, parent.ID, nil); err != nil {
			return err
		}
		got, err := read(tx, parent.ID)
		if err != nil {
			return err
		}
		if len(got.Children) != 4 || len(got.Open) != 3 || len(got.Deps) != 0 {
			t.Errorf("reads after writes answered from before them: %+v", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadAheadThroughOwnWrites: what complete_current_task reads ahead
// (the task's parent and siblings, the focuses, its claim) stays true
// through its writes of the task's own fields, its claim and the archive:
// each read after them, answered from what was read ahead, equals the same
// read made afresh once the write has committed; and a task list read
// ahead but not yet in when the task is written is read again.
func TestReadAheadThroughOwnWrites(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	parent := createTask(t, s, "parent")
	now := time.Now().UTC().Truncate(time.Microsecond)
	var kid, other task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		if kid, err = tx.CreateTask(ctx, task.New("kid", "kid's body", now), store.Placement{Parent: parent.ID}); err != nil {
			return err
		}
		if other, err = tx.CreateTask(ctx, task.New("other", "", now), store.Placement{Parent: parent.ID}); err != nil {
			return err
		}
		if _, err := tx.ClaimTask(ctx, task.Claim{TaskID: kid.ID, Agent: "a1", ClaimedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
			return err
		}
		return tx.SetFocus(ctx, "a1", kid.ID, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	type aheader interface {
		ReadAhead(context.Context, ...store.Read)
	}
	type after struct {
		Kid, Parent task.Task
		Siblings    []task.Task
		Open        []task.Task // the open siblings
		Focuses     map[string]task.ID
		Claimed     bool
	}
	readAfter := func(tx store.Tx) (a after, err error) {
		if a.Kid, err = store.Task(ctx, tx, kid.ID); err != nil {
			return a, err
		}
		if a.Parent, err = store.Task(ctx, tx, parent.ID); err != nil {
			return a, err
		}
		if a.Siblings, err = store.Children(ctx, tx, parent.ID, false); err != nil {
			return a, err
		}
		if a.Open, err = store.OpenChildren(ctx, tx, parent.ID); err != nil {
			return a, err
		}
		if a.Focuses, err = tx.Focuses(ctx); err != nil {
			return a, err
		}
		_, a.Claimed, err = store.TaskClaim(ctx, tx, kid.ID)
		return a, err
	}
	done := kid
	done.Title, done.Body, done.Status, done.UpdatedAt, done.CompletedAt = "kid, done", "new body", task.StatusDone, now.Add(time.Second), now.Add(time.Second)
	var got after
	err = s.Update(ctx, func(tx store.Tx) error {
		tx.(aheader).ReadAhead(ctx, store.Read{Of: store.ReadTask, ID: kid.ID}, store.Read{Of: store.ReadTask, ID: parent.ID},
			store.Read{Of: store.ReadChildren, ID: parent.ID}, store.Read{Of: store.ReadFocuses}, store.Read{Of: store.ReadTaskClaim, ID: kid.ID},
			store.Read{Of: store.ReadOpenChildren, ID: parent.ID})
		if _, err := store.Task(ctx, tx, other.ID); err != nil { // the reads are in
			return err
		}
		if err := tx.UpdateTask(ctx, done); err != nil {
			return err
		}
		if err := tx.(interface {
			DropClaim(context.Context, task.ID) error
		}).DropClaim(ctx, kid.ID); err != nil {
			return err
		}
		if err := tx.Archive(ctx, task.Completion{TaskID: kid.ID, ParentID: parent.ID, Title: done.Title, CreatedAt: now, CompletedAt: now}); err != nil {
			return err
		}
		got, err = readAfter(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var want after
	err = s.View(ctx, func(tx store.Tx) (err error) {
		want, err = readAfter(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read ahead, then the writes\n%+v\nwant (read afresh)\n%+v", got, want)
	}
	if want.Kid.Status != task.StatusDone || want.Siblings[0].Status != task.StatusDone || len(want.Open) != 1 || want.Claimed {
		t.Fatalf("the writes did not happen: %+v", want)
	}
	// Still on its way when the task is written: read again.
	err = s.Update(ctx, func(tx store.Tx) error {
		tx.(aheader).ReadAhead(ctx, store.Read{Of: store.ReadChildren, ID: parent.ID}, store.Read{Of: store.ReadOpenChildren, ID: parent.ID})
		o := other
		o.Title = "other, renamed"
		if err := tx.UpdateTask(ctx, o); err != nil {
			return err
		}
		sibs, err := store.Children(ctx, tx, parent.ID, false)
		if err != nil {
			return err
		}
		if len(sibs) != 2 || sibs[1].Title != "other, renamed" {
			t.Errorf("siblings read ahead before a write, asked for after it: %+v", sibs)
		}
		open, err := store.OpenChildren(ctx, tx, parent.ID)
		if err != nil {
			return err
		}
		if len(open) != 1 || open[0].Title != "other, renamed" {
			t.Errorf("open siblings read ahead before a write, asked for after it: %+v", open)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// In when a closed child is opened again: it is not in the answer,
	// which is read again.
	err = s.Update(ctx, func(tx store.Tx) error {
		tx.(aheader).ReadAhead(ctx, store.Read{Of: store.ReadOpenChildren, ID: parent.ID})
		if _, err := store.Task(ctx, tx, other.ID); err != nil { // the read is in
			return err
		}
		again := want.Kid
		again.Status, again.CompletedAt = task.StatusPending, time.Time{}
		if err := tx.UpdateTask(ctx, again); err != nil {
			return err
		}
		open, err := store.OpenChildren(ctx, tx, parent.ID)
		if err != nil {
			return err
		}
		if len(open) != 2 || open[0].ID != kid.ID || open[0].Status != task.StatusPending {
			t.Errorf("open children read ahead, then a child opened again: %+v", open)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpdateCurrentBody: sent with COMMIT, the body goes into the agent's
// current task as the focus service finds it (current: the focus's task
// when visible and open), and the task comes back as written; with no
// current task (no focus, a focus on a closed or removed task, a cleared
// focus) the transaction fails with store.ErrNoCurrentTask and changes
// nothing, not even the version.
func TestUpdateCurrentBody(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	type writer interface {
		UpdateCurrentBody(ctx context.Context, agent, body string, open []task.Status, at time.Time, into *task.Task) error
	}
	open := []task.Status{task.StatusPending, task.StatusInProgress, task.StatusBlocked, task.StatusDeferred}
	var openTask task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		if openTask, err = tx.CreateTask(ctx, task.Task{Title: "open", Body: "old", Status: task.StatusInProgress, Priority: task.PriorityMedium, CreatedAt: now, UpdatedAt: now}, store.Placement{}); err != nil {
			return err
		}
		done, err := tx.CreateTask(ctx, task.Task{Title: "done", Status: task.StatusDone, Priority: task.PriorityMedium, CreatedAt: now, UpdatedAt: now}, store.Placement{})
		if err != nil {
			return err
		}
		gone, err := tx.CreateTask(ctx, task.New("gone", "", now), store.Placement{})
		if err != nil {
			return err
		}
		if _, err := tx.RemoveSubtree(ctx, gone.ID, now); err != nil {
			return err
		}
		for agent, id := range map[string]task.ID{"on-open": openTask.ID, "on-done": done.ID, "on-gone": gone.ID, "cleared": 0} {
			if err := tx.SetFocus(ctx, agent, id, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	later := now.Add(time.Minute)
	for _, agent := range []string{"on-done", "on-gone", "cleared", "never"} {
		before := version(t, s)
		var got task.Task
		err := s.Update(ctx, func(tx store.Tx) error {
			return tx.(writer).UpdateCurrentBody(ctx, agent, "new", open, later, &got)
		})
		if !errors.Is(err, store.ErrNoCurrentTask) || got.ID != 0 || version(t, s) != before {
			t.Errorf("%s: %v, wrote %+v, version %d -> %d; want ErrNoCurrentTask and nothing changed", agent, err, got, before, version(t, s))
		}
	}
	var got task.Task
	err = s.Update(ctx, func(tx store.Tx) error {
		return tx.(writer).UpdateCurrentBody(ctx, "on-open", "new", open, later, &got)
	})
	if err != nil {
		t.Fatal(err)
	}
	var stored task.Task
	err = s.View(ctx, func(tx store.Tx) (err error) {
		stored, err = store.Task(ctx, tx, openTask.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got != stored || got.Body != "new" || !got.UpdatedAt.Equal(later) || got.Title != "open" {
		t.Errorf("wrote %+v, stored %+v; want the body new as of %v", got, stored, later)
	}
}

// TestCreateTaskLater: the task goes last under its parent with its
// dependencies, as CreateTask and SetDeps place them, once the statement
// has gone (with COMMIT here), and the plan's change feed carries it with
// them.
func TestCreateTaskLater(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	parent, dep := createTask(t, s, "parent"), createTask(t, s, "dep")
	now := time.Now().UTC().Truncate(time.Microsecond)
	var first task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		first, err = tx.CreateTask(ctx, task.New("first", "", now), store.Placement{Parent: parent.ID})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	before, err := s.ReadPlan(ctx, store.PlanRead{Since: 1})
	if err != nil {
		t.Fatal(err)
	}
	type creator interface {
		CreateTaskLater(ctx context.Context, t task.Task, parent task.ID, deps []task.ID, into *task.Task) error
	}
	var got task.Task
	err = s.Update(ctx, func(tx store.Tx) error {
		return tx.(creator).CreateTaskLater(ctx, task.New("later", "b", now), parent.ID, []task.ID{dep.ID, first.ID}, &got)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx store.Tx) error {
		stored, err := store.Task(ctx, tx, got.ID)
		if err != nil {
			return err
		}
		deps, err := store.TaskDeps(ctx, tx, got.ID)
		if err != nil {
			return err
		}
		res, err := s.ReadPlan(ctx, store.PlanRead{Since: before.Rev})
		if err != nil {
			return err
		}
		c := res.Changes
		if got != stored || got.ParentID != parent.ID || got.Position != first.Position+1 || got.Num != first.Num+1 ||
			got.Status != task.StatusPending || got.Priority != task.PriorityMedium {
			t.Errorf("created %+v, stored %+v; want last under %s after %+v", got, stored, parent.ID, first)
		}
		want := []task.ID{first.ID, dep.ID}
		if dep.ID < first.ID {
			want = []task.ID{dep.ID, first.ID}
		}
		if !reflect.DeepEqual(deps, want) || len(c.Tasks) != 1 || c.Tasks[0].ID != got.ID || !reflect.DeepEqual(c.Deps[got.ID], want) {
			t.Errorf("dependencies %v, changes %+v; want %v, and the task with them in the changes", deps, c, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
