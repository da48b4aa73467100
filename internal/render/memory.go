// Package render words the services' results for the surfaces that share
// them: the text and the JSON view an agent reads over MCP are the ones a
// person gets from the CLI (cairn memory search --json) and the hooks.
package render

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/words"
)

// HitView is one line of the index.
type HitView struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Title        string  `json:"title"`
	Snippet      string  `json:"snippet,omitempty"`
	Date         string  `json:"date"`
	Score        float64 `json:"score,omitempty"`
	Occurrences  int     `json:"occurrences,omitempty"`
	SupersededBy string  `json:"superseded_by,omitempty"`
	// Stale says what the entry points at that changed or is gone since
	// it was recorded ("store.go: func Parse changed", "y.go: gone").
	Stale []string `json:"stale,omitempty"`
	// FilesChanged are files it names as a whole (or named before the
	// parts it points at were remembered) that changed since the date:
	// whether it still holds is unknown.
	FilesChanged []string `json:"files_changed,omitempty"`
	// Moved are parts it points at found unchanged elsewhere in their file.
	Moved []string `json:"moved,omitempty"`
}

func HitOf(h memories.Hit) HitView {
	o := HitView{ID: h.ID.String(), Type: string(h.Type), Title: h.Title, Snippet: h.Snippet, Date: h.CreatedAt.Format(time.DateOnly)}
	o.Stale, o.FilesChanged, o.Moved = memory.Changes(h.Changed)
	o.Score = float64(int(h.Score*1000+0.5)) / 1000
	if h.Occurrences > 1 {
		o.Occurrences = h.Occurrences
	}
	if h.SupersededBy != 0 {
		o.SupersededBy = h.SupersededBy.String()
	}
	return o
}

// HitLine renders an index line: "m12 decision 2026-11-20 Title — snippet",
// with the hit's relevance after the date when it was ranked ("score 7.41":
// a weak best match says the memory may not hold the answer).
func HitLine(h HitView) string {
	s := h.ID + " " + h.Type + " " + h.Date + " "
	if h.Score > 0 {
		s += "score " + strconv.FormatFloat(h.Score, 'g', 3, 64) + " "
	}
	s += h.Title
	if h.Occurrences > 1 {
		s += fmt.Sprintf(" (×%d)", h.Occurrences)
	}
	if h.SupersededBy != "" {
		s += " [superseded by " + h.SupersededBy + "]"
	}
	if len(h.Stale) > 0 {
		s += " [stale: " + strings.Join(h.Stale, "; ") + "]"
	}
	if len(h.FilesChanged) > 0 {
		s += " [file changed since " + h.Date + ": " + strings.Join(h.FilesChanged, ", ") + "]"
	}
	if len(h.Moved) > 0 {
		s += " [moved: " + strings.Join(h.Moved, "; ") + "]"
	}
	if h.Snippet != "" && h.Snippet != h.Title {
		s += " — " + h.Snippet
	}
	return s
}

type SearchView struct {
	Hits       []HitView `json:"hits"`
	Total      int       `json:"total"`
	AtLeast    bool      `json:"total_is_lower_bound,omitempty"`
	Offset     int       `json:"offset"`
	NextOffset int       `json:"next_offset,omitempty"`
	Mode       string    `json:"mode"`
	Note       string    `json:"note,omitempty"`
}

// Search is a search result as memory_search's structuredContent (and
// `cairn memory search --json`) shows it.
func Search(res memories.SearchResult) SearchView {
	out := SearchView{Hits: []HitView{}, Total: res.Total, AtLeast: res.AtLeast, Offset: res.Offset, NextOffset: res.NextOffset, Mode: res.Mode, Note: res.Note}
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, HitOf(h))
	}
	return out
}

// EntryView is an entry in full.
type EntryView struct {
	ID              string           `json:"id"`
	UID             string           `json:"uid"`
	Type            string           `json:"type"`
	Title           string           `json:"title"`
	Content         string           `json:"content,omitempty"`
	Facts           []string         `json:"facts,omitempty"`
	Tags            []string         `json:"tags,omitempty"`
	Files           []string         `json:"files,omitempty"`
	Stale           []string         `json:"stale,omitempty"`
	FilesChanged    []string         `json:"files_changed,omitempty"`
	Moved           []string         `json:"moved,omitempty"`
	Rationale       string           `json:"rationale,omitempty"`
	Alternatives    []string         `json:"alternatives,omitempty"`
	RootCause       string           `json:"root_cause,omitempty"`
	Fix             string           `json:"fix,omitempty"`
	Prevention      string           `json:"prevention,omitempty"`
	Occurrences     int              `json:"occurrences,omitempty"`
	LastSeen        string           `json:"last_seen,omitempty"`
	Recent          []OccurrenceView `json:"recent_occurrences,omitempty"`
	Examples        []string         `json:"examples,omitempty"`
	DiscoveryTokens int              `json:"discovery_tokens,omitempty"`
	SupersededBy    string           `json:"superseded_by,omitempty"`
	Supersedes      []string         `json:"supersedes,omitempty"`
	ExpiresAt       string           `json:"expires_at,omitempty"`
	Expired         bool             `json:"expired,omitempty"`
	SessionID       string           `json:"session_id,omitempty"`
	Branch          string           `json:"branch,omitempty"`
	CreatedAt       string           `json:"created_at"`
	UpdatedAt       string           `json:"updated_at,omitempty"`
	// Clipped says what a shortened entry left out and where it is whole.
	Clipped string `json:"clipped,omitempty"`
}

// OccurrenceView is one recording of a known mistake.
type OccurrenceView struct {
	N          int    `json:"n"`
	At         string `json:"at"`
	SessionID  string `json:"session_id,omitempty"`
	Branch     string `json:"branch,omitempty"`
	Title      string `json:"title,omitempty"` // when worded unlike the entry
	Content    string `json:"content,omitempty"`
	RootCause  string `json:"root_cause,omitempty"`
	Fix        string `json:"fix,omitempty"`
	Prevention string `json:"prevention,omitempty"`
}

func EntryOf(e memory.Entry) EntryView {
	o := EntryView{ID: e.ID.String(), UID: e.UID, Type: string(e.Type), Title: e.Title, Content: e.Content, Facts: e.Facts, Tags: e.Tags,
		Files: e.Files, Rationale: e.Rationale, Alternatives: e.Alternatives, RootCause: e.RootCause, Fix: e.Fix, Prevention: e.Prevention,
		Occurrences: e.Occurrences, Examples: e.Examples, DiscoveryTokens: e.DiscoveryTokens, SessionID: e.SessionID, Branch: e.Branch,
		CreatedAt: Time(e.CreatedAt)}
	o.Stale, o.FilesChanged, o.Moved = memory.Changes(e.Changed)
	if !e.UpdatedAt.Equal(e.CreatedAt) {
		o.UpdatedAt = Time(e.UpdatedAt)
	}
	if e.Occurrences > 1 {
		o.LastSeen = Time(e.UpdatedAt)
	}
	for _, r := range e.Recent {
		if e.Occurrences <= 1 {
			break // the entry itself says it all
		}
		ro := OccurrenceView{N: r.N, At: Time(r.At), SessionID: r.SessionID, Branch: r.Branch, Content: problem.Clip(r.Content, occurrenceContent)}
		if r.Title != e.Title {
			ro.Title = r.Title
		}
		// An occurrence's analysis is shown where the entry's differs.
		for _, a := range []struct {
			dst      *string
			own, cur string
		}{{&ro.RootCause, r.RootCause, e.RootCause}, {&ro.Fix, r.Fix, e.Fix}, {&ro.Prevention, r.Prevention, e.Prevention}} {
			if a.own != a.cur {
				*a.dst = problem.Clip(a.own, occurrenceContent)
			}
		}
		o.Recent = append(o.Recent, ro)
	}
	if e.SupersededBy != 0 {
		o.SupersededBy = e.SupersededBy.String()
	}
	for _, id := range e.Supersedes {
		o.Supersedes = append(o.Supersedes, id.String())
	}
	if !e.ExpiresAt.IsZero() {
		o.ExpiresAt, o.Expired = Time(e.ExpiresAt), e.Expired(time.Now())
	}
	return o
}

// Entry is an entry as text, for the model and the CLI alike.
func Entry(e memory.Entry) string {
	var b strings.Builder
	o := EntryOf(e)
	fmt.Fprintf(&b, "%s %s: %s\n", e.ID, e.Type, e.Title)
	meta := []string{e.CreatedAt.Format(time.DateOnly)}
	if e.Branch != "" {
		meta = append(meta, "branch "+e.Branch)
	}
	if e.SessionID != "" {
		meta = append(meta, "session "+e.SessionID)
	}
	if e.Occurrences > 1 {
		meta = append(meta, fmt.Sprintf("seen %d times (first %s, last %s)", e.Occurrences, e.CreatedAt.Format(time.DateOnly), e.UpdatedAt.Format(time.DateOnly)))
	}
	if e.DiscoveryTokens > 0 {
		meta = append(meta, words.Count(e.DiscoveryTokens, "discovery token"))
	}
	if len(e.Tags) > 0 {
		meta = append(meta, "tags "+strings.Join(e.Tags, ", "))
	}
	b.WriteString(strings.Join(meta, " · "))
	if o.SupersededBy != "" {
		b.WriteString("\nSUPERSEDED by " + o.SupersededBy + ": kept for history, left out of search; read " + o.SupersededBy + " instead.")
	}
	if len(o.Supersedes) > 0 {
		b.WriteString("\nsupersedes " + strings.Join(o.Supersedes, ", "))
	}
	if o.ExpiresAt != "" {
		if o.Expired {
			b.WriteString("\nEXPIRED " + e.ExpiresAt.Format(time.DateOnly) + ": left out of search.")
		} else {
			b.WriteString("\nexpires " + e.ExpiresAt.Format(time.DateOnly))
		}
	}
	if len(o.Stale) > 0 {
		b.WriteString("\nSTALE: what it points at changed or is gone since recorded: " + strings.Join(o.Stale, "; ") + "; re-check before trusting this.")
	}
	if len(o.FilesChanged) > 0 {
		b.WriteString("\n" + memory.ChangedSince(o.FilesChanged, e.CreatedAt) + " (it names no lines or symbol there: check that it still holds)")
	}
	if len(o.Moved) > 0 {
		b.WriteString("\nmoved since recorded: " + strings.Join(o.Moved, "; "))
	}
	if e.Content != "" {
		b.WriteString("\n" + e.Content)
	}
	field := func(name, v string) {
		if v != "" {
			b.WriteString("\n" + name + ": " + v)
		}
	}
	list := func(name string, l []string) {
		if len(l) > 0 {
			b.WriteString("\n" + name + ":")
			for _, s := range l {
				b.WriteString("\n- " + s)
			}
		}
	}
	field("rationale", e.Rationale)
	list("alternatives", e.Alternatives)
	field("root cause", e.RootCause)
	field("fix", e.Fix)
	field("prevention", e.Prevention)
	list("examples", e.Examples)
	list("facts", e.Facts)
	list("files", e.Files)
	if len(o.Recent) > 0 {
		fmt.Fprintf(&b, "\nlatest occurrences (%d of %d):", len(o.Recent), e.Occurrences)
		for _, r := range o.Recent {
			line := fmt.Sprintf("\n- #%d %s", r.N, r.At[:min(len(r.At), 16)])
			if r.SessionID != "" {
				line += " " + r.SessionID
			}
			if r.Branch != "" && r.Branch != e.Branch {
				line += " on " + r.Branch
			}
			if r.Title != "" {
				line += " " + strconv.Quote(problem.Clip(r.Title, 80))
			}
			if r.Content != "" {
				line += ": " + flat(r.Content)
			}
			for _, a := range []struct{ name, v string }{{"root cause", r.RootCause}, {"fix", r.Fix}, {"prevention", r.Prevention}} {
				if a.v != "" {
					line += " (its " + a.name + ": " + flat(a.v) + ")"
				}
			}
			b.WriteString(line)
		}
	}
	return b.String()
}

type EntriesView struct {
	Entries []EntryView `json:"entries"`
	Missing []string    `json:"missing,omitempty"`
}

// Entries is full entries as memory_get's structuredContent (and
// `cairn memory show --json`) shows them.
func Entries(es []memory.Entry, missing []memory.ID) EntriesView {
	out := EntriesView{Entries: []EntryView{}}
	for _, e := range es {
		out.Entries = append(out.Entries, EntryOf(e))
	}
	for _, id := range missing {
		out.Missing = append(out.Missing, id.String())
	}
	return out
}

// Time is a time as every view shows it: RFC 3339 in UTC, "" for none.
func Time(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// occurrenceContent bounds an occurrence's content in memory_get: the
// entry's own content is in full, occurrences are evidence.
const occurrenceContent = 200

// flat is s with its whitespace runs made single spaces.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }
