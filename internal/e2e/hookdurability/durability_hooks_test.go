package hookdurability

// Fault tests of the hook path (see internal/e2e/durability_test.go for the
// servers'):
// `cairn hook post-tool-use` processes SIGKILLed at any point of their
// short lives, as a client that gives up on a hook, an OOM kill or a closed
// terminal would end them: starting, rebuilding the log's index, writing,
// committing, checkpointing the log, exiting. A hook that exited 0 having
// said nothing recorded its tool use, and that record must be there after
// any later kill; the store must always pass SQLite's integrity check, and
// the next hook must work.

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	_ "modernc.org/sqlite" // for the integrity check
)

// everyCommitBinary builds cairn with the log checkpointed after every
// commit (sqlite.checkpointAtLink), once per test process: with the usual
// 1 MiB, one hook in a few dozen checkpoints, and few kills would land in
// one. scripts/test builds it once beforehand (CAIRN_BIN_EVERY_COMMIT), so
// that the build is not in the package's time.
func everyCommitBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CAIRN_BIN_EVERY_COMMIT"); p != "" {
		return p
	}
	everyCommit.once.Do(func() {
		dir, err := os.MkdirTemp("", "cairn-bin-")
		if err != nil {
			everyCommit.err = err
			return
		}
		everyCommit.path = filepath.Join(dir, "cairn")
		cmd := exec.Command("go", "build", "-ldflags", "-X github.com/cairn-dev/cairn/internal/store/sqlite.checkpointAtLink=0",
			"-o", everyCommit.path, "./cmd/cairn")
		cmd.Dir = filepath.Join("..", "..", "..") // the module
		if out, err := cmd.CombinedOutput(); err != nil {
			everyCommit.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if everyCommit.err != nil {
		t.Fatal(everyCommit.err)
	}
	return everyCommit.path
}

var everyCommit struct {
	once sync.Once
	path string
	err  error
}

// hookEnded is how a hook process ended.
type hookEnded struct {
	acked  bool // exited 0 and said nothing: it recorded
	killed bool
	took   time.Duration
}

// killHook runs one hook on payload and SIGKILLs it after delay if it is
// still running (never, for a negative delay). A hook that ends otherwise
// than acknowledged or killed fails t: a hook never fails.
func killHook(t *testing.T, bin, dir string, payload []byte, delay time.Duration) hookEnded {
	t.Helper()
	cmd := exec.Command(bin, "hook", "post-tool-use")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=", "CAIRN_DATABASE_URL=")
	cmd.Stdin = bytes.NewReader(payload)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if delay >= 0 {
		timer := time.AfterFunc(delay, func() { _ = cmd.Process.Kill() })
		defer timer.Stop()
	}
	err := cmd.Wait()
	e := hookEnded{took: time.Since(start)}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
		e.killed = true
		return e
	}
	if err != nil || errb.Len() > 0 {
		t.Fatalf("cairn hook post-tool-use (not killed): %v, stderr %q; left %s", err, errb.String(), cairntest.DBState(dir))
	}
	e.acked = true
	return e
}

// failedCommand matches the title of the candidate a failure of round i
// left: "Failed: ... make check-i".
var failedCommand = regexp.MustCompile(`make check-(\d+)$`)

// recordedFailures lists, through `cairn memory search`, the rounds whose
// failed command the store holds, after checking the database's integrity.
func recordedFailures(t *testing.T, bin, dir string) map[int]bool {
	t.Helper()
	db := filepath.Join(dir, ".cairn", "cairn.db")
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	var res string
	err = conn.QueryRow("PRAGMA integrity_check").Scan(&res)
	conn.Close()
	if err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q, %v", res, err)
	}
	got := map[int]bool{}
	for offset := 0; ; offset += 50 {
		cmd := exec.Command(bin, "memory", "search", "--tag", "failed-command", "--json", "--limit", "50", "--offset", strconv.Itoa(offset))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=", "CAIRN_DATABASE_URL=")
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil || errb.Len() > 0 {
			t.Fatalf("cairn memory search: %v %s", err, errb.String())
		}
		var page struct {
			Hits []struct {
				Title string `json:"title"`
			} `json:"hits"`
			Total int `json:"total"`
		}
		if err := json.Unmarshal(out, &page); err != nil {
			t.Fatalf("cairn memory search --json: %v\n%s", err, out)
		}
		for _, h := range page.Hits {
			m := failedCommand.FindStringSubmatch(h.Title)
			if m == nil {
				t.Fatalf("a failure nobody sent: %q", h.Title)
			}
			n, _ := strconv.Atoi(m[1])
			if got[n] {
				t.Fatalf("the failure of round %d is there twice", n)
			}
			got[n] = true
		}
		if len(page.Hits) == 0 || offset+50 >= page.Total {
			return got
		}
	}
}

// TestKillDuringHooks plays a session of post-tool-use hooks, every other
// one a failed command (recorded as a mistake candidate of its own), and
// SIGKILLs each hook at a random instant of its life; every few rounds it
// checks the store: intact, and holding every acknowledged failure and no
// failure never sent. Once with the usual checkpoint threshold and once
// with a checkpoint after every commit.
func TestKillDuringHooks(t *testing.T) {
	t.Parallel()
	seed := cairntest.KillSeed(t)
	for v, c := range []struct {
		name string
		bin  func(testing.TB) string
	}{
		{"usual-checkpoints", cairntest.Binary},
		{"checkpoint-every-commit", everyCommitBinary},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			bin := c.bin(t)
			kill := rand.New(rand.NewPCG(seed, uint64(10+v)))
			dir := cairntest.Project(t)
			ev := newSessionEvents(t, dir)
			start, err := os.ReadFile(filepath.Join("..", "testdata", "hooks", "session-start-startup.json"))
			if err != nil {
				t.Fatal(err)
			}
			hookProc(t, bin, dir, "session-start", bytes.ReplaceAll(start, []byte("{{CWD}}"), []byte(dir)))
			payload := func(i int) []byte {
				if i%2 == 0 {
					return bytes.ReplaceAll(ev.fail, []byte("make migrate-check"), fmt.Appendf(nil, "make check-%d", i))
				}
				return bytes.ReplaceAll(ev.write, []byte("internal/ledger/post_test.go"), []byte(ev.path(i)))
			}
			// How long a hook lives here, unkilled: every eighth round runs
			// to its end and tells, and kills are spread over that and a
			// quarter (the machine's load changes as the tests go).
			acked := map[int]bool{}
			var lives []time.Duration
			unkilled := func(i int) {
				e := killHook(t, bin, dir, payload(i), -1)
				acked[i] = true
				lives = append(lives, e.took)
			}
			life := func() time.Duration {
				recent := slices.Clone(lives[max(len(lives)-5, 0):])
				slices.Sort(recent)
				return recent[len(recent)/2]
			}
			const warm = 3
			for i := range warm {
				unkilled(i)
			}
			const rounds = 120
			var killed, landed int
			check := func(sent int) {
				got := recordedFailures(t, bin, dir)
				for i := range sent {
					if i%2 != 0 {
						continue
					}
					if acked[i] && !got[i] {
						t.Fatalf("LOST the acknowledged failure of round %d (%d rounds, kill seed %d); left %s", i, sent, seed, cairntest.DBState(dir))
					}
					if got[i] && !acked[i] {
						landed++ // a killed hook's write that committed
						acked[i] = true
					}
				}
				for i := range got {
					if i >= sent || i%2 != 0 {
						t.Fatalf("a failure of round %d, never sent (%d rounds)", i, sent)
					}
				}
			}
			for i := warm; i < warm+rounds; i++ {
				if i%8 == 0 {
					unkilled(i)
					continue
				}
				delay := time.Duration(kill.Int64N(int64(life() * 5 / 4)))
				e := killHook(t, bin, dir, payload(i), delay)
				switch {
				case e.acked:
					acked[i] = true
				case e.killed:
					killed++
				}
				if (i-warm)%30 == 29 {
					check(i + 1)
				}
			}
			check(warm + rounds)
			// And the next failure is recorded.
			next := (warm + rounds + 1) &^ 1
			if e := killHook(t, bin, dir, payload(next), -1); !e.acked {
				t.Fatal("the hook after the kills did not record")
			}
			if got := recordedFailures(t, bin, dir); !got[next] {
				t.Fatal("the hook after the kills exited 0 but its failure is not there")
			}
			t.Logf("%d hooks (lasting %v unkilled at the end), %d killed, %d of those had committed; left %s",
				rounds, life().Round(time.Millisecond), killed, landed, cairntest.DBState(dir))
			if killed == 0 {
				t.Error("no hook was killed: the kills came too late")
			}
		})
	}
}
