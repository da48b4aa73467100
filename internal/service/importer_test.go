package service_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// dump renders every visible task, its dependencies and the archive, so a
// test can tell whether anything changed.
func dump(t *testing.T, s store.Store) string {
	t.Helper()
	var b strings.Builder
	err := s.View(context.Background(), func(tx store.Tx) error {
		ts, _, err := tx.Query(context.Background(), store.Query{WithBody: true})
		if err != nil {
			return err
		}
		for _, x := range ts {
			deps, err := store.TaskDeps(context.Background(), tx, x.ID)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s parent=%s num=%d %q %s %s deps=%v body=%q updated=%s\n",
				x.ID, x.ParentID, x.Num, x.Title, x.Status, x.Priority, deps, x.Body, x.UpdatedAt.Format(time.RFC3339Nano))
		}
		cs, _, err := tx.Completions(context.Background(), false, 0, 1000)
		for _, c := range cs {
			fmt.Fprintf(&b, "archived %s %q\n", c.TaskID, c.Title)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func mapped(t *testing.T, s store.Store, source, ext string) task.ID {
	t.Helper()
	var id task.ID
	err := s.View(context.Background(), func(tx store.Tx) error {
		var ok bool
		var err error
		id, ok, err = store.ImportedTask(context.Background(), tx, source, ext)
		if err == nil && !ok {
			err = fmt.Errorf("%s %s is not mapped", source, ext)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

var created = time.Date(2025, 11, 2, 9, 0, 0, 0, time.UTC)

// sample is a small plan in the neutral format: a done task with done
// subtasks, an open one with subtasks depending on a sibling and on a
// subtask elsewhere, a dependency on a task not in the file, a cancelled
// and a deferred task.
func sample() []plan.ImportSet {
	return []plan.ImportSet{{Source: "taskmaster:master", Tasks: []plan.ImportTask{
		{ExternalID: "1", Title: "Scaffold", Description: "layout", Status: task.StatusDone, Priority: task.PriorityHigh,
			CreatedAt: created, UpdatedAt: created.Add(48 * time.Hour),
			Subtasks: []plan.ImportTask{
				{ExternalID: "1.1", Title: "go mod init", Status: task.StatusDone},
				{ExternalID: "1.2", Title: "CI", Status: task.StatusDone, Deps: []string{"1.1"}},
			}},
		{ExternalID: "2", Title: "User API", Status: task.StatusInProgress, Priority: task.PriorityHigh, Deps: []string{"1", "1.2"},
			Subtasks: []plan.ImportTask{
				{ExternalID: "2.1", Title: "Routes", Status: task.StatusDone},
				{ExternalID: "2.2", Title: "Handlers", Deps: []string{"2.1"}},
				{ExternalID: "2.3", Title: "Validation", Deps: []string{"2.2", "2"}}, // "2" is its parent: skipped
			}},
		{ExternalID: "3", Title: "Login page", Deps: []string{"2", "99"}},
		{ExternalID: "4", Title: "Legacy endpoint", Status: task.StatusCancelled, Priority: task.PriorityLow},
		{ExternalID: "5", Title: "Docs", Status: task.StatusDeferred, Priority: task.PriorityLow, Deps: []string{"3"}},
	}}}
}

func TestImportMapping(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	// A task that is not the import's: ids continue after it.
	if _, err := service.New(s, service.Options{}).Plan.Create(ctx, plan.NewTask{Title: "Existing"}); err != nil {
		t.Fatal(err)
	}
	rep, err := plan.NewImporter(s).Import(ctx, sample(), plan.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 10 || rep.Updated != 0 || rep.Unchanged != 0 || len(rep.Tasks) != 10 {
		t.Fatalf("report: %+v", rep)
	}
	wantSkipped := []plan.SkippedDep{
		{Source: "taskmaster:master", Task: "2.3", Dep: "2", Reason: "is an ancestor of the task, which can only finish after it"},
		{Source: "taskmaster:master", Task: "3", Dep: "99", Reason: "not in the file"},
	}
	if !slices.Equal(rep.SkippedDeps, wantSkipped) {
		t.Errorf("skipped deps: %+v", rep.SkippedDeps)
	}

	pl := service.New(s, service.Options{}).Plan
	get := func(ext string) plan.Detail {
		t.Helper()
		d, err := pl.Get(ctx, mapped(t, s, "taskmaster:master", ext).String())
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	refs := func(ts []task.Task) []string {
		var out []string
		for _, x := range ts {
			out = append(out, task.RefString(x)+":"+x.Title+":"+string(x.Status))
		}
		return out
	}
	one, two := get("1"), get("2")
	if one.ID != 2 || one.Status != task.StatusDone || one.Priority != task.PriorityHigh || one.Body != "layout" {
		t.Errorf("task 1: %+v", one.Task)
	}
	if !one.CreatedAt.Equal(created) || !one.CompletedAt.Equal(created.Add(48*time.Hour)) {
		t.Errorf("task 1 times: created %s completed %s", one.CreatedAt, one.CompletedAt)
	}
	if got := refs(one.Subtasks); !slices.Equal(got, []string{"2.1:go mod init:done", "2.2:CI:done"}) {
		t.Errorf("task 1 subtasks: %v", got)
	}
	if got := refs(two.Subtasks); !slices.Equal(got, []string{two.ID.String() + ".1:Routes:done", two.ID.String() + ".2:Handlers:pending",
		two.ID.String() + ".3:Validation:pending"}) {
		t.Errorf("task 2 subtasks: %v", got)
	}
	if two.Status != task.StatusInProgress {
		t.Errorf("task 2 status %s", two.Status)
	}
	deps := func(d plan.Detail) []string {
		var out []string
		for _, x := range d.Deps {
			out = append(out, task.RefString(x))
		}
		return out
	}
	if got := deps(two); !slices.Equal(got, []string{"2", "2.2"}) {
		t.Errorf("task 2 depends on %v", got)
	}
	if got := deps(get("2.3")); !slices.Equal(got, []string{two.ID.String() + ".2"}) {
		t.Errorf("task 2.3 depends on %v", got)
	}
	if got := deps(get("3")); !slices.Equal(got, []string{two.ID.String()}) {
		t.Errorf("task 3 depends on %v", got)
	}
	if get("4").Status != task.StatusCancelled || get("5").Status != task.StatusDeferred {
		t.Errorf("statuses: 4 %s, 5 %s", get("4").Status, get("5").Status)
	}
	// Done tasks are archived, subtasks before their parent.
	a, err := service.New(s, service.Options{}).Focus.CompletedTasks(ctx, focus.CompletedQuery{Page: page.Page{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	var archived []string
	for _, c := range a.Tasks {
		archived = append(archived, c.Title)
	}
	if !slices.Equal(archived, []string{"go mod init", "CI", "Scaffold", "Routes"}) {
		t.Errorf("archive: %v", archived)
	}
	if rep.Tasks[0].ExternalID != "1" || rep.Tasks[0].Ref != "2" || rep.Tasks[1].Ref != "2.1" || rep.Tasks[0].Action != plan.ImportCreated {
		t.Errorf("report tasks: %+v", rep.Tasks[:2])
	}
}

func TestImportIdempotent(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	im := plan.NewImporter(s)
	if _, err := im.Import(ctx, sample(), plan.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	before := dump(t, s)
	rep, err := im.Import(ctx, sample(), plan.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 0 || rep.Updated != 0 || rep.Unchanged != 10 || len(rep.Notes) != 0 {
		t.Fatalf("second import: %+v", rep)
	}
	if after := dump(t, s); after != before {
		t.Fatalf("an unchanged re-import changed the store:\n%s\nthen:\n%s", before, after)
	}

	// The file moves on: a new title, a new priority, a status forward, one
	// back, done reopened, new dependencies and a new subtask.
	sets := sample()
	ts := sets[0].Tasks
	ts[0].Status = task.StatusPending                // done stays done
	ts[1].Title = "User API v2"                      // title
	ts[1].Status = task.StatusPending                // back: kept in-progress
	ts[1].Subtasks[1].Status = task.StatusInProgress // forward
	ts[1].Subtasks = append(ts[1].Subtasks, plan.ImportTask{ExternalID: "2.4", Title: "Rate limits"})
	ts[2].Priority = task.PriorityCritical         // priority
	ts[2].Deps = []string{"2", "4"}                // dependencies
	ts[4].Description = "README and API reference" // description
	ts[4].Status = task.StatusDone                 // deferred → done, but 3 is open: in-progress
	rep, err = im.Import(ctx, sets, plan.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 1 || rep.Updated != 4 || rep.Unchanged != 6 {
		t.Fatalf("third import: created %d updated %d unchanged %d: %+v", rep.Created, rep.Updated, rep.Unchanged, rep.Tasks)
	}
	changes := map[string]string{}
	for _, it := range rep.Tasks {
		changes[it.ExternalID] = it.Action + ": " + strings.Join(it.Changes, ", ")
	}
	for ext, want := range map[string]string{
		"1":   "unchanged: ",
		"2":   "updated: title",
		"2.2": "updated: status pending → in-progress",
		"2.4": "created: ",
		"3":   "updated: priority medium → critical, dependencies",
		"5":   "updated: description, status deferred → in-progress",
	} {
		if changes[ext] != want {
			t.Errorf("%s: %q, want %q", ext, changes[ext], want)
		}
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, want := range []string{"1 (taskmaster:master) [1]: kept done (the file says pending): completion is permanent",
		"kept in-progress (the file says pending): an import moves a status only forward",
		"is done in the file but depends on",
		"not done in Cairn; made it in-progress instead"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// The new subtask went to the end of its parent, numbered after the others.
	two := mapped(t, s, "taskmaster:master", "2")
	d, err := service.New(s, service.Options{}).Plan.Get(ctx, two.String()+".4")
	if err != nil || d.Title != "Rate limits" || d.ID != mapped(t, s, "taskmaster:master", "2.4") {
		t.Fatalf("new subtask: %+v %v", d.Task, err)
	}
	var n int
	s.View(ctx, func(tx store.Tx) (err error) { _, n, err = tx.Query(ctx, store.Query{}); return err })
	if n != 11 {
		t.Fatalf("%d tasks after three imports, want 11", n)
	}
}

func TestImportRefusals(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		mutate func([]plan.ImportSet) []plan.ImportSet
		is     problem.Kind
		want   string
	}{
		{"cycle", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[0].Deps = []string{"5"} // 1 → 5 → 3 → 2 → 1
			return s
		}, problem.Cycle, "dependency cycle in taskmaster:master: 5 → 3 → 2 → 1 → 5; nothing was imported"},
		{"self", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[3].Deps = []string{"4"}
			return s
		}, problem.Cycle, "dependency cycle in taskmaster:master: 4 → 4"},
		{"subtask cycle", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[1].Subtasks[0].Deps = []string{"2.3"}
			return s
		}, problem.Cycle, "2.3 → 2.2 → 2.1 → 2.3"},
		{"empty title", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[1].Subtasks[2].Title = "  "
			return s
		}, problem.Invalid, "task 2.3 (taskmaster:master): title is empty"},
		{"long title", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[2].Title = strings.Repeat("x", 300)
			return s
		}, problem.Invalid, "task 3 (taskmaster:master): title is 300 characters, over the limit of 256"},
		{"multi-line title", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[2].Title = "a\nb"
			return s
		}, problem.Invalid, "task 3 (taskmaster:master): title contains a line break"},
		{"duplicate id", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[4].ExternalID = "3"
			return s
		}, problem.Invalid, "task 3 (taskmaster:master): id appears more than once"},
		{"missing id", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[1].Subtasks[1].ExternalID = ""
			return s
		}, problem.Invalid, "task #2 under 2 (taskmaster:master): id is missing"},
		{"bad status", func(s []plan.ImportSet) []plan.ImportSet {
			s[0].Tasks[2].Status = "review"
			return s
		}, problem.Invalid, "task 3 (taskmaster:master): status is \"review\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := openStore(t)
			im := plan.NewImporter(s)
			// A first import that worked, then the refused one on top.
			if _, err := im.Import(ctx, sample(), plan.ImportOptions{}); err != nil {
				t.Fatal(err)
			}
			before := dump(t, s)
			sets := sample()
			sets[0].Tasks = append(sets[0].Tasks, plan.ImportTask{ExternalID: "6", Title: "New in the file"})
			_, err := im.Import(ctx, tc.mutate(sets), plan.ImportOptions{})
			if !problem.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v saying %q", err, tc.is, tc.want)
			}
			if after := dump(t, s); after != before {
				t.Fatalf("a refused import changed the store:\n%s\nthen:\n%s", before, after)
			}
			// And on an empty store, nothing is created.
			empty := openStore(t)
			if _, err := plan.NewImporter(empty).Import(ctx, tc.mutate(sample()), plan.ImportOptions{}); err == nil {
				t.Fatal("refused import succeeded on an empty store")
			}
			if got := dump(t, empty); got != "" {
				t.Fatalf("a refused import created:\n%s", got)
			}
		})
	}
}

func TestImportClosingRules(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	im := plan.NewImporter(s)
	src := "todori"
	sets := []plan.ImportSet{{Source: src, Tasks: []plan.ImportTask{
		{ExternalID: "p", Title: "Parent done, child open", Status: task.StatusDone, Subtasks: []plan.ImportTask{
			{ExternalID: "p.1", Title: "done child", Status: task.StatusDone},
			{ExternalID: "p.2", Title: "open child", Status: task.StatusPending},
		}},
		{ExternalID: "q", Title: "Closed", Status: task.StatusDone},
	}}}
	rep, err := im.Import(ctx, sets, plan.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := service.New(s, service.Options{}).Plan.Get(ctx, mapped(t, s, src, "p").String())
	if p.Status != task.StatusInProgress || len(rep.Notes) != 1 ||
		!strings.Contains(rep.Notes[0], "is done in the file but its subtasks "+p.ID.String()+".2 are open; made it in-progress instead") {
		t.Fatalf("parent: %s, notes %q", p.Status, rep.Notes)
	}
	// A done task in Cairn takes no new open subtask; a closed one is fine.
	sets[0].Tasks[1].Subtasks = []plan.ImportTask{
		{ExternalID: "q.1", Title: "late open work"},
		{ExternalID: "q.2", Title: "late done work", Status: task.StatusDone},
	}
	sets[0].Tasks[0].Deps = []string{"q.1"}
	rep, err = im.Import(ctx, sets, plan.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.SkippedTasks) != 1 || rep.SkippedTasks[0].Task != "q.1" || !strings.Contains(rep.SkippedTasks[0].Reason, "is done in Cairn") ||
		len(rep.SkippedDeps) != 1 || rep.SkippedDeps[0].Task != "p" || rep.Created != 1 {
		t.Fatalf("report: %+v", rep)
	}

	// A dry run reports and changes nothing.
	before := dump(t, s)
	sets[0].Tasks = append(sets[0].Tasks, plan.ImportTask{ExternalID: "r", Title: "Dry"})
	rep, err = im.Import(ctx, sets, plan.ImportOptions{DryRun: true})
	if err != nil || !rep.DryRun || rep.Created != 1 {
		t.Fatalf("dry run: %+v %v", rep, err)
	}
	if after := dump(t, s); after != before {
		t.Fatalf("a dry run changed the store")
	}
}

// chain is n tasks, each depending on the one before; with cycle, the
// first depends on the last.
func chain(n int, cycle bool) []plan.ImportSet {
	ts := make([]plan.ImportTask, n)
	for i := range ts {
		ts[i] = plan.ImportTask{ExternalID: fmt.Sprint(i + 1), Title: "t"}
		if i > 0 {
			ts[i].Deps = []string{fmt.Sprint(i)}
		}
	}
	if cycle {
		ts[0].Deps = []string{fmt.Sprint(n)}
	}
	return []plan.ImportSet{{Source: "big", Tasks: ts}}
}

// TestImportCycleCheckIsLinear: the cycle check over a 200,000-task file
// is one topological sort (a search per task took over 12 minutes), and a
// cancelled import stops before it writes anything.
func TestImportCycleCheckIsLinear(t *testing.T) {
	s := openStore(t)
	im := plan.NewImporter(s)
	before := dump(t, s)
	start := time.Now()
	_, err := im.Import(context.Background(), chain(200_000, true), plan.ImportOptions{})
	ce, ok := problem.DetailOf[plan.ImportCycle](err)
	if !ok || len(ce.Path) != 200_001 || ce.Path[0] != "200000" {
		t.Fatalf("a 200,000-task cycle: %T %.200v", err, err)
	}
	t.Logf("cycle check of 200,000 tasks: %v", time.Since(start))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := im.Import(ctx, chain(200_000, false), plan.ImportOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled import: %v, want context.Canceled", err)
	}
	if dump(t, s) != before {
		t.Fatal("a refused import changed the store")
	}
}

// BenchmarkImportPlan is the cost of validating and cycle-checking a file
// of 20,000 chained tasks (before: 21 s).
//
//	go test -run '^$' -bench ImportPlan -benchtime 5x ./internal/service/
func BenchmarkImportPlan(b *testing.B) {
	im := plan.NewImporter(nil)
	sets := chain(20_000, true)
	for range b.N {
		if _, err := im.Import(context.Background(), sets, plan.ImportOptions{}); err == nil {
			b.Fatal("no cycle found")
		}
	}
}

// TestImportDoneAfterLaterDependency: a task done in the file whose
// dependency comes later in the file (and is done too) is done; one whose
// dependency is open is not, and the report says why.
func TestImportDoneAfterLaterDependency(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	rep, err := plan.NewImporter(s).Import(ctx, []plan.ImportSet{{Source: "taskmaster:master", Tasks: []plan.ImportTask{
		{ExternalID: "1", Title: "Ship", Status: task.StatusDone, Deps: []string{"2"}},
		{ExternalID: "2", Title: "Build", Status: task.StatusDone, Subtasks: []plan.ImportTask{
			{ExternalID: "2.1", Title: "Compile", Status: task.StatusDone, Deps: []string{"3"}},
		}},
		{ExternalID: "3", Title: "Configure", Status: task.StatusDone},
		{ExternalID: "4", Title: "Announce", Status: task.StatusDone, Deps: []string{"5"}},
		{ExternalID: "5", Title: "Write post", Status: task.StatusPending},
	}}}, plan.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]task.Status{}
	for _, it := range rep.Tasks {
		d, err := service.New(s, service.Options{}).Plan.Get(ctx, it.ID.String())
		if err != nil {
			t.Fatal(err)
		}
		status[it.ExternalID] = d.Status
	}
	want := map[string]task.Status{"1": task.StatusDone, "2": task.StatusDone, "2.1": task.StatusDone, "3": task.StatusDone,
		"4": task.StatusInProgress, "5": task.StatusPending}
	if !maps.Equal(status, want) {
		t.Fatalf("statuses %v, want %v; notes %v", status, want, rep.Notes)
	}
	if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "4 (taskmaster:master)") || !strings.Contains(notes, "depends on") {
		t.Fatalf("notes: %s", notes)
	}
}

// TestImportAdoptsUnkeyedMappings: tasks imported before imports were keyed
// by file are taken over by the first file imported since, not duplicated;
// a second file still gets its own.
func TestImportAdoptsUnkeyedMappings(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	im := plan.NewImporter(s)
	if _, err := im.Import(ctx, sample(), plan.ImportOptions{}); err != nil { // no File: as before
		t.Fatal(err)
	}
	keyed := func(file string) []plan.ImportSet {
		sets := sample()
		for i := range sets {
			sets[i].File = file
		}
		return sets
	}
	rep, err := im.Import(ctx, keyed(".taskmaster/tasks/tasks.json"), plan.ImportOptions{})
	if err != nil || rep.Created != 0 || rep.Unchanged != 10 {
		t.Fatalf("first keyed import: %+v %v", rep, err)
	}
	d, err := service.New(s, service.Options{}).Plan.Get(ctx, rep.Tasks[0].ID.String())
	if err != nil || len(d.Imports) != 1 || d.Imports[0].File != ".taskmaster/tasks/tasks.json" {
		t.Fatalf("imports of an adopted task: %+v %v", d.Imports, err)
	}
	rep, err = im.Import(ctx, keyed("other.json"), plan.ImportOptions{})
	if err != nil || rep.Created != 10 {
		t.Fatalf("another file: %+v %v", rep, err)
	}
}
