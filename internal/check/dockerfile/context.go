package dockerfile

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"

	"github.com/cairn-dev/cairn/internal/check"
)

// This file is what only a look at the project can tell: whether the
// files a Dockerfile copies are in its build context, and whether its
// .dockerignore excludes them (BuildKit's CopyIgnoredFile, which docker
// build --check reports with the context at hand).

// maxSources bounds the COPY and ADD sources looked for in one file (a
// pattern is matched against every file of the context).
const maxSources = 500

// buildContext is a candidate build context: a directory of the project.
type buildContext struct {
	dir      string   // slash path relative to the root, "" for the root
	files    []string // its files, relative to the root, sorted
	patterns int      // wildcard sources matched so far
}

// maxPatterns bounds the wildcard sources matched in one context.
const maxPatterns = 50

func (b *buildContext) label() string {
	if b.dir == "" {
		return "the project root"
	}
	return b.dir + "/"
}

// rel is a source's path in the project.
func (b *buildContext) rel(p string) string {
	p = strings.Replace(p, "/./", "/", 1) // COPY --parents' pivot
	p = path.Clean("/" + filepath.ToSlash(p))[1:]
	return path.Join(b.dir, p)
}

// exists reports whether a source (a path or a pattern relative to the
// context) names something in it.
func (b *buildContext) exists(src check.Source, p string) bool {
	full := b.rel(p)
	if full == b.dir {
		return true
	}
	if !hasWildcard(full) {
		if src.Exists(full) {
			return true
		}
		i := sort.SearchStrings(b.files, full+"/")
		return i < len(b.files) && strings.HasPrefix(b.files[i], full+"/")
	}
	if b.patterns++; b.patterns > maxPatterns {
		return true // not judged: each pattern is matched against every file
	}
	for _, f := range b.files {
		for q := f; q != b.dir && q != "." && q != ""; q = path.Dir(q) {
			if ok, _ := path.Match(full, q); ok {
				return true
			}
		}
	}
	return false
}

func hasWildcard(p string) bool { return strings.ContainsAny(p, "*?[") }

// checkContext looks for each COPY and ADD source in the build context:
// the context param, else the Dockerfile's directory or the nearest one
// above it where the most sources are. It returns a note when the context
// was guessed away from the Dockerfile's directory.
func (f *file) checkContext(src check.Source, contextDir string) string {
	var srcs []*copySource
	for i := range f.copies {
		if f.copies[i].path != "" && len(srcs) < maxSources {
			srcs = append(srcs, &f.copies[i])
		}
	}
	if len(srcs) == 0 {
		return ""
	}
	var dirs []string
	if contextDir != "" {
		dirs = []string{contextDir}
	} else {
		for d := path.Dir(f.path); ; d = path.Dir(d) {
			if d == "." || d == "/" {
				dirs = append(dirs, "")
				break
			}
			dirs = append(dirs, d)
		}
	}
	var best *buildContext
	bestFound := -1
	for _, d := range dirs {
		files, err := src.Files(d)
		if err != nil {
			continue
		}
		ctx := &buildContext{dir: d, files: files}
		n := 0
		for _, s := range srcs {
			if ctx.exists(src, s.path) {
				n++
			}
		}
		if n > bestFound {
			best, bestFound = ctx, n
		}
		if n == len(srcs) {
			break
		}
	}
	if best == nil {
		return ""
	}
	ignore := f.dockerignore(src, best)
	git := gitignoreMatcher(src, best.dir)
	for _, s := range srcs {
		if ignore != nil && f.ignored(ignore, s) {
			continue
		}
		if best.exists(src, s.path) {
			continue
		}
		full := best.rel(s.path)
		parts := strings.Split(full, "/")
		if git.Match(parts, false) || git.Match(parts, true) {
			continue // built before docker build, most likely
		}
		line, col := f.word(s.c, s.raw)
		f.add(RuleCopySourceMissing, line, col,
			fmt.Sprintf("%s source %s is not in the build context (%s).", strings.ToUpper(s.c.c.Name()), s.raw, best.label()),
			"Fix the path, or create the file; if the build runs from another directory, give it as the context param.")
	}
	if contextDir == "" && best.dir != path.Dir(f.path) && !(best.dir == "" && path.Dir(f.path) == ".") {
		return fmt.Sprintf("%s: build context taken as %s, where its COPY sources are", f.path, best.label())
	}
	return ""
}

// dockerignore reads the .dockerignore BuildKit would use: <Dockerfile>.dockerignore
// beside the Dockerfile, else the context's .dockerignore. nil when there is none,
// or when it has exclusions (!pattern), which BuildKit's check does not judge.
func (f *file) dockerignore(src check.Source, ctx *buildContext) *patternmatcher.PatternMatcher {
	var b []byte
	for _, p := range []string{f.path + ".dockerignore", path.Join(ctx.dir, ".dockerignore")} {
		if src.Exists(p) {
			if data, err := src.ReadFile(p); err == nil {
				b = data
				break
			}
		}
	}
	if b == nil {
		return nil
	}
	patterns, err := ignorefile.ReadAll(bytes.NewReader(b))
	if err != nil || len(patterns) == 0 {
		return nil
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil || pm.Exclusions() {
		return nil
	}
	return pm
}

// ignored is BuildKit's CopyIgnoredFile for one source.
func (f *file) ignored(pm *patternmatcher.PatternMatcher, s *copySource) bool {
	p := path.Clean(filepath.ToSlash(s.path))
	if p == "." || p == "/" {
		root := false
		for _, pat := range pm.Patterns() {
			switch pat.String() {
			case "*", "**", "**/*":
				root = true
			}
		}
		if !root {
			return false
		}
	}
	ok, err := pm.MatchesOrParentMatches(p)
	if err != nil || !ok {
		return false
	}
	cmd := "Copy"
	if s.add {
		cmd = "Add"
	}
	lint := f.lint.WithMergedConfigFromComments(s.st.ins.Comments).WithMergedConfigFromComments(s.c.c.Comments())
	n := len(f.findings)
	f.run(lint, &linter.RuleCopyIgnoredFile, s.c.c.Location(), "", linter.RuleCopyIgnoredFile.Format(cmd, p))
	if len(f.findings) == n {
		// CopyIgnoredFile is skipped by a # check= directive, but the
		// build still fails: the file is not in the context.
		line, col := f.word(s.c, s.raw)
		f.addSev(RuleCopySourceMissing, check.Error, line, col,
			fmt.Sprintf("%s source %s is excluded by .dockerignore, so it is not in the build context.", strings.ToUpper(s.c.c.Name()), s.raw),
			"Remove its pattern from .dockerignore, or stop copying it.")
	}
	return true
}

// gitignoreMatcher reads the .gitignore files from the root down to dir.
func gitignoreMatcher(src check.Source, dir string) gitignore.Matcher {
	var ps []gitignore.Pattern
	var domain []string
	parts := []string{""}
	if dir != "" {
		parts = append(parts, strings.Split(dir, "/")...)
	}
	for i, p := range parts {
		if i > 0 {
			domain = append(domain, p)
		}
		b, err := src.ReadFile(path.Join(path.Join(domain...), ".gitignore"))
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			ps = append(ps, gitignore.ParsePattern(line, append([]string(nil), domain...)))
		}
	}
	return gitignore.NewMatcher(ps)
}
