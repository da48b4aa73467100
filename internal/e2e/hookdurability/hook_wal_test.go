package hookdurability

// A long session through the hooks (issue 35): one session-start, then
// post-tool-use events of the real binary, one process per event as Claude
// Code runs them (the recorded payloads of testdata/hooks: writes on
// distinct paths, edits, test runs, failed commands, other shell commands),
// alone and with a `cairn serve` beside them. After every event the test
// reads the sizes of cairn.db and cairn.db-wal; it reports them and the
// hooks' p50/p99 wall time at the start and at the end of the session.
//
// Only sizes are asserted: the write-ahead log stays under walBound whatever
// the session's length. The times are printed with the goal they are held
// to (p50 at the end within 1.3× of p50 at the start), never asserted.
//
//	go test -run 'TestHookLongSession' -v ./internal/e2e/hookdurability/       # 300 events
//	go test -run '^$' -bench '^BenchmarkHookLongSession$' -benchtime 2000x ./internal/e2e/hookdurability/

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

const (
	// walBound is the largest cairn.db-wal a session may leave at any
	// point: "a few MB", whatever its length.
	walBound = 2 << 20
	// longSessionEvents is the test's session; the benchmark plays b.N.
	longSessionEvents = 300
	// p50Goal is how much slower a hook may be at the end of a long session
	// than at its start (reported, not asserted).
	p50Goal = 1.3
)

// sessionReport is what playing a session measured.
type sessionReport struct {
	events, window               int
	serve                        bool
	p50Start, p99Start           time.Duration
	p50End, p99End               time.Duration
	maxWAL, endWAL, endDB, maxDB int64
	startWAL, startDB            int64 // after the first window
	total                        time.Duration
}

func (r sessionReport) ratio() float64 {
	if r.p50Start == 0 {
		return 0
	}
	return float64(r.p50End) / float64(r.p50Start)
}

func (r sessionReport) String() string {
	beside := "alone"
	if r.serve {
		beside = "with cairn serve beside"
	}
	goal := "met"
	if r.ratio() > p50Goal {
		goal = "NOT met"
	}
	mb := func(n int64) string {
		if n < 1e6 {
			return fmt.Sprintf("%d KB", n/1000)
		}
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%d post-tool-use events, %s, in %s:\n"+
		"  first %d: p50 %s p99 %s; cairn.db %s, cairn.db-wal %s\n"+
		"  last %d:  p50 %s p99 %s; cairn.db %s, cairn.db-wal %s\n"+
		"  largest cairn.db-wal %s (bound %s), largest cairn.db %s\n"+
		"  p50 end/start %.2f (goal ≤ %.1f: %s)",
		r.events, beside, r.total.Round(time.Millisecond),
		r.window, ms(r.p50Start), ms(r.p99Start), mb(r.startDB), mb(r.startWAL),
		r.window, ms(r.p50End), ms(r.p99End), mb(r.endDB), mb(r.endWAL),
		mb(r.maxWAL), mb(walBound), mb(r.maxDB),
		r.ratio(), p50Goal, goal)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1e3) }

// sessionEvents builds a session's post-tool-use payloads from the recorded
// ones: of every 20 tool uses, 11 write a new file (a distinct short path),
// 3 edit a file written before, 2 run tests (a few packages over and over),
// 1 fails (one of 25 commands, so most failures repeat one), and 3 run
// other shell commands, which record nothing but still open the store.
type sessionEvents struct {
	dir                              string
	write, edit, test, fail, command []byte
}

func newSessionEvents(tb testing.TB, dir string) *sessionEvents {
	tb.Helper()
	load := func(fixture string) []byte {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "hooks", fixture+".json"))
		if err != nil {
			tb.Fatal(err)
		}
		return bytes.ReplaceAll(raw, []byte("{{CWD}}"), []byte(dir))
	}
	e := &sessionEvents{dir: dir, write: load("post-tool-use-write"), edit: load("post-tool-use-edit"),
		test: load("post-tool-use-bash-test"), fail: load("post-tool-use-failure-bash")}
	e.command = bytes.ReplaceAll(e.test, []byte("go test ./internal/ledger -run TestPosting"), []byte("git status --short"))
	for _, p := range [][]byte{e.write, e.edit, e.test, e.fail} {
		if len(p) == 0 {
			tb.Fatal("empty hook fixture")
		}
	}
	if bytes.Equal(e.command, e.test) {
		tb.Fatal("post-tool-use-bash-test no longer runs the command the session replaces")
	}
	return e
}

// path is the i-th file the session writes.
func (e *sessionEvents) path(i int) string { return fmt.Sprintf("src/pkg%d/file_%d.go", i%17, i) }

func (e *sessionEvents) event(i int) []byte {
	sub := func(p []byte, old, new string) []byte { return bytes.ReplaceAll(p, []byte(old), []byte(new)) }
	switch k := i % 20; {
	case k < 11:
		return sub(e.write, "internal/ledger/post_test.go", e.path(i))
	case k < 14:
		j := i - 31 // a file written in the cycle before
		if j < 0 {
			j = i - 11
		}
		return sub(e.edit, "internal/ledger/post.go", e.path(j))
	case k < 16:
		return sub(e.test, "./internal/ledger -run TestPosting", fmt.Sprintf("./src/pkg%d/...", i%7))
	case k < 17:
		return sub(e.fail, "make migrate-check", fmt.Sprintf("make migrate-check-%d", i%25))
	}
	return e.command
}

// fileSize is a file's size, 0 if it is not there.
func fileSize(tb testing.TB, path string) int64 {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0
	}
	if err != nil {
		tb.Fatal(err)
	}
	return fi.Size()
}

// hookProc runs one hook process on payload and returns its wall time; a
// hook that fails, or says anything on stderr, fails tb.
func hookProc(tb testing.TB, bin, dir, event string, payload []byte) time.Duration {
	tb.Helper()
	cmd := exec.Command(bin, "hook", event)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=", "CAIRN_DATABASE_URL=")
	cmd.Stdin = bytes.NewReader(payload)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	start := time.Now()
	if err := cmd.Run(); err != nil || errb.Len() > 0 {
		tb.Fatalf("cairn hook %s: %v %s", event, err, errb.String())
	}
	return time.Since(start)
}

// playSession plays one session of n post-tool-use events in a new project,
// with a `cairn serve` beside the hooks if serve (its agent calls a tool
// every 20 events, and writes every 100), and measures it.
func playSession(tb testing.TB, n int, serve bool) sessionReport {
	tb.Helper()
	bin := cairntest.Binary(tb)
	dir := cairntest.Project(tb)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/feat/ledger\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	db := filepath.Join(dir, ".cairn", "cairn.db")
	ev := newSessionEvents(tb, dir)
	start, err := os.ReadFile(filepath.Join("..", "testdata", "hooks", "session-start-startup.json"))
	if err != nil {
		tb.Fatal(err)
	}
	hookProc(tb, bin, dir, "session-start", bytes.ReplaceAll(start, []byte("{{CWD}}"), []byte(dir)))
	var srv *cairntest.Server
	if serve {
		srv = cairntest.Start(tb, cairntest.Options{Dir: dir, ClientName: "claude-code", Args: []string{"--toolsets", "all"}})
		srv.OK("get_current_task", args{})
	}
	r := sessionReport{events: n, serve: serve, window: max(min(n/10, 200), 1)}
	lat := make([]time.Duration, n)
	began := time.Now()
	for i := range n {
		lat[i] = hookProc(tb, bin, dir, "post-tool-use", ev.event(i))
		w, d := fileSize(tb, db+"-wal"), fileSize(tb, db)
		r.maxWAL, r.maxDB = max(r.maxWAL, w), max(r.maxDB, d)
		if i == r.window-1 {
			r.startWAL, r.startDB = w, d
		}
		if srv != nil && i%20 == 19 {
			srv.OK("get_current_task", args{})
			if i%100 == 99 {
				srv.OK("memory_add_decision", args{"title": fmt.Sprintf("Decision %d of the long session", i),
					"rationale": "the agent writes through the server while the hooks record its tool uses"})
			}
		}
	}
	r.total = time.Since(began)
	r.endWAL, r.endDB = fileSize(tb, db+"-wal"), fileSize(tb, db)
	first := slices.Clone(lat[:r.window])
	last := slices.Clone(lat[n-r.window:])
	slices.Sort(first)
	slices.Sort(last)
	r.p50Start, r.p99Start = cairntest.Percentile(first, 50), cairntest.Percentile(first, 99)
	r.p50End, r.p99End = cairntest.Percentile(last, 50), cairntest.Percentile(last, 99)
	if srv != nil {
		// The server reads what the hooks wrote: the session lists the
		// last file written.
		last := n - 1
		for last > 0 && last%20 >= 11 {
			last--
		}
		got := srv.OK("session", args{"action": "get"})
		if want := ev.path(last); !strings.Contains(got.Text, want) {
			tb.Errorf("the session as the server reads it does not list %s:\n%.2000s", want, got.Text)
		}
	}
	return r
}

// TestHookLongSessionWAL: a session of longSessionEvents tool uses keeps
// the write-ahead log under walBound, alone and beside a server.
func TestHookLongSessionWAL(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns hundreds of hook processes")
	}
	for _, serve := range []bool{false, true} {
		name := "alone"
		if serve {
			name = "serve-beside"
		}
		t.Run(name, func(t *testing.T) {
			r := playSession(t, longSessionEvents, serve)
			t.Log(r)
			if r.maxWAL > walBound {
				t.Errorf("cairn.db-wal reached %d bytes, over %d: the log is not bounded", r.maxWAL, walBound)
			}
		})
	}
}

// BenchmarkHookLongSession plays one session of b.N post-tool-use events
// (-benchtime 2000x for the 2,000) and reports its sizes and
// times; see the top of the file.
func BenchmarkHookLongSession(b *testing.B) {
	for _, serve := range []bool{false, true} {
		name := "alone"
		if serve {
			name = "serve-beside"
		}
		b.Run(name, func(b *testing.B) {
			cairntest.Binary(b)
			b.ResetTimer()
			r := playSession(b, b.N, serve)
			b.StopTimer()
			if b.N < 20 {
				return // testing's probe run
			}
			b.Log(r)
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(float64(r.p50Start.Microseconds())/1e3, "p50-start-ms")
			b.ReportMetric(float64(r.p99Start.Microseconds())/1e3, "p99-start-ms")
			b.ReportMetric(float64(r.p50End.Microseconds())/1e3, "p50-end-ms")
			b.ReportMetric(float64(r.p99End.Microseconds())/1e3, "p99-end-ms")
			b.ReportMetric(r.ratio(), "p50-end/start")
			b.ReportMetric(float64(r.maxWAL)/1e6, "max-wal-MB")
			b.ReportMetric(float64(r.endWAL)/1e6, "end-wal-MB")
			b.ReportMetric(float64(r.endDB)/1e6, "end-db-MB")
			if r.maxWAL > walBound {
				b.Errorf("cairn.db-wal reached %d bytes, over %d: the log is not bounded", r.maxWAL, walBound)
			}
		})
	}
}
