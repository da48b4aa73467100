package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
)

// TestInitRefusesLinksInTheStoresPlace: a committed symlink (dangling or
// not) named .cairn or .cairn/cairn.db would put the store outside the
// project; Init refuses it and creates nothing where it points.
func TestInitRefusesLinksInTheStoresPlace(t *testing.T) {
	for _, c := range []struct {
		name string
		link func(root, outside string) error
	}{
		{".cairn to a directory", func(root, outside string) error { return os.Symlink(outside, filepath.Join(root, DirName)) }},
		{".cairn dangling", func(root, outside string) error {
			return os.Symlink(filepath.Join(outside, "nowhere"), filepath.Join(root, DirName))
		}},
		{"cairn.db dangling", func(root, outside string) error {
			if err := os.Mkdir(filepath.Join(root, DirName), 0o755); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "stolen.db"), DBPath(root))
		}},
		{"cairn.db-wal to a file", func(root, outside string) error {
			if err := os.Mkdir(filepath.Join(root, DirName), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(outside, "x"), nil, 0o644); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "x"), DBPath(root)+"-wal")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			if err := c.link(root, outside); err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadDir(outside)
			_, err := Init(root)
			var pe *problem.Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "symbolic link") || strings.Contains(err.Error(), outside) {
				t.Fatalf("Init: %v", err)
			}
			if after, _ := os.ReadDir(outside); len(after) != len(before) {
				t.Fatalf("Init wrote where the link points: %d entries, was %d", len(after), len(before))
			}
		})
	}
	root := t.TempDir()
	if _, err := Init(root); err != nil {
		t.Fatalf("a plain project: %v", err)
	}
}

// TestNoRootNamesNoPath: the refusal is shown to every client of a server
// (issue 34, attack 18); the directory searched is its cause, for logs and
// the CLI.
func TestNoRootNamesNoPath(t *testing.T) {
	t.Setenv(EnvRoot, "")
	dir := t.TempDir()
	_, err := FindRoot(dir)
	var pe *problem.Error
	if !errors.As(err, &pe) || pe.Kind != problem.NoProject || strings.Contains(err.Error(), dir) {
		t.Fatalf("FindRoot: %v", err)
	}
	if pe.Err == nil || !strings.Contains(pe.Err.Error(), dir) {
		t.Fatalf("the cause does not name the directory: %v", pe.Err)
	}
}
