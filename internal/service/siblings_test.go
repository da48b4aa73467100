package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// bodyCountingStore counts the bodies its transactions read.
type bodyCountingStore struct {
	store.Store
	bodies int
}

func (s *bodyCountingStore) View(ctx context.Context, fn func(store.Tx) error) error {
	return s.Store.View(ctx, func(tx store.Tx) error { return fn(bodyCountingTx{tx, &s.bodies}) })
}

type bodyCountingTx struct {
	store.Tx
	bodies *int
}

func (tx bodyCountingTx) Query(ctx context.Context, q store.Query) ([]task.Task, int, error) {
	ts, n, err := tx.Tx.Query(ctx, q)
	for _, t := range ts {
		if t.Body != "" {
			*tx.bodies++
		}
	}
	return ts, n, err
}

// TestSiblingsPages: list_siblings pages back from the current task, the
// nearest siblings first, each page in position order; the total is every
// sibling to the left, and a page with bodies reads only its own. On both
// stores.
func TestSiblingsPages(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testSiblingsPages(t, openStore(t)) })
	t.Run("postgres", func(t *testing.T) {
		st, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{Project: pgtest.Project(t)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		testSiblingsPages(t, st)
	})
}

func testSiblingsPages(t *testing.T, base store.Store) {
	ctx := context.Background()
	st := &bodyCountingStore{Store: base}
	f := service.New(st, service.Options{}).Focus
	const agent = "ann"
	if z, err := f.Siblings(ctx, agent, focus.SiblingsQuery{}); err != nil || !z.Zen {
		t.Fatalf("in zen: %+v, %v; want zen", z, err)
	}
	if _, err := f.CreateNewTask(ctx, agent, "Batch", ""); err != nil {
		t.Fatal(err)
	}
	const done = 25
	for i := 1; i <= done; i++ {
		if _, err := f.CreateNewTask(ctx, agent, fmt.Sprint("Step ", i), fmt.Sprintf("notes of step %d", i)); err != nil {
			t.Fatal(err)
		}
		if _, err := f.CompleteCurrentTask(ctx, agent, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.CreateNewTask(ctx, agent, "Step 26", ""); err != nil {
		t.Fatal(err)
	}

	steps := func(from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, fmt.Sprint("Step ", i))
		}
		return out
	}
	type pageWant struct {
		Titles                  []string
		Total, From, NextOffset int
	}
	for _, c := range []struct {
		name string
		q    focus.SiblingsQuery
		want pageWant
	}{
		{"first page: the nearest", focus.SiblingsQuery{}, pageWant{steps(16, 25), done, 16, 10}},
		{"next page", focus.SiblingsQuery{Page: page.Page{Offset: 10}}, pageWant{steps(6, 15), done, 6, 20}},
		{"last page: the leftmost", focus.SiblingsQuery{Page: page.Page{Offset: 20}}, pageWant{steps(1, 5), done, 1, 0}},
		{"a page of one", focus.SiblingsQuery{Page: page.Page{Offset: 3, Limit: 1}}, pageWant{steps(22, 22), done, 22, 4}},
		{"all of them", focus.SiblingsQuery{Page: page.Page{Limit: 50}}, pageWant{steps(1, 25), done, 1, 0}},
		{"past the end", focus.SiblingsQuery{Page: page.Page{Offset: done}}, pageWant{nil, done, 0, 0}},
		{"far past the end", focus.SiblingsQuery{Page: page.Page{Offset: 1000}}, pageWant{nil, done, 0, 0}},
		{"with bodies: fewer", focus.SiblingsQuery{WithBody: true}, pageWant{steps(23, 25), done, 23, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st.bodies = 0
			s, err := f.Siblings(ctx, agent, c.q)
			if err != nil {
				t.Fatal(err)
			}
			got := pageWant{Total: s.Total, From: s.From(), NextOffset: s.NextOffset}
			for _, l := range s.Left {
				got.Titles = append(got.Titles, l.Title)
				want := ""
				if c.q.WithBody {
					want = "notes of step " + strings.TrimPrefix(l.Title, "Step ")
				}
				if l.Body != want {
					t.Errorf("%s: body %q, want %q", l.Title, l.Body, want)
				}
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("Siblings(%+v) (-want +got):\n%s", c.q, diff)
			}
			// The page's bodies, never the level's.
			allowed := 0
			if c.q.WithBody {
				allowed = len(s.Left)
			}
			if st.bodies > allowed {
				t.Errorf("read %d bodies for a page of %d (include_body %v)", st.bodies, len(s.Left), c.q.WithBody)
			}
		})
	}
}

// TestSiblingsRefusesBadPages: a bad offset or limit is refused by the
// service, with the field, the problem and the fix, before anything is read.
func TestSiblingsRefusesBadPages(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	f := service.New(st, service.Options{}).Focus
	if _, err := f.CreateNewTask(ctx, "ann", "Batch", ""); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		q             focus.SiblingsQuery
		field, reason string
	}{
		{focus.SiblingsQuery{Page: page.Page{Offset: -1}}, "offset", "is negative"},
		{focus.SiblingsQuery{Page: page.Page{Limit: -1}}, "limit", "is -1"},
		{focus.SiblingsQuery{Page: page.Page{Limit: page.Sibling.Max + 1}}, "limit", fmt.Sprint("is ", page.Sibling.Max+1)},
		{focus.SiblingsQuery{WithBody: true, Page: page.Page{Limit: page.SiblingBody.Max + 1}}, "limit", fmt.Sprint("is ", page.SiblingBody.Max+1)},
	} {
		_, err := f.Siblings(ctx, "ann", c.q)
		var fe *problem.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Problem != c.reason || fe.Fix == "" {
			t.Errorf("Siblings(%+v) = %v; want a %s error that %s, with a fix", c.q, err, c.field, c.reason)
		}
	}
	// One schema bounds both pages: the limit a page of bodies accepts is
	// the one the schema advertises.
	if page.SiblingBody.Max != page.Sibling.Max {
		t.Errorf("page.SiblingBody.Max %d != page.Sibling.Max %d", page.SiblingBody.Max, page.Sibling.Max)
	}
}
