package memories

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/runs"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/words"
)

// What an agent client's hooks report, and what Cairn does with it: the
// session each of the client's sessions opens (keyed by the client's own
// session id, so that two windows never share or end each other's), the
// events of what it did, and its outcome at the end. Every method is one
// short transaction; none needs the network.

// ClientStart is what a session-start hook knows.
type ClientStart struct {
	// Agent is the agent the hook speaks for (its --agent: the client's
	// name); a second window of the same client gets an agent of its own.
	Agent  string
	Client memory.Client
	// Source is why the client's session started: startup, resume, clear
	// or compact. resume and compact continue the client's session.
	Source string
	AI     memory.Provider
}

// ClientStarted is the session a client's session start opened or
// continued.
type ClientStarted struct {
	Session memory.Session
	Resumed bool
	// Ended are the sessions of the same agent whose client had gone
	// without ending them: ended now, as abandoned.
	Ended []memory.SessionID
}

// StartClient opens the session of a client's session (or continues it:
// resume, compact, or a session already open under the client's key). Other
// windows' sessions are left as they are; sessions of the agent whose client
// process has gone are ended as abandoned.
func (m *Memory) StartClient(ctx context.Context, in ClientStart) (ClientStarted, error) {
	var out ClientStarted
	m.scrubStart(&in)
	now := m.now()
	err := m.store.Update(ctx, func(tx store.Tx) error {
		s, found, err := m.byClient(ctx, tx, in.Client)
		if err != nil {
			return err
		}
		if found {
			s.Client.Proc = cmpProc(in.Client.Proc, s.Client.Proc)
			if !s.Open() {
				s.EndedAt, s.Outcome, s.OutcomeWhy = time.Time{}, "", ""
			}
			s.AI = s.AI.With(in.AI)
			out.Session, out.Resumed = s, true
			_, err := tx.PutSession(ctx, s)
			return err
		}
		if out.Ended, err = m.endGone(ctx, tx, in.Agent, now); err != nil {
			return err
		}
		agent, err := m.windowAgent(ctx, tx, in.Agent, in.Client)
		if err != nil {
			return err
		}
		s = memory.Session{Agent: agent, Client: in.Client, Branch: m.Branch(), AI: in.AI, StartedAt: now}
		if in.Source == "resume" || in.Source == "compact" {
			// A client session Cairn has not seen: continue the agent's
			// last thread.
			last, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, Limit: 1})
			if err != nil {
				return err
			}
			if len(last) > 0 {
				s.ParentID, s.ThreadID = last[0].ID, last[0].ThreadID
			}
		}
		out.Session, err = tx.PutSession(ctx, s)
		return err
	})
	if err != nil {
		return ClientStarted{}, fmt.Errorf("start session: %w", err)
	}
	return out, nil
}

// scrubStart redacts what a client sent of itself.
func (m *Memory) scrubStart(in *ClientStart) {
	redact.Scrub(&in.AI)
	in.Client.Name = words.OneLine(in.Client.Name, 64)
	in.Client.SessionID = words.OneLine(in.Client.SessionID, 128)
}

// cmpProc is p when known, else old: a resumed session runs in the client
// process that resumed it.
func cmpProc(p, old memory.Proc) memory.Proc {
	if p.PID != 0 {
		return p
	}
	return old
}

// byClient is the session a client's key names, open or not.
func (m *Memory) byClient(ctx context.Context, tx store.Tx, c memory.Client) (memory.Session, bool, error) {
	if c.Key() == "" {
		return memory.Session{}, false, nil
	}
	ss, _, err := tx.Sessions(ctx, store.SessionQuery{ClientKey: c.Key(), Limit: 1})
	if err != nil || len(ss) == 0 {
		return memory.Session{}, false, err
	}
	return ss[0], true, nil
}

// windowAgent is the agent a new client session speaks as: the agent of
// the window's last session (its client process's), else agent itself,
// unless another window of the same client is open with a live client
// process, which keeps agent; then agent/<the first 8 characters of the
// client's session id>, so the two windows keep a YOU ARE HERE each.
func (m *Memory) windowAgent(ctx context.Context, tx store.Tx, agent string, c memory.Client) (string, error) {
	if c.SessionID == "" {
		return agent, nil
	}
	// The same window with a new client session (after /clear, or a new
	// conversation in the same process) keeps the agent it had, and with
	// it its YOU ARE HERE.
	if c.Proc.PID != 0 {
		prev, _, err := tx.Sessions(ctx, store.SessionQuery{Procs: []memory.Proc{c.Proc}, Limit: 1})
		if err != nil {
			return "", err
		}
		if len(prev) > 0 && prev[0].Client.Name == c.Name && (prev[0].Agent == agent || strings.HasPrefix(prev[0].Agent, agent+"/")) {
			return prev[0].Agent, nil
		}
	}
	open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 16})
	if err != nil {
		return "", err
	}
	for _, s := range open {
		if s.Client.Key() != c.Key() && s.Client.Proc.PID != 0 && s.Client.Proc != c.Proc && m.opts.alive(s.Client.Proc) {
			return agent + "/" + shortID(c.SessionID), nil
		}
	}
	return agent, nil
}

// shortID is the first 8 letters and digits of a client's session id.
func shortID(id string) string {
	var b strings.Builder
	for _, r := range id {
		if b.Len() == 8 {
			break
		}
		if r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// endGone ends, as abandoned, the open sessions of agent (and of its
// windows, agent/…) whose client process is known and has gone: a client
// killed without its session-end hook.
func (m *Memory) endGone(ctx context.Context, tx store.Tx, agent string, now time.Time) ([]memory.SessionID, error) {
	open, _, err := tx.Sessions(ctx, store.SessionQuery{OpenOnly: true, Limit: 64})
	if err != nil {
		return nil, err
	}
	var out []memory.SessionID
	for _, s := range open {
		if (s.Agent != agent && !strings.HasPrefix(s.Agent, agent+"/")) || s.Client.Proc.PID == 0 || m.opts.alive(s.Client.Proc) {
			continue
		}
		s.EndedAt, s.Outcome, s.OutcomeWhy = now, "abandoned", "its client went away without ending it"
		if _, err := tx.PutSession(ctx, s); err != nil {
			return nil, err
		}
		out = append(out, s.ID)
	}
	return out, nil
}

// ToolUse is one tool call an agent made, as a post-tool-use hook saw it.
type ToolUse struct {
	Agent  string
	Client memory.Client
	Tool   string
	// Files the call modified (absolute, or relative to the root); files
	// outside the project are not recorded.
	Files []string
	// Command is the shell command it ran, if any; Output what it printed
	// when it succeeded.
	Command string
	Output  string
	Failed  bool
	Error   string // what the failure said: its output
	// Edits are the text replacements the call made (Edit, MultiEdit,
	// Gemini CLI's replace): an edit that puts back text an earlier edit
	// of the same file in the session replaced undoes it.
	Edits []Edit
}

// Edit is one text replacement in a file.
type Edit struct {
	Path     string
	Old, New string
}

// ToolUseRecorded says what RecordToolUse kept.
type ToolUseRecorded struct {
	Session memory.SessionID
	Files   []string
	Test    *memory.TestResult // the command ran tests: their result
	// Failure is the informative line of a failed command; Resolved counts
	// the earlier failures of the command that this run, passing, resolved.
	Failure  string
	Resolved int
	// Candidate is the mistake candidate a failed command became.
	Candidate memory.ID
	// Reverts say what the call undid: a commit reverted, an edit undone.
	Reverts []string
}

// Limits on what a hook records.
const (
	maxHookCommand = 200
	maxHookError   = 2000
	maxHookPath    = 512 // bytes of a file's path
	maxHookFiles   = 64  // files of one tool call
)

// RecordToolUse adds what one tool call did to its session (the client's,
// else the agent's open one, else a new one): the files modified, a test
// run and its result, a failure with the line that says what went wrong
// (each distinct failure of a command kept), the failures of a command that
// a later run of it passed resolved, and for a failure a mistake candidate
// (a tool_outcome entry tagged mistake-candidate, with the error text) to
// confirm or discard. All text is redacted first. Each is an event row:
// nothing else of the session is rewritten.
func (m *Memory) RecordToolUse(ctx context.Context, in ToolUse) (ToolUseRecorded, error) {
	var out ToolUseRecorded
	for _, f := range in.Files {
		if len(out.Files) == maxHookFiles {
			break
		}
		if rel, ok := m.relative(f); ok {
			// A path is text an agent reads back: redacted like the rest,
			// and clipped (a 5 MB path was stored whole).
			rel, _ = redact.Redact(rel)
			out.Files = append(out.Files, problem.Clip(rel, maxHookPath))
		}
	}
	full, _ := redact.Redact(strings.TrimSpace(noNUL(in.Command)))
	cmd := words.OneLine(full, maxHookCommand)
	output, _ := redact.Redact(strings.TrimSpace(noNUL(in.Output)))
	errText, _ := redact.Redact(strings.TrimSpace(noNUL(in.Error)))
	if len(out.Files) == 0 && cmd == "" && !in.Failed {
		return out, nil // nothing worth a write
	}
	edits := m.editDigests(in.Edits)
	var reverts []runs.Revert
	if !in.Failed && cmd != "" {
		reverts = runs.Reverts(full)
	}
	// The whole command, not the clipped one: a test run at the end of a
	// long line would be lost.
	if runner, ok := runs.Test(full); ok {
		out.Test = testResult(runs.ParseTest(runner, output+"\n"+errText, !in.Failed))
	}
	what := cmp.Or(cmd, in.Tool)
	var fail memory.Event
	if in.Failed {
		fail = failureEvent(what, full, errText)
		out.Failure = fail.Detail
	}
	now := m.now()
	var added []memory.Entry
	err := m.store.Update(ctx, func(tx store.Tx) error {
		s, err := m.hookSession(ctx, tx, in.Agent, in.Client, now)
		if err != nil {
			return err
		}
		out.Session = s.ID
		for _, f := range out.Files {
			if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventFile, Key: f, Subject: f, At: now}); err != nil {
				return err
			}
		}
		if out.Test != nil {
			if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventTest, Key: cmd, Subject: cmd, Detail: testDetail(*out.Test),
				Test: out.Test, At: now}); err != nil {
				return err
			}
		}
		undone, err := recordEdits(ctx, tx, s.ID, edits, now)
		if err != nil {
			return err
		}
		out.Reverts = append(out.Reverts, undone...)
		for _, r := range reverts {
			what := words.OneLine(r.What, maxHookCommand)
			detail := "git revert " + what
			if r.How == "commit message" {
				detail = "a commit whose message starts Revert"
			}
			if err := tx.RecordEvent(ctx, memory.Event{Session: s.ID, Kind: memory.EventRevert, Key: memory.RevertCommit + ":" + what, Subject: what, Detail: detail, At: now}); err != nil {
				return err
			}
			out.Reverts = append(out.Reverts, "commit "+what)
		}
		if !in.Failed {
			if cmd != "" {
				out.Resolved, err = tx.ResolveEvents(ctx, s.ID, memory.EventFailure, cmd, now)
			}
			return err
		}
		fail.Session, fail.At = s.ID, now
		if err := tx.RecordEvent(ctx, fail); err != nil {
			return err
		}
		e, isNew, err := m.candidate(ctx, tx, s, in.Tool, what, errText, now)
		if err != nil {
			return err
		}
		out.Candidate = e.ID
		if isNew {
			added = append(added, e)
		}
		return nil
	})
	if err != nil {
		return ToolUseRecorded{}, fmt.Errorf("record tool use: %w", err)
	}
	m.embedEntries(ctx, added...)
	return out, nil
}

// noNUL drops NUL bytes, which no text column takes.
func noNUL(s string) string { return strings.ReplaceAll(s, "\x00", "") }

// failureEvent is a failed command's event: the line that says what went
// wrong and a short tail, keyed by the command and the failure's
// fingerprint, so that each distinct failure of a command is its own event
// and the same failure seen again (another temporary path, another line
// number) counts on the first.
func failureEvent(what, command, errText string) memory.Event {
	f := runs.Failure(command, errText)
	line := cmp.Or(f.Line, "(no error text)")
	return memory.Event{Kind: memory.EventFailure, Key: what + "\n" + f.Fingerprint, Subject: what, Detail: line, Type: f.Kind, Tail: f.Tail}
}

// testResult is what a session keeps of a test run's result.
func testResult(r runs.TestResult) *memory.TestResult {
	return &memory.TestResult{Runner: string(r.Runner), OK: r.Outcome != runs.TestsFailed, None: r.Outcome == runs.NoTests,
		Passed: r.Passed, Failed: r.Failed + r.Errors, Skipped: r.Skipped, Counted: r.Counted, Summary: r.Summary, Failing: r.Failing}
}

// testDetail is a test run's result in a line.
func testDetail(t memory.TestResult) string {
	if t.None {
		return "no tests ran"
	}
	verdict := "passed"
	if !t.OK {
		verdict = "failed"
	}
	if !t.Counted {
		return verdict
	}
	return fmt.Sprintf("%s: %d passed, %d failed, %d skipped", verdict, t.Passed, t.Failed, t.Skipped)
}

// hookSession is the session a hook's event belongs to: the client's
// session (by its key), else the agent's open session, else a new one.
func (m *Memory) hookSession(ctx context.Context, tx store.Tx, agent string, c memory.Client, now time.Time) (memory.Session, error) {
	if s, found, err := m.byClient(ctx, tx, c); err != nil || found {
		return s, err
	}
	if c.Key() == "" {
		open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
		if err != nil || len(open) > 0 {
			if len(open) > 0 {
				return open[0], err
			}
			return memory.Session{}, err
		}
	}
	agent, err := m.windowAgent(ctx, tx, agent, c)
	if err != nil {
		return memory.Session{}, err
	}
	return tx.PutSession(ctx, memory.Session{Agent: agent, Client: c, Branch: m.Branch(), StartedAt: now})
}

// candidate records a failed command as a tool_outcome entry, once per
// command and session: a repeat updates the error text.
func (m *Memory) candidate(ctx context.Context, tx store.Tx, s memory.Session, tool, what, errText string, now time.Time) (memory.Entry, bool, error) {
	uid := candidateUID(s.ID, what)
	content := problem.Clip(errText, maxHookError)
	if content == "" {
		content = "(no error text)"
	}
	if old, ok, err := store.MemoryByUID(ctx, tx, uid); err != nil || ok {
		if err != nil {
			return memory.Entry{}, false, err
		}
		old.Content, old.UpdatedAt = content, now
		old, err = tx.PutMemory(ctx, old)
		return old, false, err
	}
	e := memory.Entry{UID: uid, Type: memory.ToolOutcome, Title: problem.Clip("Failed: "+what, memory.MaxTitle), Content: content,
		Tags: []string{"failed-command", "mistake-candidate"}, SessionID: s.ID.String(), Branch: s.Branch, CreatedAt: now, UpdatedAt: now}
	if tool != "" {
		e.Facts = []string{"tool: " + tool}
	}
	redactEntry(&e)
	e.Normalize()
	if err := memory.Validate(e); err != nil {
		return memory.Entry{}, false, err
	}
	e, err := tx.PutMemory(ctx, e)
	return e, err == nil, err
}

// candidateUID is the UID of the mistake candidate a failed command became
// in a session: one per command (its failure events' subject) and session.
func candidateUID(session memory.SessionID, what string) string {
	sum := sha256.Sum256([]byte(session.String() + "\x00" + what))
	return "h" + hex.EncodeToString(sum[:10])
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

// Folded is what a fold did.
type Folded struct {
	Session memory.Session
	Ended   bool
}

// EndClient ends the client's session (the agent's open one when the client
// gave no key): its outcome, unless the agent set one, is worked out from
// its record (memory.Record.Outcome) and says why; a summary is written
// from the record unless the agent wrote one; its record is folded into its
// branch's context. No session: nothing to do.
func (m *Memory) EndClient(ctx context.Context, agent string, c memory.Client) (Folded, error) {
	var out Folded
	now := m.now()
	err := m.store.Update(ctx, func(tx store.Tx) error {
		s, found, err := m.byClient(ctx, tx, c)
		if err != nil {
			return err
		}
		if !found && c.Key() == "" {
			open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
			if err != nil {
				return err
			}
			if len(open) > 0 {
				s, found = open[0], true
			}
		}
		if !found || !s.Open() {
			return nil
		}
		rec, err := readRecord(ctx, tx, s.ID, outcomeEvents)
		if err != nil {
			return err
		}
		s.Record = rec
		s.EndedAt = now
		if s.Outcome == "" {
			s.Outcome, s.OutcomeWhy = rec.Outcome()
		}
		if s.Summary == "" || strings.HasPrefix(s.Summary, autoSummary) {
			s.Summary = SessionRecap(s, now)
		}
		out.Session, out.Ended = s, true
		if err := foldBranch(ctx, tx, s, 1, s.Summary, now); err != nil {
			return err
		}
		_, err = tx.PutSession(ctx, s)
		return err
	})
	if err != nil {
		return Folded{}, fmt.Errorf("end session: %w", err)
	}
	return out, nil
}

// outcomeEvents is how many events of each kind an outcome is worked out
// from: enough that a long session's unresolved failures and last test runs
// all count.
const outcomeEvents = 500

// readRecord reads a session's record: the newest perKind events of each
// kind, and how many there are of each.
func readRecord(ctx context.Context, tx store.Tx, id memory.SessionID, perKind int) (memory.Record, error) {
	es, totals, err := tx.Events(ctx, store.EventQuery{Sessions: []memory.SessionID{id}, PerKind: perKind})
	if err != nil {
		return memory.Record{}, err
	}
	rec := memory.Record{Events: map[memory.EventKind][]memory.Event{}, Totals: totals.Of(id)}
	for _, e := range es {
		rec.Events[e.Kind] = append(rec.Events[e.Kind], e)
	}
	return rec, nil
}

// autoSummary starts a summary Cairn wrote, which it may rewrite.
const autoSummary = "(recorded) "

// SessionRecap is a session's record in one sentence.
func SessionRecap(s memory.Session, now time.Time) string {
	end := now
	if !s.EndedAt.IsZero() {
		end = s.EndedAt
	}
	r := s.Record
	var parts []string
	if n := r.Total(memory.EventFile); n > 0 {
		parts = append(parts, fmt.Sprintf("%s modified (%s)", words.Count(n, "file"), words.List(r.Subjects(memory.EventFile), 4)))
	}
	if n := r.Total(memory.EventTest); n > 0 {
		var runs []string
		for _, t := range r.Of(memory.EventTest) {
			runs = append(runs, t.Subject+" ("+t.Detail+")")
		}
		parts = append(parts, "tests run: "+words.List(runs, 3))
	}
	if open := r.Unresolved(); len(open) > 0 {
		parts = append(parts, words.Count(len(open), "failure")+" left unresolved")
	}
	if n := r.Total(memory.EventDecision); n > 0 {
		parts = append(parts, words.Count(n, "decision"))
	}
	if n := r.Total(memory.EventTask); n > 0 {
		parts = append(parts, fmt.Sprintf("tasks completed: %s", words.List(r.Subjects(memory.EventTask), 5)))
	}
	if ms := r.Of(memory.EventMemory); len(ms) > 0 {
		// A decision or mistake written to memory in the session is its
		// work too: named with its type and id, where the next session
		// can memory_get it.
		written := make([]string, len(ms))
		for i, e := range ms {
			typ, _, _ := strings.Cut(e.Detail, ": ")
			written[i] = strings.TrimSpace(typ + " " + e.Subject)
		}
		parts = append(parts, "memory written: "+words.List(written, 4))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing recorded")
	}
	return fmt.Sprintf("%s%s, %s: %s.", autoSummary, s.ID, Took(s.StartedAt, end), strings.Join(parts, "; "))
}

// Took words how long from start to end took, as every elapsed time is
// worded (words.Duration): "48s" never beside "1m0s".
func Took(start, end time.Time) string { return words.Duration(end.Sub(start)) }

// Recall limits.
const (
	recallLimit    = 3
	recallMinWords = 2
	recallWords    = 16 // of the prompt's, the first ones searched with
)

// Recall returns at most a few memory entries that bear on a prompt, only
// when they match it well: at least two of its words, and half of them
// (up to four). Nothing is better than noise in an agent's context.
func (m *Memory) Recall(ctx context.Context, prompt string) ([]Hit, error) {
	ws := words.QueryN(prompt, recallWords)
	if len(ws) < recallMinWords {
		return nil, nil
	}
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

// OpenSession is the agent's open session (with its record), if it has
// one: the client's session when the hook or server knows its key.
func (m *Memory) OpenSession(ctx context.Context, agent string, c memory.Client) (memory.Session, bool, error) {
	var (
		s     memory.Session
		found bool
	)
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		if s, found, err = m.byClient(ctx, tx, c); err != nil || (found && s.Open()) {
			if found {
				s.Record, err = readRecord(ctx, tx, s.ID, page.Record.Default)
			}
			return err
		}
		open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
		if err != nil || len(open) == 0 {
			found = false
			return err
		}
		s, found = open[0], true
		s.Record, err = readRecord(ctx, tx, s.ID, page.Record.Default)
		return err
	})
	return s, found, err
}

// LastSession is the agent's newest session, open or ended.
func (m *Memory) LastSession(ctx context.Context, agent string) (memory.Session, bool, error) {
	var out []memory.Session
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		out, _, err = tx.Sessions(ctx, store.SessionQuery{Agent: agent, Limit: 1})
		return err
	})
	if err != nil || len(out) == 0 {
		return memory.Session{}, false, err
	}
	return out[0], true, nil
}

// recentSessions is how many of an agent's newest sessions Unresolved looks
// through.
const recentSessions = 5

// Unresolved returns up to n failures, newest first, that no later run of
// the same command fixed, from the agent's recent sessions: what the next
// session should know it left broken.
func (m *Memory) Unresolved(ctx context.Context, agent string, n int) ([]memory.Event, error) {
	var out []memory.Event
	err := m.store.View(ctx, func(tx store.Tx) error {
		ss, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, Limit: recentSessions})
		if err != nil || len(ss) == 0 {
			return err
		}
		ids := make([]memory.SessionID, len(ss))
		for i, s := range ss {
			ids[i] = s.ID
		}
		out, _, err = tx.Events(ctx, store.EventQuery{Sessions: ids, Kinds: []memory.EventKind{memory.EventFailure}, Unresolved: true, Limit: n})
		return err
	})
	return out, err
}

// Attach finds the session a client's MCP server works in: the open session
// whose client process is the server's nearest ancestor among procs (its
// ancestors, parent first: the window that started it), else the agent's
// open session that no client process owns (one started with the session
// tool). A window never attaches to another window's session. The session
// comes without its record.
func (m *Memory) Attach(ctx context.Context, agent string, procs []memory.Proc) (memory.Session, bool, error) {
	var (
		out   memory.Session
		found bool
	)
	err := m.store.View(ctx, func(tx store.Tx) error {
		if len(procs) > 0 {
			ss, _, err := tx.Sessions(ctx, store.SessionQuery{Procs: procs, OpenOnly: true, Limit: 16})
			if err != nil {
				return err
			}
			best := len(procs)
			for _, s := range ss { // newest first: the newest wins a tie
				if i := slices.Index(procs, s.Client.Proc); i >= 0 && i < best {
					out, found, best = s, true, i
				}
			}
			if found {
				return nil
			}
		}
		open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 16})
		for _, s := range open {
			if s.Client.Proc.PID == 0 {
				out, found = s, true
				break
			}
		}
		return err
	})
	return out, found, err
}
