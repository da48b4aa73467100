package service_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// plainStore hides what a store offers beyond store.Store: services over
// it read in transactions, the way the cached reads are checked against.
type plainStore struct{ store.Store }

// readAnswers are the answers of the read tools the board serves, for one
// agent and task reference.
type readAnswers struct {
	Current focus.CurrentView
	Detail  plan.Detail
	GetErr  string
	List    plan.TaskPage
	Next    plan.Recommendation
	Picture focus.Picture
}

func answers(t *testing.T, set *service.Set, agent, ref string) readAnswers {
	t.Helper()
	ctx := context.Background()
	var (
		a   readAnswers
		err error
	)
	if a.Current, err = set.Focus.Current(ctx, agent); err != nil {
		t.Fatal(err)
	}
	if a.Detail, err = set.Plan.Get(ctx, ref); err != nil {
		a.GetErr = err.Error()
	}
	if a.List, err = set.Plan.List(ctx, plan.TaskQuery{}); err != nil {
		t.Fatal(err)
	}
	if a.Next, err = set.Plan.Next(ctx, plan.NextQuery{Agent: agent}); err != nil {
		t.Fatal(err)
	}
	if a.Picture, err = set.Focus.BigPicture(ctx, agent, page.Page{}); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestCachedReadsSeeOtherWrites: the reads answered from the cached board
// and one statement (get_current_task, get_task, get_tasks, get_next_task,
// get_big_picture) see every write another process makes to the same
// SQLite file, or the same PostgreSQL project, before the read: after each write of another Store on the
// file, each answer equals the one read in a transaction, and the write
// shows in it.
func TestCachedReadsSeeOtherWrites(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		s, other := twoHandles(t)
		testCachedReads(t, s, other, func(ctx context.Context, id task.ID) error {
			db, err := sql.Open("sqlite", s.Path())
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = db.ExecContext(ctx, `DELETE FROM tasks WHERE id = ?`, int64(id))
			return err
		})
	})
	t.Run("postgres", func(t *testing.T) {
		s, other, url, name := pgHandles(t)
		testCachedReads(t, s, other, func(ctx context.Context, id task.ID) error {
			c, err := pgx.Connect(ctx, url)
			if err != nil {
				return err
			}
			defer c.Close(ctx)
			_, err = c.Exec(ctx, `DELETE FROM tasks WHERE project_id = (SELECT id FROM projects WHERE name = $1) AND id = $2`, name, int64(id))
			return err
		})
	})
}

// testCachedReads is TestCachedReadsSeeOtherWrites on one kind of store:
// s and other are two handles on one database, as two processes have;
// deleteRow deletes a task's row outright, as no Cairn write does.
func testCachedReads(t *testing.T, s, other store.Store, deleteRow func(context.Context, task.ID) error) {
	ctx := context.Background()
	set := service.New(s, service.Options{})
	ref := service.New(plainStore{s}, service.Options{}) // reads in transactions
	o := service.New(other, service.Options{})
	seedReads(t, set, "me") // roots 1, 5, 9, 13, 17, each with 3 subtasks; "me" on 20

	str := func(s string) *string { return &s }
	st := func(s task.Status) *task.Status { return &s }
	steps := []struct {
		name  string
		write func() error
		ref   string // the task get_task reads
		check func(a readAnswers) string
	}{
		{"nothing", func() error { return nil }, "20", nil},
		{"another process switches my focus", func() error {
			_, err := o.Focus.SwitchFocus(ctx, "me", "6")
			return err
		}, "6", func(a readAnswers) string {
			if a.Current.Task.ID != 6 || a.Picture.Current != 6 {
				return fmt.Sprintf("focus on %s / %s, want 6", a.Current.Task.ID, a.Picture.Current)
			}
			return ""
		}},
		{"it rewrites the focused task's body", func() error {
			_, err := o.Plan.Update(ctx, "6", plan.Change{Description: str("new body")})
			return err
		}, "6", func(a readAnswers) string {
			if a.Current.Task.Body != "new body" || a.Detail.Body != "new body" {
				return fmt.Sprintf("bodies %q, %q", a.Current.Task.Body, a.Detail.Body)
			}
			return ""
		}},
		{"it retitles a sibling", func() error {
			_, err := o.Plan.Update(ctx, "6", plan.Change{Title: str("renamed")})
			if err == nil {
				_, err = o.Focus.SwitchFocus(ctx, "me", "7")
			}
			return err
		}, "5.1", func(a readAnswers) string {
			if len(a.Current.Left) != 1 || a.Current.Left[0].Title != "renamed" || a.Detail.Title != "renamed" {
				return fmt.Sprintf("left %v, detail %q", a.Current.Left, a.Detail.Title)
			}
			return ""
		}},
		{"it claims the next task", func() error {
			_, err := o.Plan.Claim(ctx, plan.ClaimRequest{Agent: "rival", Ref: "1"})
			return err
		}, "1", func(a readAnswers) string {
			if a.Detail.Claim == nil || a.Detail.Claim.Agent != "rival" || a.Next.Task != nil && a.Next.Task.ID == 1 {
				return fmt.Sprintf("claim %v, next %v", a.Detail.Claim, a.Next.Task)
			}
			return ""
		}},
		{"it releases it", func() error {
			_, err := o.Plan.Release(ctx, plan.ReleaseRequest{Agent: "rival", Ref: "1"})
			return err
		}, "1", func(a readAnswers) string {
			if a.Detail.Claim != nil {
				return fmt.Sprintf("claim %v", a.Detail.Claim)
			}
			return ""
		}},
		{"it starts a lifecycle", func() error {
			_, err := o.Lifecycles.Init(ctx, lifecycles.LifecycleInit{Task: "17"})
			return err
		}, "17", func(a readAnswers) string {
			if a.Detail.Lifecycle == nil || a.Picture.Phases[17] == "" {
				return fmt.Sprintf("lifecycle %v, phases %v", a.Detail.Lifecycle, a.Picture.Phases)
			}
			return ""
		}},
		{"it records an import", func() error {
			return other.Update(ctx, func(tx store.Tx) error { return tx.SetImported(ctx, "jira", "X-1", 17) })
		}, "17", func(a readAnswers) string {
			if len(a.Detail.Imports) != 1 {
				return fmt.Sprintf("imports %v", a.Detail.Imports)
			}
			return ""
		}},
		{"it adds a subtask under my task", func() error {
			_, _, err := o.Plan.AddSubtask(ctx, "7", plan.NewTask{Title: "deeper"})
			return err
		}, "7.1", func(a readAnswers) string {
			if a.Detail.Title != "deeper" || a.List.Total != 21 {
				return fmt.Sprintf("7.1 is %q, %d tasks", a.Detail.Title, a.List.Total)
			}
			return ""
		}},
		{"it makes a dependency", func() error {
			_, err := o.Plan.Update(ctx, "9", plan.Change{Deps: &[]string{"13"}})
			return err
		}, "9", func(a readAnswers) string {
			if len(a.Detail.Deps) != 1 || a.Detail.Deps[0].ID != 13 {
				return fmt.Sprintf("deps %v", a.Detail.Deps)
			}
			return ""
		}},
		{"it completes my task", func() error {
			_, err := o.Plan.Update(ctx, "7.1", plan.Change{Status: st(task.StatusDone)})
			if err == nil {
				_, err = o.Plan.Update(ctx, "7", plan.Change{Status: st(task.StatusDone)})
			}
			return err
		}, "7", func(a readAnswers) string {
			if !a.Current.Zen && a.Current.Task.ID == 7 || a.Detail.Status != task.StatusDone {
				return fmt.Sprintf("current %s (zen %v), 7 is %s", a.Current.Task.ID, a.Current.Zen, a.Detail.Status)
			}
			return ""
		}},
		{"it deletes a task", func() error {
			_, err := o.Plan.Delete(ctx, "13", plan.Writer{})
			return err
		}, "13", func(a readAnswers) string {
			if a.GetErr == "" || a.Picture.Phases[13] != "" {
				return fmt.Sprintf("13 still there: %v", a.Detail.Task)
			}
			return ""
		}},
		{"it deletes a task row outright (only a reload can follow)", func() error {
			return deleteRow(ctx, 12)
		}, "12", func(a readAnswers) string {
			if a.GetErr == "" || a.List.Total != 16 {
				return fmt.Sprintf("12 still there: %v, %d tasks", a.Detail.Task, a.List.Total)
			}
			return ""
		}},
		{"it focuses me on a subtask by path", func() error {
			_, err := o.Focus.SwitchFocus(ctx, "me", "17.2")
			return err
		}, "17.2", func(a readAnswers) string {
			if a.Current.Task.ID != 19 || len(a.Current.Breadcrumb) != 1 || a.Current.Breadcrumb[0].ID != 17 || a.Detail.ID != 19 {
				return fmt.Sprintf("current %s, breadcrumb %v, 17.2 is %s", a.Current.Task.ID, a.Current.Breadcrumb, a.Detail.ID)
			}
			return ""
		}},
	}
	for _, step := range steps {
		// A read before the write, so the board is cached as of then.
		answers(t, set, "me", step.ref)
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got := answers(t, set, "me", step.ref)
		want := answers(t, ref, "me", step.ref)
		if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: the cached reads differ from reads in a transaction (-want +got):\n%s", step.name, d)
		}
		if step.check != nil {
			if msg := step.check(got); msg != "" {
				t.Errorf("%s: the write does not show: %s", step.name, msg)
			}
		}
	}
}

// onBothStores runs f on two handles of one new SQLite file and on two
// pools of one new PostgreSQL project: s and another process's handle on
// the same store.
func onBothStores(t *testing.T, f func(t *testing.T, s, other store.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		s, other := twoHandles(t)
		f(t, s, other)
	})
	t.Run("postgres", func(t *testing.T) {
		s, other, _, _ := pgHandles(t)
		f(t, s, other)
	})
}

// pgHandles opens two stores on one new PostgreSQL project, each with a
// pool of its own, as two processes would; both close when the test ends.
// url and name are the database's and the project's.
func pgHandles(t *testing.T) (s, other *postgres.Store, url, name string) {
	t.Helper()
	ctx := context.Background()
	url, name = pgtest.URL(t), pgtest.Project(t)
	var err error
	if s, err = postgres.Open(ctx, url, postgres.Options{Project: name}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if other, err = postgres.Open(ctx, url, postgres.Options{Project: name}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return s, other, url, name
}

// twoHandles opens a new SQLite store and a second handle on the same
// file, as another process would have; both close when the test ends.
func twoHandles(t *testing.T) (s, other *sqlite.Store) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	var err error
	if s, err = sqlite.Open(ctx, path, sqlite.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if other, err = sqlite.Open(ctx, path, sqlite.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return s, other
}
