package memory

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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
)

// Types lists every type, in the order people read them.
var Types = []Type{Decision, Mistake, Convention, Pattern, Preference, Insight, ToolOutcome, WorkflowOutcome}

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
	Rationale    string
	Alternatives []string
	// A mistake's analysis; Occurrences counts how often it was recorded.
	RootCause   string
	Fix         string
	Prevention  string
	Occurrences int
	// A convention's examples.
	Examples []string
	// DiscoveryTokens is what it cost, in tokens, to find this out.
	DiscoveryTokens int

	CreatedAt time.Time
	UpdatedAt time.Time
}

// Limits on what an entry may hold.
const (
	MaxTitle   = 256     // runes
	MaxContent = 1 << 16 // bytes: an entry is knowledge, not a file dump
	MaxItems   = 50      // facts, tags, files, alternatives or examples
	MaxItem    = 2048    // bytes per list item
	MaxTag     = 64      // bytes per tag
)

var tagPattern = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N}._/#+-]*$`)

// Normalize trims e's text, lower-cases and de-duplicates its tags and drops
// empty list items. It does not validate.
func (e *Entry) Normalize() {
	e.Title = strings.TrimSpace(e.Title)
	e.Content = strings.TrimSpace(e.Content)
	e.Rationale = strings.TrimSpace(e.Rationale)
	e.RootCause = strings.TrimSpace(e.RootCause)
	e.Fix = strings.TrimSpace(e.Fix)
	e.Prevention = strings.TrimSpace(e.Prevention)
	e.Facts = cleanList(e.Facts, false)
	e.Files = cleanList(e.Files, false)
	e.Alternatives = cleanList(e.Alternatives, false)
	e.Examples = cleanList(e.Examples, false)
	e.Tags = cleanList(e.Tags, true)
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
	for _, f := range []struct {
		name, v string
	}{{"content", e.Content}, {"rationale", e.Rationale}, {"root_cause", e.RootCause}, {"fix", e.Fix}, {"prevention", e.Prevention}} {
		if len(f.v) > MaxContent {
			return &problem.FieldError{Field: f.name, Problem: fmt.Sprintf("is %d bytes", len(f.v)),
				Fix: fmt.Sprintf("keep it under %d KiB: record the knowledge, link the file", MaxContent>>10)}
		}
	}
	for _, l := range []struct {
		name  string
		items []string
		max   int
	}{{"facts", e.Facts, MaxItem}, {"files", e.Files, MaxItem}, {"alternatives", e.Alternatives, MaxItem}, {"examples", e.Examples, MaxItem}, {"tags", e.Tags, MaxTag}} {
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

var (
	fpHex    = regexp.MustCompile(`\b(0x)?[0-9a-f]{6,}\b`)
	fpNum    = regexp.MustCompile(`\d+`)
	fpQuoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	fpSpace  = regexp.MustCompile(`[^\p{L}\p{N}#]+`)
)

// Fingerprint is what makes two mistakes the same one: the title with case,
// punctuation, numbers, hex ids and quoted values blurred, so "open
// /tmp/x1: too many files" and "Open /tmp/x2: too many files" match.
func Fingerprint(title string) string {
	s := strings.ToLower(title)
	s = fpQuoted.ReplaceAllString(s, "#")
	s = fpHex.ReplaceAllString(s, "#")
	s = fpNum.ReplaceAllString(s, "#")
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
	parts = append(parts, e.Rationale)
	parts = append(parts, e.Alternatives...)
	parts = append(parts, e.RootCause, e.Fix, e.Prevention)
	parts = append(parts, e.Examples...)
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
