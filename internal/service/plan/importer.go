package plan

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// ImportTask is one task of another tool's plan in no tool's format: what a
// parser (internal/importer) hands the Importer. Its fields are already
// Cairn's: the parser maps its tool's statuses, priorities and text.
type ImportTask struct {
	// ExternalID is the task's id in its tool, unique within its set: "3",
	// "3.2" for a subtask, a UUID. Re-imports find the task again by it.
	ExternalID  string
	Title       string
	Description string        // the Cairn body, already laid out
	Status      task.Status   // empty: pending
	Priority    task.Priority // empty: medium
	// Deps are the ExternalIDs, in the same set, of the tasks this one
	// depends on.
	Deps     []string
	Subtasks []ImportTask // children, in order
	// CreatedAt and UpdatedAt are the tool's timestamps; zero when unknown
	// (the import time is used). A done task's UpdatedAt is taken as the time
	// it was completed.
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ImportSet is one namespace of external ids: a Taskmaster tag, a Todori
// file. Dependencies stay within a set.
type ImportSet struct {
	Source string // the mapping's namespace, e.g. "taskmaster:master" or "todori"
	// File identifies the file the set comes from (its path relative to
	// the project root, say). Re-imports match tasks by file, source and
	// external id, so another file with the same tag and ids gets tasks of
	// its own. Empty: matched by source and external id alone.
	File  string
	Tasks []ImportTask
}

// mappingKey is the import mapping's source for a set: its source, and its
// file when known.
func mappingKey(source, file string) string {
	if file == "" {
		return source
	}
	return source + "@" + file
}

// ImportRef is where an imported task came from.
type ImportRef struct {
	Source     string // e.g. "taskmaster:master"
	File       string // empty when the import did not say
	ExternalID string // the task's id in the file
}

func importRef(m store.Import) ImportRef {
	src, file, _ := strings.Cut(m.Source, "@")
	return ImportRef{Source: src, File: file, ExternalID: m.ExternalID}
}

// importRefs turns a task's import mappings into refs, leaving out a
// mapping by source alone when a file has adopted the same task id (see
// adoptUnkeyed).
func importRefs(ms []store.Import) []ImportRef {
	var out []ImportRef
	for _, m := range ms {
		r := importRef(m)
		if r.File == "" && slices.ContainsFunc(ms, func(o store.Import) bool {
			return o.ExternalID == m.ExternalID && strings.HasPrefix(o.Source, m.Source+"@")
		}) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// String says where the task came from, e.g. "imported from
// .taskmaster/tasks/tasks.json (taskmaster:master) task 3".
func (r ImportRef) String() string {
	if r.File == "" {
		return fmt.Sprintf("imported from %s task %s", r.Source, r.ExternalID)
	}
	return fmt.Sprintf("imported from %s (%s) task %s", r.File, r.Source, r.ExternalID)
}

// ImportOptions changes how an import runs.
type ImportOptions struct {
	// DryRun does all the work in the transaction and rolls it back: the
	// report says what an import would do.
	DryRun bool
}

// Import actions, as ImportedTask.Action reports them.
const (
	ImportCreated   = "created"
	ImportUpdated   = "updated"
	ImportUnchanged = "unchanged"
)

// ImportReport says what an import did.
type ImportReport struct {
	Created, Updated, Unchanged int
	Tasks                       []ImportedTask // in the file's order, subtasks after their parent
	SkippedDeps                 []SkippedDep
	SkippedTasks                []SkippedTask
	Notes                       []string // what was kept or adjusted, one sentence each
	DryRun                      bool
}

// ImportedTask is what became of one task of the file.
type ImportedTask struct {
	Source     string
	ExternalID string
	ID         task.ID
	Ref        string   // as the plan names it: "12", or "12.3" for a subtask
	Action     string   // ImportCreated, ImportUpdated or ImportUnchanged
	Changes    []string // for an update: what changed, e.g. "title", "status pending → done"
}

// SkippedDep is a dependency of the file that was not imported.
type SkippedDep struct {
	Source string
	Task   string // external id of the dependent task
	Dep    string // the dependency as the file names it
	Reason string
}

// SkippedTask is a task of the file that was not imported.
type SkippedTask struct {
	Source string
	Task   string
	Reason string
}

// importRefusal refuses an import because of task ref of the file from
// source: err, usually an invalid field, said of that task.
func importRefusal(source, ref string, err error) error {
	e := *problem.Of(err)
	e.Field = strings.TrimSpace(fmt.Sprintf("task %s (%s): %s", ref, source, e.Field))
	return e.With("nothing was imported")
}

// ImportCycle is the Detail of an import refused because its file from
// Source has a dependency cycle: Path, in external ids, from a task back
// to itself.
type ImportCycle struct {
	Source string
	Path   []string
}

// importCycle refuses an import whose file has the dependency cycle c.
func importCycle(c ImportCycle) error {
	path := strings.Join(c.Path, " → ")
	if n := len(c.Path); n > 21 {
		// A long cycle is named by its ends: the message stays short.
		path = fmt.Sprintf("%s → … (%d tasks) … → %s", strings.Join(c.Path[:10], " → "), n-1, strings.Join(c.Path[n-10:], " → "))
	}
	return &problem.Error{Kind: problem.Cycle, Detail: c,
		Problem: fmt.Sprintf("dependency cycle in %s: %s; nothing was imported: break the cycle in the file and import again", c.Source, path)}
}

// Importer brings another tool's tasks into the project, keeping what it
// imported before in step instead of duplicating it.
type Importer struct {
	store store.Store
	now   func() time.Time
}

// NewImporter returns the importer over s.
func NewImporter(s store.Store) *Importer {
	return &Importer{store: s, now: func() time.Time { return time.Now().UTC() }}
}

// inode is one task of the file during an import.
type inode struct {
	src     string // the set's source, as reports name it
	mapKey  string // the set's key in the import mapping
	in      *ImportTask
	parent  *inode
	kids    []*inode
	deps    []*inode
	key     task.ID // stands for the task in the file's graph before it has an id
	t       task.Task
	existed bool
	skipped bool
	changes []string
}

// planImport validates the sets and resolves their dependencies without touching
// the store: every task in pre-order, or an error that refuses the import.
func planImport(ctx context.Context, sets []ImportSet) ([]*inode, []SkippedDep, error) {
	var (
		nodes   []*inode
		skipped []SkippedDep
	)
	for si := range sets {
		set := &sets[si]
		if strings.TrimSpace(set.Source) == "" {
			return nil, nil, &problem.Error{Kind: problem.Invalid, Problem: "invalid argument: an import set has no source"}
		}
		byID := map[string]*inode{}
		var walk func(ts []ImportTask, parent *inode) error
		walk = func(ts []ImportTask, parent *inode) error {
			for i := range ts {
				if len(nodes)%4096 == 0 && ctx.Err() != nil {
					return ctx.Err()
				}
				in := &ts[i]
				n := &inode{src: set.Source, mapKey: mappingKey(set.Source, set.File), in: in, parent: parent, key: task.ID(len(nodes) + 1)}
				if err := validImport(in); err != nil {
					return importRefusal(set.Source, refOr(in.ExternalID, parent, i), err)
				}
				if byID[in.ExternalID] != nil {
					return importRefusal(set.Source, in.ExternalID, &problem.FieldError{Field: "id",
						Problem: "appears more than once in the file", Fix: "give every task its own id"})
				}
				byID[in.ExternalID] = n
				nodes = append(nodes, n)
				if parent != nil {
					parent.kids = append(parent.kids, n)
				}
				if err := walk(in.Subtasks, n); err != nil {
					return err
				}
			}
			return nil
		}
		first := len(nodes)
		if err := walk(set.Tasks, nil); err != nil {
			return nil, nil, err
		}
		// Dependencies, then one topological sort of the file's graph.
		for _, n := range nodes[first:] {
			for _, ref := range n.in.Deps {
				d := byID[ref]
				switch {
				case d == nil:
					skipped = append(skipped, SkippedDep{Source: n.src, Task: n.in.ExternalID, Dep: ref, Reason: "not in the file"})
					continue
				case isAncestor(d, n):
					skipped = append(skipped, SkippedDep{Source: n.src, Task: n.in.ExternalID, Dep: ref,
						Reason: "is an ancestor of the task, which can only finish after it"})
					continue
				case slices.Contains(n.deps, d):
					continue
				}
				n.deps = append(n.deps, d)
			}
		}
		if c, err := findImportCycle(ctx, nodes[first:]); err != nil {
			return nil, nil, err
		} else if c != nil {
			path := make([]string, len(c))
			for i, n := range c {
				path[i] = n.in.ExternalID
			}
			return nil, nil, importCycle(ImportCycle{Source: set.Source, Path: path})
		}
	}
	return nodes, skipped, nil
}

// findImportCycle sorts the nodes topologically (Kahn's algorithm, linear
// in nodes and edges: a search per task was quadratic, 21 s for 20,000
// tasks) and returns a cycle, as a path along dependency edges that ends
// where it starts, if the sort cannot finish; nil if there is none. It
// stops early when ctx ends.
func findImportCycle(ctx context.Context, nodes []*inode) ([]*inode, error) {
	left := make(map[*inode]int, len(nodes)) // dependencies not yet sorted
	dependents := make(map[*inode][]*inode, len(nodes))
	var ready []*inode
	for _, n := range nodes {
		left[n] = len(n.deps)
		for _, d := range n.deps {
			dependents[d] = append(dependents[d], n)
		}
		if len(n.deps) == 0 {
			ready = append(ready, n)
		}
	}
	for sorted := 0; len(ready) > 0; sorted++ {
		if sorted%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		delete(left, n)
		for _, m := range dependents[n] {
			if left[m]--; left[m] == 0 {
				ready = append(ready, m)
			}
		}
	}
	if len(left) == 0 {
		return nil, nil
	}
	// Every node left has a dependency among those left: walking them
	// must come back to a node already on the path. Start from the first
	// in file order, so the answer is stable.
	var start *inode
	for _, n := range nodes {
		if _, ok := left[n]; ok {
			start = n
			break
		}
	}
	at := map[*inode]int{}
	var path []*inode
	for n := start; ; {
		if i, ok := at[n]; ok {
			// Name the cycle from its task latest in the file, the one
			// whose dependencies close it.
			c := path[i:]
			last := 0
			for j, x := range c {
				if x.key > c[last].key {
					last = j
				}
			}
			c = append(slices.Clone(c[last:]), c[:last]...)
			return append(c, c[0]), nil
		}
		at[n] = len(path)
		path = append(path, n)
		for _, d := range n.deps {
			if _, ok := left[d]; ok {
				n = d
				break
			}
		}
	}
}

func refOr(id string, parent *inode, i int) string {
	if id != "" {
		return id
	}
	if parent != nil {
		return fmt.Sprintf("#%d under %s", i+1, parent.in.ExternalID)
	}
	return fmt.Sprintf("#%d", i+1)
}

func isAncestor(a, n *inode) bool {
	for p := n.parent; p != nil; p = p.parent {
		if p == a {
			return true
		}
	}
	return false
}

func validImport(in *ImportTask) error {
	if strings.TrimSpace(in.ExternalID) == "" {
		return &problem.FieldError{Field: "id", Problem: "is missing", Fix: "give every task an id in the file"}
	}
	if in.Status == "" {
		in.Status = task.StatusPending
	}
	if in.Priority == "" {
		in.Priority = task.PriorityMedium
	}
	for _, err := range []error{task.ValidateTitle(in.Title), tasks.ValidDescription(in.Description), tasks.ValidPriority(in.Priority), tasks.ValidStatus(in.Status)} {
		if err != nil {
			return err
		}
	}
	return nil
}

// progress orders statuses along a task's life: a re-import moves a status
// only forward (or sideways), never back.
func progress(s task.Status) int {
	switch s {
	case task.StatusInProgress, task.StatusBlocked:
		return 1
	case task.StatusDone, task.StatusCancelled:
		return 2
	}
	return 0 // pending, deferred
}

var errDryRun = errors.New("dry run")

// Import brings the sets into the store in one transaction: a refused
// import changes nothing. Tasks imported before (found through the store's
// import mapping) are updated in place; the others are created, subtasks as
// children in order. Dependencies on tasks missing from the file are
// skipped and reported; a cycle refuses the import. Statuses follow the
// plan's rules: done is permanent and archived, a task closes only after
// its subtasks, and a re-import moves a status only forward.
func (im *Importer) Import(ctx context.Context, sets []ImportSet, opts ImportOptions) (ImportReport, error) {
	redact.Scrub(&sets)
	nodes, skippedDeps, err := planImport(ctx, sets)
	if err != nil {
		return ImportReport{}, err
	}
	var rep ImportReport
	err = im.store.Update(ctx, func(tx store.Tx) error {
		for _, n := range nodes {
			n.t, n.existed, n.skipped, n.changes = task.Task{}, false, false, nil
		}
		rep = ImportReport{DryRun: opts.DryRun, SkippedDeps: slices.Clone(skippedDeps)}
		now := im.now()
		if err := im.place(ctx, tx, nodes, &rep, now); err != nil {
			return err
		}
		if err := importDeps(ctx, tx, nodes, &rep); err != nil {
			return err
		}
		if err := importStatuses(ctx, tx, nodes, &rep, now); err != nil {
			return err
		}
		for _, n := range nodes {
			if n.skipped {
				continue
			}
			it := ImportedTask{Source: n.src, ExternalID: n.in.ExternalID, ID: n.t.ID, Ref: task.RefString(n.t), Changes: n.changes}
			switch {
			case !n.existed:
				it.Action = ImportCreated
				rep.Created++
			case len(n.changes) > 0:
				it.Action = ImportUpdated
				rep.Updated++
			default:
				it.Action = ImportUnchanged
				rep.Unchanged++
			}
			rep.Tasks = append(rep.Tasks, it)
		}
		if opts.DryRun {
			return errDryRun
		}
		return nil
	})
	if err != nil && !errors.Is(err, errDryRun) {
		return ImportReport{}, fmt.Errorf("import: %w", err)
	}
	return rep, nil
}

// timesOf returns when a new task was created and last updated by the
// file's timestamps, falling back to now for what is unknown or impossible.
func timesOf(in *ImportTask, now time.Time) (created, updated time.Time) {
	created = now
	if !in.CreatedAt.IsZero() && !in.CreatedAt.After(now) {
		created = in.CreatedAt.UTC()
	}
	updated = created
	if !in.UpdatedAt.IsZero() && !in.UpdatedAt.Before(created) && !in.UpdatedAt.After(now) {
		updated = in.UpdatedAt.UTC()
	}
	return created, updated
}

// place finds or creates every task and brings title, body and priority in
// line with the file, parents before their subtasks.
func (im *Importer) place(ctx context.Context, tx store.Tx, nodes []*inode, rep *ImportReport, now time.Time) error {
	for _, n := range nodes {
		var parent task.ID
		if n.parent != nil {
			if n.parent.skipped {
				n.skipped = true
				rep.SkippedTasks = append(rep.SkippedTasks, SkippedTask{Source: n.src, Task: n.in.ExternalID, Reason: "its parent task was skipped"})
				continue
			}
			parent = n.parent.t.ID
		}
		id, ok, err := store.ImportedTask(ctx, tx, n.mapKey, n.in.ExternalID)
		if err == nil && !ok && n.mapKey != n.src {
			id, ok, err = adoptUnkeyed(ctx, tx, n)
		}
		if err != nil {
			return err
		}
		if ok {
			t, err := store.Task(ctx, tx, id)
			if err != nil {
				return err
			}
			n.t, n.existed = t, true
			if t.ParentID != parent {
				where := "a root task"
				if parent != 0 {
					where = "under " + task.RefString(n.parent.t)
				}
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s (%s): is %s in the file but [%s] is elsewhere in Cairn; left where it is",
					n.in.ExternalID, n.src, where, t.ID))
			}
			if t.Title != n.in.Title {
				t.Title = n.in.Title
				n.changes = append(n.changes, "title")
			}
			if t.Body != n.in.Description {
				t.Body = n.in.Description
				n.changes = append(n.changes, "description")
			}
			if t.Priority != n.in.Priority {
				n.changes = append(n.changes, fmt.Sprintf("priority %s → %s", t.Priority, n.in.Priority))
				t.Priority = n.in.Priority
			}
			if len(n.changes) > 0 {
				t.UpdatedAt = now
				if err := tx.UpdateTask(ctx, t); err != nil {
					return err
				}
				n.t = t
			}
			continue
		}
		if parent != 0 && !n.parent.t.Status.Open() && n.in.Status.Open() {
			// A closed task takes no open subtasks: done is permanent.
			n.skipped = true
			rep.SkippedTasks = append(rep.SkippedTasks, SkippedTask{Source: n.src, Task: n.in.ExternalID,
				Reason: fmt.Sprintf("its parent [%s] is %s in Cairn and takes no open subtasks; create it as a new task if the work is still to do",
					n.parent.t.ID, n.parent.t.Status)})
			continue
		}
		created, updated := timesOf(n.in, now)
		t, err := tx.CreateTask(ctx, task.Task{Title: n.in.Title, Body: n.in.Description, Status: task.StatusPending,
			Priority: n.in.Priority, CreatedAt: created, UpdatedAt: updated}, store.Placement{Parent: parent})
		if err != nil {
			return err
		}
		if err := tx.SetImported(ctx, n.mapKey, n.in.ExternalID, t.ID); err != nil {
			return err
		}
		n.t = t
	}
	return nil
}

// adoptUnkeyed finds a task that an import made before imports were keyed
// by file (its mapping names the source alone) and makes it n's file's, so
// that re-importing that file after an upgrade updates its tasks instead of
// duplicating them. A task another file has adopted already is left to it.
func adoptUnkeyed(ctx context.Context, tx store.Tx, n *inode) (task.ID, bool, error) {
	id, ok, err := store.ImportedTask(ctx, tx, n.src, n.in.ExternalID)
	if err != nil || !ok {
		return 0, false, err
	}
	ms, err := tx.Imports(ctx, store.ImportQuery{Task: id})
	if err != nil {
		return 0, false, err
	}
	for _, m := range ms {
		if strings.HasPrefix(m.Source, n.src+"@") {
			return 0, false, nil
		}
	}
	return id, true, tx.SetImported(ctx, n.mapKey, n.in.ExternalID, id)
}

// importDeps replaces every imported task's dependencies with the file's.
func importDeps(ctx context.Context, tx store.Tx, nodes []*inode, rep *ImportReport) error {
	for _, n := range nodes {
		if n.skipped {
			continue
		}
		var want []task.ID
		for _, d := range n.deps {
			if d.skipped {
				rep.SkippedDeps = append(rep.SkippedDeps, SkippedDep{Source: n.src, Task: n.in.ExternalID, Dep: d.in.ExternalID,
					Reason: "that task was skipped"})
				continue
			}
			want = append(want, d.t.ID)
		}
		task.SortIDs(want)
		if n.existed {
			have, err := store.TaskDeps(ctx, tx, n.t.ID)
			if err != nil {
				return err
			}
			if slices.Equal(have, want) {
				continue
			}
			n.changes = append(n.changes, "dependencies")
		} else if len(want) == 0 {
			continue
		}
		if err := tx.SetDeps(ctx, n.t.ID, want); err != nil {
			return err
		}
	}
	return nil
}

// postOrder lists the tasks with every task's subtasks, in order, before it.
func postOrder(nodes []*inode) []*inode {
	out := make([]*inode, 0, len(nodes))
	var walk func(n *inode)
	walk = func(n *inode) {
		for _, k := range n.kids {
			walk(k)
		}
		out = append(out, n)
	}
	for _, n := range nodes {
		if n.parent == nil {
			walk(n)
		}
	}
	return out
}

// importStatuses moves every task to the file's status where the rules
// allow, subtasks before their parents so that a parent can close after
// them. A task done in the file whose dependencies are not done yet in
// Cairn waits for a later pass (its dependencies may come later in the
// file); what still cannot be done after that is made in-progress and
// noted, as a task with open subtasks is.
func importStatuses(ctx context.Context, tx store.Tx, nodes []*inode, rep *ImportReport, now time.Time) error {
	waiting := map[*inode]bool{}
	todo := postOrder(nodes)
	for final := false; ; {
		var next []*inode
		for _, n := range todo {
			retry, err := importStatus(ctx, tx, n, rep, now, waiting, final)
			if err != nil {
				return err
			}
			if retry {
				next = append(next, n)
			}
			waiting[n] = retry
		}
		switch {
		case len(next) == 0:
			return nil
		case final:
			return fmt.Errorf("import: %d tasks kept waiting after the last pass", len(next))
		case len(next) == len(todo):
			final = true // no progress: settle what is left
		}
		todo = next
	}
}

// importStatus moves one task to the file's status. retry says it must wait
// for another pass: it is to be done but a dependency, or a subtask that
// waits itself, is not done yet. On the final pass nothing waits.
func importStatus(ctx context.Context, tx store.Tx, n *inode, rep *ImportReport, now time.Time, waiting map[*inode]bool, final bool) (retry bool, err error) {
	if n.skipped {
		return false, nil
	}
	cur, want := n.t.Status, n.in.Status
	if cur == want {
		return false, nil
	}
	name := fmt.Sprintf("%s (%s) [%s]", n.in.ExternalID, n.src, n.t.ID)
	if n.existed {
		switch {
		case cur == task.StatusDone:
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: kept done (the file says %s): completion is permanent", name, want))
			return false, nil
		case !cur.Open():
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: kept %s (the file says %s): a closed task is not reopened or re-closed by an import", name, cur, want))
			return false, nil
		case progress(want) < progress(cur):
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: kept %s (the file says %s): an import moves a status only forward", name, cur, want))
			return false, nil
		}
	}
	fallback := task.StatusInProgress
	if cur == task.StatusBlocked {
		fallback = cur
	}
	if !want.Open() {
		if !final {
			for _, k := range n.kids {
				if waiting[k] {
					return true, nil
				}
			}
		}
		kids, err := store.Children(ctx, tx, n.t.ID, false)
		if err != nil {
			return false, err
		}
		var open []string
		for _, k := range kids {
			if k.Status.Open() {
				open = append(open, task.RefString(k))
			}
		}
		if len(open) > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: is %s in the file but its subtasks %s are open; made it %s instead",
				name, want, problem.Clip(strings.Join(open, ", "), 200), fallback))
			if want = fallback; want == cur {
				return false, nil
			}
		}
	}
	if want == task.StatusDone {
		if err := tasks.CheckDeps(ctx, tx, n.t.ID); err != nil {
			open, ok := task.OpenDepsOf(err)
			if !ok {
				return false, err
			}
			if !final {
				return true, nil
			}
			refs := make([]string, len(open))
			for i, d := range open {
				refs[i] = task.RefString(d)
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: is done in the file but depends on %s, not done in Cairn; made it %s instead",
				name, problem.Clip(strings.Join(refs, ", "), 200), fallback))
			if want = fallback; want == cur {
				return false, nil
			}
		}
	}
	at := now
	if !n.existed {
		_, at = timesOf(n.in, now)
	} else if want == task.StatusDone && !n.in.UpdatedAt.IsZero() &&
		!n.in.UpdatedAt.Before(n.t.CreatedAt) && !n.in.UpdatedAt.After(now) {
		at = n.in.UpdatedAt.UTC()
	}
	t, err := tasks.SetStatus(ctx, tx, n.t, want, at, true)
	if err != nil {
		return false, err
	}
	if n.existed {
		n.changes = append(n.changes, fmt.Sprintf("status %s → %s", cur, want))
	}
	n.t = t
	return false, nil
}
