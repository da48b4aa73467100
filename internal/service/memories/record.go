package memories

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/words"
)

// ToolUse is one tool call an agent made, as a post-tool-use hook saw it.
type ToolUse struct {
	Agent string
	Tool  string
	// Files the call modified (absolute, or relative to the root); files
	// outside the project are not recorded.
	Files []string
	// Command is the shell command it ran, if any.
	Command string
	Failed  bool
	Error   string // what the failure said
}

// ToolUseRecorded says what RecordToolUse kept.
type ToolUseRecorded struct {
	Session   memory.SessionID
	Files     []string
	Test      bool      // the command ran tests
	Candidate memory.ID // the mistake candidate a failed command became
}

// Limits on what a hook records.
const (
	maxHookCommand = 200
	maxHookError   = 2000
	maxFailed      = 50
)

// RecordToolUse adds what one tool call did to the agent's open session
// (starting one if none is open): files modified, tests run, and for a
// failed command a mistake candidate (a tool_outcome entry tagged
// mistake-candidate, with the error text) to confirm or discard. All text
// is redacted first.
func (m *Memory) RecordToolUse(ctx context.Context, in ToolUse) (ToolUseRecorded, error) {
	var out ToolUseRecorded
	for _, f := range in.Files {
		if rel, ok := m.relative(f); ok {
			out.Files = append(out.Files, rel)
		}
	}
	cmd, _ := memory.Redact(strings.TrimSpace(in.Command))
	cmd = words.OneLine(cmd, maxHookCommand)
	errText, _ := memory.Redact(strings.TrimSpace(in.Error))
	out.Test = cmd != "" && IsTestCommand(cmd)
	if len(out.Files) == 0 && !out.Test && !in.Failed {
		return out, nil // nothing worth a write
	}
	now := m.now()
	var added []memory.Entry
	err := m.store.Update(ctx, func(tx store.Tx) error {
		s, err := m.openSession(ctx, tx, in.Agent, now)
		if err != nil {
			return err
		}
		out.Session = s.ID
		s.FilesModified = memory.Union(s.FilesModified, out.Files)
		if out.Test {
			s.TestsRun = memory.Union(s.TestsRun, []string{cmd})
		}
		if in.Failed {
			what := cmd
			if what == "" {
				what = in.Tool
			}
			line := what
			if first := firstLine(errText); first != "" {
				line += ": " + words.OneLine(first, 160)
			}
			if len(s.CommandsFailed) < maxFailed {
				s.CommandsFailed = memory.Union(s.CommandsFailed, []string{line})
			}
			e, isNew, err := m.candidate(ctx, tx, s, in.Tool, what, errText, now)
			if err != nil {
				return err
			}
			out.Candidate = e.ID
			if isNew {
				added = append(added, e)
			}
		}
		return tx.UpdateSession(ctx, s)
	})
	if err != nil {
		return ToolUseRecorded{}, fmt.Errorf("record tool use: %w", err)
	}
	m.embedEntries(ctx, added...)
	return out, nil
}

// candidate records a failed command as a tool_outcome entry, once per
// command and session: a repeat updates the error text.
func (m *Memory) candidate(ctx context.Context, tx store.Tx, s memory.Session, tool, what, errText string, now time.Time) (memory.Entry, bool, error) {
	sum := sha256.Sum256([]byte(s.ID.String() + "\x00" + what))
	uid := "h" + hex.EncodeToString(sum[:10])
	content := problem.Clip(errText, maxHookError)
	if content == "" {
		content = "(no error text)"
	}
	if old, ok, err := tx.MemoryByUID(ctx, uid); err != nil || ok {
		if err != nil {
			return memory.Entry{}, false, err
		}
		old.Content, old.UpdatedAt = content, now
		return old, false, tx.UpdateMemory(ctx, old)
	}
	e := memory.Entry{UID: uid, Type: memory.ToolOutcome, Title: problem.Clip("Failed: "+what, memory.MaxTitle), Content: content,
		Tags: []string{"failed-command", "mistake-candidate"}, SessionID: s.ID.String(), Branch: s.Branch, CreatedAt: now, UpdatedAt: now}
	if tool != "" {
		e.Facts = []string{"tool: " + tool}
	}
	redact(&e)
	e.Normalize()
	if err := memory.Validate(e); err != nil {
		return memory.Entry{}, false, err
	}
	e, err := tx.AddMemory(ctx, e)
	return e, err == nil, err
}

// openSession is the agent's open session, or a new one.
func (m *Memory) openSession(ctx context.Context, tx store.Tx, agent string, now time.Time) (memory.Session, error) {
	open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
	if err != nil {
		return memory.Session{}, err
	}
	if len(open) > 0 {
		return open[0], nil
	}
	s, err := tx.CreateSession(ctx, memory.Session{Agent: agent, Branch: m.Branch(), StartedAt: now})
	if err != nil {
		return memory.Session{}, err
	}
	return s, nil
}

// relative is f relative to the root, if it is inside it.
func (m *Memory) relative(f string) (string, bool) {
	f = strings.TrimSpace(f)
	if f == "" {
		return "", false
	}
	if !filepath.IsAbs(f) {
		f = filepath.Join(m.opts.Root, f)
	}
	rel, err := filepath.Rel(m.opts.Root, filepath.Clean(f))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// testCommand is compiled on first use, not by every process start.
var testCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s;&|/])(go test|cargo test|cargo nextest|npm (run )?test|pnpm (run )?test|yarn (run )?test|bun test|` +
		`npx (jest|vitest|playwright)|jest|vitest|pytest|python -m (pytest|unittest)|tox|mvn( -\S+)* (test|verify)|gradlew?( -\S+)* (test|check)|` +
		`rspec|rake test|phpunit|dotnet test|mix test|make (test|check)|ctest|scripts/test)\b`)
})

// IsTestCommand reports whether a shell command runs a test suite.
func IsTestCommand(cmd string) bool { return testCommand().MatchString(cmd) }

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// Folded is what a fold did.
type Folded struct {
	Session memory.Session
	Ended   bool
}

// FoldHook folds the agent's open session into its branch's context (what
// a pre-compact or stop hook does: only what is new is added); with end it
// also ends the session, with a summary written from its record unless the
// agent wrote one (a session-end hook). No open session: nothing to do.
func (m *Memory) FoldHook(ctx context.Context, agent string, end bool) (Folded, error) {
	var out Folded
	now := m.now()
	err := m.store.Update(ctx, func(tx store.Tx) error {
		open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
		if err != nil || len(open) == 0 {
			return err
		}
		s := open[0]
		if s.Summary == "" || strings.HasPrefix(s.Summary, autoSummary) {
			s.Summary = SessionRecap(s, now)
		}
		note := ""
		sessions := 0
		if end {
			s.EndedAt = now
			if s.Outcome == "" {
				s.Outcome = "success"
				if len(s.CommandsFailed) > 0 && len(s.TestsRun) == 0 {
					s.Outcome = "partial"
				}
			}
			note, sessions, out.Ended = s.Summary, 1, true
		}
		out.Session = s
		if err := foldBranch(ctx, tx, s, sessions, note, now); err != nil {
			return err
		}
		return tx.UpdateSession(ctx, s)
	})
	if err != nil {
		return Folded{}, fmt.Errorf("fold session: %w", err)
	}
	return out, nil
}

// autoSummary starts a summary Cairn wrote, which it may rewrite.
const autoSummary = "(recorded) "

// SessionRecap is a session's record in one sentence.
func SessionRecap(s memory.Session, now time.Time) string {
	end := now
	if !s.EndedAt.IsZero() {
		end = s.EndedAt
	}
	var parts []string
	if n := len(s.FilesModified); n > 0 {
		parts = append(parts, fmt.Sprintf("%s modified (%s)", words.Count(n, "file"), words.List(s.FilesModified, 4)))
	}
	if len(s.TestsRun) > 0 {
		parts = append(parts, "tests run: "+words.List(s.TestsRun, 3))
	}
	if n := len(s.CommandsFailed); n > 0 {
		parts = append(parts, words.Count(n, "failed command"))
	}
	if n := len(s.Decisions); n > 0 {
		parts = append(parts, words.Count(n, "decision"))
	}
	if n := len(s.TasksCompleted); n > 0 {
		parts = append(parts, fmt.Sprintf("tasks completed: %s", words.List(s.TasksCompleted, 5)))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing recorded")
	}
	took := "under a minute"
	if d := end.Sub(s.StartedAt).Round(time.Minute); d > 0 {
		took = d.String()
	}
	return fmt.Sprintf("%s%s, %s: %s.", autoSummary, s.ID, took, strings.Join(parts, "; "))
}

// Recall limits.
const (
	recallLimit    = 3
	recallMinWords = 2
)

// Recall returns at most a few memory entries that bear on a prompt, only
// when they match it well: at least two of its words, and half of them
// (up to four). Nothing is better than noise in an agent's context.
func (m *Memory) Recall(ctx context.Context, prompt string) ([]Hit, error) {
	ws := words.Query(prompt)
	if len(ws) < recallMinWords {
		return nil, nil
	}
	ws = ws[:min(len(ws), 16)]
	res, err := m.Search(ctx, SearchQuery{Text: strings.Join(ws, " "),
		Types: []string{"decision", "mistake", "convention", "pattern", "preference", "insight"}, Page: page.Page{Limit: 8}})
	if err != nil {
		return nil, err
	}
	need := max(recallMinWords, (min(len(ws), 4)+1)/2)
	var out []Hit
	for _, h := range res.Hits {
		text := strings.ToLower(h.Title + " " + h.Snippet)
		matched := 0
		for _, w := range ws {
			if strings.Contains(text, w) {
				matched++
			}
		}
		if matched >= need && !slices.ContainsFunc(out, func(x Hit) bool { return x.ID == h.ID }) {
			out = append(out, h)
			if len(out) == recallLimit {
				break
			}
		}
	}
	return out, nil
}

// AgentSessions are the agent's newest session (open only, or any), at
// most one.
func (m *Memory) AgentSessions(ctx context.Context, agent string, openOnly bool) ([]memory.Session, int, error) {
	var (
		out   []memory.Session
		total int
	)
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		out, total, err = tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: openOnly, Limit: 1})
		return err
	})
	return out, total, err
}
