package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/service/evolution"
	"github.com/cairn-dev/cairn/internal/words"
)

// The evolution answers: candidates with their evidence, drafts, the log.

// CandidateView is a candidate as the tools show it.
type CandidateView struct {
	Key        string       `json:"key"`
	Kind       string       `json:"kind"`
	Title      string       `json:"title"`
	Action     string       `json:"action"`
	Why        string       `json:"why"`
	Confidence float64      `json:"confidence"`
	Method     string       `json:"method"`
	Evidence   EvidenceView `json:"evidence"`
	Path       string       `json:"path"`
	Diff       string       `json:"diff,omitempty"`
}

// EvidenceView is what a candidate or a draft rests on.
type EvidenceView struct {
	Sessions  []int64  `json:"sessions"`
	Count     int      `json:"count"`
	Of        int      `json:"of"`
	Statistic string   `json:"statistic"`
	Examples  []string `json:"examples,omitempty"`
}

// EvidenceViewOf is e as the answers show it.
func EvidenceViewOf(e evolution.Evidence) EvidenceView { return EvidenceView(e) }

// DraftView is a draft as the tools and `cairn evolution --json` show it.
type DraftView struct {
	ID         string       `json:"id"`
	Kind       string       `json:"kind"`
	Title      string       `json:"title"`
	Status     string       `json:"status"`
	Confidence float64      `json:"confidence"`
	Method     string       `json:"method,omitempty"`
	Evidence   EvidenceView `json:"evidence"`
	Created    time.Time    `json:"created"`
	Source     string       `json:"source,omitempty"`
	File       string       `json:"file"`
	Target     string       `json:"target"`
	Base       string       `json:"base,omitempty"`
	Decided    time.Time    `json:"decided,omitzero"`
	Reason     string       `json:"reason,omitempty"`
	Change     int          `json:"change,omitempty"`
}

// DraftViewOf is d as the answers show it.
func DraftViewOf(d evolution.Draft) DraftView {
	return DraftView{ID: d.ID, Kind: d.Kind, Title: d.Title, Status: d.Status, Confidence: d.Confidence, Method: d.Method,
		Evidence: EvidenceViewOf(d.Evidence), Created: d.Created, Source: d.Source, File: d.File, Target: d.Target, Base: d.Base,
		Decided: d.Decided, Reason: d.Reason, Change: d.Change}
}

// ChangeView is a log entry without its snapshots' bytes.
type ChangeView struct {
	Seq        int       `json:"seq"`
	At         time.Time `json:"at"`
	Action     string    `json:"action"`
	Mode       string    `json:"mode,omitempty"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Path       string    `json:"path"`
	Confidence float64   `json:"confidence,omitempty"`
	Draft      string    `json:"draft,omitempty"`
	Reverts    int       `json:"reverts,omitempty"`
	BeforeSHA  string    `json:"before_sha256,omitempty"`
	AfterSHA   string    `json:"after_sha256,omitempty"`
}

func changeView(e evolution.Entry) ChangeView {
	return ChangeView{Seq: e.Seq, At: e.At, Action: e.Action, Mode: e.Mode, Kind: e.Kind, Title: e.Title, Path: e.Path, Confidence: e.Confidence,
		Draft: e.Draft, Reverts: e.Reverts, BeforeSHA: e.Before.SHA, AfterSHA: e.After.SHA}
}

// AnalysisView is evolution_analyze's structured answer.
type AnalysisView struct {
	Sessions   int             `json:"sessions"`
	Learning   bool            `json:"learning"`
	Off        bool            `json:"off"`
	DryRun     bool            `json:"dry_run"`
	Handled    int             `json:"handled"`
	Candidates []CandidateView `json:"candidates"`
	Applied    []ChangeView    `json:"applied,omitempty"`
	Drafted    []string        `json:"drafted,omitempty"`
	Failed     []string        `json:"failed,omitempty"`
}

// Analysis renders evolution_analyze; diffs are shown when withDiff.
func Analysis(a evolution.Analysis, withDiff bool) (string, AnalysisView) {
	v := AnalysisView{Sessions: a.Sessions, Learning: a.Learning, Off: a.Off, DryRun: a.DryRun, Handled: a.Handled, Failed: a.Failed, Candidates: []CandidateView{}}
	var b strings.Builder
	fmt.Fprintf(&b, "Evolution over %s: %s", words.Count(a.Sessions, "session"), words.Count(len(a.Candidates), "candidate"))
	if a.Handled > 0 {
		fmt.Fprintf(&b, " (%d more already drafted, applied or rejected)", a.Handled)
	}
	switch {
	case a.Off:
		b.WriteString("; switched off ([evolution] enabled = false): nothing applied or drafted")
	case a.Learning:
		fmt.Fprintf(&b, "; learning period (%d sessions): nothing applied or drafted", a.Settings.LearningSessions)
	case a.DryRun:
		b.WriteString("; dry run: nothing changed")
	}
	b.WriteString(".\n")
	for _, c := range a.Candidates {
		cv := CandidateView{Key: c.Key, Kind: c.Kind, Title: c.Title, Action: c.Action, Why: c.Why, Confidence: r3(c.Confidence), Method: c.Method, Evidence: EvidenceViewOf(c.Evidence), Path: c.Change.Path}
		if withDiff {
			cv.Diff = c.Change.Diff
		}
		v.Candidates = append(v.Candidates, cv)
		fmt.Fprintf(&b, "- [%s %.0f%%] %s → %s\n  %s; %s\n  key %s\n", c.Action, 100*c.Confidence, c.Title, c.Change.Path, c.Evidence.Statistic, c.Why, c.Key)
		if withDiff {
			b.WriteString(indent(c.Change.Diff))
		}
	}
	for _, e := range a.Applied {
		v.Applied = append(v.Applied, changeView(e))
		fmt.Fprintf(&b, "Applied change %d: %s (%s); evolution_revert %d undoes it.\n", e.Seq, e.Title, e.Path, e.Seq)
	}
	for _, d := range a.Drafted {
		v.Drafted = append(v.Drafted, d.ID)
		fmt.Fprintf(&b, "Drafted %s: %s (draft_approve or draft_reject).\n", d.ID, d.File)
	}
	for _, f := range a.Failed {
		fmt.Fprintf(&b, "Not made: %s\n", f)
	}
	return strings.TrimRight(b.String(), "\n"), v
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// StatusView is evolution_status's structured answer.
type StatusView struct {
	Settings string         `json:"settings"`
	Source   string         `json:"source"`
	Sessions int            `json:"sessions"`
	Learning bool           `json:"learning"`
	Off      bool           `json:"off"`
	Learned  []ChangeView   `json:"learned"`
	Pending  []PendingView  `json:"pending"`
	Drafts   map[string]int `json:"drafts"`
	Log      int            `json:"log_entries"`
}

// PendingView is a candidate kept for later, and why.
type PendingView struct {
	Key        string    `json:"key"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Confidence float64   `json:"confidence"`
	Sessions   int       `json:"sessions"`
	Why        string    `json:"why"`
	Seen       time.Time `json:"seen"`
}

// EvolutionStatus renders evolution_status.
func EvolutionStatus(s evolution.Status) (string, StatusView) {
	v := StatusView{Settings: s.Settings.String(), Source: s.Settings.Source, Sessions: s.Sessions, Learning: s.Learning, Off: s.Off,
		Learned: []ChangeView{}, Pending: []PendingView{}, Drafts: s.Drafts, Log: s.Log}
	for _, p := range s.Pending {
		v.Pending = append(v.Pending, PendingView(p))
	}
	var b strings.Builder
	state := "on"
	switch {
	case s.Off:
		state = "switched off"
	case s.Learning:
		state = fmt.Sprintf("in its learning period (%d of %d sessions)", s.Sessions, s.Settings.LearningSessions)
	}
	fmt.Fprintf(&b, "Evolution is %s: %s (%s). %s, %s.\n", state, s.Settings.String(), s.Settings.Source, words.Count(s.Sessions, "session"), words.Plural(s.Log, "log entry", "log entries"))
	if s.SettingsError != "" {
		fmt.Fprintf(&b, "Config not read (defaults used): %s\n", s.SettingsError)
	}
	fmt.Fprintf(&b, "Learned (in force): %d\n", len(s.Learned))
	for _, e := range s.Learned {
		v.Learned = append(v.Learned, changeView(e))
		fmt.Fprintf(&b, "- change %d %s %s: %s (%s)\n", e.Seq, e.Action, e.Kind, e.Title, e.Path)
	}
	fmt.Fprintf(&b, "Pending: %d\n", len(s.Pending))
	for _, p := range s.Pending[:min(len(s.Pending), 10)] {
		fmt.Fprintf(&b, "- %s (%.0f%%, %d sessions): %s\n", p.Title, 100*p.Confidence, p.Sessions, p.Why)
	}
	if len(s.Drafts) > 0 {
		fmt.Fprintf(&b, "Drafts: %d awaiting, %d approved, %d rejected, %d reverted\n", s.Drafts[evolution.StatusDraft], s.Drafts[evolution.StatusApproved], s.Drafts[evolution.StatusRejected], s.Drafts[evolution.StatusReverted])
	}
	return strings.TrimRight(b.String(), "\n"), v
}

// ReviewView is evolution_review's structured answer.
type ReviewView struct {
	Entry    ChangeView `json:"entry"`
	Diff     string     `json:"diff"`
	Reverted int        `json:"reverted_by,omitempty"`
	Current  bool       `json:"current"`
}

// EvolutionReview renders evolution_review.
func EvolutionReview(r evolution.Review) (string, ReviewView) {
	e := r.Entry
	v := ReviewView{Entry: changeView(e), Diff: r.Diff, Reverted: r.Reverted, Current: r.Current}
	var b strings.Builder
	fmt.Fprintf(&b, "Change %d (%s", e.Seq, e.Action)
	if e.Mode != "" {
		b.WriteString(", " + e.Mode)
	}
	fmt.Fprintf(&b, ") %s: %s\n", e.At.Format(time.RFC3339), e.Title)
	if e.Evidence != nil {
		fmt.Fprintf(&b, "Evidence: %s; confidence %.0f%% (%s)\n", e.Evidence.Statistic, 100*e.Confidence, e.Method)
	}
	switch {
	case r.Reverted != 0:
		fmt.Fprintf(&b, "Reverted by change %d.\n", r.Reverted)
	case !r.Current:
		fmt.Fprintf(&b, "%s changed since: a revert would be refused.\n", e.Path)
	}
	b.WriteString(r.Diff)
	return strings.TrimRight(b.String(), "\n"), v
}

// EntryText is a log entry in a line.
func EntryText(e evolution.Entry) (string, ChangeView) {
	if e.Action == "revert" {
		return fmt.Sprintf("Change %d reverted change %d: %s restored exactly (sha256 %s).", e.Seq, e.Reverts, e.Path, short(e.After.SHA)), changeView(e)
	}
	return fmt.Sprintf("Change %d (%s): %s written (%s); evolution_revert %d undoes it.", e.Seq, e.Action, e.Path, e.Title, e.Seq), changeView(e)
}

func short(sha string) string {
	if sha == "" {
		return "none: the file was removed"
	}
	return sha[:min(12, len(sha))]
}

// DraftsText renders draft_list.
func DraftsText(ds []evolution.Draft) (string, []DraftView) {
	vs := make([]DraftView, len(ds))
	for i, d := range ds {
		vs[i] = DraftViewOf(d)
	}
	if len(ds) == 0 {
		return "No drafts match.", vs
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, most confident first:\n", words.Count(len(ds), "draft"))
	for _, d := range ds {
		fmt.Fprintf(&b, "- %s [%s %.0f%%] %s → %s\n  %s (%s)\n", d.ID, d.Status, 100*d.Confidence, d.Title, d.Target, d.Evidence.Statistic, d.File)
	}
	return strings.TrimRight(b.String(), "\n"), vs
}

// DraftText renders one draft and its file.
func DraftText(d evolution.Draft, content string) string {
	return fmt.Sprintf("%s [%s %.0f%%] %s\ntarget %s, file %s, created %s\nevidence: %s\n%s\n---\n%s", d.ID, d.Status, 100*d.Confidence, d.Title,
		d.Target, d.File, d.Created.Format(time.RFC3339), d.Evidence.Statistic, d.Method, content)
}

// Announcement is the changes evolution applied on its own since a
// surface last told them, as a paragraph to append to a session's opening
// text: "" when there is none, or when they could not be read (err).
func Announcement(es []evolution.Entry, err error) string {
	if err != nil || len(es) == 0 {
		return ""
	}
	ls := make([]string, len(es))
	for i, e := range es {
		ls[i] = fmt.Sprintf("change %d: %s (%s, confidence %.0f%%; evolution_review %d, evolution_revert %d to undo)", e.Seq, e.Title, e.Path, 100*e.Confidence, e.Seq, e.Seq)
	}
	return "\n\nEvolution applied on its own since the last session:\n- " + strings.Join(ls, "\n- ")
}
