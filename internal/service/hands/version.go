package hands

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/versions"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
)

// VersionRequest asks which version of a dependency the project uses.
type VersionRequest struct {
	Name     string // as the manifest spells it: golang.org/x/mod, react, requests
	Believed string // the version the agent thinks it uses, "" for none
	// Dir is the directory of the manifests, relative to the root ("": the
	// root), for a package of a monorepo.
	Dir string
}

// VerifyVersion reads the declared, locked and installed versions of one
// dependency (offline; internal/check/versions) and says whether they
// agree, and whether the agent's belief names the resolved version.
// Evidence files are relative to the root, as every finding's are.
func (s *Service) VerifyVersion(ctx context.Context, req VersionRequest) (*versions.Report, error) {
	if s.root == "" {
		return nil, project.NoRoot("verify_version reads the project's manifests; start Cairn inside the project or set " + project.EnvRoot)
	}
	dir, err := s.subdir("path", req.Dir)
	if err != nil {
		return nil, err
	}
	r, err := versions.Verify(ctx, os.DirFS(filepath.Join(s.root, filepath.FromSlash(dir))), req.Name, req.Believed, versions.Options{})
	if err != nil || dir == "" {
		return r, err
	}
	for i := range r.Evidence {
		if !filepath.IsAbs(r.Evidence[i].File) {
			r.Evidence[i].File = path.Join(dir, r.Evidence[i].File)
		}
	}
	for i := range r.Findings {
		if r.Findings[i].File != "" && !filepath.IsAbs(r.Findings[i].File) {
			r.Findings[i].File = path.Join(dir, r.Findings[i].File)
		}
	}
	return r, nil
}

// subdir checks a directory argument: relative to the root (or absolute
// inside it), an existing directory, no symbolic link out of the root. It
// returns the slash path relative to the root ("" for the root).
func (s *Service) subdir(field, dir string) (string, error) {
	if strings.TrimSpace(dir) == "" || dir == "." {
		return "", nil
	}
	abs := dir
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.root, filepath.FromSlash(dir))
	}
	outside := &problem.FieldError{Field: field, Problem: problem.Quote(dir) + " is outside the project",
		Fix: "name a directory inside the project, relative to its root"}
	rootReal, err := filepath.EvalSymlinks(s.root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", &problem.FieldError{Field: field, Problem: problem.Quote(dir) + " does not exist", Fix: "name a directory of the project, relative to its root"}
	}
	rel, err := filepath.Rel(rootReal, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", outside
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", &problem.FieldError{Field: field, Problem: problem.Quote(dir) + " is not a directory", Fix: "name the directory that holds the manifest (package.json, go.mod...)"}
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}
