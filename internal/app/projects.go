package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultProject names the project a server finds from its working directory
// (or $CAIRN_PROJECT_ROOT), the one plain /mcp serves over HTTP.
const DefaultProject = "default"

// ErrUnknownProject means a request named a project this process does not
// serve.
var ErrUnknownProject = errors.New("unknown project")

// CheckProjectName reports whether name can name a project: 1 to 64 letters,
// digits, '.', '_' or '-', starting with a letter or digit.
func CheckProjectName(name string) error {
	if !validProjectName(name) {
		return fmt.Errorf("project name %q: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", name)
	}
	return nil
}

// validProjectName is ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ by hand: every HTTP
// request checks its project's name, and the regular expression (costly to
// compile, too) was a fraction of a percent of the server's CPU.
func validProjectName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// Projects resolves a project name to its services, for a server that serves
// more than one project (HTTP). Implementations open each project lazily on
// first use, cache it, and close everything in Close. The embedded store
// knows its projects from configuration (DirProjects); a shared database can
// accept any valid name.
type Projects interface {
	// Check reports whether name is a project this process serves, without
	// opening it; an unknown one is ErrUnknownProject.
	Check(name string) error
	// Get returns the named project's services, opening them if needed.
	Get(ctx context.Context, name string) (*Services, error)
	// Ready opens the projects known in advance and checks that each store
	// answers.
	Ready(ctx context.Context) error
	// Close closes every project opened so far.
	Close() error
}

// DirProjects serves projects that each live in a directory on this machine
// (the embedded SQLite store): the default project, found as `cairn serve`
// finds it, and named ones from configuration.
type DirProjects struct {
	names   []string // sorted, for messages
	lazy    map[string]*Lazy
	dbNames map[string]string // project → its name in the shared database (team mode)
	mu      sync.Mutex
	def     Config // the default project's, for a root found only later
}

// NewDirProjects serves def as DefaultProject and each of named (name →
// project root directory). A named directory must exist; naming "default"
// replaces the one found from the working directory.
func NewDirProjects(def Config, named map[string]string) (*DirProjects, error) {
	p := &DirProjects{lazy: map[string]*Lazy{DefaultProject: NewLazy(def)}, def: def}
	for name, dir := range named {
		if err := CheckProjectName(name); err != nil {
			return nil, err
		}
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("project %s: %s is not a directory; create it or fix the path", name, dir)
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("project %s: %w", name, err)
		}
		c := def // the same store settings and embedding provider
		c.Dir, c.Root = "", abs
		c.Project = name // its name in a shared database (CAIRN_DATABASE_URL)
		p.lazy[name] = NewLazy(c)
	}
	for name := range p.lazy {
		p.names = append(p.names, name)
	}
	slices.Sort(p.names)
	if teamMode(def) {
		if err := p.checkDatabaseProjects(def, named); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// checkDatabaseProjects refuses two HTTP project names that would share
// one project in the database: a token scoped to one would read and write
// the other's data. The default project's database name comes from
// $CAIRN_PROJECT or its directory's name, so serving --project web=... from
// a directory named web would do just that.
func (p *DirProjects) checkDatabaseProjects(def Config, named map[string]string) error {
	p.dbNames = map[string]string{}
	owner := map[string]string{}
	for _, name := range p.names {
		db := name
		if _, isNamed := named[name]; !isNamed {
			root, err := findRoot(def)
			if err != nil {
				continue // reported when the project is opened
			}
			db = DatabaseProject(def, root)
		}
		if other, taken := owner[db]; taken {
			a, b := min(name, other), max(name, other)
			return fmt.Errorf("projects %s and %s would both be project %q in the database (CAIRN_DATABASE_URL): a token for one could use the other; "+
				"name the default project's database project with CAIRN_PROJECT, or serve the other under another name", a, b, db)
		}
		owner[db] = name
		p.dbNames[name] = db
	}
	return nil
}

// DatabaseProjects maps each served project to its project in the shared
// database (team mode; nil on the embedded store).
func (p *DirProjects) DatabaseProjects() map[string]string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.dbNames)
}

// ParseProjects parses name=DIR pairs (from --project flags or the
// comma-separated $CAIRN_PROJECTS).
func ParseProjects(pairs []string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range pairs {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		name, dir, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(dir) == "" {
			return nil, fmt.Errorf("project %q: write name=DIR, for example web=/srv/web", kv)
		}
		name = strings.TrimSpace(name)
		if err := CheckProjectName(name); err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("project %s is configured twice; give each project one directory", name)
		}
		out[name] = strings.TrimSpace(dir)
	}
	return out, nil
}

// Names lists the served projects, sorted.
func (p *DirProjects) Names() []string { return slices.Clone(p.names) }

// Check implements Projects.
func (p *DirProjects) Check(name string) error {
	if _, ok := p.lazy[name]; !ok {
		return fmt.Errorf("%w %q: this server serves %s; configure more with --project name=DIR", ErrUnknownProject, name, strings.Join(p.names, ", "))
	}
	return nil
}

// Get implements Projects.
func (p *DirProjects) Get(ctx context.Context, name string) (*Services, error) {
	if err := p.Check(name); err != nil {
		return nil, err
	}
	if name == DefaultProject && p.dbNames != nil {
		if err := p.checkLateDefault(); err != nil {
			return nil, err
		}
	}
	return p.lazy[name].Get(ctx)
}

// checkLateDefault makes the start's collision check for a default project
// whose root was not there at start (no .git or .cairn yet) and is now: its
// database project may be a served project's, and a token scoped to
// default would then read that project's tasks.
func (p *DirProjects) checkLateDefault() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, known := p.dbNames[DefaultProject]; known {
		return nil
	}
	root, err := findRoot(p.def)
	if err != nil {
		return nil // reported when the project is opened
	}
	db := DatabaseProject(p.def, root)
	for name, other := range p.dbNames {
		if other == db {
			return fmt.Errorf("projects %s and %s would both be project %q in the database (CAIRN_DATABASE_URL): a token for one could use the other; "+
				"name the default project's database project with CAIRN_PROJECT, or serve the other under another name", DefaultProject, name, db)
		}
	}
	p.dbNames[DefaultProject] = db
	return nil
}

// Ready implements Projects: every configured project opens and its store
// answers.
func (p *DirProjects) Ready(ctx context.Context) error {
	for _, name := range p.names {
		s, err := p.Get(ctx, name)
		if err != nil {
			return &ProjectError{Name: name, Err: err}
		}
		if _, err := s.Store.Version(ctx); err != nil {
			return &ProjectError{Name: name, Err: fmt.Errorf("store: %w", err)}
		}
	}
	return nil
}

// Preload opens, one after another, each served project that already has a
// store, and loads its plan, so that the first request to it does not pay
// for the load (about 50 ms of CPU for 10,000 tasks, more when many first
// requests arrive together). A project without a store yet is left for its
// first request, which creates it: a server does not make stores nobody
// used. Failures are left for the requests too, which report them; they
// are only logged here. Cancel ctx to stop it.
func (p *DirProjects) Preload(ctx context.Context, log *slog.Logger) {
	loaded := 0
	for _, name := range p.names {
		if ctx.Err() != nil {
			return
		}
		l := p.lazy[name]
		if !l.hasStore() {
			continue
		}
		start := time.Now()
		s, err := l.Get(ctx)
		if err == nil {
			_, err = s.Plan.Board(ctx)
		}
		if err != nil {
			log.Debug("load a project ahead of its first request", "project", name, "error", err)
			continue
		}
		loaded++
		log.Debug("project loaded ahead of its first request", "project", name, "took", time.Since(start))
	}
	log.Debug("projects loaded ahead", "loaded", loaded, "served", len(p.names))
}

// ProjectError is a failure of one named project, so that a surface can
// name the project without repeating the cause (which may hold paths).
type ProjectError struct {
	Name string
	Err  error
}

func (e *ProjectError) Error() string { return "project " + e.Name + ": " + e.Err.Error() }

func (e *ProjectError) Unwrap() error { return e.Err }

// Close implements Projects.
func (p *DirProjects) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	var errs []error
	for _, name := range p.names {
		if err := p.lazy[name].Close(); err != nil {
			errs = append(errs, fmt.Errorf("close project %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}
