// Package session declares the session toolset: working sessions and
// git-branch context.
package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
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

// The session toolset: working sessions, threaded across reconnects, and
// the context of git branches, each one multi-action tool.

type noteArg struct {
	Decision  string `json:"decision"`
	Reasoning string `json:"reasoning,omitempty"`
}

type resolvedArg struct {
	Error string `json:"error"`
	Fix   string `json:"fix,omitempty"`
}

type aiArg struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Client   string `json:"client,omitempty"`
	Version  string `json:"version,omitempty"`
}

// recordArgs is what session update/end and branch save add.
type recordArgs struct {
	Decisions      []noteArg       `json:"decisions,omitempty"`
	ErrorsResolved []resolvedArg   `json:"errors_resolved,omitempty"`
	FilesModified  tool.StringList `json:"files_modified,omitempty"`
	TasksCompleted tool.IDList     `json:"tasks_completed,omitempty"`
	TasksPending   *tool.IDList    `json:"tasks_pending,omitempty" jsonschema:"replaces the list"`
}

func (r recordArgs) notes() ([]memory.Note, []memory.Resolved) {
	var ns []memory.Note
	for _, d := range r.Decisions {
		ns = append(ns, memory.Note{Decision: d.Decision, Reasoning: d.Reasoning})
	}
	var rs []memory.Resolved
	for _, e := range r.ErrorsResolved {
		rs = append(rs, memory.Resolved{Error: e.Error, Fix: e.Fix})
	}
	return ns, rs
}

func (r recordArgs) pending() []string {
	if r.TasksPending == nil {
		return nil
	}
	if *r.TasksPending == nil {
		return []string{}
	}
	return *r.TasksPending
}

type SessionArgs struct {
	tool.Sent
	Action          string `json:"action"`
	SessionID       string `json:"session_id,omitempty" jsonschema:"default: this agent's open session"`
	ParentSessionID string `json:"parent_session_id,omitempty" jsonschema:"start: continue this session's thread"`
	Branch          string `json:"branch,omitempty" jsonschema:"start: default the current git branch; list: filter"`
	Goal            string `json:"goal,omitempty"`
	AI              *aiArg `json:"ai,omitempty" jsonschema:"provider, model, client"`
	recordArgs
	Outcome  string `json:"outcome,omitempty" jsonschema:"end: success (default), partial, failed, abandoned"`
	Summary  string `json:"summary,omitempty"`
	ThreadID string `json:"thread_id,omitempty" jsonschema:"list: one thread"`
	OpenOnly bool   `json:"open_only,omitempty" jsonschema:"list: open sessions only"`
	Offset   int    `json:"offset,omitempty"`
	Limit    int    `json:"limit,omitempty" jsonschema:"default 20"`
}

type BranchArgs struct {
	tool.Sent
	Action  string `json:"action"`
	Branch  string `json:"branch,omitempty" jsonschema:"default the current git branch"`
	Into    string `json:"into,omitempty" jsonschema:"merge: the branch it merges into"`
	Feature string `json:"feature,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Notes   string `json:"notes,omitempty"`
	Offset  int    `json:"offset,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	recordArgs
}

func (a SessionArgs) Verb() string { return a.Action }
func (a BranchArgs) Verb() string  { return a.Action }

// recordFields are the arguments that add to a session's record.
var recordFields = []string{"decisions", "errors_resolved", "files_modified", "tasks_completed", "tasks_pending", "goal", "summary", "ai"}

func Tools() []tool.Tool {
	const ts = "session"
	// Nested objects are described rather than spelled out: the decoder
	// still checks them field by field, and every tool's schema stays cheap.
	recordShape := func(s *jsonschema.Schema) {
		s.Properties["decisions"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object"}, Description: "[{decision, reasoning}]"}
		s.Properties["errors_resolved"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object"}, Description: "[{error, fix}]"}
		if s.Properties["ai"] != nil {
			s.Properties["ai"] = &jsonschema.Schema{Type: "object", Description: "{provider, model, client, version}"}
		}
	}
	return []tool.Tool{
		tool.DeclareActions(ts, mcp.Tool{Name: "session",
			Description: "Working session: start (threads onto the agent's last one), update (record decisions, fixes, files, tasks), end (outcome; folds into the branch), get, list."},
			[]tool.Action[SessionArgs]{
				{Name: "start", Args: append(slices.Clone(recordFields), "parent_session_id", "branch"), Run: sessionStart},
				{Name: "update", Args: append(slices.Clone(recordFields), "session_id"), Run: sessionUpdate},
				{Name: "end", Args: append(slices.Clone(recordFields), "session_id", "outcome"), Run: sessionEnd},
				{Name: "get", Args: []string{"session_id", "limit"}, ReadOnly: true, Run: SessionGet},
				{Name: "list", Args: []string{"thread_id", "branch", "open_only", "offset", "limit"}, ReadOnly: true, Run: SessionList},
			},
			tool.Enum("outcome", tool.EnumValues(memory.Outcomes)...), tool.Minimum("offset", 0), tool.Bounds("limit", 1, float64(max(page.Session.Max, page.Record.Max))), recordShape),
		tool.DeclareActions(ts, mcp.Tool{Name: "branch",
			Description: "Git-branch context: get, save (add to it), promote (decisions into permanent memory), list, merge (into another branch)."},
			[]tool.Action[BranchArgs]{
				{Name: "get", Args: []string{"branch", "offset", "limit"}, ReadOnly: true, Run: BranchGet},
				{Name: "save", Args: []string{"branch", "feature", "phase", "notes", "decisions", "errors_resolved", "files_modified", "tasks_completed", "tasks_pending"}, Run: branchSave},
				{Name: "promote", Args: []string{"branch"}, Run: branchPromote},
				{Name: "list", ReadOnly: true, Run: BranchList},
				{Name: "merge", Args: []string{"branch", "into"}, Run: branchMerge},
			},
			tool.Minimum("offset", 0), tool.Bounds("limit", 1, float64(page.Record.Max)), recordShape),
	}
}

func (in SessionArgs) patch() memories.SessionPatch {
	ns, rs := in.notes()
	p := memories.SessionPatch{Goal: in.Goal, Decisions: ns, ErrorsResolved: rs, FilesModified: in.FilesModified,
		TasksCompleted: in.TasksCompleted, TasksPending: in.pending(), Outcome: strings.TrimSpace(in.Outcome), Summary: in.Summary}
	if in.AI != nil {
		p.AI = memory.Provider{Provider: strings.TrimSpace(in.AI.Provider), Model: strings.TrimSpace(in.AI.Model), Client: strings.TrimSpace(in.AI.Client), Version: strings.TrimSpace(in.AI.Version)}
	}
	return p
}

type sessionOut struct {
	Session    *render.SessionView   `json:"session,omitempty"`
	Sessions   []render.SessionBrief `json:"sessions,omitempty"`
	Total      int                   `json:"total,omitempty"`
	NextOffset int                   `json:"next_offset,omitempty"`
	Previous   string                `json:"previous_ended,omitempty"`
	Redacted   int                   `json:"redacted,omitempty"`
}

func sessionStart(ctx context.Context, c tool.Call, in SessionArgs) (string, any, error) {
	res, err := c.Memory.StartSession(ctx, c.Agent, in.ParentSessionID, in.Branch, in.patch())
	if err != nil {
		return "", nil, err
	}
	text, out := sessionChanged("Started", res)
	if res.Previous != 0 {
		text += fmt.Sprintf("\n(ended this agent's open session %s)", res.Previous)
	}
	return text, out, nil
}

func sessionUpdate(ctx context.Context, c tool.Call, in SessionArgs) (string, any, error) {
	res, err := c.Memory.UpdateSession(ctx, c.Agent, in.SessionID, in.patch())
	if err != nil {
		return "", nil, err
	}
	text, out := sessionChanged("Updated", res)
	return text, out, nil
}

func sessionEnd(ctx context.Context, c tool.Call, in SessionArgs) (string, any, error) {
	res, err := c.Memory.EndSession(ctx, c.Agent, in.SessionID, in.patch())
	if err != nil {
		return "", nil, err
	}
	text, out := sessionChanged("Ended", res)
	return text, out, nil
}

// sessionChangedOut is a session just started, updated or ended, in brief:
// its record grows with each update, and the answer to each carried it
// whole; session get shows it.
type sessionChangedOut struct {
	Session  *render.SessionBrief `json:"session"`
	Previous string               `json:"previous_ended,omitempty"`
	Redacted int                  `json:"redacted,omitempty"`
}

// sessionChanged renders a session just started, updated or ended.
func sessionChanged(verb string, res memories.SessionResult) (string, sessionChangedOut) {
	v := render.BriefOf(res.Session)
	out := sessionChangedOut{Session: &v, Redacted: res.Redacted, Previous: res.Previous.String()}
	text := verb + " " + render.SessionLine(res.Session)
	if verb != "Started" {
		text += " (session get shows its record)"
	}
	if res.Redacted > 0 {
		text += "\nRedacted " + words.Plural(res.Redacted, "private span or secret", "private spans or secrets") + " before storing."
	}
	return text, out
}

func SessionGet(ctx context.Context, c tool.Call, in SessionArgs) (string, any, error) {
	s, err := c.Memory.Session(ctx, c.Agent, in.SessionID, page.Page{Offset: in.Offset, Limit: in.Limit})
	if err != nil {
		return "", nil, err
	}
	v := render.SessionViewOf(s)
	return render.Session(s), sessionOut{Session: &v}, nil
}

func SessionList(ctx context.Context, c tool.Call, in SessionArgs) (string, any, error) {
	l, err := c.Memory.Sessions(ctx, memories.SessionQuery{ThreadID: in.ThreadID, Branch: in.Branch, OpenOnly: in.OpenOnly,
		Page: page.Page{Offset: in.Offset, Limit: in.Limit}})
	if err != nil {
		return "", nil, err
	}
	out := sessionOut{Sessions: []render.SessionBrief{}, Total: l.Total, NextOffset: l.NextOffset}
	lines := []string{fmt.Sprintf("%d of %s:", len(l.Sessions), words.Plural(l.Total, "session", "sessions"))}
	if l.Total == 0 {
		lines = []string{"No sessions match."}
	}
	for _, s := range l.Sessions {
		out.Sessions = append(out.Sessions, render.BriefOf(s))
		lines = append(lines, render.SessionLine(s))
	}
	if l.NextOffset != 0 {
		lines = append(lines, fmt.Sprintf("(next offset %d)", l.NextOffset))
	}
	for _, s := range l.Sessions {
		if len(s.Goal) > render.SessionListClip || len(s.Summary) > render.SessionListClip {
			lines = append(lines, fmt.Sprintf("(goals and summaries clipped at %d bytes; session get with session_id shows one whole)", render.SessionListClip))
			break
		}
	}
	return strings.Join(lines, "\n"), out, nil
}

type branchOut struct {
	Branch   *branchView   `json:"branch,omitempty"`
	Branches []branchBrief `json:"branches,omitempty"`
	Promoted []string      `json:"promoted,omitempty"`
	// Totals and NextOffset: branch get shows a page of each list.
	Totals     *branchTotals `json:"totals,omitempty"`
	NextOffset int           `json:"next_offset,omitempty"`
	Already    int           `json:"already_promoted,omitempty"`
	Redacted   int           `json:"redacted,omitempty"`
}

func renderBranch(b memory.BranchContext) string {
	var s strings.Builder
	s.WriteString("branch " + b.Branch)
	if b.Feature != "" {
		s.WriteString(": " + b.Feature)
	}
	if b.Phase != "" {
		s.WriteString(" [" + b.Phase + "]")
	}
	if b.Sessions > 0 {
		s.WriteString(" · " + words.Plural(b.Sessions, "session", "sessions"))
	}
	if b.MergedInto != "" {
		s.WriteString(" · merged into " + b.MergedInto)
	}
	if !b.PromotedAt.IsZero() {
		s.WriteString(" · promoted " + b.PromotedAt.Format(time.DateOnly))
	}
	if b.Notes != "" {
		s.WriteString("\n" + b.Notes)
	}
	render.Record(&s, b.Decisions, b.Errors, b.FilesModified, b.TasksCompleted, b.TasksPending)
	return s.String()
}

func BranchGet(ctx context.Context, c tool.Call, in BranchArgs) (string, any, error) {
	pg, err := c.Memory.GetBranchPage(ctx, in.Branch, page.Page{Offset: in.Offset, Limit: in.Limit})
	if err != nil {
		return "", nil, err
	}
	b := pg.BranchContext
	v := viewBranch(b)
	out := branchOut{Branch: &v, NextOffset: pg.NextOffset}
	text := renderBranch(b)
	t := branchTotals{Decisions: pg.Decisions, ErrorsResolved: pg.Errors, FilesModified: pg.FilesModified,
		TasksCompleted: pg.TasksCompleted, TasksPending: pg.TasksPending}
	if t != (branchTotals{Decisions: len(b.Decisions), ErrorsResolved: len(b.Errors), FilesModified: len(b.FilesModified),
		TasksCompleted: len(b.TasksCompleted), TasksPending: len(b.TasksPending)}) {
		out.Totals = &t
		var of []string
		for _, c := range []struct {
			n        int
			one, any string
		}{{t.Decisions, "decision", "decisions"}, {t.ErrorsResolved, "error resolved", "errors resolved"},
			{t.FilesModified, "file modified", "files modified"}, {t.TasksCompleted, "task completed", "tasks completed"},
			{t.TasksPending, "task pending", "tasks pending"}} {
			if c.n > 0 {
				of = append(of, words.Plural(c.n, c.one, c.any))
			}
		}
		shown := max(len(b.Decisions), len(b.Errors), len(b.FilesModified), len(b.TasksCompleted), len(b.TasksPending))
		text += fmt.Sprintf("\n(the newest %d of each list", shown)
		if pg.Offset > 0 {
			text += fmt.Sprintf(" after the newest %d", pg.Offset)
		}
		text += " of " + strings.Join(of, ", ")
		if pg.NextOffset != 0 {
			text += fmt.Sprintf("; next offset %d shows older", pg.NextOffset)
		}
		text += ")"
	}
	return text, out, nil
}

// branchTotals are the whole lengths of a branch context's lists, when
// branch get shows a page of them.
type branchTotals struct {
	Decisions      int `json:"decisions"`
	ErrorsResolved int `json:"errors_resolved"`
	FilesModified  int `json:"files_modified"`
	TasksCompleted int `json:"tasks_completed"`
	TasksPending   int `json:"tasks_pending"`
}

func branchSave(ctx context.Context, c tool.Call, in BranchArgs) (string, any, error) {
	ns, rs := in.notes()
	b, red, err := c.Memory.SaveBranch(ctx, in.Branch, memories.BranchPatch{Feature: in.Feature, Phase: in.Phase, Notes: in.Notes,
		Decisions: ns, Errors: rs, FilesModified: in.FilesModified, TasksCompleted: in.TasksCompleted, TasksPending: in.pending()})
	if err != nil {
		return "", nil, err
	}
	text := "Saved " + branchLine(b)
	if red > 0 {
		text += "\nRedacted " + words.Plural(red, "private span or secret", "private spans or secrets") + " before storing."
	}
	v := briefBranch(b)
	return text, branchChangedOut{Branch: &v, Redacted: red}, nil
}

// branchChangedOut is a branch context just saved or merged into, in
// brief: it gathers every session's record on the branch, and the answer
// to each save carried it whole; branch get shows it.
type branchChangedOut struct {
	Branch   *branchBrief `json:"branch"`
	Redacted int          `json:"redacted,omitempty"`
}

// branchBrief is a branch context with its lists counted and its notes
// clipped.
type branchBrief struct {
	Branch         string `json:"branch"`
	Feature        string `json:"feature,omitempty"`
	Phase          string `json:"phase,omitempty"`
	Notes          string `json:"notes,omitempty"`
	Decisions      int    `json:"decisions,omitempty"`
	ErrorsResolved int    `json:"errors_resolved,omitempty"`
	FilesModified  int    `json:"files_modified,omitempty"`
	TasksCompleted int    `json:"tasks_completed,omitempty"`
	TasksPending   int    `json:"tasks_pending,omitempty"`
	Sessions       int    `json:"sessions,omitempty"`
	MergedInto     string `json:"merged_into,omitempty"`
	PromotedAt     string `json:"promoted_at,omitempty"`
	UpdatedAt      string `json:"updated_at"`
}

func briefBranch(b memory.BranchContext) branchBrief {
	return branchBrief{Branch: b.Branch, Feature: b.Feature, Phase: b.Phase, Notes: problem.Clip(b.Notes, render.SessionListClip),
		Decisions: len(b.Decisions), ErrorsResolved: len(b.Errors), FilesModified: len(b.FilesModified),
		TasksCompleted: len(b.TasksCompleted), TasksPending: len(b.TasksPending), Sessions: b.Sessions, MergedInto: b.MergedInto,
		PromotedAt: tool.Timestamp(b.PromotedAt), UpdatedAt: tool.Timestamp(b.UpdatedAt)}
}

// branchLine is a branch context's first line, then what its record holds,
// counted.
func branchLine(b memory.BranchContext) string {
	head, _, _ := strings.Cut(renderBranch(memory.BranchContext{Branch: b.Branch, Feature: b.Feature, Phase: b.Phase,
		Sessions: b.Sessions, MergedInto: b.MergedInto, PromotedAt: b.PromotedAt}), "\n")
	var n []string
	for _, c := range []struct {
		n        int
		one, any string
	}{{len(b.Decisions), "decision", "decisions"}, {len(b.Errors), "error resolved", "errors resolved"},
		{len(b.FilesModified), "file modified", "files modified"}, {len(b.TasksCompleted), "task completed", "tasks completed"},
		{len(b.TasksPending), "task pending", "tasks pending"}} {
		if c.n > 0 {
			n = append(n, words.Plural(c.n, c.one, c.any))
		}
	}
	if b.Notes != "" {
		head += "\n" + problem.Clip(b.Notes, render.SessionListClip)
	}
	if len(n) == 0 {
		return head
	}
	return head + "\n" + strings.Join(n, ", ") + " (branch get shows them)"
}

func branchPromote(ctx context.Context, c tool.Call, in BranchArgs) (string, any, error) {
	p, err := c.Memory.PromoteBranch(ctx, in.Branch)
	if err != nil {
		return "", nil, err
	}
	out := branchOut{Already: p.Already, Promoted: []string{}}
	lines := []string{fmt.Sprintf("Promoted %s from branch %s into permanent memory (%d already were).",
		words.Plural(len(p.Added), "entry", "entries"), p.Branch, p.Already)}
	for _, e := range p.Added {
		out.Promoted = append(out.Promoted, e.ID.String())
		lines = append(lines, fmt.Sprintf("%s %s: %s", e.ID, e.Type, e.Title))
	}
	return strings.Join(lines, "\n"), out, nil
}

func BranchList(ctx context.Context, c tool.Call, _ BranchArgs) (string, any, error) {
	bs, err := c.Memory.Branches(ctx)
	if err != nil {
		return "", nil, err
	}
	cur := c.Memory.Branch()
	out := branchOut{Branches: []branchBrief{}}
	lines := []string{words.Plural(len(bs), "branch context", "branch contexts") + ":"}
	if len(bs) == 0 {
		lines = []string{"No branch context saved yet."}
	}
	for _, b := range bs {
		mark := ""
		if b.Branch == cur {
			mark = " <-- current"
		}
		out.Branches = append(out.Branches, briefBranch(b))
		lines = append(lines, fmt.Sprintf("%s: %s, %s, updated %s%s", b.Branch, words.Plural(len(b.Decisions), "decision", "decisions"),
			words.Plural(b.Sessions, "session", "sessions"), b.UpdatedAt.Format(time.DateOnly), mark))
	}
	return strings.Join(lines, "\n"), out, nil
}

func branchMerge(ctx context.Context, c tool.Call, in BranchArgs) (string, any, error) {
	b, err := c.Memory.MergeBranch(ctx, in.Branch, in.Into)
	if err != nil {
		return "", nil, err
	}
	v := briefBranch(b)
	return "Merged into " + branchLine(b), branchChangedOut{Branch: &v}, nil
}

// strict decodes b into v, refusing unknown fields: a misspelt "reason" must
// not silently drop the reasoning.
func strict(b []byte, v any, field, shape string) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return &problem.FieldError{Field: field, Problem: "has an item that is not " + shape, Fix: "pass items shaped " + shape}
	}
	return nil
}

// UnmarshalJSON decodes one decision strictly.
func (n *noteArg) UnmarshalJSON(b []byte) error {
	type plain noteArg
	return strict(b, (*plain)(n), "decisions", `{"decision": "…", "reasoning": "…"}`)
}

// UnmarshalJSON decodes one resolved error strictly.
func (r *resolvedArg) UnmarshalJSON(b []byte) error {
	type plain resolvedArg
	return strict(b, (*plain)(r), "errors_resolved", `{"error": "…", "fix": "…"}`)
}

// UnmarshalJSON decodes the AI description strictly.
func (a *aiArg) UnmarshalJSON(b []byte) error {
	type plain aiArg
	return strict(b, (*plain)(a), "ai", `{"provider": "…", "model": "…", "client": "…", "version": "…"}`)
}

// The session tools speak snake_case on the wire, whatever the storage's
// JSON says: these views are what their structuredContent carries.

type branchView struct {
	Branch         string                `json:"branch"`
	Feature        string                `json:"feature,omitempty"`
	Phase          string                `json:"phase,omitempty"`
	Notes          string                `json:"notes,omitempty"`
	Decisions      []render.NoteView     `json:"decisions,omitempty"`
	ErrorsResolved []render.ResolvedView `json:"errors_resolved,omitempty"`
	FilesModified  []string              `json:"files_modified,omitempty"`
	TasksCompleted []string              `json:"tasks_completed,omitempty"`
	TasksPending   []string              `json:"tasks_pending,omitempty"`
	Sessions       int                   `json:"sessions,omitempty"`
	MergedInto     string                `json:"merged_into,omitempty"`
	PromotedAt     string                `json:"promoted_at,omitempty"`
	UpdatedAt      string                `json:"updated_at"`
}

func viewBranch(b memory.BranchContext) branchView {
	v := branchView{Branch: b.Branch, Feature: b.Feature, Phase: b.Phase, Notes: b.Notes, FilesModified: b.FilesModified,
		TasksCompleted: b.TasksCompleted, TasksPending: b.TasksPending, Sessions: b.Sessions, MergedInto: b.MergedInto,
		PromotedAt: tool.Timestamp(b.PromotedAt), UpdatedAt: tool.Timestamp(b.UpdatedAt)}
	v.Decisions, v.ErrorsResolved = render.NotesOf(b.Decisions, b.Errors)
	return v
}
