// Package service is the set of Cairn's use cases for one project, as every
// surface (MCP, the CLI, the hooks, the board) reaches them. Each use case
// lives in a package of its own (plan, focus, loops, lifecycles, memories,
// knowledge, brief), constructed here once with its dependencies: a
// surface decodes, calls one of them and renders.
package service

import (
	"time"

	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/service/evolution"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/service/internal/boardcache"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/service/scaffold"
	"github.com/cairn-dev/cairn/internal/store"
)

// Set is every service of one project, as the surfaces use them.
type Set struct {
	Focus      *focus.Focus
	Plan       *plan.Plan
	Loops      *loops.Loops
	Lifecycles *lifecycles.Lifecycles
	Memory     *memories.Memory
	Knowledge  *knowledge.Service
	Brief      *brief.Service
	Hands      *hands.Service
	Insight    *insight.Service
	Scaffold   *scaffold.Service
	Evolution  *evolution.Service

	store store.Store
}

// Options configure a Set.
type Options struct {
	// Root is the project's root directory: its knowledge, its lifecycle
	// definitions (.cairn/lifecycles) and the files memory entries name.
	// Empty: none (a store on its own, in tests).
	Root string
	// Memory configures the memory service (Root and Now are filled from
	// here when unset).
	Memory memories.MemoryOptions
	// Settings are the project's configuration as it was opened, for
	// get_config.
	Settings []brief.Setting
	// Detector caches what the root holds; nil makes one.
	Detector *projectinfo.Detector
	// Count measures text in tokens; nil is o200k_base.
	Count func(string) int
	// Insight configures the usage recorder and the analyses.
	Insight insight.Options
	// KnowledgePaths are the folders the knowledge base is read from
	// ([knowledge]); nil is projectinfo.KnowledgePaths.
	KnowledgePaths *projectinfo.Paths
	// BootstrapBudget is a bootstrap's budget when a call names none.
	BootstrapBudget int
	// ConfigProblems are the refusals of malformed configuration files.
	ConfigProblems []string
	// Now is every service's clock; nil is time.Now in UTC (a test fixes
	// it so that answers are the same on every run).
	Now func() time.Time
}

// New returns every service of the project whose store is st, each
// constructed once with what it reads.
func New(st store.Store, opts Options) *Set {
	mo := opts.Memory
	if mo.Root == "" {
		mo.Root = opts.Root
	}
	if mo.Now == nil {
		mo.Now = opts.Now
	}
	var lifecycleDir string
	if opts.Root != "" {
		lifecycleDir = lifecycles.LifecycleDir(opts.Root)
	}
	io := opts.Insight
	if io.Now == nil {
		io.Now = opts.Now
	}
	board := boardcache.New(st)
	p := plan.NewPlan(st, board, opts.Now)
	f := focus.NewFocus(st, board, p, opts.Now)
	l := loops.NewLoops(st, opts.Now)
	m := memories.NewMemory(st, mo)
	det := opts.Detector
	if det == nil {
		det = projectinfo.NewDetector()
	}
	if opts.KnowledgePaths != nil {
		det.Paths = *opts.KnowledgePaths
	}
	paths := projectinfo.KnowledgePaths
	if opts.KnowledgePaths != nil {
		paths = *opts.KnowledgePaths
	}
	k := knowledge.New(opts.Root, det, m)
	in := insight.New(st, io)
	return &Set{
		Focus:      f,
		Plan:       p,
		Loops:      l,
		Lifecycles: lifecycles.NewLifecycles(st, lifecycleDir, opts.Now),
		Memory:     m,
		Knowledge:  k,
		Brief: brief.New(f, p, l, m, k, brief.Options{Count: opts.Count, Settings: opts.Settings, Now: opts.Now,
			Budget: opts.BootstrapBudget, ConfigProblems: opts.ConfigProblems}),
		Scaffold: scaffold.New(opts.Root, paths),
		Hands:    hands.New(opts.Root).Recording(in.Record),
		Insight:  in,
		Evolution: evolution.New(opts.Root, st, evolution.Options{Insight: in, Now: opts.Now,
			Docs:    func() []projectinfo.Doc { return k.Knowledge().Docs },
			Routing: func() string { return k.Knowledge().RoutingPath }}),
		store: st,
	}
}
