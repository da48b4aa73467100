package migrate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// fakeDB is a database as the runner sees it: the versions recorded, and
// what a run did to it.
type fakeDB struct {
	applied   map[int]bool
	appliedOK bool // Applied answers outside the lock (the bookkeeping exists)
	failAt    int  // Apply fails on this version
	log       []string
}

func (db *fakeDB) Applied(context.Context) (map[int]bool, error) {
	if !db.appliedOK {
		return nil, errors.New("no such table: cairn_schema")
	}
	return copyOf(db.applied), nil
}

func (db *fakeDB) Begin(context.Context) (Tx, error) {
	db.log = append(db.log, "begin")
	return &fakeTx{db: db, applied: copyOf(db.applied)}, nil
}

type fakeTx struct {
	db      *fakeDB
	applied map[int]bool
	done    bool
}

func (t *fakeTx) Applied(context.Context) (map[int]bool, error) { return copyOf(t.applied), nil }

func (t *fakeTx) Apply(_ context.Context, m Migration) error {
	if m.Version == t.db.failAt {
		return errors.New("syntax error")
	}
	t.db.log = append(t.db.log, "apply "+m.Name)
	t.applied[m.Version] = true
	return nil
}

func (t *fakeTx) Commit(_ context.Context, latest int) error {
	t.db.log = append(t.db.log, fmt.Sprint("commit at ", latest))
	t.db.applied, t.db.appliedOK, t.done = t.applied, true, true
	return nil
}

func (t *fakeTx) Rollback(context.Context) error {
	if !t.done {
		t.db.log = append(t.db.log, "rollback")
	}
	return nil
}

func copyOf(m map[int]bool) map[int]bool {
	out := map[int]bool{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func versions(vs ...int) map[int]bool {
	out := map[int]bool{}
	for _, v := range vs {
		out[v] = true
	}
	return out
}

func TestRun(t *testing.T) {
	ms := []Migration{{Version: 1, Name: "0001_a.sql"}, {Version: 2, Name: "0002_b.sql"}, {Version: 7, Name: "0007_c.sql"}, {Version: 9, Name: "0009_d.sql"}}
	for _, tc := range []struct {
		name    string
		db      fakeDB
		wantLog []string
		wantErr string
	}{
		{name: "NewDatabase", db: fakeDB{},
			wantLog: []string{"begin", "apply 0001_a.sql", "apply 0002_b.sql", "apply 0007_c.sql", "apply 0009_d.sql", "commit at 9"}},
		{name: "UpToDateTakesNoLock", db: fakeDB{applied: versions(1, 2, 7, 9), appliedOK: true}},
		{name: "GapFilled", db: fakeDB{applied: versions(1, 2, 9), appliedOK: true},
			wantLog: []string{"begin", "apply 0007_c.sql", "commit at 9"}},
		{name: "NewerWithAllOpens", db: fakeDB{applied: versions(1, 2, 7, 9, 12), appliedOK: true}},
		{name: "NewerRefused", db: fakeDB{applied: versions(1, 2, 12), appliedOK: true},
			wantLog: []string{"begin", "rollback"}, wantErr: "database schema version 12 is newer than this cairn (9): upgrade cairn"},
		{name: "FailureRollsBack", db: fakeDB{applied: versions(1), appliedOK: true, failAt: 7},
			wantLog: []string{"begin", "apply 0002_b.sql", "rollback"}, wantErr: "apply migration 0007_c.sql: syntax error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := tc.db
			err := Run(context.Background(), &db, ms)
			if got := fmt.Sprint(err); (tc.wantErr == "" && err != nil) || (tc.wantErr != "" && got != tc.wantErr) {
				t.Errorf("Run = %v; want %q", err, tc.wantErr)
			}
			if d := cmp.Diff(tc.wantLog, db.log); d != "" {
				t.Errorf("what the run did (-want +got):\n%s", d)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	fsys := fstest.MapFS{
		"m/0010_later.sql": {Data: []byte("SELECT 10")},
		"m/0002_b.sql":     {Data: []byte("SELECT 2")},
		"m/0001_a.sql":     {Data: []byte("SELECT 1")},
	}
	ms, err := Load(fsys, "m")
	if err != nil {
		t.Fatal(err)
	}
	want := []Migration{{1, "0001_a.sql", "SELECT 1"}, {2, "0002_b.sql", "SELECT 2"}, {10, "0010_later.sql", "SELECT 10"}}
	if d := cmp.Diff(want, ms); d != "" {
		t.Errorf("Load (-want +got):\n%s", d)
	}
	for name, bad := range map[string]fstest.MapFS{
		"no number": {"m/schema.sql": {}},
		"twice":     {"m/0001_a.sql": {}, "m/0001_b.sql": {}},
		"zero":      {"m/0000_a.sql": {}},
	} {
		if _, err := Load(bad, "m"); err == nil || !strings.Contains(err.Error(), "migration") {
			t.Errorf("%s: Load = %v; want an error naming the migration", name, err)
		}
	}
}

// ID changes with any file's name or content, and only then.
func TestID(t *testing.T) {
	a := fstest.MapFS{"m/0001_a.sql": {Data: []byte("SELECT 1")}}
	b := fstest.MapFS{"m/0001_a.sql": {Data: []byte("SELECT 2")}}
	c := fstest.MapFS{"m/0001_b.sql": {Data: []byte("SELECT 1")}}
	if ID(a, "m") != ID(fstest.MapFS{"m/0001_a.sql": {Data: []byte("SELECT 1")}}, "m") {
		t.Error("ID differs for the same files")
	}
	if ID(a, "m") == ID(b, "m") || ID(a, "m") == ID(c, "m") {
		t.Error("ID is the same for other files")
	}
}
