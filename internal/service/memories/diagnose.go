package memories

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// SimilarRule is when a past mistake or recorded failure is similar to an
// error (see Diagnose).
//
// Tuned on the diagnose benchmark's dev split (internal/service/
// diagnose_test.go: 73 errors over 112 entries) by F1: terms common above
// 5% of the entries and above 8 of them, one shared distinctive name or
// word beside a shared type, two and half of those an error of no known
// type holds: precision 1.00, recall 0.97. Settings nearby tie within a
// pair or two: a term common from 2% to 10% and above 2 to 16 entries, two
// or three names and words for an untyped error and a cover of 0.3 to 0.5.
// Two names or words beside a type lose a quarter of the recall (0.74).
// Measured once on the held-out split (40 errors, labelled before the
// run): precision 0.76, recall 0.80, against 0.20 and 0.69 before.
type SimilarRule struct {
	// A term in more than CommonShare of the project's entries, and in
	// more than CommonMin of them, is too common to tell failures apart
	// ("csv" in a data project): it is no evidence.
	CommonShare float64
	CommonMin   int
	// TypedMin is how many distinctive names and words an error of a
	// known type must share with a past one of the same type.
	TypedMin int
	// An error of no known type must share UntypedMin distinctive names
	// and words, and at least UntypedCover of those it holds.
	UntypedMin   int
	UntypedCover float64
	// Depth is how many full-text candidates of each kind (mistakes,
	// recorded failures) are compared, and Events how many of the newest
	// failure events of the session records.
	Depth  int
	Events int
}

// Similar is the rule Diagnose applies.
var Similar = SimilarRule{CommonShare: 0.05, CommonMin: 8, TypedMin: 1, UntypedMin: 2, UntypedCover: 0.5, Depth: 30, Events: 200}

// failureTags are the tags of a failed command a hook recorded (see
// RecordToolUse).
var failureTags = []string{"failed-command", "mistake-candidate"}

// Diagnosis is what Diagnose found.
type Diagnosis struct {
	// Read is how the error was read: its types, names and words.
	Read memory.ErrorText
	// Matches are the similar past mistakes and recorded failures, best
	// first, each with why.
	Matches []Match
	// SameTypeOnly are entries of the same type of error that share
	// nothing else distinctive with it: not similar, but named so that an
	// agent can look.
	SameTypeOnly []memory.ID
	// Compared is how many past entries were compared.
	Compared int
	// Note says what limited the search, if anything did.
	Note string
}

// Match is a past entry similar to the error.
type Match struct {
	Entry memory.Entry
	// Failure: a failed command a hook recorded (a tool_outcome tagged
	// mistake-candidate), not a mistake an agent confirmed with its fix.
	Failure  bool
	Evidence memory.Evidence
	// Event is the failure event of the session record that matched, when
	// one did rather than the entry's text: each distinct failure of a
	// command is an event, and its candidate entry keeps the last.
	Event *memory.Event
	// Resolved is when a later run of the failed command passed, when
	// every failure of it the record holds is resolved (zero otherwise).
	Resolved time.Time
}

// Why says in a few words why it matched.
func (m Match) Why() string { return m.Evidence.String() }

// Diagnose finds the past mistakes and the failed commands hooks recorded
// that are like an error: the same type of error (an exception class, a
// code, a well-known message) and at least one more distinctive name or
// word, or the same key line (or a mistake titled with its fingerprint).
// An error of no known type needs several distinctive names and words in
// common. A word is distinctive unless it is generic to errors ("error",
// "failed", "line") or in a large share of the project's entries (see
// Similar). Candidates are the mistakes and mistake candidates a full-text
// search of each kind finds, the mistakes whose fingerprint is a key
// line's, and the newest failure events of the session records (each
// distinct failure of a command, where its candidate entry keeps only the
// last error text), read through the candidate they belong to; they are
// ranked by the evidence.
func (m *Memory) Diagnose(ctx context.Context, q DiagnoseQuery) (Diagnosis, error) {
	q, err := q.normalize()
	if err != nil {
		return Diagnosis{}, err
	}
	rule := Similar
	d := Diagnosis{Read: memory.ParseError(q.Error)}
	text := d.Read.Query()
	if len(memory.Terms(text)) == 0 {
		d.Note = "the error holds no type, name or word that tells it from another; pass its key line"
		return d, nil
	}
	now := m.now()
	var chosen []candidate
	err = m.store.View(ctx, func(tx store.Tx) error {
		chosen, d.SameTypeOnly, d.Compared = nil, nil, 0
		cands, err := m.diagnoseCandidates(ctx, tx, d.Read, text, rule, now)
		if err != nil {
			return err
		}
		// How common a word is matters where it is shared; an error of no
		// known type also counts the distinctive words it holds.
		held := map[string]bool{} // the terms some candidate holds
		named := map[string]int{} // how many candidates name each name
		for _, c := range cands {
			seen := map[string]bool{}
			for _, x := range c.texts {
				for _, t := range x.Terms() {
					held[t] = true
				}
				for _, nm := range x.Names {
					if !seen[nm] {
						seen[nm] = true
						named[nm]++
					}
				}
			}
		}
		var terms []string
		for _, t := range d.Read.Terms() {
			if held[t] || !d.Read.Typed() {
				terms = append(terms, t)
			}
		}
		n, termWeight, err := termWeights(ctx, tx, d.Read, terms, rule)
		if err != nil {
			return err
		}
		// A name ("sample2.csv", "parse_line") is as common as the past
		// errors like this one that name it: the index holds its words, not
		// it, and a name of common words ("test_totals.py") can be rare.
		w := memory.Weights{Term: termWeight, Name: func(nm string) float64 { return rule.weight(named[nm], n) }}
		for i := range cands {
			for j, x := range cands[i].texts {
				if ev := memory.Compare(d.Read, x, w); j == 0 || ev.Score > cands[i].ev.Score {
					cands[i].ev, cands[i].best = ev, j
				}
			}
		}
		d.Compared = len(cands)
		slices.SortStableFunc(cands, func(a, b candidate) int {
			return cmp.Or(cmp.Compare(b.ev.Score, a.ev.Score), cmpBool(a.failure, b.failure), b.updated().Compare(a.updated()))
		})
		for _, c := range cands {
			switch {
			case rule.similar(d.Read, c.ev):
				if len(chosen) >= q.Limit {
					continue
				}
				if c.e.ID == 0 { // known by its failure events alone
					e, ok, err := store.MemoryByUID(ctx, tx, c.uid)
					if err != nil {
						return err
					}
					if !ok {
						continue // the candidate was discarded
					}
					c.e = e
				}
				chosen = append(chosen, c)
			case len(c.ev.Types) > 0 && len(d.SameTypeOnly) < 3 && c.e.ID != 0:
				d.SameTypeOnly = append(d.SameTypeOnly, c.e.ID)
			}
		}
		return nil
	})
	if err != nil {
		return Diagnosis{}, fmt.Errorf("diagnose: %w", err)
	}
	if len(chosen) == 0 {
		return d, nil
	}
	ids := make([]memory.ID, len(chosen))
	for i, c := range chosen {
		ids[i] = c.e.ID
	}
	es, _, err := m.get(ctx, ids) // with occurrences and file changes
	if err != nil {
		return Diagnosis{}, err
	}
	byID := map[memory.ID]memory.Entry{}
	for _, e := range es {
		byID[e.ID] = e
	}
	for _, c := range chosen {
		e, ok := byID[c.e.ID]
		if !ok {
			continue
		}
		match := Match{Entry: e, Failure: c.failure, Evidence: c.ev}
		if c.best > 0 { // one of its failure events matched
			ev := c.events[c.best-1]
			match.Event = &ev
		}
		for i, ev := range c.events {
			if ev.ResolvedAt.IsZero() {
				match.Resolved = time.Time{}
				break
			}
			if i == 0 || ev.ResolvedAt.After(match.Resolved) {
				match.Resolved = ev.ResolvedAt
			}
		}
		d.Matches = append(d.Matches, match)
	}
	return d, nil
}

// diagnoseCandidates gathers what Diagnose compares: the entries full-text
// searches find (mistakes, and the mistake candidates hooks recorded),
// the mistakes titled with a key line's fingerprint, and the newest failure
// events of the session records, grouped with the candidate entry each
// belongs to. Each candidate has its texts: its entry's first (when read),
// then its failure events'.
func (m *Memory) diagnoseCandidates(ctx context.Context, tx store.Tx, read memory.ErrorText, text string, rule SimilarRule, now time.Time) ([]candidate, error) {
	seen := map[memory.ID]bool{}
	var ids []memory.ID
	for _, sq := range []store.MemoryQuery{
		{Text: text, Types: []memory.Type{memory.Mistake}, Limit: rule.Depth, Now: now},
		{Text: text, Types: []memory.Type{memory.ToolOutcome}, Tags: failureTags, Limit: rule.Depth, Now: now},
	} {
		r, err := store.SearchMemory(ctx, tx, sq)
		if err != nil {
			return nil, err
		}
		for _, h := range r.Hits {
			if !seen[h.Entry.ID] {
				seen[h.Entry.ID] = true
				ids = append(ids, h.Entry.ID)
			}
		}
	}
	for _, fp := range read.Prints {
		e, ok, err := store.MistakeByFingerprint(ctx, tx, fp)
		if err != nil {
			return nil, err
		}
		if ok && e.SupersededBy == 0 && !seen[e.ID] {
			seen[e.ID] = true
			ids = append(ids, e.ID)
		}
	}
	es, err := store.Memories(ctx, tx, ids, 0)
	if err != nil {
		return nil, err
	}
	var cands []candidate
	byUID := map[string]int{}
	for _, e := range es {
		failure := e.Type == memory.ToolOutcome
		if failure && !slices.ContainsFunc(e.Tags, func(t string) bool { return slices.Contains(failureTags, t) }) {
			continue
		}
		if failure && e.UID != "" {
			byUID[e.UID] = len(cands)
		}
		cands = append(cands, candidate{e: e, uid: e.UID, failure: failure, texts: []memory.ErrorText{m.entryError(e)}})
	}
	if rule.Events <= 0 {
		return cands, nil
	}
	evs, _, err := tx.Events(ctx, store.EventQuery{Kinds: []memory.EventKind{memory.EventFailure}, Limit: rule.Events})
	if err != nil {
		return nil, err
	}
	for _, ev := range evs {
		uid := candidateUID(ev.Session, ev.Subject)
		i, ok := byUID[uid]
		if !ok {
			i = len(cands)
			byUID[uid] = i
			cands = append(cands, candidate{uid: uid, failure: true, at: ev.At})
		}
		cands[i].events = append(cands[i].events, ev)
		if len(cands[i].texts) == 0 && cands[i].e.ID == 0 {
			cands[i].texts = append(cands[i].texts, memory.ErrorText{}) // no entry read: an empty first text
		}
		cands[i].texts = append(cands[i].texts, m.eventError(ev))
	}
	return cands, nil
}

// eventError reads a failure event as ParseError reads an error: its
// informative line, the error's type where the language names one, and the
// tail of the output; read once for each content of the event.
func (m *Memory) eventError(ev memory.Event) memory.ErrorText {
	lines := append([]string{ev.Detail}, ev.Tail...)
	text := strings.Join(lines, "\n")
	key := ev.Session.String() + "\x00" + ev.Type + "\x00" + text
	m.errs.mu.Lock()
	x, ok := m.errs.events[key]
	m.errs.mu.Unlock()
	if ok {
		return x
	}
	x = memory.ParseError(text)
	if ev.Type != "" {
		for _, t := range memory.ParseError(ev.Type).Types {
			if !slices.Contains(x.Types, t) {
				x.Types = append(x.Types, t)
			}
		}
	}
	m.errs.mu.Lock()
	if m.errs.events == nil || len(m.errs.events) > 4096 {
		m.errs.events = map[string]memory.ErrorText{}
	}
	m.errs.events[key] = x
	m.errs.mu.Unlock()
	return x
}

// entryError is memory.EntryError(e), read once for each version of e.
func (m *Memory) entryError(e memory.Entry) memory.ErrorText {
	m.errs.mu.Lock()
	c, ok := m.errs.m[e.ID]
	m.errs.mu.Unlock()
	if ok && c.updated.Equal(e.UpdatedAt) && c.title == e.Title {
		return c.x
	}
	x := memory.EntryError(e)
	m.errs.mu.Lock()
	if m.errs.m == nil || len(m.errs.m) > 4096 {
		m.errs.m = map[memory.ID]readError{}
	}
	m.errs.m[e.ID] = readError{updated: e.UpdatedAt, title: e.Title, x: x}
	m.errs.mu.Unlock()
	return x
}

// readErrors remembers how past entries' errors were read, by entry, and
// failure events', by their content.
type readErrors struct {
	mu     sync.Mutex
	m      map[memory.ID]readError
	events map[string]memory.ErrorText
}

type readError struct {
	updated time.Time
	title   string
	x       memory.ErrorText
}

// candidate is a past entry Diagnose compares, or a mistake candidate
// known by its failure events alone (e unread, uid set).
type candidate struct {
	e       memory.Entry
	uid     string
	failure bool
	// texts are its errors as read: its entry's first (an empty one when
	// unread), then its failure events' (events).
	texts  []memory.ErrorText
	events []memory.Event
	at     time.Time // its newest failure event, when its entry is unread
	ev     memory.Evidence
	best   int // the text ev is of
}

func (c candidate) updated() time.Time {
	if c.e.ID != 0 {
		return c.e.UpdatedAt
	}
	return c.at
}

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// similar reports whether the evidence is a real match for the error.
func (r SimilarRule) similar(err memory.ErrorText, ev memory.Evidence) bool {
	switch {
	case ev.SameKey:
		return true
	case err.Typed():
		return len(ev.Types) > 0 && ev.Shared() >= r.TypedMin
	}
	return ev.Shared() >= r.UntypedMin && float64(ev.Shared()) >= r.UntypedCover*float64(ev.Pieces)
}

// weight is the weight of a term or name in df of the project's n
// entries: its inverse document frequency, zero when it is in more than the
// rule's share of them (and more than its minimum).
func (r SimilarRule) weight(df, n int) float64 {
	df = max(df, 1) // in no entry, or not looked up: as rare as can be
	if df > r.CommonMin && float64(df) > r.CommonShare*float64(n) {
		return 0
	}
	return math.Log(1 + float64(n)/float64(df))
}

// termWeights returns how many entries the project has and the weight of
// the error's terms (see SimilarRule.weight). Of terms, at most
// memory.MaxTerms are looked up; any other weighs as a term in one entry.
func termWeights(ctx context.Context, tx store.Tx, e memory.ErrorText, terms []string, rule SimilarRule) (int, func(string) float64, error) {
	if len(terms) > memory.MaxTerms {
		terms = terms[:memory.MaxTerms]
	}
	all, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Limit: 1, IncludeSuperseded: true})
	if err != nil {
		return 0, nil, err
	}
	n := max(all.Total, 1)
	df := make(map[string]int, len(terms))
	for _, t := range terms {
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: e.Shown(t), Limit: 1, IncludeSuperseded: true})
		if err != nil {
			return 0, nil, err
		}
		df[t] = r.Total
	}
	return n, func(t string) float64 { return rule.weight(df[t], n) }, nil
}
