package postgres_test

import (
	"context"
	"errors"
	neturl "net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

var (
	sharedOnce sync.Once
	shared     *postgres.DB
	sharedErr  error
)

// sharedDB is one pool for the tests' stores; each test gets its own
// project in it.
func sharedDB(t *testing.T) *postgres.DB {
	t.Helper()
	url := pgtest.URL(t)
	sharedOnce.Do(func() { shared, sharedErr = postgres.OpenDB(context.Background(), url, postgres.Options{}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// openOwn opens a store on its own pool, as another process would.
func openOwn(t *testing.T, project string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newStore(t *testing.T) *postgres.Store {
	t.Helper()
	s, err := sharedDB(t).Project(context.Background(), pgtest.Project(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) store.Store { return newStore(t) },
		OpenAgain: func(t *testing.T, s store.Store) store.Store {
			return openOwn(t, s.(*postgres.Store).Name())
		},
	})
}

// withParam returns the test URL with a query parameter set (or replaced).
func withParam(t *testing.T, key, value string) string {
	t.Helper()
	u, err := neturl.Parse(pgtest.URL(t))
	if err != nil || u.Scheme == "" {
		t.Skipf("the test database URL is not a URL (%v); this test needs one", err)
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

func createTask(t *testing.T, s store.Store, title string) task.Task {
	t.Helper()
	var out task.Task
	err := s.Update(context.Background(), func(tx store.Tx) (err error) {
		out, err = tx.CreateTask(context.Background(), task.Task{Title: title, CreatedAt: time.Now(), UpdatedAt: time.Now()}, store.Placement{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func version(t *testing.T, s store.Store) uint64 {
	t.Helper()
	v, err := s.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func waitWake(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("no notification within 10s %s", what)
	}
}

// TestWatchHearsOtherInstance: a watcher on instance A wakes when instance
// B (its own pool, as another process) commits a change to the project, and
// A's Version already shows it; a rolled-back write and a write to another
// project wake nobody.
func TestWatchHearsOtherInstance(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	name, otherName := pgtest.Project(t), pgtest.Project(t)
	// Instance A watches both projects through one DB (one listener).
	db, err := postgres.OpenDB(ctx, pgtest.URL(t), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a, err := db.Project(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	aOther, err := db.Project(ctx, otherName)
	if err != nil {
		t.Fatal(err)
	}
	b, bOther := openOwn(t, name), openOwn(t, otherName)
	ch, chOther := a.Watch(ctx), aOther.Watch(ctx)
	before := version(t, a)

	createTask(t, b, "from b")
	waitWake(t, ch, "after a write through the other instance")
	if v := version(t, a); v == before {
		t.Fatalf("A's Version is still %d after B's write was announced", v)
	}

	boom := errors.New("boom")
	if err := b.Update(ctx, func(tx store.Tx) error {
		if _, err := tx.CreateTask(ctx, task.New("ghost", "", time.Now()), store.Placement{}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	createTask(t, bOther, "elsewhere")
	// The listener hands out notifications in commit order, one at a time:
	// once the other project's watcher has woken, a wake for A from the
	// rolled-back write or the other project's write would already be there.
	waitWake(t, chOther, "for the other project")
	select {
	case <-ch:
		t.Fatal("a rolled-back write or another project's write woke the watcher")
	default:
	}

	// A second watcher on the same store hears changes too.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	ch2 := a.Watch(ctx2)
	createTask(t, b, "again")
	waitWake(t, ch, "by the first watcher")
	waitWake(t, ch2, "by the second watcher")
}

// TestWatchReconnects: when the listener's connection is killed, it
// reconnects, wakes its watchers (a change may have been missed) and keeps
// hearing changes.
func TestWatchReconnects(t *testing.T) {
	name := pgtest.Project(t)
	app := "cairn-test-" + name[len(name)-12:]
	a, err := postgres.Open(context.Background(), withParam(t, "application_name", app), postgres.Options{Project: name})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b := openOwn(t, name)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := a.Watch(ctx)
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var killed int
	err = admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE application_name = $1 AND query LIKE 'LISTEN%'`, app).Scan(&killed)
	if err != nil || killed != 1 {
		t.Fatalf("terminated %d listener connections (%v), want 1", killed, err)
	}
	waitWake(t, ch, "after the listener reconnected")
	// Once reconnected (the wake says so), B's writes are heard again.
	createTask(t, b, "after reconnect")
	waitWake(t, ch, "for a write after the reconnect")
}

// TestProjectsAreSeparate: projects in one database share nothing: each
// counts its task ids from 1 and has its own focus and version.
func TestProjectsAreSeparate(t *testing.T) {
	ctx := context.Background()
	p, q := newStore(t), newStore(t)
	a := createTask(t, p, "in p")
	vq := version(t, q)
	b := createTask(t, q, "in q")
	if a.ID != 1 || b.ID != 1 {
		t.Fatalf("first ids: %v in p, %v in q; want 1 in each", a.ID, b.ID)
	}
	createTask(t, p, "p again")
	if err := p.Update(ctx, func(tx store.Tx) error { return tx.SetFocus(ctx, "alice", 2, time.Now()) }); err != nil {
		t.Fatal(err)
	}
	if v := version(t, q); v != vq+1 {
		t.Fatalf("q's version went from %d to %d with one write to q", vq, v)
	}
	for _, s := range []*postgres.Store{p, q} {
		var e memory.Entry
		var ses memory.Session
		err := s.Update(ctx, func(tx store.Tx) (err error) {
			if e, err = tx.PutMemory(ctx, memory.Entry{Type: memory.Insight, Title: "first", CreatedAt: time.Now(), UpdatedAt: time.Now()}); err != nil {
				return err
			}
			ses, err = tx.PutSession(ctx, memory.Session{Agent: "a", StartedAt: time.Now()})
			return err
		})
		if err != nil || e.ID != 1 || ses.ID != 1 {
			t.Fatalf("first memory entry and session of %s: %v, %v (%v); want 1 and 1", s.Name(), e.ID, ses.ID, err)
		}
	}
	err := q.View(ctx, func(tx store.Tx) error {
		ts, err := store.Tasks(ctx, tx)
		if err != nil || len(ts) != 1 || ts[0].Title != "in q" {
			t.Errorf("q's tasks = %+v, %v", ts, err)
		}
		if fs, err := tx.Focuses(ctx); err != nil || fs["alice"] != 0 {
			t.Errorf("q's focus for alice = %v, %v; want none", fs["alice"], err)
		}
		if _, err := store.Task(ctx, tx, 2); !problem.Is(err, problem.NotFound) {
			t.Errorf("p's task 2 through q: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestUpdateSerialisesAcrossInstances: a read-modify-write in Update, from
// two instances at once, never loses an increment: the project's lock is
// held from the transaction's start, so the second reads the first's write.
func TestUpdateSerialisesAcrossInstances(t *testing.T) {
	ctx := context.Background()
	name := pgtest.Project(t)
	a, b := openOwn(t, name), openOwn(t, name)
	x := createTask(t, a, "0")
	const each = 25
	var wg sync.WaitGroup
	errs := make(chan error, 4*each)
	for _, s := range []store.Store{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				errs <- s.Update(ctx, func(tx store.Tx) error {
					cur, err := store.Task(ctx, tx, x.ID)
					if err != nil {
						return err
					}
					n, _ := strconv.Atoi(cur.Title)
					cur.Title = strconv.Itoa(n + 1)
					return tx.UpdateTask(ctx, cur)
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	err := b.View(ctx, func(tx store.Tx) error {
		got, err := store.Task(ctx, tx, x.ID)
		if err == nil && got.Title != strconv.Itoa(4*each) {
			t.Errorf("counter = %s after %d increments", got.Title, 4*each)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMigrateConcurrently: several processes opening a new database at once
// apply each migration exactly once and all succeed.
func TestMigrateConcurrently(t *testing.T) {
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	dbname := "cairn_migrate_" + strings.ToLower(pgtest.Project(t)[len(pgtest.Project(t))-12:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+dbname); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec(ctx, "DROP DATABASE "+dbname+" WITH (FORCE)")
	u, err := neturl.Parse(pgtest.URL(t))
	if err != nil || u.Scheme == "" {
		t.Skip("the test database URL is not a URL")
	}
	u.Path = "/" + dbname
	const n = 6
	var wg sync.WaitGroup
	errs := make([]error, n)
	dbs := make([]*postgres.DB, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dbs[i], errs[i] = postgres.OpenDB(ctx, u.String(), postgres.Options{MaxConns: 2})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
			continue
		}
		dbs[i].Close()
	}
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows, distinct int
	if err := conn.QueryRow(ctx, `SELECT count(*), count(DISTINCT version) FROM cairn_schema`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows == 0 || rows != distinct {
		t.Fatalf("cairn_schema has %d rows for %d versions: a migration ran twice or none ran", rows, distinct)
	}
}

func TestOpenRejects(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	for _, tc := range []struct {
		name, url, project, want string
	}{
		{"no project", url, "", "project name is empty"},
		{"blank project", url, "  ", "project name is empty"},
		{"bad url", "postgres://%zz", "p", "URL is not valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := postgres.Open(ctx, tc.url, postgres.Options{Project: tc.project})
			if err == nil {
				s.Close()
				t.Fatal("want an error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

func TestClosedStore(t *testing.T) {
	s := openOwn(t, pgtest.Project(t))
	s.Close()
	if err := s.View(context.Background(), func(store.Tx) error { return nil }); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("View after Close: %v", err)
	}
	if _, err := s.Version(context.Background()); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Version after Close: %v", err)
	}
}

// TestOpenUnreachable: a server that is not there is named in the error.
func TestOpenUnreachable(t *testing.T) {
	pgtest.URL(t) // the suite's skip rule applies
	_, err := postgres.Open(context.Background(), "postgres://cairn@127.0.0.1:1/nothere?sslmode=disable&connect_timeout=2", postgres.Options{Project: "p"})
	if err == nil || !strings.Contains(err.Error(), "cannot connect") || !strings.Contains(err.Error(), "127.0.0.1:1/nothere") {
		t.Fatalf("error = %v; want it to say it cannot connect to 127.0.0.1:1/nothere", err)
	}
}

// TestUpdateLocksFromItsStart: while one instance's Update is open (from
// its first statement on, a read here), even before it has written
// anything, another instance's Update on the project
// waits; when its context ends first it fails and writes nothing. A View and
// another project's Update do not wait.
func TestUpdateLocksFromItsStart(t *testing.T) {
	ctx := context.Background()
	name := pgtest.Project(t)
	a, b := openOwn(t, name), openOwn(t, name)
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- a.Update(ctx, func(tx store.Tx) error {
			// The lock goes with the first statement, a read: from
			// then on no other writer runs, though A has written nothing.
			if _, err := store.Tasks(ctx, tx); err != nil {
				return err
			}
			close(entered)
			<-release
			_, err := tx.CreateTask(ctx, task.New("from a", "", time.Now()), store.Placement{})
			return err
		})
	}()
	<-entered
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err := b.Update(short, func(tx store.Tx) error {
		_, err := tx.CreateTask(ctx, task.New("from b", "", time.Now()), store.Placement{})
		return err
	})
	if err == nil {
		t.Fatal("B's Update ran while A's was open")
	}
	if err := b.View(ctx, func(tx store.Tx) error { _, err := store.Tasks(ctx, tx); return err }); err != nil {
		t.Fatalf("a View waited for the write lock: %v", err)
	}
	createTask(t, newStore(t), "another project")
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	err = b.View(ctx, func(tx store.Tx) error {
		ts, err := store.Tasks(ctx, tx)
		if err == nil && (len(ts) != 1 || ts[0].Title != "from a") {
			t.Errorf("tasks = %+v; want only A's", ts)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDuplicateMistakeKeepsTransaction: adding a mistake that is already
// there fails with ErrDuplicate and leaves the transaction usable, so the
// caller can count an occurrence in it (PostgreSQL aborts a transaction on
// a failed statement; the store must not let that happen here).
func TestDuplicateMistakeKeepsTransaction(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	mistake := memory.Entry{Type: memory.Mistake, Title: "Forgot the lock", CreatedAt: time.Now(), UpdatedAt: time.Now()}
	err := s.Update(ctx, func(tx store.Tx) error {
		first, err := tx.PutMemory(ctx, mistake)
		if err != nil {
			return err
		}
		if _, err := tx.PutMemory(ctx, mistake); !errors.Is(err, store.ErrDuplicate) {
			t.Errorf("second PutMemory of a new entry: %v; want ErrDuplicate", err)
		}
		first.Occurrences = 2
		_, err = tx.PutMemory(ctx, first)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx store.Tx) error {
		got, ok, err := store.MistakeByFingerprint(ctx, tx, memory.Fingerprint(mistake.Title))
		if err == nil && (!ok || got.Occurrences != 2) {
			t.Errorf("mistake = %+v, %v; want 2 occurrences", got, ok)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyServerIsAFault: a server that accepts no writes (here
// default_transaction_read_only, as a replica behaves) is a
// store.Fault that says so and what to do, from the first write a
// store makes (registering its project) on.
func TestReadOnlyServerIsAFault(t *testing.T) {
	project := pgtest.Project(t)
	openOwn(t, project) // migrated and created, writable
	url := pgtest.URL(t)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	_, err := postgres.Open(context.Background(), url+sep+"default_transaction_read_only=on", postgres.Options{Project: project})
	if !problem.Is(err, problem.Storage) || !strings.Contains(problem.Of(err).Problem, "accepts no writes") {
		t.Fatalf("opening a project on a read-only server: %v", err)
	}
}

// TestLockTimeoutIsBusy: a write that waits past the lock timeout for
// another instance's write fails with store.ErrBusy (which surfaces answer
// as "busy, nothing changed, retry") rather than waiting as long as the
// caller's context, and writes nothing.
func TestLockTimeoutIsBusy(t *testing.T) {
	ctx := context.Background()
	name := pgtest.Project(t)
	a := openOwn(t, name)
	b, err := postgres.Open(ctx, pgtest.URL(t), postgres.Options{Project: name, LockTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	type later interface {
		CreateTaskLater(ctx context.Context, t task.Task, parent task.ID, deps []task.ID, into *task.Task) error
		CreateUnderCurrent(ctx context.Context, agent string, t task.Task, open []task.Status, at time.Time, into *task.Task) error
	}
	// A write sent at once, and the writes sent with COMMIT, which then
	// carries the lock's wait too.
	writes := map[string]func(tx store.Tx, into *task.Task) error{
		"CreateTask": func(tx store.Tx, into *task.Task) (err error) {
			*into, err = tx.CreateTask(ctx, task.New("from b", "", time.Now()), store.Placement{})
			return err
		},
		"CreateTaskLater": func(tx store.Tx, into *task.Task) error {
			return tx.(later).CreateTaskLater(ctx, task.New("from b", "", time.Now()), 0, nil, into)
		},
		"CreateUnderCurrent": func(tx store.Tx, into *task.Task) error {
			return tx.(later).CreateUnderCurrent(ctx, "b", task.New("from b", "", time.Now()), []task.Status{task.StatusPending}, time.Now(), into)
		},
	}
	for name, write := range writes {
		entered, release := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- a.Update(ctx, func(tx store.Tx) error {
				if _, err := store.Tasks(ctx, tx); err != nil { // takes the lock
					return err
				}
				close(entered)
				<-release
				return nil
			})
		}()
		<-entered
		var into task.Task
		err = b.Update(ctx, func(tx store.Tx) error { return write(tx, &into) })
		close(release)
		if !errors.Is(err, store.ErrBusy) || into.ID != 0 {
			t.Fatalf("%s held up past the lock timeout: %v, created %+v; want store.ErrBusy and nothing", name, err, into)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if err := b.View(ctx, func(tx store.Tx) error {
		ts, err := store.Tasks(ctx, tx)
		if err == nil && len(ts) != 0 {
			t.Errorf("the refused write left %+v", ts)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestLateWriteFailsTheTransaction: a write sent with the next statement
// (UpdateTask of a task that is not there, SetDeps on one that is not)
// fails the whole transaction with its own error, whether a read carried it
// (which must not pass the write's NotFound off as its own) or COMMIT's
// batch did (which it must stop); nothing the transaction wrote stays, and
// the store goes on working.
func TestLateWriteFailsTheTransaction(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	a := createTask(t, s, "a")
	before := version(t, s)
	var readErr error
	err := s.Update(ctx, func(tx store.Tx) error {
		if _, err := tx.CreateTask(ctx, task.Task{Title: "b", CreatedAt: time.Now(), UpdatedAt: time.Now()}, store.Placement{}); err != nil {
			return err
		}
		if err := tx.UpdateTask(ctx, task.Task{ID: 999, Title: "x", Status: task.StatusDone}); err != nil {
			return err
		}
		_, readErr = store.Task(ctx, tx, a.ID) // carries the update
		return nil                             // as a caller that misread the read's error would
	})
	if !problem.Is(err, problem.NotFound) || problem.Of(err).Problem != "task 999 not found" {
		t.Fatalf("Update = %v; want task 999 not found", err)
	}
	if readErr == nil || problem.Is(readErr, problem.NotFound) {
		t.Errorf("the read that carried the failed write = %v; want an error that is not its own NotFound", readErr)
	}
	err = s.Update(ctx, func(tx store.Tx) error {
		if _, err := tx.CreateTask(ctx, task.Task{Title: "b", CreatedAt: time.Now(), UpdatedAt: time.Now()}, store.Placement{}); err != nil {
			return err
		}
		return tx.UpdateTask(ctx, task.Task{ID: 999, Title: "x"}) // goes with COMMIT, which it must stop
	})
	if !problem.Is(err, problem.NotFound) || problem.Of(err).Problem != "task 999 not found" {
		t.Fatalf("Update ending in an update of no task = %v; want task 999 not found", err)
	}
	err = s.Update(ctx, func(tx store.Tx) error {
		a.Title = "a2"
		if err := tx.UpdateTask(ctx, a); err != nil {
			return err
		}
		return tx.SetDeps(ctx, a.ID, []task.ID{12345}) // no such task: the commit's batch fails
	})
	if err == nil || !strings.Contains(err.Error(), "set dependencies of") {
		t.Fatalf("Update with a dependency on no task = %v; want its error", err)
	}
	if v := version(t, s); v != before {
		t.Errorf("version %d after failed writes; want %d", v, before)
	}
	err = s.View(ctx, func(tx store.Tx) error {
		ts, err := store.Tasks(ctx, tx)
		if err == nil && (len(ts) != 1 || ts[0].Title != "a") {
			t.Errorf("tasks after failed writes = %+v; want a alone, unchanged", ts)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	createTask(t, s, "c") // the connections were rolled back, not left in a failed transaction
}
