package store

import (
	"context"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/task"
)

// The reads below are common shapes of Tx's queries, written
// once for every caller above the stores.

// Children returns the visible children of parent (zero: the roots) in
// position order; bodies only when withBody is set.
func Children(ctx context.Context, tx Tx, parent task.ID, withBody bool) ([]task.Task, error) {
	ts, _, err := tx.Query(ctx, Query{Level: true, Parent: parent, WithBody: withBody})
	return ts, err
}

// OpenChildren returns the visible open children of parent (zero: the
// roots) in position order, without bodies (Query.Open).
func OpenChildren(ctx context.Context, tx Tx, parent task.ID) ([]task.Task, error) {
	ts, _, err := tx.Query(ctx, Query{Level: true, Parent: parent, Open: true})
	return ts, err
}

// Child returns the visible child of parent (zero: the roots) whose subtask
// number is num, with its body, or a task.SubtaskNotFound refusal.
func Child(ctx context.Context, tx Tx, parent task.ID, num int) (task.Task, error) {
	if num <= 0 { // numbers start at 1; Num zero would read the level
		return task.Task{}, task.SubtaskNotFound(parent, num)
	}
	ts, _, err := tx.Query(ctx, Query{Level: true, Parent: parent, Num: num})
	if err != nil {
		return task.Task{}, err
	}
	if len(ts) == 0 {
		return task.Task{}, task.SubtaskNotFound(parent, num)
	}
	return ts[0], nil
}

// TaskDeps returns the visible tasks id depends on, in id order.
func TaskDeps(ctx context.Context, tx Tx, id task.ID) ([]task.ID, error) {
	deps, err := tx.Deps(ctx, DepQuery{Of: []task.ID{id}})
	return deps[id], err
}

// Dependents returns the visible tasks that depend on id, in id order.
func Dependents(ctx context.Context, tx Tx, id task.ID) ([]task.ID, error) {
	deps, err := tx.Deps(ctx, DepQuery{Of: []task.ID{id}, Dependents: true})
	return deps[id], err
}

// AnswerDeps answers a Tx.Deps for a store from its reads of one shape
// each: every edge (all), the dependencies of several tasks (of), and the
// dependencies or dependents of one (one, which a store may have read
// ahead).
func AnswerDeps(ctx context.Context, q DepQuery,
	all func(context.Context) (task.Deps, error),
	of func(context.Context, []task.ID) (task.Deps, error),
	one func(ctx context.Context, id task.ID, dependents bool) ([]task.ID, error),
) (task.Deps, error) {
	switch {
	case q.All && q.Dependents:
		deps, err := all(ctx)
		if err != nil {
			return nil, err
		}
		return dependents(deps), nil
	case q.All:
		return all(ctx)
	case len(q.Of) > 1 && !q.Dependents:
		return of(ctx, q.Of)
	}
	out := make(task.Deps, len(q.Of))
	for _, id := range q.Of {
		ds, err := one(ctx, id, q.Dependents)
		if err != nil {
			return nil, err
		}
		if len(ds) > 0 {
			out[id] = ds
		}
	}
	return out, nil
}

// dependents turns deps round: for each task, the tasks that depend on it,
// in id order.
func dependents(deps task.Deps) task.Deps {
	out := task.Deps{}
	for id, ds := range deps {
		for _, d := range ds {
			out[d] = append(out[d], id)
		}
	}
	for _, ds := range out {
		slices.Sort(ds)
	}
	return out
}

// Session returns a session's head (its Record empty), or a
// memory.NotFound refusal.
func Session(ctx context.Context, tx Tx, id memory.SessionID) (memory.Session, error) {
	if id <= 0 { // ids start at 1; ID zero would list them all
		return memory.Session{}, memory.NotFound("session", id.String())
	}
	ss, _, err := tx.Sessions(ctx, SessionQuery{ID: id})
	if err != nil {
		return memory.Session{}, err
	}
	if len(ss) == 0 {
		return memory.Session{}, memory.NotFound("session", id.String())
	}
	return ss[0], nil
}

// BranchContext returns a branch's context, if one was saved.
func BranchContext(ctx context.Context, tx Tx, branch string) (memory.BranchContext, bool, error) {
	bs, err := tx.BranchContexts(ctx, branch)
	if err != nil || len(bs) == 0 {
		return memory.BranchContext{}, false, err
	}
	return bs[0], true, nil
}

// LifecycleByID returns one lifecycle; ok is false when there is none.
func LifecycleByID(ctx context.Context, tx Tx, id int64) (Lifecycle, bool, error) {
	if id <= 0 { // ids start at 1; ID zero would list them all
		return Lifecycle{}, false, nil
	}
	ls, _, err := tx.Lifecycles(ctx, LifecycleQuery{ID: id})
	if err != nil || len(ls) == 0 {
		return Lifecycle{}, false, err
	}
	return ls[0], true, nil
}

// Memories returns the entries with these ids, in the order given,
// skipping ids that do not exist, each with its Supersedes, and with
// recent above zero each mistake with up to so many Recent occurrences.
func Memories(ctx context.Context, tx MemoryTx, ids []memory.ID, recent int) ([]memory.Entry, error) {
	if len(ids) == 0 {
		return []memory.Entry{}, nil // no IDs would select every entry
	}
	es, _, err := tx.SelectMemories(ctx, MemorySelector{IDs: ids, Supersedes: true, Recent: recent, SkipCount: true})
	if err != nil {
		return nil, err
	}
	byID := make(map[memory.ID]memory.Entry, len(es))
	for _, e := range es {
		byID[e.ID] = e
	}
	out := make([]memory.Entry, 0, len(ids))
	for _, id := range ids {
		if e, ok := byID[id]; ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// MemoryByUID returns the entry with this UID.
func MemoryByUID(ctx context.Context, tx MemoryTx, uid string) (memory.Entry, bool, error) {
	return oneMemory(ctx, tx, MemorySelector{UID: uid})
}

// MistakeByFingerprint returns the mistake whose title has this
// memory.Fingerprint.
func MistakeByFingerprint(ctx context.Context, tx MemoryTx, fp string) (memory.Entry, bool, error) {
	return oneMemory(ctx, tx, MemorySelector{Fingerprint: fp})
}

func oneMemory(ctx context.Context, tx MemoryTx, s MemorySelector) (memory.Entry, bool, error) {
	if s.UID == "" && s.Fingerprint == "" {
		return memory.Entry{}, false, nil // an empty key would select every entry
	}
	s.Limit, s.SkipCount = 1, true
	es, _, err := tx.SelectMemories(ctx, s)
	if err != nil || len(es) == 0 {
		return memory.Entry{}, false, err
	}
	return es[0], true, nil
}

// CountMemories returns how many entries s selects (its page aside).
func CountMemories(ctx context.Context, tx MemoryTx, s MemorySelector) (int, error) {
	s.CountOnly = true
	_, n, err := tx.SelectMemories(ctx, s)
	return n, err
}

// Loop returns a visible task and its loop state (nil: not a loop), or a
// task.NotFound refusal.
func Loop(ctx context.Context, tx Tx, id task.ID) (task.Task, []byte, error) {
	if id <= 0 { // ids start at 1; zero would list every loop
		return task.Task{}, nil, task.NotFound(id)
	}
	rows, err := tx.Loops(ctx, id)
	if err != nil {
		return task.Task{}, nil, err
	}
	if len(rows) == 0 {
		return task.Task{}, nil, task.NotFound(id)
	}
	return rows[0].Task, rows[0].State, nil
}

// LeftSibling returns the visible sibling immediately to the left of of
// (Query.LeftOf), with its body when withBody is set; found is false when
// none is.
func LeftSibling(ctx context.Context, tx Tx, of task.Task, withBody bool) (left task.Task, found bool, err error) {
	ts, _, err := tx.Query(ctx, Query{Level: true, LeftOf: &of, WithBody: withBody})
	if err != nil || len(ts) == 0 {
		return task.Task{}, false, err
	}
	return ts[0], true, nil
}

// EachBranch answers a Tx.BranchContexts of several branches for a store
// from its reads of one.
func EachBranch(ctx context.Context, one func(context.Context, ...string) ([]memory.BranchContext, error), branches []string) ([]memory.BranchContext, error) {
	var out []memory.BranchContext
	for _, b := range branches {
		bs, err := one(ctx, b)
		if err != nil {
			return nil, err
		}
		out = append(out, bs...)
	}
	return out, nil
}

// Task returns a visible task with its body (Query.ID), or a task.NotFound
// refusal.
func Task(ctx context.Context, tx Tx, id task.ID) (task.Task, error) {
	if id <= 0 { // ids start at 1; ID zero would list every task
		return task.Task{}, task.NotFound(id)
	}
	ts, _, err := tx.Query(ctx, Query{ID: id})
	if err != nil {
		return task.Task{}, err
	}
	if len(ts) == 0 {
		return task.Task{}, task.NotFound(id)
	}
	return ts[0], nil
}

// FocusedTask returns the visible task the agent's focus is on, with its
// body (Query.FocusOf); found is false when the agent has no focus or its
// task is not visible.
func FocusedTask(ctx context.Context, tx Tx, agent string) (t task.Task, found bool, err error) {
	if agent == "" { // no agent has no focus; FocusOf empty would list every task
		return task.Task{}, false, nil
	}
	ts, _, err := tx.Query(ctx, Query{FocusOf: agent})
	if err != nil || len(ts) == 0 {
		return task.Task{}, false, err
	}
	return ts[0], true, nil
}

// ImportedTask returns the visible task an import source's external id
// became; ok is false when there is none.
func ImportedTask(ctx context.Context, tx Tx, source, externalID string) (id task.ID, ok bool, err error) {
	ms, err := tx.Imports(ctx, ImportQuery{Source: source, ExternalID: externalID})
	if err != nil || len(ms) == 0 {
		return 0, false, err
	}
	return ms[0].TaskID, true, nil
}

// TaskClaim returns the claim on id, live or expired; ok is false when
// there is none.
func TaskClaim(ctx context.Context, tx Tx, id task.ID) (c task.Claim, ok bool, err error) {
	if id <= 0 { // ids start at 1; Task zero would read every live claim
		return task.Claim{}, false, nil
	}
	cs, err := tx.Claims(ctx, ClaimQuery{Task: id})
	if err != nil {
		return task.Claim{}, false, err
	}
	c, ok = cs[id]
	return c, ok, nil
}

// Tasks returns every visible task without bodies, in id order: an
// unpaged Query, which counts nothing.
func Tasks(ctx context.Context, tx Tx) ([]task.Task, error) {
	ts, _, err := tx.Query(ctx, Query{})
	return ts, err
}

// QueryReads are a store's reads of each shape a Query takes, for
// AnswerQuery; each answers as Query documents the shape.
type QueryReads interface {
	TaskByID(ctx context.Context, id task.ID) ([]task.Task, error)
	TaskOfFocus(ctx context.Context, agent string) ([]task.Task, error)
	Ancestors(ctx context.Context, id task.ID) ([]task.Task, error)
	// A level of the tree: the children of parent in position order, its
	// open children alone (without bodies), its child numbered num, or
	// the visible sibling immediately left of of (ok false: none).
	Children(ctx context.Context, parent task.ID, withBody bool) ([]task.Task, error)
	OpenChildren(ctx context.Context, parent task.ID) ([]task.Task, error)
	Child(ctx context.Context, parent task.ID, num int) ([]task.Task, error)
	LeftSibling(ctx context.Context, of task.Task, withBody bool) (t task.Task, ok bool, err error)
	// List reads a page of the plan's lists and counts them all; unpaged,
	// it counts nothing (the count is the page's length).
	List(ctx context.Context, q Query) ([]task.Task, int, error)
}

// AnswerQuery answers a Tx.Query for a store from its reads of each
// shape: the first of q.ID, q.FocusOf, q.PathTo and q.Level set picks the
// read, else q is a list; the count of all but a list is the answer's
// length.
func AnswerQuery(ctx context.Context, q Query, r QueryReads) ([]task.Task, int, error) {
	var (
		ts  []task.Task
		err error
	)
	switch {
	case q.ID != 0:
		ts, err = r.TaskByID(ctx, q.ID)
	case q.FocusOf != "":
		ts, err = r.TaskOfFocus(ctx, q.FocusOf)
	case q.PathTo != 0:
		ts, err = r.Ancestors(ctx, q.PathTo)
	case q.Level && q.LeftOf != nil:
		var (
			t  task.Task
			ok bool
		)
		if t, ok, err = r.LeftSibling(ctx, *q.LeftOf, q.WithBody); ok {
			ts = []task.Task{t}
		}
	case q.Level && q.Num != 0:
		ts, err = r.Child(ctx, q.Parent, q.Num)
	case q.Level && q.Open:
		ts, err = r.OpenChildren(ctx, q.Parent)
	case q.Level:
		ts, err = r.Children(ctx, q.Parent, q.WithBody)
	default:
		return r.List(ctx, q)
	}
	return ts, len(ts), err
}

// ClaimReads are a store's reads of each shape a ClaimQuery takes, for
// AnswerClaims.
type ClaimReads interface {
	// TaskClaim reads the claim on id, live or expired.
	TaskClaim(ctx context.Context, id task.ID) (task.Claim, bool, error)
	// LiveClaims reads the claims on visible tasks live at now.
	LiveClaims(ctx context.Context, now time.Time) (map[task.ID]task.Claim, error)
}

// AnswerClaims answers a Tx.Claims for a store from its reads of each
// shape.
func AnswerClaims(ctx context.Context, q ClaimQuery, r ClaimReads) (map[task.ID]task.Claim, error) {
	if q.Task == 0 {
		return r.LiveClaims(ctx, q.Now)
	}
	c, ok, err := r.TaskClaim(ctx, q.Task)
	if !ok {
		return nil, err
	}
	return map[task.ID]task.Claim{q.Task: c}, nil
}
