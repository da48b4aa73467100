package memories

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
)

// SearchQuery is a memory search (layer 1) as a caller spells it; Search
// validates it and applies page.Memory's rule.
type SearchQuery struct {
	Text      string   // plain words; empty lists the newest entries
	Types     []string // entry types, any of these
	Tags      []string // having any of these tags
	SessionID string
	Branch    string
	After     string // ISO 8601: created at or after
	Before    string // ISO 8601: created before
	// IncludeSuperseded also lists entries a newer one replaced.
	IncludeSuperseded bool
	page.Page
}

// Bounds on what a memory request may carry.
const (
	MaxQueryText  = 4096     // bytes of search text
	MaxContext    = 20       // entries before or after a timeline's anchor
	DefaultAround = 3        // entries before and after by default
	MaxPruneIDs   = 500      // ids one prune may name
	MaxErrorText  = 16 << 10 // bytes of an error to diagnose; the rest is cut
)

func (q SearchQuery) query() (store.MemoryQuery, error) {
	p, err := page.Memory.Apply(q.Page)
	if err != nil {
		return store.MemoryQuery{}, err
	}
	sq := store.MemoryQuery{Text: q.Text, SessionID: strings.TrimSpace(q.SessionID), Branch: strings.TrimSpace(q.Branch), IncludeSuperseded: q.IncludeSuperseded,
		Offset: p.Offset, Limit: p.Limit}
	if sq.Types, err = parseTypes("type", q.Types); err != nil {
		return sq, err
	}
	if len(q.Tags) > memory.MaxItems {
		return sq, &problem.FieldError{Field: "tag", Problem: fmt.Sprintf("has %d tags", len(q.Tags)), Fix: fmt.Sprintf("pass at most %d", memory.MaxItems)}
	}
	for i, t := range q.Tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if len(t) > memory.MaxTag {
			return sq, &problem.FieldError{Field: fmt.Sprintf("tag[%d]", i), Problem: fmt.Sprintf("is %d bytes", len(t)), Fix: fmt.Sprintf("pass tags of at most %d bytes", memory.MaxTag)}
		}
		sq.Tags = append(sq.Tags, t)
	}
	for _, f := range []struct{ name, v string }{{"session_id", sq.SessionID}, {"branch", sq.Branch}} {
		if len(f.v) > 256 {
			return sq, &problem.FieldError{Field: f.name, Problem: fmt.Sprintf("is %d bytes", len(f.v)), Fix: "pass a session id such as s4, or a git branch name"}
		}
	}
	if sq.After, err = page.ParseTime("after", q.After); err != nil {
		return sq, err
	}
	if sq.Before, err = page.ParseTime("before", q.Before); err != nil {
		return sq, err
	}
	if len(sq.Text) > MaxQueryText {
		return sq, &problem.FieldError{Field: "query", Problem: fmt.Sprintf("is %d bytes", len(sq.Text)), Fix: "pass a few key words"}
	}
	return sq, nil
}

// parseTypes reads entry types as a caller spells them (any case).
func parseTypes(field string, in []string) ([]memory.Type, error) {
	var out []memory.Type
	for _, s := range in {
		t := memory.Type(strings.ToLower(strings.TrimSpace(s)))
		if !t.Valid() {
			return nil, &problem.FieldError{Field: field, Problem: "has " + problem.Quote(s), Fix: "use " + page.OneOf(memory.Types)}
		}
		out = append(out, t)
	}
	return out, nil
}

// parseEntryIDs reads entry ids ("m12", or "12") for the argument field.
func parseEntryIDs(field string, in []string) ([]memory.ID, error) {
	out := make([]memory.ID, len(in))
	for i, s := range in {
		id, err := memory.ParseID(s)
		if err != nil {
			return nil, &problem.FieldError{Field: fmt.Sprintf("%s[%d]", field, i), Problem: "is " + problem.Quote(s) + ", not an entry id",
				Fix: `pass an id such as "m12"`, Hint: problem.SearchMemory}
		}
		out[i] = id
	}
	return out, nil
}

// ContextQuery asks for the timeline around one entry (layer 2).
type ContextQuery struct {
	ID          string
	Before      int // 0 to MaxContext; zero: DefaultAround
	After       int
	SameSession bool
}

// PruneQuery selects entries to remove: by id, by type, by age, or by type
// and age. Unless DryRun is false they are only listed.
type PruneQuery struct {
	IDs           []string
	Types         []string
	OlderThanDays int
	DryRun        bool
}

func (q PruneQuery) selector(now time.Time) (store.MemorySelector, error) {
	var sel store.MemorySelector
	if len(q.IDs) > MaxPruneIDs {
		return sel, &problem.FieldError{Field: "ids", Problem: fmt.Sprintf("has %d ids", len(q.IDs)), Fix: fmt.Sprintf("pass at most %d ids at a time, or prune by type and age", MaxPruneIDs)}
	}
	var err error
	if sel.IDs, err = parseEntryIDs("ids", q.IDs); err != nil {
		return sel, err
	}
	if sel.Types, err = parseTypes("type", q.Types); err != nil {
		return sel, err
	}
	if q.OlderThanDays < 0 {
		return sel, &problem.FieldError{Field: "older_than_days", Problem: "is negative", Fix: "pass a number of days, 1 or more"}
	}
	if q.OlderThanDays > 0 {
		sel.Before = now.Add(-time.Duration(q.OlderThanDays) * 24 * time.Hour)
	}
	if len(sel.IDs) == 0 && len(sel.Types) == 0 && sel.Before.IsZero() {
		return sel, &problem.FieldError{Field: "ids", Problem: "is empty, and so are type and older_than_days",
			Fix: "pass ids, a type, older_than_days, or a type and an age"}
	}
	return sel, nil
}

// DiagnoseQuery is an error to find past mistakes like: its text (cut to
// MaxErrorText bytes, where the key lines of a trace are) and how many
// mistakes to return (page.Diagnose's rule).
type DiagnoseQuery struct {
	Error string
	Limit int
}

func (q DiagnoseQuery) normalize() (DiagnoseQuery, error) {
	if strings.TrimSpace(q.Error) == "" {
		return q, &problem.FieldError{Field: "error", Problem: "is empty", Fix: "pass the error message or its key line"}
	}
	p, err := page.Diagnose.Apply(page.Page{Limit: q.Limit})
	if err != nil {
		return q, err
	}
	q.Limit = p.Limit
	if len(q.Error) > MaxErrorText {
		q.Error = q.Error[:MaxErrorText]
		for !utf8.ValidString(q.Error) {
			q.Error = q.Error[:len(q.Error)-1]
		}
	}
	return q, nil
}
