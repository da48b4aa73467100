package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store"
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
}

// recordArgs is what session update/end and branch save add.
type recordArgs struct {
	Decisions      []noteArg     `json:"decisions,omitempty"`
	ErrorsResolved []resolvedArg `json:"errors_resolved,omitempty"`
	FilesModified  StringList    `json:"files_modified,omitempty"`
	TasksCompleted StringList    `json:"tasks_completed,omitempty"`
	TasksPending   *StringList   `json:"tasks_pending,omitempty" jsonschema:"replaces the list"`
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

type sessionArgs struct {
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

type branchArgs struct {
	Action  string `json:"action"`
	Branch  string `json:"branch,omitempty" jsonschema:"default the current git branch"`
	Into    string `json:"into,omitempty" jsonschema:"merge: the branch it merges into"`
	Feature string `json:"feature,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Notes   string `json:"notes,omitempty"`
	recordArgs
}

var (
	sessionActions = []any{"start", "update", "end", "get", "list"}
	branchActions  = []any{"get", "save", "promote", "list", "merge"}
)

func sessionTools() []tool {
	const ts = "session"
	// Nested objects are described rather than spelled out: the decoder
	// still checks them field by field, and every tool's schema stays cheap.
	recordShape := func(s *jsonschema.Schema) {
		s.Properties["decisions"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object"}, Description: "[{decision, reasoning}]"}
		s.Properties["errors_resolved"] = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object"}, Description: "[{error, fix}]"}
		if s.Properties["ai"] != nil {
			s.Properties["ai"] = &jsonschema.Schema{Type: "object", Description: "{provider, model, client}"}
		}
	}
	return []tool{
		declare(ts, mcp.Tool{Name: "session", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)},
			Description: "Working session: start (threads onto the agent's last one), update (record decisions, fixes, files, tasks), end (outcome; folds into the branch), get, list."},
			sessionTool, enum("action", sessionActions...), enum("outcome", "success", "partial", "failed", "abandoned"),
			minimum("offset", 0), bounds("limit", 1, 50), recordShape),
		declare(ts, mcp.Tool{Name: "branch", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(false)},
			Description: "Git-branch context: get, save (add to it), promote (decisions into permanent memory), list, merge (into another branch)."},
			branchTool, enum("action", branchActions...), recordShape),
	}
}

// only refuses arguments that do not apply to the action, so a misplaced
// one is not silently dropped.
func only(action string, set map[string]bool, allowed ...string) error {
	ok := map[string]bool{"action": true}
	for _, a := range allowed {
		ok[a] = true
	}
	for name, present := range set {
		if present && !ok[name] {
			return &problem.FieldError{Field: name, Problem: "does not apply to action " + action,
				Fix: "leave it out, or use an action it applies to"}
		}
	}
	return nil
}

func parseSessionID(field, s string) (memory.SessionID, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	id, err := memory.ParseSessionID(s)
	if err != nil {
		return 0, &problem.FieldError{Field: field, Problem: fmt.Sprintf("is %s, not a session id", problem.Quote(s)),
			Fix: `pass an id such as "s4" (session with action list shows them)`}
	}
	return id, nil
}

type sessionOut struct {
	Session  *memory.Session  `json:"session,omitempty"`
	Sessions []memory.Session `json:"sessions,omitempty"`
	Total    int              `json:"total,omitempty"`
	Previous string           `json:"previous_ended,omitempty"`
	Redacted int              `json:"redacted,omitempty"`
}

func sessionTool(ctx context.Context, c call, in sessionArgs) (string, any, error) {
	set := map[string]bool{
		"session_id": in.SessionID != "", "parent_session_id": in.ParentSessionID != "", "branch": in.Branch != "",
		"goal": in.Goal != "", "ai": in.AI != nil, "decisions": len(in.Decisions) > 0, "errors_resolved": len(in.ErrorsResolved) > 0,
		"files_modified": len(in.FilesModified) > 0, "tasks_completed": len(in.TasksCompleted) > 0, "tasks_pending": in.TasksPending != nil,
		"outcome": in.Outcome != "", "summary": in.Summary != "", "thread_id": in.ThreadID != "", "open_only": in.OpenOnly,
		"offset": in.Offset != 0, "limit": in.Limit != 0,
	}
	record := []string{"decisions", "errors_resolved", "files_modified", "tasks_completed", "tasks_pending", "goal", "summary", "ai"}
	id, err := parseSessionID("session_id", in.SessionID)
	if err != nil {
		return "", nil, err
	}
	patch := func() service.SessionPatch {
		ns, rs := in.notes()
		p := service.SessionPatch{Goal: in.Goal, Decisions: ns, ErrorsResolved: rs, FilesModified: in.FilesModified,
			TasksCompleted: in.TasksCompleted, TasksPending: in.pending(), Outcome: strings.TrimSpace(in.Outcome), Summary: in.Summary}
		if in.AI != nil {
			p.AI = memory.Provider{Provider: strings.TrimSpace(in.AI.Provider), Model: strings.TrimSpace(in.AI.Model), Client: strings.TrimSpace(in.AI.Client)}
		}
		return p
	}
	var (
		res  service.SessionResult
		verb string
	)
	switch in.Action {
	case "start":
		if err := only(in.Action, set, append(record, "parent_session_id", "branch")...); err != nil {
			return "", nil, err
		}
		parent, err := parseSessionID("parent_session_id", in.ParentSessionID)
		if err != nil {
			return "", nil, err
		}
		if res, err = c.Memory.StartSession(ctx, c.agent, parent, strings.TrimSpace(in.Branch), patch()); err != nil {
			return "", nil, err
		}
		verb = "Started"
	case "update", "end":
		allowed := append(record, "session_id")
		if in.Action == "end" {
			allowed = append(allowed, "outcome")
		}
		if err := only(in.Action, set, allowed...); err != nil {
			return "", nil, err
		}
		if in.Action == "update" {
			res, err = c.Memory.UpdateSession(ctx, c.agent, id, patch())
			verb = "Updated"
		} else {
			res, err = c.Memory.EndSession(ctx, c.agent, id, patch())
			verb = "Ended"
		}
		if err != nil {
			return "", nil, err
		}
	case "get":
		if err := only(in.Action, set, "session_id"); err != nil {
			return "", nil, err
		}
		s, err := c.Memory.Session(ctx, c.agent, id)
		if err != nil {
			return "", nil, err
		}
		return renderSession(s), sessionOut{Session: &s}, nil
	case "list":
		if err := only(in.Action, set, "thread_id", "branch", "open_only", "offset", "limit"); err != nil {
			return "", nil, err
		}
		if err := checkPage(pageArgs{Offset: in.Offset, Limit: in.Limit}, 50); err != nil {
			return "", nil, err
		}
		thread, err := parseSessionID("thread_id", in.ThreadID)
		if err != nil {
			return "", nil, err
		}
		list, total, err := c.Memory.Sessions(ctx, store.SessionQuery{ThreadID: thread, Branch: strings.TrimSpace(in.Branch), OpenOnly: in.OpenOnly, Offset: in.Offset, Limit: in.Limit})
		if err != nil {
			return "", nil, err
		}
		lines := []string{fmt.Sprintf("%d session(s) of %d:", len(list), total)}
		if total == 0 {
			lines = []string{"No sessions match."}
		}
		for _, s := range list {
			lines = append(lines, sessionLine(s))
		}
		if list == nil {
			list = []memory.Session{}
		}
		return strings.Join(lines, "\n"), sessionOut{Sessions: list, Total: total}, nil
	default:
		return "", nil, &problem.FieldError{Field: "action", Problem: fmt.Sprintf("is %s", problem.Quote(in.Action)), Fix: "use start, update, end, get or list"}
	}
	out := sessionOut{Session: &res.Session, Redacted: res.Redacted, Previous: res.Previous.String()}
	text := verb + " " + sessionLine(res.Session)
	if res.Previous != 0 && in.Action == "start" {
		text += fmt.Sprintf("\n(ended this agent's open session %s)", res.Previous)
	}
	if res.Redacted > 0 {
		text += fmt.Sprintf("\nRedacted %d private span(s) or secret(s) before storing.", res.Redacted)
	}
	return text, out, nil
}

// sessionLine is a session in one line.
func sessionLine(s memory.Session) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", s.ID)
	if s.ThreadID != s.ID {
		fmt.Fprintf(&b, " (thread %s)", s.ThreadID)
	}
	state := "open"
	if !s.Open() {
		state = s.Outcome
	}
	fmt.Fprintf(&b, " %s %s", state, s.StartedAt.Format("2006-01-02 15:04"))
	if s.Branch != "" {
		b.WriteString(" on " + s.Branch)
	}
	if s.Goal != "" {
		b.WriteString(": " + s.Goal)
	}
	if n := len(s.Decisions); n > 0 {
		fmt.Fprintf(&b, " [%d decisions]", n)
	}
	return b.String()
}

func renderSession(s memory.Session) string {
	var b strings.Builder
	b.WriteString(sessionLine(s))
	if s.ParentID != 0 {
		b.WriteString("\nparent: " + s.ParentID.String())
	}
	if s.AI != (memory.Provider{}) {
		fmt.Fprintf(&b, "\nai: %s %s via %s", s.AI.Provider, s.AI.Model, s.AI.Client)
	}
	if !s.Open() {
		fmt.Fprintf(&b, "\nended %s (%s)", s.EndedAt.Format(time.RFC3339), s.EndedAt.Sub(s.StartedAt).Round(time.Second))
	}
	if s.Summary != "" {
		b.WriteString("\n" + s.Summary)
	}
	renderRecord(&b, s.Decisions, s.ErrorsResolved, s.FilesModified, s.TasksCompleted, s.TasksPending)
	return b.String()
}

func renderRecord(b *strings.Builder, ds []memory.Note, rs []memory.Resolved, files, done, pending []string) {
	if len(ds) > 0 {
		b.WriteString("\ndecisions:")
		for _, d := range ds {
			b.WriteString("\n- " + d.Decision)
			if d.Reasoning != "" {
				b.WriteString(" (because " + d.Reasoning + ")")
			}
		}
	}
	if len(rs) > 0 {
		b.WriteString("\nerrors resolved:")
		for _, r := range rs {
			b.WriteString("\n- " + r.Error)
			if r.Fix != "" {
				b.WriteString(" → " + r.Fix)
			}
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{"files modified", files}, {"tasks completed", done}, {"tasks pending", pending}} {
		if len(l.items) > 0 {
			b.WriteString("\n" + l.name + ": " + strings.Join(l.items, ", "))
		}
	}
}

type branchOut struct {
	Branch   *memory.BranchContext  `json:"branch,omitempty"`
	Branches []memory.BranchContext `json:"branches,omitempty"`
	Promoted []string               `json:"promoted,omitempty"`
	Already  int                    `json:"already_promoted,omitempty"`
	Redacted int                    `json:"redacted,omitempty"`
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
		fmt.Fprintf(&s, " · %d sessions", b.Sessions)
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
	renderRecord(&s, b.Decisions, b.Errors, b.FilesModified, b.TasksCompleted, b.TasksPending)
	return s.String()
}

func branchTool(ctx context.Context, c call, in branchArgs) (string, any, error) {
	set := map[string]bool{
		"branch": in.Branch != "", "into": in.Into != "", "feature": in.Feature != "", "phase": in.Phase != "", "notes": in.Notes != "",
		"decisions": len(in.Decisions) > 0, "errors_resolved": len(in.ErrorsResolved) > 0, "files_modified": len(in.FilesModified) > 0,
		"tasks_completed": len(in.TasksCompleted) > 0, "tasks_pending": in.TasksPending != nil,
	}
	switch in.Action {
	case "get":
		if err := only(in.Action, set, "branch"); err != nil {
			return "", nil, err
		}
		b, err := c.Memory.GetBranch(ctx, in.Branch)
		if err != nil {
			return "", nil, err
		}
		return renderBranch(b), branchOut{Branch: &b}, nil
	case "save":
		if err := only(in.Action, set, "branch", "feature", "phase", "notes", "decisions", "errors_resolved", "files_modified", "tasks_completed", "tasks_pending"); err != nil {
			return "", nil, err
		}
		ns, rs := in.notes()
		b, red, err := c.Memory.SaveBranch(ctx, in.Branch, service.BranchPatch{Feature: in.Feature, Phase: in.Phase, Notes: in.Notes,
			Decisions: ns, Errors: rs, FilesModified: in.FilesModified, TasksCompleted: in.TasksCompleted, TasksPending: in.pending()})
		if err != nil {
			return "", nil, err
		}
		text := "Saved " + renderBranch(b)
		if red > 0 {
			text += fmt.Sprintf("\nRedacted %d private span(s) or secret(s) before storing.", red)
		}
		return text, branchOut{Branch: &b, Redacted: red}, nil
	case "promote":
		if err := only(in.Action, set, "branch"); err != nil {
			return "", nil, err
		}
		p, err := c.Memory.PromoteBranch(ctx, in.Branch)
		if err != nil {
			return "", nil, err
		}
		out := branchOut{Already: p.Already, Promoted: []string{}}
		lines := []string{fmt.Sprintf("Promoted %d entries from branch %s into permanent memory (%d already were).", len(p.Added), p.Branch, p.Already)}
		for _, e := range p.Added {
			out.Promoted = append(out.Promoted, e.ID.String())
			lines = append(lines, fmt.Sprintf("%s %s: %s", e.ID, e.Type, e.Title))
		}
		return strings.Join(lines, "\n"), out, nil
	case "list":
		if err := only(in.Action, set); err != nil {
			return "", nil, err
		}
		bs, err := c.Memory.Branches(ctx)
		if err != nil {
			return "", nil, err
		}
		cur := c.Memory.Branch()
		lines := []string{fmt.Sprintf("%d branch context(s):", len(bs))}
		if len(bs) == 0 {
			lines = []string{"No branch context saved yet."}
		}
		for _, b := range bs {
			mark := ""
			if b.Branch == cur {
				mark = " <-- current"
			}
			lines = append(lines, fmt.Sprintf("%s: %d decisions, %d sessions, updated %s%s", b.Branch, len(b.Decisions), b.Sessions, b.UpdatedAt.Format(time.DateOnly), mark))
		}
		if bs == nil {
			bs = []memory.BranchContext{}
		}
		return strings.Join(lines, "\n"), branchOut{Branches: bs}, nil
	case "merge":
		if err := only(in.Action, set, "branch", "into"); err != nil {
			return "", nil, err
		}
		if strings.TrimSpace(in.Into) == "" {
			return "", nil, &problem.FieldError{Field: "into", Problem: "is required for action merge", Fix: "pass the branch it merges into, such as main"}
		}
		b, err := c.Memory.MergeBranch(ctx, in.Branch, in.Into)
		if err != nil {
			return "", nil, err
		}
		return "Merged into " + renderBranch(b), branchOut{Branch: &b}, nil
	}
	return "", nil, &problem.FieldError{Field: "action", Problem: fmt.Sprintf("is %s", problem.Quote(in.Action)), Fix: "use get, save, promote, list or merge"}
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
	return strict(b, (*plain)(a), "ai", `{"provider": "…", "model": "…", "client": "…"}`)
}
