// Package scaffold writes the knowledge folders the context tools read
// (Cairn's section of AGENTS.md, rules, a knowledge base, skills,
// workflows, agents, templates) with a little starter content, at one of
// three levels. It never replaces or edits a file that is there (AGENTS.md
// only gains Cairn's section when it has none), writes only inside the
// project, and refuses a path that goes through a symbolic link.
package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/setup"
)

// Levels, smallest first.
const (
	Minimal  = "minimal"
	Standard = "standard"
	Full     = "full"
)

// Levels are the levels in order.
var Levels = []string{Minimal, Standard, Full}

// Service scaffolds the project at its root.
type Service struct {
	root  string
	paths projectinfo.Paths
}

// New returns the scaffold of the project at root, writing the knowledge
// folders where paths put them (the [knowledge] settings).
func New(root string, paths projectinfo.Paths) *Service {
	return &Service{root: root, paths: paths}
}

// Request is a scaffold: its level (default Standard) and whether to write
// or only say what it would.
type Request struct {
	Level  string
	DryRun bool
}

// File is one file written (or that would be, on a dry run).
type File struct {
	Path string
	What string
}

// Skipped is a file left alone, and why.
type Skipped struct {
	Path string
	Why  string
}

// Result is what a scaffold wrote and left alone.
type Result struct {
	Level   string
	DryRun  bool
	Written []File
	Skipped []Skipped
}

// starter is one file of a level.
type starter struct {
	level string
	path  string // relative to the root, slash-separated
	text  string
	what  string
}

func (s *Service) starters() []starter {
	p := s.paths
	return []starter{
		{Minimal, path.Join(p.Knowledge, "working-with-cairn.md"), knowledgeEntry, "a knowledge entry (query_tkb)"},
		{Standard, ".claude/rules/cairn.md", rule, "a rule the instruction digest reads"},
		{Standard, path.Join(p.Skills, "plan-with-cairn", "SKILL.md"), skill, "a skill (get_agent, classify_task)"},
		{Standard, path.Join(p.Workflows, "feature.md"), featureWorkflow, "a workflow (classify_task)"},
		{Full, path.Join(p.Workflows, "bugfix.md"), bugfixWorkflow, "a workflow (classify_task)"},
		{Full, path.Join(p.Agents, "reviewer.md"), reviewerAgent, "an agent (get_agent, get_competency_matrix)"},
		{Full, path.Join(p.Templates, "decision-record.md"), decisionTemplate, "a template (classify_task)"},
		{Full, path.Join(p.Knowledge, "testing.md"), testingEntry, "a knowledge entry (query_tkb)"},
	}
}

// Scaffold writes the level's files that are absent.
func (s *Service) Scaffold(req Request) (Result, error) {
	level := strings.ToLower(strings.TrimSpace(req.Level))
	if level == "" {
		level = Standard
	}
	rank := slices.Index(Levels, level)
	if rank < 0 {
		return Result{}, &problem.FieldError{Field: "level", Problem: "is " + problem.Quote(req.Level), Fix: "use minimal, standard or full"}
	}
	if s.root == "" {
		return Result{}, problem.New(problem.NoProject, "no project root to scaffold", problem.NoAction)
	}
	res := Result{Level: level, DryRun: req.DryRun, Written: []File{}, Skipped: []Skipped{}}

	// Cairn's section of AGENTS.md, added only where it is absent.
	c, err := setup.AgentsSection(s.root)
	switch {
	case err != nil:
		res.Skipped = append(res.Skipped, Skipped{"AGENTS.md", err.Error()})
	case c.Before != nil && strings.Contains(string(c.Before), projectinfo.CairnBegin):
		res.Skipped = append(res.Skipped, Skipped{"AGENTS.md", "has Cairn's section already"})
	default:
		if why := s.refuse("AGENTS.md", true); why != "" {
			res.Skipped = append(res.Skipped, Skipped{"AGENTS.md", why})
			break
		}
		what := "created with Cairn's section"
		if c.Before != nil {
			what = "Cairn's section added at the end; the rest left as it was"
		}
		if !req.DryRun {
			if err := setup.Apply(s.root, []setup.Change{c}); err != nil {
				return res, err
			}
		}
		res.Written = append(res.Written, File{"AGENTS.md", what})
	}

	for _, st := range s.starters() {
		if slices.Index(Levels, st.level) > rank {
			continue
		}
		if why := s.refuse(st.path, false); why != "" {
			res.Skipped = append(res.Skipped, Skipped{st.path, why})
			continue
		}
		if !req.DryRun {
			if err := s.create(st.path, st.text); err != nil {
				if errors.Is(err, fs.ErrExist) { // written since refuse looked
					res.Skipped = append(res.Skipped, Skipped{st.path, "exists: left as it is"})
					continue
				}
				return res, err
			}
		}
		res.Written = append(res.Written, File{st.path, st.what})
	}
	return res, nil
}

// refuse says why rel may not be written ("" if it may): outside the
// root, through a symbolic link, or (unless existing is allowed) there
// already.
func (s *Service) refuse(rel string, existing bool) string {
	clean := path.Clean(rel)
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
		return "outside the project: refused"
	}
	parts := strings.Split(clean, "/")
	for i := range parts {
		p := filepath.Join(s.root, filepath.FromSlash(strings.Join(parts[:i+1], "/")))
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		if err != nil {
			return err.Error()
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "a symbolic link on the way (" + strings.Join(parts[:i+1], "/") + "): refused"
		}
		if i < len(parts)-1 && !fi.IsDir() {
			return strings.Join(parts[:i+1], "/") + " is a file, not a folder"
		}
		if i == len(parts)-1 && !existing {
			return "exists: left as it is"
		}
	}
	return ""
}

// create writes a new file, never one that is there.
func (s *Service) create(rel, text string) error {
	p := filepath.Join(s.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", path.Dir(rel), err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}
