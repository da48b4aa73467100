package memory

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/cairn-dev/cairn/internal/problem"
	"time"

	"go.yaml.in/yaml/v3"
)

// Exported are the types written to git-visible files: what a team reviews.
var Exported = []Type{Decision, Convention, Mistake}

// fileHeader is an entry's YAML front matter in its exported file.
type fileHeader struct {
	UID             string    `yaml:"uid"`
	Type            Type      `yaml:"type"`
	Title           string    `yaml:"title"`
	Tags            []string  `yaml:"tags,omitempty,flow"`
	Files           []string  `yaml:"files,omitempty"`
	Facts           []string  `yaml:"facts,omitempty"`
	Rationale       string    `yaml:"rationale,omitempty"`
	Alternatives    []string  `yaml:"alternatives,omitempty"`
	RootCause       string    `yaml:"root_cause,omitempty"`
	Fix             string    `yaml:"fix,omitempty"`
	Prevention      string    `yaml:"prevention,omitempty"`
	Occurrences     int       `yaml:"occurrences,omitempty"`
	Examples        []string  `yaml:"examples,omitempty"`
	DiscoveryTokens int       `yaml:"discovery_tokens,omitempty"`
	Branch          string    `yaml:"branch,omitempty"`
	SupersededBy    string    `yaml:"superseded_by,omitempty"`
	Created         time.Time `yaml:"created"`
	Updated         time.Time `yaml:"updated"`
}

// File is an entry as exported. Ids are local to one store, so a
// supersession travels as the replacing entry's uid.
type File struct {
	Entry        Entry
	SupersededBy string // uid of the entry that replaced this one; empty: none
}

// FileName is where an entry is exported, relative to the export
// directory: one file per entry, so two people's additions never conflict.
func FileName(e Entry) string { return string(e.Type) + "s/" + e.UID + ".md" }

// MarshalFile renders an entry as Markdown with YAML front matter; the
// content is the body. Session ids are local and left out.
func MarshalFile(f File) ([]byte, error) {
	e := f.Entry
	h := fileHeader{SupersededBy: f.SupersededBy, UID: e.UID, Type: e.Type, Title: e.Title, Tags: e.Tags, Files: e.Files, Facts: e.Facts,
		Rationale: e.Rationale, Alternatives: e.Alternatives, RootCause: e.RootCause, Fix: e.Fix, Prevention: e.Prevention,
		Occurrences: e.Occurrences, Examples: e.Examples, DiscoveryTokens: e.DiscoveryTokens, Branch: e.Branch,
		Created: e.CreatedAt.UTC(), Updated: e.UpdatedAt.UTC()}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(h); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	b.WriteString("---\n")
	if e.Content != "" {
		b.WriteString(e.Content)
		b.WriteString("\n")
	}
	return b.Bytes(), nil
}

// ParseFile reads a file MarshalFile wrote (and a person may have edited).
// The entry is normalized and validated.
func ParseFile(b []byte) (File, error) {
	e, h, err := parseFile(b)
	if err != nil {
		return File{}, err
	}
	if h.SupersededBy != "" {
		if !ValidUID(h.SupersededBy) {
			return File{}, fmt.Errorf("superseded_by %q: use the uid of the entry that replaced this one (8 to 64 lower-case letters, digits, - or _)", problem.Clip(h.SupersededBy, 40))
		}
		if h.SupersededBy == e.UID {
			return File{}, errors.New("superseded_by names the entry itself: name the entry that replaced it, or leave it out")
		}
	}
	return File{Entry: e, SupersededBy: h.SupersededBy}, nil
}

func parseFile(b []byte) (Entry, fileHeader, error) {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(b, []byte("---\n"))
	if !ok {
		return Entry{}, fileHeader{}, errors.New("does not start with a --- front matter line")
	}
	head, body, ok := bytes.Cut(rest, []byte("\n---\n"))
	if !ok {
		if head, ok = bytes.CutSuffix(rest, []byte("\n---")); !ok {
			return Entry{}, fileHeader{}, errors.New("front matter is not closed with a --- line")
		}
	}
	var h fileHeader
	dec := yaml.NewDecoder(bytes.NewReader(head))
	dec.KnownFields(true)
	if err := dec.Decode(&h); err != nil {
		return Entry{}, fileHeader{}, fmt.Errorf("front matter: %w", err)
	}
	if !ValidUID(h.UID) {
		return Entry{}, fileHeader{}, fmt.Errorf("uid %q: use 8 to 64 lower-case letters, digits, - or _", problem.Clip(h.UID, 40))
	}
	e := Entry{UID: h.UID, Type: h.Type, Title: h.Title, Content: string(body), Tags: h.Tags, Files: h.Files, Facts: h.Facts,
		Rationale: h.Rationale, Alternatives: h.Alternatives, RootCause: h.RootCause, Fix: h.Fix, Prevention: h.Prevention,
		Occurrences: h.Occurrences, Examples: h.Examples, DiscoveryTokens: h.DiscoveryTokens, Branch: h.Branch,
		CreatedAt: h.Created.UTC(), UpdatedAt: h.Updated.UTC()}
	e.Normalize()
	if err := Validate(e); err != nil {
		return Entry{}, fileHeader{}, err
	}
	if e.Type == Mistake && e.Occurrences < 1 {
		e.Occurrences = 1
	}
	if e.CreatedAt.IsZero() {
		return Entry{}, fileHeader{}, errors.New("created is missing")
	}
	if e.UpdatedAt.IsZero() {
		e.UpdatedAt = e.CreatedAt
	}
	return e, h, nil
}
