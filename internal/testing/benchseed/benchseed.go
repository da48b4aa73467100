// Package benchseed prepares large Cairn projects for benchmarks: a task tree
// of a known shape written straight through the SQLite store in one
// transaction, with the default agent's focus on a task in the middle of it.
// It is test and benchmark support; the product never imports it.
package benchseed

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

// Shape is a tree of Roots root tasks, each with Children children, each of
// which has Grandchildren children: Roots*(1+Children*(1+Grandchildren))
// tasks in all.
type Shape struct {
	Roots, Children, Grandchildren int
	BodyLen                        int // bytes of body on every task
}

// Default is 10,000 tasks: 100 roots with 99 descendants each (9 children,
// each with 10 grandchildren), three levels deep, 120-byte bodies.
var Default = Shape{Roots: 100, Children: 9, Grandchildren: 10, BodyLen: 120}

// Tasks is how many tasks the shape holds.
func (s Shape) Tasks() int { return s.Roots * (1 + s.Children*(1+s.Grandchildren)) }

// Agent is the agent whose focus Seed sets: `cairn serve --agent default`'s,
// and an in-process server's when no client name is used.
const Agent = "default"

// Result says what Seed wrote.
type Result struct {
	Tasks int
	Focus task.ID // the default agent's current task
}

// openNew makes dir a Cairn project and opens its new, empty store.
func openNew(ctx context.Context, dir string) (*sqlite.Store, error) {
	if _, err := project.Init(dir); err != nil {
		return nil, err
	}
	path := project.DBPath(dir)
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("benchseed: %s already exists", path)
	}
	return sqlite.Open(ctx, path, sqlite.Options{})
}

// Seed makes dir a Cairn project (creating .cairn/) whose database holds the
// tree of shape s and returns what it wrote. The default agent's focus is on
// the middle grandchild of the middle child of the middle root, so the current
// task has a two-level breadcrumb and siblings to its left. dir must not hold
// a database yet.
func Seed(ctx context.Context, dir string, s Shape) (Result, error) {
	if s.Roots < 1 || s.Children < 1 || s.Grandchildren < 1 {
		return Result{}, fmt.Errorf("benchseed: every level needs at least one task: %+v", s)
	}
	st, err := openNew(ctx, dir)
	if err != nil {
		return Result{}, err
	}
	body := strings.Repeat("Notes: what was tried, what worked, what is left. ", s.BodyLen/50+1)[:s.BodyLen]
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var res Result
	err = st.Update(ctx, func(tx store.Tx) error {
		n := 0
		add := func(parent task.ID, title string) (task.ID, error) {
			at := base.Add(time.Duration(n) * time.Second)
			n++
			t, err := tx.CreateTask(ctx, task.New(title, body, at),
				store.Placement{Parent: parent})
			return t.ID, err
		}
		for r := 1; r <= s.Roots; r++ {
			root, err := add(0, fmt.Sprintf("Milestone %d: ship the next slice", r))
			if err != nil {
				return err
			}
			for c := 1; c <= s.Children; c++ {
				child, err := add(root, fmt.Sprintf("Step %d.%d: design and build", r, c))
				if err != nil {
					return err
				}
				for g := 1; g <= s.Grandchildren; g++ {
					id, err := add(child, fmt.Sprintf("Task %d.%d.%d: implement and test", r, c, g))
					if err != nil {
						return err
					}
					if r == (s.Roots+1)/2 && c == (s.Children+1)/2 && g == (s.Grandchildren+1)/2 {
						res.Focus = id
					}
				}
			}
		}
		res.Tasks = n
		return tx.SetFocus(ctx, Agent, res.Focus, base.Add(time.Duration(n)*time.Second))
	})
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Result{}, fmt.Errorf("benchseed: %w", err)
	}
	return res, nil
}

// Clone copies the project at src (its .cairn directory: the database and its
// WAL, if any) into dst, making dst a project with the same tasks.
func Clone(src, dst string) error {
	from := filepath.Join(src, project.DirName)
	to := filepath.Join(dst, project.DirName)
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasSuffix(e.Name(), "-shm") {
			continue
		}
		if err := copyFile(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// Cached returns a seeded project of shape s in a cache directory under the
// system temp directory, seeding it on first use. Callers must not write to
// it: Clone it first. A cached project is brought up to the current schema on
// each call. The project is built aside and renamed into place, so
// concurrent callers never see half of one.
func Cached(ctx context.Context, s Shape) (string, error) {
	name := fmt.Sprintf("cairn-benchseed-v1-%d-%d-%d-%d", s.Roots, s.Children, s.Grandchildren, s.BodyLen)
	return cached(ctx, name, func(dir string) error {
		_, err := Seed(ctx, dir, s)
		return err
	})
}

// cached is Cached for any seed function, in the directory name under the
// system temp directory.
func cached(ctx context.Context, name string, seed func(dir string) error) (string, error) {
	// The schema is part of the name: work trees on other schemas share
	// the temp directory, and a store cannot be migrated backwards.
	dir := filepath.Join(os.TempDir(), name+"-"+sqlite.SchemaID())
	if _, err := os.Stat(project.DBPath(dir)); err == nil {
		// Opening the store brings a project cached by an older cairn up to
		// the current schema, so clones of it open without migrating.
		st, err := sqlite.Open(ctx, project.DBPath(dir), sqlite.Options{})
		if err != nil {
			return "", err
		}
		return dir, st.Close()
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "cairn-benchseed-tmp-")
	if err != nil {
		return "", err
	}
	if err := seed(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(project.DBPath(dir)); serr == nil {
			return dir, nil // another process won the race
		}
		return "", err
	}
	return dir, nil
}
