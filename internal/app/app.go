// Package app wires a Cairn process together: it finds the project, opens
// its store and builds the services the surfaces use.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/embedding"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// Team mode: when CAIRN_DATABASE_URL is set, the project lives in that
// PostgreSQL database instead of the embedded SQLite file, under the name
// CAIRN_PROJECT (default: the project root's directory name).
const (
	EnvDatabaseURL = "CAIRN_DATABASE_URL"
	EnvProject     = "CAIRN_PROJECT"
)

// Config says which project to serve and how to store it.
type Config struct {
	Dir string // where to start looking for the project root; default: the working directory
	// Root, when set, is the project root itself: no search upward and no
	// $CAIRN_PROJECT_ROOT. Named projects served over HTTP use it.
	Root string
	// Durability is what an acknowledged write survives, whichever store
	// holds the project; default DurableProcess.
	Durability Durability
	// InitEmpty makes a new store in an existing empty database file
	// rather than refusing it (`cairn init`).
	InitEmpty bool
	// DatabaseURL, when set, stores the project in PostgreSQL;
	// default $CAIRN_DATABASE_URL.
	DatabaseURL string
	// Project is the project's name in that database; default
	// $CAIRN_PROJECT, else the base name of the project root. Named
	// projects served over HTTP use their names.
	Project string
	// Logger receives the services' warnings (a failed embedding); nil
	// discards them.
	Logger *slog.Logger
	// Embed, when its URL is set, adds semantic ranking to memory search
	// through an OpenAI-compatible /v1/embeddings endpoint. EmbedFromEnv
	// reads it from CAIRN_EMBED_URL, CAIRN_EMBED_MODEL and CAIRN_EMBED_KEY.
	Embed embedding.Config
	// Flags are the command's flags that were given, by name, for the
	// settings a flag, the environment or a configuration file may set
	// (project.Resolve).
	Flags map[string]string
	// Upkeep is set by long-lived processes (the servers, the board): the
	// store runs an upgrade's re-index of a large memory in the background
	// there; hooks and the CLI leave it to them. The embedded store of a
	// process without it prepares no statements ahead (sqlite.OneShot).
	Upkeep bool
}

// Durability says what an acknowledged write survives.
type Durability string

// The durabilities. PostgreSQL syncs every commit by its own settings, so
// they tell only the embedded store what to do.
const (
	// DurableProcess survives a killed process: every acknowledged write is
	// in the log, though a power loss may take the last ones.
	DurableProcess Durability = "normal"
	// DurablePower also survives power loss, syncing the log on every
	// commit, at some cost in write latency.
	DurablePower Durability = "full"
)

// ParseDurability reads a durability as a person spells it.
func ParseDurability(s string) (Durability, error) {
	switch d := Durability(strings.ToLower(strings.TrimSpace(s))); d {
	case "", DurableProcess:
		return DurableProcess, nil
	case DurablePower:
		return d, nil
	}
	return "", fmt.Errorf("durability %q: use normal or full", s)
}

func (d Durability) sqlite() sqlite.Sync {
	if d == DurablePower {
		return sqlite.SyncFull
	}
	return sqlite.SyncNormal
}

// EmbedFromEnv returns the embedding provider configured in the
// environment; a zero URL means none.
func EmbedFromEnv() embedding.Config {
	return embedding.Config{URL: os.Getenv("CAIRN_EMBED_URL"), Model: os.Getenv("CAIRN_EMBED_MODEL"), APIKey: os.Getenv("CAIRN_EMBED_KEY")}
}

// Services are the use cases of one project.
type Services struct {
	service.Set
	Root  string
	Store store.Store
}

// Open finds the project and opens its store.
func Open(ctx context.Context, cfg Config) (*Services, error) {
	root, err := findRoot(cfg)
	if err != nil {
		return nil, err
	}
	// Every worktree of a repository shares the main worktree's store;
	// branch and files are still this worktree's.
	st, err := openStore(ctx, cfg, project.StoreRoot(root))
	if err != nil {
		return nil, err
	}
	mopts := memories.MemoryOptions{
		Branch: func() string { return project.GitBranch(root) },
		Root:   root,
		Logger: cfg.Logger,
	}
	if cfg.Embed.URL != "" {
		c, err := embedding.New(cfg.Embed)
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("embedding provider (CAIRN_EMBED_URL, CAIRN_EMBED_MODEL): %w", err)
		}
		mopts.Embedder, mopts.Model = c, c.Model()
	}
	// A malformed configuration file does not stop the project from
	// opening: its settings take their defaults, and get_config and every
	// bootstrap say why.
	rs, proj, problems := project.Settings(root, cfg.Flags)
	for _, p := range problems {
		if cfg.Logger != nil {
			cfg.Logger.Warn("configuration refused", "problem", p)
		}
	}
	io, iset, err := insightOptions(rs, proj)
	if err != nil {
		st.Close()
		return nil, err
	}
	io.Recorder.Logger = cfg.Logger
	st, bset, err := withBranchFiles(st, root, cfg.Logger, rs)
	if err != nil {
		st.Close()
		return nil, err
	}
	iset = append(iset, bset...)
	set := service.New(st, service.Options{Root: root, Memory: mopts, Settings: append(append(settings(cfg, root), iset...), configSettings(rs, proj, problems)...),
		Insight: io, KnowledgePaths: KnowledgePaths(rs), BootstrapBudget: intSetting(rs, "budgets.bootstrap_tokens"), ConfigProblems: problems})
	return &Services{Set: *set, Root: root, Store: st}, nil
}

// settings say which project and store were opened, and why.
func settings(cfg Config, root string) []brief.Setting {
	rootSrc := "detected: the nearest .cairn or .git upward from the working directory"
	switch {
	case cfg.Root != "":
		rootSrc = "named project (--project)"
	case os.Getenv(project.EnvRoot) != "":
		rootSrc = "env " + project.EnvRoot
	}
	out := []brief.Setting{{Name: "project root", Value: root, Source: rootSrc}}
	url, src := cfg.DatabaseURL, "server configuration"
	if url == "" {
		url, src = os.Getenv(EnvDatabaseURL), "env "+EnvDatabaseURL
	}
	if url == "" {
		return append(out, brief.Setting{Name: "store", Value: "SQLite " + project.DBPath(root), Source: "default (" + EnvDatabaseURL + " unset)"})
	}
	name, nsrc := cfg.Project, "server configuration"
	if name == "" {
		name, nsrc = os.Getenv(EnvProject), "env "+EnvProject
	}
	if name == "" {
		name, nsrc = filepath.Base(root), "default: the root's name"
	}
	return append(out, brief.Setting{Name: "store", Value: "PostgreSQL (" + src + ")", Source: src},
		brief.Setting{Name: "project name", Value: name, Source: nsrc})
}

// openStore opens the project's PostgreSQL store in team mode, else its
// embedded SQLite file (creating .cairn if needed), for the project whose
// store lives at root (see project.StoreRoot).
func openStore(ctx context.Context, cfg Config, root string) (store.Store, error) {
	url := cfg.DatabaseURL
	if url == "" {
		url = os.Getenv(EnvDatabaseURL)
	}
	if url != "" {
		// One pool per database for all the projects this process serves.
		return postgres.OpenShared(ctx, url, postgres.Options{Project: DatabaseProject(cfg, root), Logger: cfg.Logger, Upkeep: cfg.Upkeep})
	}
	if _, err := project.Init(root); err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, project.DBPath(root), sqlite.Options{Sync: cfg.Durability.sqlite(), InitEmpty: cfg.InitEmpty, Logger: cfg.Logger, Upkeep: cfg.Upkeep, OneShot: !cfg.Upkeep})
}

// CheckStore refuses, before a server starts, a project whose embedded
// database file is empty (see sqlite.CheckNotEmpty). A project that cannot
// be found yet, or one in PostgreSQL, passes: those are reported when the
// project is opened.
func CheckStore(cfg Config) error {
	if teamMode(cfg) {
		return nil
	}
	root, err := findRoot(cfg)
	if err != nil {
		return nil
	}
	return sqlite.CheckNotEmpty(project.DBPath(root))
}

// teamMode reports whether cfg stores projects in PostgreSQL.
func teamMode(cfg Config) bool { return cfg.DatabaseURL != "" || os.Getenv(EnvDatabaseURL) != "" }

// DatabaseProject is the project's name in a shared database: cfg.Project,
// else $CAIRN_PROJECT, else the name of its root directory.
func DatabaseProject(cfg Config, root string) string {
	if cfg.Project != "" {
		return cfg.Project
	}
	if p := os.Getenv(EnvProject); p != "" {
		return p
	}
	return filepath.Base(root)
}

func findRoot(cfg Config) (string, error) {
	if cfg.Root != "" {
		if fi, err := os.Stat(cfg.Root); err != nil || !fi.IsDir() {
			return "", project.NoRoot(cfg.Root + " is not a directory")
		}
		return filepath.Abs(cfg.Root)
	}
	dir := cfg.Dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", project.NoRoot(err.Error())
		}
		dir = wd
	}
	return project.FindRoot(dir)
}

// Close writes the usage events still held and closes the store.
func (s *Services) Close() error {
	s.Insight.Close()
	return s.Store.Close()
}

// Lazy opens the project on first use and retries after a failure, so a
// server can start (and answer initialize) at once, and a project created
// after start, with `cairn init`, is picked up without a restart.
type Lazy struct {
	cfg Config
	mu  sync.Mutex
	s   *Services
}

// NewLazy returns a Lazy for cfg.
func NewLazy(cfg Config) *Lazy { return &Lazy{cfg: cfg} }

// Get returns the open services, opening them if needed.
func (l *Lazy) Get(ctx context.Context) (*Services, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.s != nil {
		return l.s, nil
	}
	s, err := Open(ctx, l.cfg)
	if err != nil {
		return nil, err
	}
	l.s = s
	return s, nil
}

// hasStore reports whether the project already has a store to open: its
// embedded database file exists, or it lives in a shared database, which
// exists (opening a project new to it adds only the project's name).
func (l *Lazy) hasStore() bool {
	if teamMode(l.cfg) {
		return true
	}
	root, err := findRoot(l.cfg)
	if err != nil {
		return false
	}
	fi, err := os.Stat(project.DBPath(project.StoreRoot(root)))
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// Close closes the services if they were opened.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.s == nil {
		return nil
	}
	err := l.s.Close()
	l.s = nil
	return err
}
