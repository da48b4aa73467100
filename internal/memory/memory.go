package memory

import (
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/lazyre"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Type is what kind of knowledge an entry holds.
type Type string

// The entry types. Decisions, mistakes and conventions have fields of their
// own; the others are observations.
const (
	Decision        Type = "decision"
	Mistake         Type = "mistake"
	Convention      Type = "convention"
	Pattern         Type = "pattern"
	Preference      Type = "preference"
	Insight         Type = "insight"
	ToolOutcome     Type = "tool_outcome"
	WorkflowOutcome Type = "workflow_outcome"
	// Context is free-form project context an agent stores to find again:
	// how a subsystem fits together, where things live, what a user said.
	Context Type = "context"
)

// Types lists every type, in the order people read them.
var Types = []Type{Decision, Mistake, Convention, Pattern, Preference, Insight, ToolOutcome, WorkflowOutcome, Context}

// Valid reports whether t is one of Types.
func (t Type) Valid() bool {
	for _, x := range Types {
		if t == x {
			return true
		}
	}
	return false
}

// Observation reports whether t is recorded with the observation tool rather
// than a tool of its own.
func (t Type) Observation() bool {
	return t.Valid() && t != Decision && t != Mistake && t != Convention
}

// TypeNames is Types as strings, for schemas and messages.
func TypeNames() []string {
	out := make([]string, len(Types))
	for i, t := range Types {
		out[i] = string(t)
	}
	return out
}

// ID is an entry's number within its project, shown as "m12".
type ID int64

// String renders the id as agents see it.
func (id ID) String() string { return "m" + strconv.FormatInt(int64(id), 10) }

// ParseID reads "m12" or "12".
func ParseID(s string) (ID, error) {
	s = strings.TrimSpace(s)
	n := strings.TrimPrefix(strings.TrimPrefix(s, "m"), "M")
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v <= 0 || n == "" || n[0] == '+' {
		return 0, fmt.Errorf("%q is not a memory id", s)
	}
	return ID(v), nil
}

// Entry is one piece of project memory.
//
// The fields tagged `detail` are type-specific: stores keep them in one
// details document (see Entry.Details), not in columns of their own, so a
// type with fields of its own is a change here and in its renderer.
type Entry struct {
	ID   ID
	UID  string // globally unique, stable across export and import
	Type Type

	Title   string
	Content string
	Facts   []string
	Tags    []string // concepts and tags, lower case
	Files   []string

	SessionID string // the session that recorded it, if any
	Branch    string // the git branch it was recorded on, if known

	// A decision's reasons and the options it rejected.
	Rationale    string   `detail:"rationale"`
	Alternatives []string `detail:"alternatives"`
	// A mistake's analysis; Occurrences counts how often it was recorded.
	RootCause   string `detail:"root_cause"`
	Fix         string `detail:"fix"`
	Prevention  string `detail:"prevention"`
	Occurrences int
	// A convention's examples.
	Examples []string `detail:"examples"`
	// DiscoveryTokens is what it cost, in tokens, to find this out.
	DiscoveryTokens int `detail:"discovery_tokens"`

	// FileHashes maps each of Files that existed when the entry was
	// stored (relative to the project root) to its mark: the file's content
	// hash and the hashes of the parts of it the entry points at (see
	// Mark), so a reader can tell whether the entry still holds.
	FileHashes map[string]string
	// SupersededBy is the entry that replaces this one (0: none); a
	// superseded entry is kept but left out of searches by default.
	SupersededBy ID
	// Supersedes lists the entries this one replaced; stores fill it on
	// full reads (Memories), it is not written.
	Supersedes []ID
	// ExpiresAt, when set, is when an observation stops being searched.
	ExpiresAt time.Time

	// Filled by the memory service's full reads, never stored: Recent is
	// a mistake's latest few occurrences (newest first), Changed what
	// became of its files since the entry was recorded.
	Recent  []Occurrence
	Changed []FileChange

	CreatedAt time.Time
	UpdatedAt time.Time
}

// Superseded reports whether another entry replaced e.
func (e Entry) Superseded() bool { return e.SupersededBy != 0 }

// Expired reports whether e had expired at t.
func (e Entry) Expired(t time.Time) bool { return !e.ExpiresAt.IsZero() && !t.Before(e.ExpiresAt) }

// Limits on what an entry may hold.
const (
	MaxTitle   = 256     // runes
	MaxContent = 1 << 16 // bytes: an entry is knowledge, not a file dump
	MaxItems   = 50      // facts, tags, files, alternatives or examples
	MaxItem    = 2048    // bytes per list item
	MaxTag     = 64      // bytes per tag
)

var tagPattern = lazyre.New(`^[\p{L}\p{N}][\p{L}\p{N}._/#+-]*$`)

// Normalize trims e's text, lower-cases and de-duplicates its tags and drops
// empty list items. It does not validate.
func (e *Entry) Normalize() {
	e.Title = strings.TrimSpace(e.Title)
	e.Content = strings.TrimSpace(e.Content)
	e.Facts = cleanList(e.Facts, false)
	e.Files = cleanList(e.Files, false)
	e.Tags = cleanList(e.Tags, true)
	e.eachDetail(func(_ string, s *string, l *[]string) {
		if s != nil {
			*s = strings.TrimSpace(*s)
		} else {
			*l = cleanList(*l, false)
		}
	})
}

func cleanList(in []string, lower bool) []string {
	if len(in) == 0 {
		return nil
	}
	out := make([]string, 0, len(in))
	seen := make(map[string]bool, len(in))
	for _, s := range in {
		s = strings.TrimSpace(s)
		if lower {
			s = strings.ToLower(s)
		}
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Validate checks a normalized entry before it is stored. Errors are
// *problem.FieldError naming the argument.
func Validate(e Entry) error {
	if !e.Type.Valid() {
		return &problem.FieldError{Field: "type", Problem: fmt.Sprintf("is %q", problem.Clip(string(e.Type), 40)),
			Fix: "use one of " + strings.Join(TypeNames(), ", ")}
	}
	if e.Title == "" {
		return &problem.FieldError{Field: "title", Problem: "is empty", Fix: "give a few words saying what this is about"}
	}
	if n := utf8.RuneCountInString(e.Title); n > MaxTitle {
		return &problem.FieldError{Field: "title", Problem: fmt.Sprintf("has %d characters", n),
			Fix: fmt.Sprintf("keep it to %d and put the rest in content", MaxTitle)}
	}
	texts := []struct {
		name, v string
	}{{"content", e.Content}}
	lists := []struct {
		name  string
		items []string
		max   int
	}{{"facts", e.Facts, MaxItem}, {"files", e.Files, MaxItem}}
	e.eachDetail(func(name string, s *string, l *[]string) {
		if s != nil {
			texts = append(texts, struct{ name, v string }{name, *s})
		} else {
			lists = append(lists, struct {
				name  string
				items []string
				max   int
			}{name, *l, MaxItem})
		}
	})
	lists = append(lists, struct {
		name  string
		items []string
		max   int
	}{"tags", e.Tags, MaxTag})
	for _, f := range texts {
		if len(f.v) > MaxContent {
			return &problem.FieldError{Field: f.name, Problem: fmt.Sprintf("is %d bytes", len(f.v)),
				Fix: fmt.Sprintf("keep it under %d KiB: record the knowledge, link the file", MaxContent>>10)}
		}
	}
	for _, l := range lists {
		if len(l.items) > MaxItems {
			return &problem.FieldError{Field: l.name, Problem: fmt.Sprintf("has %d items", len(l.items)), Fix: fmt.Sprintf("give at most %d", MaxItems)}
		}
		for i, s := range l.items {
			if len(s) > l.max {
				return &problem.FieldError{Field: fmt.Sprintf("%s[%d]", l.name, i), Problem: fmt.Sprintf("is %d bytes", len(s)), Fix: fmt.Sprintf("keep each under %d bytes", l.max)}
			}
		}
	}
	for i, t := range e.Tags {
		if !tagPattern.MatchString(t) {
			return &problem.FieldError{Field: fmt.Sprintf("tags[%d]", i), Problem: fmt.Sprintf("is %q", problem.Clip(t, 40)),
				Fix: "use a word or slug: letters, digits and . _ / # + -, no spaces"}
		}
	}
	if e.DiscoveryTokens < 0 {
		return &problem.FieldError{Field: "discovery_tokens", Problem: "is negative", Fix: "give the tokens spent finding this out, or leave it out"}
	}
	return nil
}

// The fingerprint's blurs, applied in this order: what varies between runs
// of one failure becomes "#".
var fpBlurs = []struct {
	re   *lazyre.Regexp
	with string
}{
	{lazyre.New(`"[^"\n]*"|` + "`[^`\n]*`"), "#"},                                                                                    // quoted values
	{lazyre.New(`(^|[^\p{L}\p{N}])'[^'\n]*'`), "${1}#"},                                                                              // 'quoted', not can't
	{lazyre.New(`\d{4}-\d\d-\d\d([t ]\d\d:\d\d(:\d\d(\.\d+)?)?(z|[+-]\d\d:?\d\d)?)?|\b\d\d?:\d\d:\d\d(\.\d+)?\b`), "#"},              // times
	{lazyre.New(`(/private)?/(tmp|var/tmp|var/folders|dev/shm)(/[^\s:'"]*)?|[a-z]:\\[^\s]*\\te?mp\\[^\s:'"]*`), "#tmp"},              // temp paths
	{lazyre.New(`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "#"},                                            // UUIDs
	{lazyre.New(`\b0x[0-9a-f]+\b`), "#"},                                                                                             // addresses
	{lazyre.New(`(\.[a-z0-9]+|localhost|\))((:\d+){1,2})\b`), "${1}:#"},                                                              // file:line:col, host:port
	{lazyre.New(`\b(line|col|column|offset|pid|port) \d+\b`), "${1} #"},                                                              // line 12
	{lazyre.New(`\b(\d+(\.\d+)?(ns|µs|us|ms|s|m|h))+\b|\b\d+(\.\d+)? ?(milliseconds?|seconds?|secs?|minutes?|mins?|hours?)\b`), "#"}, // durations
}

var (
	fpHexRun = lazyre.New(`\b[0-9a-f]{7,}\b`)
	fpSpace  = lazyre.New(`[^\p{L}\p{N}#]+`)
)

// Fingerprint is what makes two mistakes the same one. It blurs, in the
// title, what varies between runs of one failure: case, punctuation,
// quoted values, times, temporary paths, UUIDs, memory addresses, hex ids
// (commits, object ids: seven or more hex digits mixing digits and
// letters), file:line:column, ports and durations. It keeps what names a
// different thing: words, identifiers and bare numbers, so "flaky test 7 in
// worker" and "flaky test 8 in worker" are two mistakes, while "open
// /tmp/x1/a.go:12:3: too many files" and "Open /tmp/x2/a.go:40:1: too many
// files" are one.
func Fingerprint(title string) string {
	s := strings.ToLower(title)
	for _, b := range fpBlurs {
		s = b.re.ReplaceAllString(s, b.with)
	}
	s = fpHexRun.ReplaceAllStringFunc(s, func(h string) string {
		if strings.ContainsAny(h, "abcdef") && strings.ContainsAny(h, "0123456789") {
			return "#"
		}
		return h
	})
	s = fpSpace.ReplaceAllString(s, " ")
	return strings.TrimSpace(s)
}

// NewUID returns a fresh globally unique entry id: 16 lower-case base32
// characters, 80 random bits.
func NewUID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [10]byte
	_, _ = rand.Read(b[:])
	out := make([]byte, 16)
	var acc uint64
	bits, j := 0, 0
	for _, c := range b {
		acc = acc<<8 | uint64(c)
		bits += 8
		for bits >= 5 {
			bits -= 5
			out[j] = alphabet[acc>>uint(bits)&31]
			j++
		}
	}
	return string(out)
}

// ValidUID reports whether s looks like a uid NewUID made (or an imported
// one of the same alphabet), so a file name built from it is safe.
func ValidUID(s string) bool {
	if len(s) < 8 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// SearchText is the entry's text the full-text index holds beside its title
// and tags: the content and every type-specific field.
func (e Entry) SearchText() string {
	parts := []string{e.Content}
	parts = append(parts, e.Facts...)
	e.eachDetail(func(_ string, s *string, l *[]string) {
		if s != nil {
			parts = append(parts, *s)
		} else {
			parts = append(parts, *l...)
		}
	})
	parts = append(parts, e.Files...)
	var b strings.Builder
	for _, p := range parts {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p)
	}
	return b.String()
}
