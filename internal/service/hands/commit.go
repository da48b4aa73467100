package hands

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/commitmsg"
	"github.com/cairn-dev/cairn/internal/problem"
)

// CommitRequest asks for a Conventional Commits message, or for a check
// of one. With Message set the message is checked (as commitlint checks
// it); otherwise one is written from the diff: Diff when given, else the
// Range, else the staged changes (git diff --cached).
type CommitRequest struct {
	Message string
	Diff    string
	// Range is "BASE..HEAD" (the commits after BASE), "BASE...HEAD" (from
	// their merge base), or one commit (against its parent).
	Range string
	// Refs are the references of the message's Refs: footer (Cairn task
	// ids completed in the session, issues).
	Refs []string
	// HeaderMax caps the header when checking (0: 72).
	HeaderMax int
}

// CommitResult is the message written, or the findings of the one checked.
type CommitResult struct {
	// Source says what the message was written from: "staged changes",
	// "range main..HEAD", "the diff given".
	Source     string
	Suggestion *commitmsg.Suggestion
	// Checked is the message checked (Message); Findings its problems.
	Checked  string
	Findings []check.Finding
	// Notes say what could not be done (the exported API not compared).
	Notes []string
}

// Valid reports whether a checked message has no error.
func (r CommitResult) Valid() bool {
	return !slices.ContainsFunc(r.Findings, func(f check.Finding) bool { return f.Severity == check.Error })
}

// maxMessage caps a message checked.
const maxMessage = 64 << 10

// CommitMessage writes or checks a commit message.
func (s *Service) CommitMessage(ctx context.Context, req CommitRequest) (CommitResult, error) {
	for _, r := range req.Refs {
		if strings.TrimSpace(r) == "" || strings.ContainsAny(r, "\r\n,") || len(r) > 100 {
			return CommitResult{}, &problem.FieldError{Field: "refs", Problem: problem.Quote(r) + " is not a reference",
				Fix: "give task ids or issue references, one per item: T12, #31"}
		}
	}
	if req.Message != "" {
		if req.Diff != "" || req.Range != "" {
			return CommitResult{}, &problem.FieldError{Field: "message", Problem: "was given with diff or range",
				Fix: "pass message alone to check it, or diff/range alone to write one"}
		}
		if len(req.Message) > maxMessage {
			return CommitResult{}, &problem.FieldError{Field: "message", Problem: "is over 64 KiB", Fix: "check the message itself, not a log"}
		}
		return CommitResult{Checked: req.Message, Findings: commitmsg.Lint(req.Message, commitmsg.Options{HeaderMax: req.HeaderMax})}, nil
	}
	if req.Diff != "" && req.Range != "" {
		return CommitResult{}, &problem.FieldError{Field: "diff", Problem: "and range were both given", Fix: "pass one of them"}
	}
	in := commitmsg.Input{Diff: req.Diff, Refs: req.Refs}
	var res CommitResult
	switch {
	case req.Diff != "":
		res.Source = "the diff given"
		if s.root == "" {
			res.Notes = append(res.Notes, "exported API not compared: only the diff was given, and there is no project to read the files from")
			break
		}
		in.Old, in.New = s.diffSides(req.Diff)
		res.Notes = append(res.Notes, "exported API compared on the work tree's files, with the diff reversed for the old side (a file the diff does not fit is not compared)")
	case s.root == "":
		return CommitResult{}, &problem.FieldError{Field: "diff", Problem: "is needed: no project root to read staged changes from",
			Fix: "start Cairn inside the project, or pass the unified diff"}
	default:
		old, new, diffArgs, src, err := s.commitSource(ctx, req.Range)
		if err != nil {
			return CommitResult{}, err
		}
		out, err := s.git(ctx, diffArgs...)
		if err != nil {
			if errors.Is(err, errNoGit) {
				return CommitResult{}, noGit(cmpField(req.Range))
			}
			return CommitResult{}, err
		}
		in.Diff, in.Old, in.New, res.Source = string(out), old, new, src
	}
	sug, err := commitmsg.Generate(in)
	if err != nil {
		if errors.Is(err, commitmsg.ErrEmptyDiff) {
			return CommitResult{}, &problem.FieldError{Field: cmpField(req.Range), Problem: "has no changes (" + res.Source + ")",
				Fix: "stage changes first (git add), or name a range with commits: origin/main..HEAD"}
		}
		return CommitResult{}, &problem.FieldError{Field: "diff", Problem: err.Error(), Fix: "pass a unified diff as git diff prints it"}
	}
	res.Suggestion = sug
	return res, nil
}

// diffSides reads the files of an inline diff: after it, as the work tree
// has them; before it, the work tree's file with the diff reversed. A file
// the diff does not fit gives an error, and is not compared.
func (s *Service) diffSides(diff string) (old, new func(string) ([]byte, error)) {
	files, _ := commitmsg.ParseDiff(diff)
	byPath := map[string]*commitmsg.FileDiff{}
	for _, f := range files {
		byPath[f.Path()] = f
		if f.OldPath != "" {
			byPath[f.OldPath] = f
		}
	}
	new = func(p string) ([]byte, error) {
		if !filepath.IsLocal(filepath.FromSlash(p)) {
			return nil, fs.ErrNotExist
		}
		abs := filepath.Join(s.root, filepath.FromSlash(p))
		fi, err := os.Lstat(abs)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() || fi.Size() > check.DefaultMaxFileSize {
			return nil, fs.ErrInvalid
		}
		return os.ReadFile(abs)
	}
	old = func(p string) ([]byte, error) {
		f := byPath[p]
		if f == nil || f.Status == commitmsg.Added {
			return nil, fs.ErrNotExist
		}
		var cur []byte
		if f.Status != commitmsg.Deleted {
			var err error
			if cur, err = new(f.Path()); err != nil {
				return nil, err
			}
		}
		return reversed(f).Apply(cur)
	}
	return old, new
}

// reversed is f the other way round: its hunks undo it.
func reversed(f *commitmsg.FileDiff) *commitmsg.FileDiff {
	r := &commitmsg.FileDiff{OldPath: f.NewPath, NewPath: f.OldPath, Binary: f.Binary, Added: f.Removed, Removed: f.Added}
	for _, h := range f.Hunks {
		rh := commitmsg.Hunk{OldStart: h.NewStart, OldLines: h.NewLines, NewStart: h.OldStart, NewLines: h.OldLines, Section: h.Section}
		for _, l := range h.Lines {
			switch {
			case l == "":
				rh.Lines = append(rh.Lines, l)
			case l[0] == '+':
				rh.Lines = append(rh.Lines, "-"+l[1:])
			case l[0] == '-':
				rh.Lines = append(rh.Lines, "+"+l[1:])
			default:
				rh.Lines = append(rh.Lines, l)
			}
		}
		r.Hunks = append(r.Hunks, rh)
	}
	return r
}

func cmpField(rng string) string {
	if rng != "" {
		return "range"
	}
	return "diff"
}

// commitSource is how the diff and the files before and after it are read
// from git: the staged changes (rng empty) or a range.
func (s *Service) commitSource(ctx context.Context, rng string) (old, new func(string) ([]byte, error), diff []string, src string, err error) {
	show := func(rev string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) { return s.git(ctx, "show", rev+":"+p) }
	}
	base := []string{"diff", "--no-color", "--no-ext-diff", "-M"}
	if rng == "" {
		// A first commit has no HEAD: every file is new.
		if _, err := s.git(ctx, "rev-parse", "--verify", "-q", "HEAD"); err != nil {
			if errors.Is(err, errNoGit) {
				return nil, nil, nil, "", noGit("diff")
			}
			old = func(string) ([]byte, error) { return nil, errors.New("no HEAD") }
		} else {
			old = show("HEAD")
		}
		return old, show(""), append(base, "--cached"), "staged changes", nil
	}
	a, b, three := strings.Cut(rng, "...")
	if !three {
		a, b, _ = strings.Cut(rng, "..")
	}
	if b == "" && !strings.Contains(rng, "..") {
		// One commit: against its first parent.
		if err := checkRev("range", a); err != nil {
			return nil, nil, nil, "", err
		}
		return show(a + "^"), show(a), append(base, a+"^", a), "commit " + a, nil
	}
	if a == "" || b == "" {
		return nil, nil, nil, "", &problem.FieldError{Field: "range", Problem: problem.Quote(rng) + " lacks a side", Fix: "write BASE..HEAD, BASE...HEAD or one commit"}
	}
	if err := checkRev("range", a); err != nil {
		return nil, nil, nil, "", err
	}
	if err := checkRev("range", b); err != nil {
		return nil, nil, nil, "", err
	}
	if three {
		mb, err := s.mergeBase(ctx, "range", a, b)
		if err != nil {
			return nil, nil, nil, "", err
		}
		a = mb
	}
	return show(a), show(b), append(base, a, b), "range " + rng, nil
}
