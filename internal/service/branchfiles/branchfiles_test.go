package branchfiles

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

func TestFileName(t *testing.T) {
	for branch, want := range map[string]string{
		"main":              "main.json",
		"feature/login":     "feature%2Flogin.json",
		"release-1.2_rc":    "release-1.2_rc.json",
		"..":                "%2E..json",
		".hidden":           "%2Ehidden.json",
		"a/../../etc":       "a%2F..%2F..%2Fetc.json",
		`win\path:x*?"<>|`:  "win%5Cpath%3Ax%2A%3F%22%3C%3E%7C.json",
		"con":               "%63on.json",
		"NUL.txt":           "%4EUL.txt.json",
		"café":              "caf%C3%A9.json",
		"feature%2Flogin":   "feature%252Flogin.json",
		"space in name\x00": "space%20in%20name%00.json",
	} {
		if got := FileName(branch); got != want {
			t.Errorf("FileName(%q) = %q, want %q", branch, got, want)
		}
	}
	// Long names stay under the file system's limit and apart.
	a, b := FileName(strings.Repeat("x", 300)+"a"), FileName(strings.Repeat("x", 300)+"b")
	if a == b || len(a) > 255 || len(b) > 255 {
		t.Errorf("long names: %q %q", a, b)
	}
	long := FileName(strings.Repeat("/", 150))
	if len(long) > 255 || strings.Contains(strings.TrimSuffix(long, ".json"), "/") {
		t.Errorf("long escaped name: %q", long)
	}
	// No name leaves the directory or hides.
	for _, br := range []string{"/", "../x", "./", "a/b/c", ".", "\\", "~"} {
		n := FileName(br)
		if strings.ContainsAny(n, `/\`) || strings.HasPrefix(n, ".") || filepath.Base(n) != n {
			t.Errorf("FileName(%q) = %q", br, n)
		}
	}
}

func ctxOf(branch string) memory.BranchContext {
	return memory.BranchContext{Branch: branch, Feature: "login", Notes: "PKCE", FilesModified: []string{"auth/login.go"},
		UpdatedAt: time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)}
}

func TestWrite(t *testing.T) {
	root := t.TempDir()
	w := &Writer{Root: root}
	if err := w.Write(ctxOf("feature/login")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, ".cairn", "branches", "feature%2Flogin.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Note string `json:"_note"`
		memory.BranchContext
	}
	if err := json.Unmarshal(b, &got); err != nil || got.Branch != "feature/login" || got.Feature != "login" || !strings.Contains(got.Note, "never read back") {
		t.Fatalf("file: %v\n%s", err, b)
	}
	// The same content again: the file is not rewritten.
	before, _ := os.Stat(p)
	if err := w.Write(ctxOf("feature/login")); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(p); !os.SameFile(before, after) {
		t.Errorf("an unchanged context replaced its file")
	}
	// A change: replaced whole, no temporary file left.
	c := ctxOf("feature/login")
	c.Phase = "review"
	if err := w.Write(c); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !strings.Contains(string(b), `"phase": "review"`) {
		t.Errorf("not rewritten:\n%s", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("files left in the directory: %v", entries)
	}
}

// TestWriteOnlyInsideTheProject: a committed link where the files go is
// refused, and nothing is written where it points.
func TestWriteOnlyInsideTheProject(t *testing.T) {
	t.Run("branches is a link", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(root, ".cairn"), 0o755)
		if err := os.Symlink(outside, filepath.Join(root, ".cairn", "branches")); err != nil {
			t.Fatal(err)
		}
		if err := (&Writer{Root: root}).Write(ctxOf("main")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("Write: %v", err)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Errorf("written through the link: %v", entries)
		}
	})
	t.Run(".cairn is a link", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		if err := os.Symlink(outside, filepath.Join(root, ".cairn")); err != nil {
			t.Fatal(err)
		}
		if err := (&Writer{Root: root}).Write(ctxOf("main")); err == nil {
			t.Fatal("wrote under a linked .cairn")
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Errorf("written through the link: %v", entries)
		}
	})
	t.Run("the file is a link", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		victim := filepath.Join(outside, "victim")
		os.WriteFile(victim, []byte("keep me"), 0o644)
		os.MkdirAll(filepath.Join(root, ".cairn", "branches"), 0o755)
		if err := os.Symlink(victim, filepath.Join(root, ".cairn", "branches", "main.json")); err != nil {
			t.Fatal(err)
		}
		if err := (&Writer{Root: root}).Write(ctxOf("main")); err == nil {
			t.Fatal("wrote over a link")
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep me" {
			t.Errorf("the link's target was written: %q", b)
		}
	})
}

// TestStoreWritesCommittedChanges: through the wrapped store, a committed
// change of a branch context is written, a rolled-back one is not, and the
// store is never read from the files.
func TestStoreWritesCommittedChanges(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := NewStore(db, &Writer{Root: root})
	dir := filepath.Join(root, ".cairn", "branches")

	boom := errors.New("boom")
	if err := st.Update(ctx, func(tx store.Tx) error {
		if err := tx.SetBranchContext(ctx, ctxOf("rolled-back")); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "rolled-back.json")); err == nil {
		t.Errorf("a rolled-back change was written")
	}

	if err := st.Update(ctx, func(tx store.Tx) error {
		a, b := ctxOf("main"), ctxOf("feature/x")
		for _, c := range []memory.BranchContext{a, b} {
			if err := tx.SetBranchContext(ctx, c); err != nil {
				return err
			}
		}
		a.Notes = "the last write wins"
		return tx.SetBranchContext(ctx, a)
	}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "main.json")); err != nil || !strings.Contains(string(b), "the last write wins") {
		t.Errorf("main.json: %v\n%s", err, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "feature%2Fx.json")); err != nil {
		t.Error(err)
	}
	// An edit of the file is not read back: the store keeps its own.
	os.WriteFile(filepath.Join(dir, "main.json"), []byte(`{"branch":"main","notes":"edited by hand"}`), 0o644)
	var got memory.BranchContext
	st.View(ctx, func(tx store.Tx) error { got, _, err = store.BranchContext(ctx, tx, "main"); return err })
	if got.Notes != "the last write wins" {
		t.Errorf("the store read the file back: %q", got.Notes)
	}
	// A failed write never fails the change.
	os.RemoveAll(dir)
	os.WriteFile(dir, []byte("not a directory"), 0o644)
	if err := st.Update(ctx, func(tx store.Tx) error { return tx.SetBranchContext(ctx, ctxOf("main")) }); err != nil {
		t.Errorf("a failed file write failed the change: %v", err)
	}
}
