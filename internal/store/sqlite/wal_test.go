package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

// walBound is the largest log the tests accept: the checkpoint threshold
// and a large commit's worth.
const walBound = sqlite.CheckpointAt + 1<<20

func walSize(t *testing.T, db string) int64 {
	t.Helper()
	fi, err := os.Stat(db + "-wal")
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// addTask commits one task with a body of size bytes.
func addTask(t *testing.T, s *sqlite.Store, title string, size int) {
	t.Helper()
	body := strings.Repeat(title+" ", size/(len(title)+1)+1)[:size]
	if err := s.Update(context.Background(), func(tx store.Tx) error {
		_, err := tx.CreateTask(context.Background(), task.New(title, body, time.Now()), store.Placement{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func countTasks(t *testing.T, s *sqlite.Store) int {
	t.Helper()
	var n int
	if err := s.View(context.Background(), func(tx store.Tx) error {
		ts, err := store.Tasks(context.Background(), tx)
		n = len(ts)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// childBody is the size of the body each child writes.
const childBody = 256 << 10

// walChild is set in a child process of TestWALBoundedAcrossProcesses: the
// database and the task to add.
const walChild = "CAIRN_TEST_WAL_CHILD"

// TestWALBoundedAcrossProcesses: processes that each open the store, write
// once and exit without closing it (as hooks do) keep the log bounded,
// though each rebuilds the log's index from scratch and SQLite's own
// checkpoints alone never start the log over; and every write is there.
func TestWALBoundedAcrossProcesses(t *testing.T) {
	if v := os.Getenv(walChild); v != "" {
		db, n, _ := strings.Cut(v, "|")
		s, err := sqlite.Open(context.Background(), db, sqlite.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		addTask(t, s, "task "+n, childBody)
		os.Exit(0) // no Close, no checkpoint on the way out
	}
	if testing.Short() {
		t.Skip("starts processes")
	}
	db := filepath.Join(t.TempDir(), "cairn.db")
	// 6 MiB of log were it never started over; few processes, for each
	// takes seconds under the race detector.
	const children = 12
	var largest int64
	for i := range children {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWALBoundedAcrossProcesses$")
		cmd.Env = append(os.Environ(), walChild+"="+db+"|"+strconv.Itoa(i))
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("child %d: %v\n%s", i, err, out)
		}
		largest = max(largest, walSize(t, db))
	}
	t.Logf("largest log %d bytes after %d processes", largest, children)
	if largest > walBound {
		t.Errorf("the log reached %d bytes, over %d", largest, walBound)
	}
	s, err := sqlite.Open(context.Background(), db, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := countTasks(t, s); n != children {
		t.Errorf("%d tasks, want %d: a write was lost", n, children)
	}
}

// TestWALCheckpointWaitsForNoReader: a reader's snapshot holds the log (a
// checkpoint may not copy past it, nor start the log over under it), and
// the writer's checkpoints go on without waiting for it: with an hour's
// busy timeout, a checkpoint that waited would never return, since the
// reader ends only after the writes. Once the reader is done, the next
// commit empties the log.
func TestWALCheckpointWaitsForNoReader(t *testing.T) {
	w := open(t, sqlite.Options{BusyTimeout: time.Hour})
	r, err := sqlite.Open(context.Background(), w.Path(), sqlite.Options{BusyTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	addTask(t, w, "before", 100)

	reading, release, done := make(chan int), make(chan struct{}), make(chan error)
	go func() {
		done <- r.View(context.Background(), func(tx store.Tx) error {
			ts, err := store.Tasks(context.Background(), tx)
			if err != nil {
				return err
			}
			reading <- len(ts)
			<-release
			ts, err = store.Tasks(context.Background(), tx)
			if err == nil && len(ts) != 1 {
				err = fmt.Errorf("the reader's snapshot changed under it: %d tasks, then %d", 1, len(ts))
			}
			return err
		})
	}()
	if n := <-reading; n != 1 {
		t.Fatalf("reader sees %d tasks, want 1", n)
	}
	for i := range 40 { // 2.5 MiB
		addTask(t, w, fmt.Sprintf("during %d", i), 64<<10)
	}
	ran, emptied := sqlite.Checkpoints(w)
	if ran == 0 || emptied != 0 {
		t.Errorf("under a reader: %d checkpoints, %d emptied the log; want some, none", ran, emptied)
	}
	if size := walSize(t, w.Path()); size <= sqlite.CheckpointAt {
		t.Errorf("the log is %d bytes under a reader's snapshot: a checkpoint passed it", size)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	addTask(t, w, "after", 100)
	if _, emptied := sqlite.Checkpoints(w); emptied == 0 {
		t.Error("no checkpoint emptied the log once the reader was done")
	}
	if size := walSize(t, w.Path()); size > walBound {
		t.Errorf("the log is %d bytes once the reader is done", size)
	}
	if n := countTasks(t, r); n != 42 {
		t.Errorf("%d tasks, want 42", n)
	}
}

// TestWALCheckpointWaitsForNoWriter: a checkpoint while another connection
// holds the write lock copies what it can and returns at once (it cannot
// empty a log another is appending to), and the writer's commit is intact.
func TestWALCheckpointWaitsForNoWriter(t *testing.T) {
	a := open(t, sqlite.Options{BusyTimeout: time.Hour})
	b, err := sqlite.Open(context.Background(), a.Path(), sqlite.Options{BusyTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	sqlite.SetCheckpointAt(a, 1<<62) // a checkpoints only when told below
	for i := range 20 {
		addTask(t, a, fmt.Sprintf("a %d", i), 64<<10)
	}
	writing, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- b.Update(context.Background(), func(tx store.Tx) error {
			if _, err := tx.CreateTask(context.Background(), task.New("b", "", time.Now()), store.Placement{}); err != nil {
				return err
			}
			close(writing)
			<-release
			return nil
		})
	}()
	<-writing
	sqlite.SetCheckpointAt(a, 0)
	// A commit of a's would wait for b's write lock: a checkpoints as
	// after a commit of its own, with no threshold.
	sqlite.CheckpointNow(a)
	ran, emptied := sqlite.Checkpoints(a)
	if ran != 1 || emptied != 0 {
		t.Errorf("beside a writer: %d checkpoints, %d emptied the log; want 1, 0", ran, emptied)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	addTask(t, a, "after", 100)
	if _, emptied := sqlite.Checkpoints(a); emptied != 1 {
		t.Errorf("%d checkpoints emptied the log after the writer was done; want 1", emptied)
	}
	if size := walSize(t, a.Path()); size != 0 {
		t.Errorf("the log is %d bytes after a checkpoint that emptied it", size)
	}
	if n := countTasks(t, b); n != 22 {
		t.Errorf("%d tasks, want 22", n)
	}
}
