// Package memory declares the memory toolset: 3-layer search, decisions,
// mistakes, conventions, observations.
package memory

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// The memory toolset: typed project memory searched in three layers
// (memory_search → memory_context → memory_get), its writes, pruning and
// error diagnosis. Argument names follow the memory specification's
// snake_case.

type MemorySearchArgs struct {
	Query     string          `json:"query,omitempty" jsonschema:"plain words; empty lists the newest"`
	Type      tool.StringList `json:"type,omitempty"`
	Tag       tool.StringList `json:"tag,omitempty" jsonschema:"any of these"`
	SessionID string          `json:"session_id,omitempty"`
	Branch    string          `json:"branch,omitempty"`
	After     string          `json:"after,omitempty" jsonschema:"ISO 8601"`
	Before    string          `json:"before,omitempty"`
	Offset    int             `json:"offset,omitempty"`
	Limit     int             `json:"limit,omitempty"`
	// Superseded entries are left out unless asked for.
	IncludeSuperseded bool `json:"include_superseded,omitempty"`
}

type memoryContextArgs struct {
	ID          tool.IDArg `json:"id" jsonschema:"e.g. m12"`
	Before      int        `json:"before,omitempty"`
	After       int        `json:"after,omitempty"`
	SameSession bool       `json:"same_session,omitempty"`
}

type MemoryGetArgs struct {
	IDs tool.IDList `json:"ids" jsonschema:"at most 20"`
}

// entryArgs are the fields every written entry has.
type entryArgs struct {
	Title   string          `json:"title"`
	Content string          `json:"content,omitempty"`
	Facts   tool.StringList `json:"facts,omitempty"`
	Tags    tool.StringList `json:"tags,omitempty"`
	Files   tool.StringList `json:"files,omitempty"`
	// Supersedes names the entry this one replaces.
	Supersedes string `json:"supersedes,omitempty" jsonschema:"e.g. m12"`
}

func (a entryArgs) entry(t memory.Type) memories.AddRequest {
	return memories.AddRequest{Entry: memory.Entry{Type: t, Title: a.Title, Content: a.Content, Facts: a.Facts, Tags: a.Tags, Files: a.Files},
		Supersedes: a.Supersedes}
}

type addDecisionArgs struct {
	entryArgs
	Rationale    string          `json:"rationale,omitempty"`
	Alternatives tool.StringList `json:"alternatives,omitempty" jsonschema:"rejected options"`
}

type addMistakeArgs struct {
	entryArgs
	RootCause  string `json:"root_cause,omitempty"`
	Fix        string `json:"fix,omitempty"`
	Prevention string `json:"prevention,omitempty"`
	// A known mistake keeps its first analysis unless this is set.
	ReplaceAnalysis bool `json:"replace_analysis,omitempty" jsonschema:"replace a known mistake's analysis"`
}

type addConventionArgs struct {
	entryArgs
	Examples tool.StringList `json:"examples,omitempty"`
}

type observationArgs struct {
	Type string `json:"type"`
	entryArgs
	DiscoveryTokens int `json:"discovery_tokens,omitempty" jsonschema:"tokens spent finding it"`
	ExpiresInDays   int `json:"expires_in_days,omitempty"`
}

type memoryPruneArgs struct {
	IDs           tool.IDList     `json:"ids,omitempty"`
	Type          tool.StringList `json:"type,omitempty"`
	OlderThanDays int             `json:"older_than_days,omitempty"`
	DryRun        *bool           `json:"dry_run,omitempty" jsonschema:"default true"`
}

type DiagnoseArgs struct {
	Error string `json:"error"`
	Limit int    `json:"limit,omitempty"`
}

func Tools() []tool.Tool {
	const ts = "memory"
	types := make([]any, len(memory.Types))
	for i, t := range memory.Types {
		types[i] = string(t)
	}
	typeItems := func(field string) func(*jsonschema.Schema) {
		return func(s *jsonschema.Schema) {
			// A fresh schema: StringList's is shared by every field of its type.
			old := s.Properties[field]
			s.Properties[field] = &jsonschema.Schema{Type: "array", Description: old.Description,
				Items: &jsonschema.Schema{Type: "string", Enum: types}}
		}
	}
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "memory_search", Annotations: tool.ReadOnly,
			Description: "Search memory; index lines, then memory_context or memory_get."},
			MemorySearch, typeItems("type"), tool.Minimum("offset", 0), tool.Bounds("limit", 1, float64(page.Memory.Max))),
		tool.Declare(ts, mcp.Tool{Name: "memory_context", Annotations: tool.ReadOnly,
			Description: "Entries recorded just before and after one entry."},
			memoryContext, tool.Bounds("before", 0, memories.MaxContext), tool.Bounds("after", 0, memories.MaxContext)),
		tool.Declare(ts, mcp.Tool{Name: "memory_get", Annotations: tool.ReadOnly,
			Description: "Full entries by id."},
			MemoryGet),
		tool.Declare(ts, mcp.Tool{Name: "memory_add_decision",
			Description: "Record a decision and why."},
			addDecision),
		tool.Declare(ts, mcp.Tool{Name: "memory_add_mistake",
			Description: "Record a mistake; a repeat adds an occurrence."},
			addMistake),
		tool.Declare(ts, mcp.Tool{Name: "memory_add_convention",
			Description: "Record a project convention."},
			addConvention),
		tool.Declare(ts, mcp.Tool{Name: "observation",
			Description: "Record something learned; type context for free-form notes."},
			addObservation, tool.Enum("type", observationTypes()...), tool.Bounds("expires_in_days", 1, memories.MaxExpiryDays)),
		tool.Declare(ts, mcp.Tool{Name: "memory_prune",
			Description: "Remove entries by ids, type or age."},
			memoryPrune, typeItems("type"), tool.Minimum("older_than_days", 1)),
		tool.Declare(ts, mcp.Tool{Name: "diagnose_error", Annotations: tool.ReadOnly,
			Description: "Past mistakes and failed commands like this error, with fixes."},
			DiagnoseError, tool.Bounds("limit", 1, float64(page.Diagnose.Max))),
	}
}

func observationTypes() []any {
	var out []any
	for _, t := range memory.Types {
		if t.Observation() {
			out = append(out, string(t))
		}
	}
	return out
}

func MemorySearch(ctx context.Context, c tool.Call, in MemorySearchArgs) (string, any, error) {
	res, err := c.Memory.Search(ctx, memories.SearchQuery{Text: in.Query, Types: in.Type, Tags: in.Tag, SessionID: in.SessionID,
		Branch: in.Branch, After: in.After, Before: in.Before, IncludeSuperseded: in.IncludeSuperseded,
		Page: page.Page{Offset: in.Offset, Limit: in.Limit}})
	if err != nil {
		return "", nil, err
	}
	out := render.Search(res)
	return renderSearch(res, out), out, nil
}

// renderSearch is the index as text: a header, a note, a line a hit.
func renderSearch(res memories.SearchResult, out render.SearchView) string {
	var lines []string
	switch {
	case res.Total == 0:
		lines = append(lines, "No entries match.")
	case len(res.Hits) == 0:
		lines = append(lines, fmt.Sprintf("No entries at offset %d of %d.", res.Offset, res.Total))
	default:
		of := fmt.Sprint(res.Total)
		if res.AtLeast {
			of += "+"
		}
		h := fmt.Sprintf("Entries %d-%d of %s (%s)", res.Offset+1, res.Offset+len(res.Hits), of, res.Mode)
		if out.NextOffset != 0 {
			h += fmt.Sprintf(", next offset %d", out.NextOffset)
		}
		lines = append(lines, h+":")
	}
	if res.Note != "" {
		lines = append(lines, "note: "+res.Note)
	}
	for _, h := range out.Hits {
		lines = append(lines, render.HitLine(h))
	}
	return strings.Join(lines, "\n")
}

type contextOut struct {
	Anchor render.HitView   `json:"anchor"`
	Before []render.HitView `json:"before"`
	After  []render.HitView `json:"after"`
}

func memoryContext(ctx context.Context, c tool.Call, in memoryContextArgs) (string, any, error) {
	tl, err := c.Memory.Context(ctx, memories.ContextQuery{ID: string(in.ID), Before: in.Before, After: in.After, SameSession: in.SameSession})
	if err != nil {
		return "", nil, err
	}
	out := contextOut{Anchor: render.HitOf(tl.Anchor), Before: []render.HitView{}, After: []render.HitView{}}
	var lines []string
	for _, h := range tl.Before {
		o := render.HitOf(h)
		out.Before = append(out.Before, o)
		lines = append(lines, "  "+render.HitLine(o))
	}
	lines = append(lines, "> "+render.HitLine(out.Anchor))
	for _, h := range tl.After {
		o := render.HitOf(h)
		out.After = append(out.After, o)
		lines = append(lines, "  "+render.HitLine(o))
	}
	return strings.Join(lines, "\n"), out, nil
}

func MemoryGet(ctx context.Context, c tool.Call, in MemoryGetArgs) (string, any, error) {
	es, missing, err := c.Memory.Get(ctx, in.IDs)
	if err != nil {
		return "", nil, err
	}
	out := render.Entries(es, missing)
	parts := make([]string, 0, len(es)+1)
	for _, e := range es {
		parts = append(parts, render.Entry(e))
	}
	if len(missing) > 0 {
		parts = append(parts, "not found: "+strings.Join(out.Missing, ", "))
	}
	return strings.Join(parts, "\n\n"), out, nil
}

type recordedOut struct {
	ID          string   `json:"id"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Occurrences int      `json:"occurrences,omitempty"`
	Counted     bool     `json:"counted,omitempty"`
	Occurrence  int      `json:"occurrence,omitempty"`
	Added       []string `json:"analysis_added,omitempty"`
	Replaced    []string `json:"analysis_replaced,omitempty"`
	Kept        []string `json:"kept_with_occurrence,omitempty"`
	Supersedes  string   `json:"supersedes,omitempty"`
	Redacted    int      `json:"redacted,omitempty"`
	Note        string   `json:"note,omitempty"`
}

func record(ctx context.Context, c tool.Call, req memories.AddRequest) (string, any, error) {
	r, err := c.Memory.Record(ctx, c.Agent, req)
	if err != nil {
		return "", nil, err
	}
	out := recordedOut{ID: r.Entry.ID.String(), Type: string(r.Entry.Type), Title: r.Entry.Title, Counted: r.Counted,
		Added: r.Added, Replaced: r.Replaced, Kept: r.Kept, Redacted: r.Redacted, Note: r.EmbedError}
	if r.Entry.Type == memory.Mistake {
		out.Occurrences = r.Entry.Occurrences
	}
	if r.Counted {
		out.Occurrence = r.Occurrence
	}
	if r.Superseded != 0 {
		out.Supersedes = r.Superseded.String()
	}
	text := fmt.Sprintf("Recorded %s %s: %s", r.Entry.Type, r.Entry.ID, r.Entry.Title)
	if r.Counted {
		text = fmt.Sprintf("Known mistake: recorded as occurrence %d of %s (%s)", r.Occurrence, r.Entry.ID, r.Entry.Title)
		switch {
		case len(r.Replaced) > 0:
			text += "; replaced its " + strings.Join(r.Replaced, ", ")
		case len(r.Kept) > 0:
			text += "; its first analysis is kept, your " + strings.Join(r.Kept, ", ") + " is stored with this occurrence (replace_analysis true replaces it)"
		default:
			text += "; analysis kept"
		}
		if len(r.Added) > 0 {
			text += "; added " + strings.Join(r.Added, ", ")
		}
		text += ". memory_get " + r.Entry.ID.String() + " shows its occurrences."
	}
	if r.Superseded != 0 {
		text += fmt.Sprintf("\n%s is now superseded by %s: kept, left out of search.", r.Superseded, r.Entry.ID)
	}
	if r.Redacted > 0 {
		text += "\nRedacted " + words.Plural(r.Redacted, "private span or secret", "private spans or secrets") + " before storing."
	}
	if r.EmbedError != "" {
		text += "\nnote: " + r.EmbedError
	}
	return text, out, nil
}

func addDecision(ctx context.Context, c tool.Call, in addDecisionArgs) (string, any, error) {
	r := in.entry(memory.Decision)
	r.Entry.Rationale, r.Entry.Alternatives = in.Rationale, in.Alternatives
	return record(ctx, c, r)
}

func addMistake(ctx context.Context, c tool.Call, in addMistakeArgs) (string, any, error) {
	r := in.entry(memory.Mistake)
	r.Entry.RootCause, r.Entry.Fix, r.Entry.Prevention = in.RootCause, in.Fix, in.Prevention
	r.ReplaceAnalysis = in.ReplaceAnalysis
	return record(ctx, c, r)
}

func addConvention(ctx context.Context, c tool.Call, in addConventionArgs) (string, any, error) {
	r := in.entry(memory.Convention)
	r.Entry.Examples = in.Examples
	return record(ctx, c, r)
}

// EnumFix points a type with a tool of its own (decision, mistake,
// convention), which the schema's enum leaves out, to that tool.
func (observationArgs) EnumFix(name, value string) string {
	if t := memory.Type(strings.ToLower(value)); name == "type" && t.Valid() {
		return "use memory_add_" + string(t) + " for a " + string(t) + ", which keeps its own fields"
	}
	return ""
}

func addObservation(ctx context.Context, c tool.Call, in observationArgs) (string, any, error) {
	r := in.entry(memory.Type(in.Type)) // an observation type: decodeArgs checked it against the schema's enum
	r.Entry.DiscoveryTokens, r.ExpiresInDays = in.DiscoveryTokens, in.ExpiresInDays
	return record(ctx, c, r)
}

type pruneOut struct {
	DryRun  bool             `json:"dry_run"`
	Total   int              `json:"total"`
	Deleted int              `json:"deleted"`
	Entries []render.HitView `json:"entries"`
}

func memoryPrune(ctx context.Context, c tool.Call, in memoryPruneArgs) (string, any, error) {
	dry := in.DryRun == nil || *in.DryRun
	p, err := c.Memory.Prune(ctx, memories.PruneQuery{IDs: in.IDs, Types: in.Type, OlderThanDays: in.OlderThanDays, DryRun: dry})
	if err != nil {
		return "", nil, err
	}
	out := pruneOut{DryRun: dry, Total: p.Total, Deleted: p.Deleted, Entries: []render.HitView{}}
	for _, e := range p.Entries {
		out.Entries = append(out.Entries, render.HitOf(memories.Hit{ID: e.ID, Type: e.Type, Title: e.Title, CreatedAt: e.CreatedAt}))
	}
	return out.text(), out, nil
}

// text says what a prune removed, or would remove, and lists it.
func (o pruneOut) text() string {
	var lines []string
	switch {
	case o.Total == 0:
		lines = append(lines, "Nothing matches; nothing removed.")
	case o.DryRun:
		them := "them"
		if o.Total == 1 {
			them = "it"
		}
		lines = append(lines, fmt.Sprintf("Dry run: %s would be removed. Call again with dry_run false to remove %s.", words.Plural(o.Total, "entry", "entries"), them))
	default:
		lines = append(lines, fmt.Sprintf("Removed %s.", words.Plural(o.Deleted, "entry", "entries")))
	}
	for _, h := range o.Entries {
		lines = append(lines, render.HitLine(h))
	}
	if o.Total > len(o.Entries) {
		lines = append(lines, fmt.Sprintf("… and %d more", o.Total-len(o.Entries)))
	}
	return strings.Join(lines, "\n")
}

type diagnoseOut struct {
	ReadAs       readAs          `json:"read_as"`
	Matches      []diagnoseMatch `json:"matches"`
	SameTypeOnly []string        `json:"same_type_only,omitempty"`
	Note         string          `json:"note,omitempty"`
}

// readAs is how diagnose_error read the error.
type readAs struct {
	Types []string `json:"types,omitempty"`
	Names []string `json:"names,omitempty"`
}

// diagnoseMatch is a similar past entry: a mistake, or a failed command a
// hook recorded, and why it is similar.
type diagnoseMatch struct {
	render.EntryView
	Source string `json:"source"` // "mistake" or "recorded_failure"
	Why    string `json:"why"`
	// FailureLine is the failure of the session record that matched, where
	// one did rather than the entry's last error text.
	FailureLine string `json:"failure_line,omitempty"`
	// Resolved is the day a later run of the command passed.
	Resolved string `json:"resolved,omitempty"`
}

func DiagnoseError(ctx context.Context, c tool.Call, in DiagnoseArgs) (string, any, error) {
	d, err := c.Memory.Diagnose(ctx, memories.DiagnoseQuery{Error: in.Error, Limit: in.Limit})
	if err != nil {
		return "", nil, err
	}
	out := diagnoseOut{Matches: []diagnoseMatch{}, Note: d.Note, ReadAs: readAs{Types: d.Read.Types}}
	for _, n := range d.Read.Names[:min(len(d.Read.Names), 3)] {
		out.ReadAs.Names = append(out.ReadAs.Names, d.Read.Shown(n))
	}
	read := "no known error type"
	if len(out.ReadAs.Types) > 0 {
		read = strings.Join(out.ReadAs.Types, ", ")
	}
	if len(out.ReadAs.Names) > 0 {
		read += "; naming " + strings.Join(out.ReadAs.Names, ", ")
	}
	if len(d.Matches) == 0 {
		for _, id := range d.SameTypeOnly {
			out.SameTypeOnly = append(out.SameTypeOnly, id.String())
		}
		lines := []string{fmt.Sprintf("No similar past mistake or recorded failure (read as %s; %s compared).", read, words.Plural(d.Compared, "entry", "entries"))}
		if len(out.SameTypeOnly) > 0 {
			lines = append(lines, strings.Join(out.SameTypeOnly, ", ")+" state the same type of error but share nothing else distinctive with it: not similar.")
		}
		lines = append(lines, "Once fixed, record it with memory_add_mistake (its key line as the title, with root_cause and fix) so that the next one is found.")
		if d.Note != "" {
			lines = append(lines, "note: "+d.Note)
		}
		return strings.Join(lines, "\n"), out, nil
	}
	failures := 0
	for _, m := range d.Matches {
		if m.Failure {
			failures++
		}
	}
	var head string
	switch failures {
	case 0:
		head = words.Plural(len(d.Matches), "similar past mistake", "similar past mistakes")
	case len(d.Matches):
		head = words.Plural(failures, "similar recorded failure", "similar recorded failures")
	default:
		head = fmt.Sprintf("%d similar: %s and %s", len(d.Matches), words.Plural(len(d.Matches)-failures, "past mistake", "past mistakes"),
			words.Plural(failures, "recorded failure", "recorded failures"))
	}
	parts := []string{fmt.Sprintf("%s, best first (read as %s):", head, read)}
	for _, m := range d.Matches {
		e, clipped := clipEntry(m.Entry, diagnoseClip, diagnoseItems)
		o := diagnoseMatch{EntryView: render.EntryOf(e), Source: "mistake", Why: m.Why()}
		head, body, _ := strings.Cut(render.Entry(e), "\n")
		if m.Failure {
			o.Source = "recorded_failure"
			head = fmt.Sprintf("%s recorded failure (a failed command a hook recorded, not yet a confirmed mistake): %s", e.ID, e.Title)
		}
		text := head + "\nsimilar: " + o.Why
		if m.Event != nil {
			o.FailureLine = m.Event.Detail
			text += "\nits failure: " + m.Event.Detail
		}
		if !m.Resolved.IsZero() {
			o.Resolved = m.Resolved.Format(time.DateOnly)
			text += "\nresolved " + o.Resolved + ": a later run of the command passed"
		}
		if body != "" {
			text += "\n" + body
		}
		if clipped {
			o.Clipped = fmt.Sprintf("texts clipped at %d bytes, lists at %d items; memory_get %s shows it whole", diagnoseClip, diagnoseItems, e.ID)
			text += "\n(" + o.Clipped + ")"
		}
		out.Matches = append(out.Matches, o)
		parts = append(parts, text)
	}
	if failures == len(d.Matches) {
		parts = append(parts, "No confirmed mistake with a fix matches: once fixed, record it with memory_add_mistake.")
	}
	return strings.Join(parts, "\n\n"), out, nil
}

// How much of each past mistake diagnose_error shows: an entry may hold 64
// KiB of content and lists of 50 items, and a few of them are an answer no
// agent can afford. memory_get shows an entry whole.
const (
	diagnoseClip  = 500 // bytes of each text, and of each list item
	diagnoseItems = 5   // items of each list
)

// clipEntry is e with its texts clipped at n bytes and its lists at items
// (each item at n bytes), and whether anything was left out.
func clipEntry(e memory.Entry, n, items int) (memory.Entry, bool) {
	clipped := false
	for _, s := range []*string{&e.Content, &e.Rationale, &e.RootCause, &e.Fix, &e.Prevention} {
		if len(*s) > n {
			*s, clipped = problem.Clip(*s, n), true
		}
	}
	for _, l := range []*[]string{&e.Facts, &e.Files, &e.Alternatives, &e.Examples} {
		if len(*l) > items {
			*l, clipped = (*l)[:items:items], true
		}
		var c []string
		for i, x := range *l {
			if len(x) > n {
				if c == nil {
					c = append([]string(nil), (*l)...)
				}
				c[i], clipped = problem.Clip(x, n), true
			}
		}
		if c != nil {
			*l = c
		}
	}
	return e, clipped
}
