package commitmsg

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

// The corpus: testdata/corpus/<split>/<case>/ holds before/ (the tree at
// the base commit), after/ (files added or changed on top of it), an
// optional delete.txt (paths removed), and want.txt ("type: a|b" with the
// types a careful person could pick, "breaking: true|false").
//
// The dev split is what the heuristics were written against; the heldout
// split was written after they were frozen and is reported, not tuned on.
// Round 1's held-out set (14 cases, type 9/14, breaking 14/14) was folded
// into dev once measured; the heldout split now is round 2's.

// minTypeAccuracy and minBreakingAccuracy are the bars each split must
// clear, stated before the held-out split was measured.
var (
	minTypeAccuracy     = map[string]float64{"dev": 0.90, "heldout": 0.70}
	minBreakingAccuracy = map[string]float64{"dev": 0.90, "heldout": 0.90}
)

type corpusCase struct {
	name     string
	types    []string
	breaking bool
}

// stage builds a git repository with before/ committed and after/ staged,
// and returns the staged diff and readers of the old and new contents,
// the way `cairn commit-msg` reads them.
func stage(t *testing.T, dir string) Input {
	t.Helper()
	repo := t.TempDir()
	git := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, stderr.String())
		}
		return out
	}
	copyTree := func(from string) {
		if _, err := os.Stat(from); err != nil {
			return
		}
		err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(from, p)
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			dst := filepath.Join(repo, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, b, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	copyTree(filepath.Join(dir, "before"))
	git("add", "-A")
	git("commit", "-q", "--allow-empty", "-m", "base")
	copyTree(filepath.Join(dir, "after"))
	if b, err := os.ReadFile(filepath.Join(dir, "delete.txt")); err == nil {
		for _, p := range strings.Fields(string(b)) {
			if err := os.Remove(filepath.Join(repo, p)); err != nil {
				t.Fatal(err)
			}
		}
	}
	git("add", "-A")
	diff := git("diff", "--cached", "-M")
	return Input{
		Diff: string(diff),
		Old: func(p string) ([]byte, error) {
			out, err := exec.Command("git", "-C", repo, "show", "HEAD:"+p).Output()
			return out, err
		},
	}
}

func readCases(t *testing.T, split string) []corpusCase {
	t.Helper()
	root := filepath.Join("testdata", "corpus", split)
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusCase
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(root, e.Name(), "want.txt"))
		if err != nil {
			t.Fatal(err)
		}
		c := corpusCase{name: e.Name()}
		for _, l := range strings.Split(string(b), "\n") {
			k, v, _ := strings.Cut(l, ":")
			switch strings.TrimSpace(k) {
			case "type":
				c.types = strings.Split(strings.TrimSpace(v), "|")
			case "breaking":
				c.breaking = strings.TrimSpace(v) == "true"
			}
		}
		if len(c.types) == 0 {
			t.Fatalf("%s: want.txt has no type", e.Name())
		}
		out = append(out, c)
	}
	return out
}

func TestCorpus(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, split := range []string{"dev", "heldout"} {
		if _, err := os.Stat(filepath.Join("testdata", "corpus", split)); err != nil {
			continue
		}
		t.Run(split, func(t *testing.T) {
			cases := readCases(t, split)
			typeOK, breakOK := 0, 0
			for _, c := range cases {
				in := stage(t, filepath.Join("testdata", "corpus", split, c.name))
				in.Refs = []string{"cairn#12"}
				s, err := Generate(in)
				if err != nil {
					t.Errorf("%s: %v", c.name, err)
					continue
				}
				gotType := slices.Contains(c.types, s.Type)
				if gotType {
					typeOK++
				}
				if s.Breaking == c.breaking {
					breakOK++
				}
				mark := "ok "
				if !gotType || s.Breaking != c.breaking {
					mark = "BAD"
				}
				t.Logf("%s %-28s want %-16s breaking=%-5v got %s\n    %s", mark, c.name, strings.Join(c.types, "|"), c.breaking,
					strings.SplitN(s.Message, "\n", 2)[0], strings.Join(s.Reasons, "\n    "))
				// What Generate writes passes Lint.
				for _, f := range Lint(s.Message, Options{}) {
					if f.Severity == check.Error {
						t.Errorf("%s: the generated message fails %s: %s\n%s", c.name, f.Rule, f.Message, s.Message)
					}
				}
				if p := Parse(s.Message); p.Type != s.Type || (p.Breaking != "") != s.Breaking {
					t.Errorf("%s: the message does not parse back: %+v\n%s", c.name, p, s.Message)
				}
			}
			ta, ba := float64(typeOK)/float64(len(cases)), float64(breakOK)/float64(len(cases))
			t.Logf("%s: type %d/%d (%.0f%%), breaking %d/%d (%.0f%%)", split, typeOK, len(cases), 100*ta, breakOK, len(cases), 100*ba)
			if ta < minTypeAccuracy[split] || ba < minBreakingAccuracy[split] {
				t.Errorf("%s: accuracy under the bar (type %.2f, bar %.2f; breaking %.2f, bar %.2f)", split, ta, minTypeAccuracy[split], ba, minBreakingAccuracy[split])
			}
		})
	}
}
