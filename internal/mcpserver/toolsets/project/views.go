package project

import (
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/scaffold"
)

// The structured answers of the context tools whose services return plain
// results: the wire shape lives here, beside the tools that send it.

// bootstrapView is bootstrap's structured answer (its text is the answer's
// text).
type bootstrapView struct {
	Tokens    int                    `json:"tokens"` // o200k_base tokens of the text
	Estimated bool                   `json:"estimated,omitempty"`
	Budget    int                    `json:"budget"`
	Sections  []bootstrapSectionView `json:"sections"`
	Current   string                 `json:"current,omitempty"`
	Next      string                 `json:"next,omitempty"`
	Session   string                 `json:"session,omitempty"`
}

// bootstrapSectionView is one part of a bootstrap and what it left out.
type bootstrapSectionView struct {
	Name    string   `json:"name"`
	Title   string   `json:"title,omitempty"`
	Lines   []string `json:"lines"`
	Omitted int      `json:"omitted,omitempty"`
	More    string   `json:"more,omitempty"` // how to get what was omitted
}

func bootstrapViewOf(b brief.Bootstrap) bootstrapView {
	return bootstrapView{Tokens: b.Tokens, Estimated: b.Estimated, Budget: b.Budget,
		Sections: render.ViewsOf(b.Sections, func(s brief.BootstrapSection) bootstrapSectionView { return bootstrapSectionView(s) }),
		Current:  b.Current, Next: b.Next, Session: b.Session}
}

// settingView is one setting get_config lists and where it came from.
type settingView struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

func settingViewOf(s brief.Setting) settingView { return settingView(s) }

// contextItemView is one piece of context optimize_context chose.
type contextItemView struct {
	Ref    string  `json:"ref"`
	Kind   string  `json:"kind"`
	Line   string  `json:"line"`
	Score  float64 `json:"score"`
	Tokens int     `json:"tokens"`
	Why    string  `json:"why,omitempty"`
}

func contextItemViewOf(it brief.ContextItem) contextItemView { return contextItemView(it) }

// scaffoldView is scaffold's structured answer.
type scaffoldView struct {
	Level   string        `json:"level"`
	DryRun  bool          `json:"dry_run,omitempty"`
	Written []writtenView `json:"written"`
	Skipped []skippedView `json:"skipped"`
}

// writtenView is a file scaffold wrote (or would, on a dry run).
type writtenView struct {
	Path string `json:"path"`
	What string `json:"what"`
}

// skippedView is a file scaffold left alone, and why.
type skippedView struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

func scaffoldViewOf(r scaffold.Result) scaffoldView {
	return scaffoldView{Level: r.Level, DryRun: r.DryRun,
		Written: render.ViewsOf(r.Written, func(f scaffold.File) writtenView { return writtenView(f) }),
		Skipped: render.ViewsOf(r.Skipped, func(s scaffold.Skipped) skippedView { return skippedView(s) })}
}

// appliedView is apply_heuristics' structured answer.
type appliedView struct {
	Decision   string          `json:"decision"`
	Source     string          `json:"source"` // the file, or "default"
	Heuristics []heuristicView `json:"heuristics"`
	Related    []string        `json:"related,omitempty"`
}

// heuristicView is one rule of thumb and the question it asks.
type heuristicView struct {
	Name     string `json:"name"`
	Question string `json:"question"`
}

func appliedViewOf(a knowledge.Applied) appliedView {
	return appliedView{Decision: a.Decision, Source: a.Source,
		Heuristics: render.ViewsOf(a.Heuristics, func(h knowledge.Heuristic) heuristicView { return heuristicView(h) }),
		Related:    a.Related}
}
