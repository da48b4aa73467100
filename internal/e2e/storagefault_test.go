package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// readOnly makes the database file read-only for the server: chmod for an
// ordinary user; for root, whom permissions do not stop, the immutable
// attribute (a read-only file as the kernel enforces it).
func readOnly(t *testing.T, db string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(db, 0o444); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out, err := exec.Command("chattr", "+i", db).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s immutable as root (%v: %s)", db, err, out)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", db).Run() })
}

// TestStorageFaults: a read-only, corrupt or empty database reaches the
// agent as -32006 with the cause and what to do, never as "internal
// error ... retry once"; nothing is silently made anew.
func TestStorageFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		harm  func(t *testing.T, db string)
		wants []string
	}{
		{"read-only", readOnly, []string{"read-only", "writable"}},
		{"corrupt", func(t *testing.T, db string) {
			f, err := os.OpenFile(db, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt(bytes.Repeat([]byte{0xA5}, 4096), 0)
			f.Close()
		}, []string{"corrupt", "restore the file from a backup"}},
		{"empty", func(t *testing.T, db string) {
			if err := os.Truncate(db, 0); err != nil {
				t.Fatal(err)
			}
		}, []string{"empty file (0 bytes)", "cairn init"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := cairntest.Project(t)
			s := cairntest.Start(t, cairntest.Options{Dir: dir})
			id := s.OK("create_task", map[string]any{"title": "before the fault"}).Str("id")
			s.Close()
			db := filepath.Join(dir, ".cairn", "cairn.db")
			for _, x := range []string{"-wal", "-shm"} {
				if fi, err := os.Stat(db + x); err == nil && fi.Size() > 0 && x == "-wal" {
					t.Fatalf("the WAL was not checkpointed on close (%d bytes)", fi.Size())
				}
			}
			tc.harm(t, db)

			if tc.name == "empty" {
				// Refused at start, over stdio and over HTTP, rather than
				// made a new store; `cairn init` is the way to start afresh.
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				if s, err := cairntest.StartErr(ctx, t, cairntest.Options{Dir: dir}); err == nil {
					s.Close()
					t.Fatal("cairn serve started on an empty database")
				} else {
					for _, w := range tc.wants {
						if !strings.Contains(err.Error(), w) {
							t.Errorf("cairn serve on an empty database: %v does not say %q", err, w)
						}
					}
				}
				h := exec.Command(cairntest.Binary(t), "serve", "--http", "127.0.0.1:0")
				h.Dir = dir
				if out, err := h.CombinedOutput(); err == nil || !strings.Contains(string(out), "empty file (0 bytes)") {
					t.Fatalf("cairn serve --http on an empty database: %v\n%s", err, out)
				}
				if fi, _ := os.Stat(db); fi.Size() != 0 {
					t.Fatalf("the empty database was written to: %d bytes", fi.Size())
				}
				init := exec.Command(cairntest.Binary(t), "init")
				init.Dir = dir
				if out, err := init.CombinedOutput(); err != nil {
					t.Fatalf("cairn init on an empty database: %v\n%s", err, out)
				}
				s = cairntest.Start(t, cairntest.Options{Dir: dir})
				if got := s.OK("create_task", map[string]any{"title": "anew"}).Str("id"); got == "" {
					t.Fatal("no task after cairn init")
				}
				_ = id
				return
			}

			s = cairntest.Start(t, cairntest.Options{Dir: dir})
			r := s.Err("create_task", map[string]any{"title": "after the fault"})
			if code, _ := r.Structured["code"].(float64); code != -32006 || strings.Contains(r.Text, "internal error") {
				t.Fatalf("create_task on a %s database: %v %s", tc.name, r.Structured["code"], r.Text)
			}
			t.Logf("%s: %s", tc.name, r.Text)
			for _, w := range tc.wants {
				if !strings.Contains(r.Text, w) {
					t.Errorf("create_task on a %s database: %q does not say %q", tc.name, r.Text, w)
				}
			}
			if strings.Contains(r.Text, dir) {
				t.Errorf("the answer names the server's path: %s", r.Text)
			}
			s.Close()
		})
	}
}
