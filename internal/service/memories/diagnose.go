package memories

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// SimilarRule is when a past mistake or recorded failure is similar to an
// error (see Diagnose).
//
// Tuned on the diagnose benchmark's development half
// (internal/service/diagnose_test.go: 73 errors over 112 entries) by F1:
// terms common above 5% of the entries and above 8 of them, one shared
// distinctive name or word beside a shared type, two and half of those an
// error of no known type holds: precision 1.00, recall 0.97. Settings
// nearby tie within a pair or two: a term common from 2% to 10% and above
// 2 to 16 entries, two or three names and words for an untyped error and
// a cover of 0.3 to 0.5 (the half has few untyped errors to tell them
// apart). Two names or words beside a type lose a quarter of the recall
// (0.74). The report half, written after, measured once: precision 0.80,
// recall 0.86, against 0.20 and 0.68 before.
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
	// recorded failures) are compared.
	Depth int
}

// Similar is the rule Diagnose applies.
var Similar = SimilarRule{CommonShare: 0.05, CommonMin: 8, TypedMin: 1, UntypedMin: 2, UntypedCover: 0.5, Depth: 30}

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
// Similar). Candidates come from a full-text search of each kind and the
// mistakes whose fingerprint is a key line's; they are ranked by the
// evidence.
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
	var cands []candidate
	err = m.store.View(ctx, func(tx store.Tx) error {
		cands = nil
		seen := map[memory.ID]bool{}
		var ids []memory.ID
		for _, sq := range []store.MemoryQuery{
			{Text: text, Types: []memory.Type{memory.Mistake}, Limit: rule.Depth, Now: now},
			{Text: text, Types: []memory.Type{memory.ToolOutcome}, Tags: failureTags, Limit: rule.Depth, Now: now},
		} {
			r, err := tx.SearchMemory(ctx, sq)
			if err != nil {
				return err
			}
			for _, h := range r.Hits {
				if !seen[h.Entry.ID] {
					seen[h.Entry.ID] = true
					ids = append(ids, h.Entry.ID)
				}
			}
		}
		for _, fp := range d.Read.Prints {
			e, ok, err := tx.MistakeByFingerprint(ctx, fp)
			if err != nil {
				return err
			}
			if ok && e.SupersededBy == 0 && !seen[e.ID] {
				seen[e.ID] = true
				ids = append(ids, e.ID)
			}
		}
		es, err := tx.Memories(ctx, ids)
		if err != nil {
			return err
		}
		var past []memory.ErrorText
		held := map[string]bool{} // the terms some candidate holds
		for _, e := range es {
			failure := e.Type == memory.ToolOutcome
			if failure && !slices.ContainsFunc(e.Tags, func(t string) bool { return slices.Contains(failureTags, t) }) {
				continue
			}
			x := m.entryError(e)
			for _, t := range x.Terms() {
				held[t] = true
			}
			cands = append(cands, candidate{e: e, failure: failure})
			past = append(past, x)
		}
		// How common a word is matters where it is shared; an error of no
		// known type also counts the distinctive words it holds.
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
		named := map[string]int{}
		for _, x := range past {
			for _, nm := range x.Names {
				named[nm]++
			}
		}
		w := memory.Weights{Term: termWeight, Name: func(nm string) float64 { return rule.weight(named[nm], n) }}
		for i := range cands {
			cands[i].ev = memory.Compare(d.Read, past[i], w)
		}
		return nil
	})
	if err != nil {
		return Diagnosis{}, fmt.Errorf("diagnose: %w", err)
	}
	d.Compared = len(cands)
	slices.SortStableFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.ev.Score, a.ev.Score), cmpBool(a.failure, b.failure), b.e.UpdatedAt.Compare(a.e.UpdatedAt))
	})
	var ids []memory.ID
	byID := map[memory.ID]candidate{}
	for _, c := range cands {
		switch {
		case rule.similar(d.Read, c.ev):
			if len(ids) < q.Limit {
				ids = append(ids, c.e.ID)
				byID[c.e.ID] = c
			}
		case len(c.ev.Types) > 0 && len(d.SameTypeOnly) < 3:
			d.SameTypeOnly = append(d.SameTypeOnly, c.e.ID)
		}
	}
	if len(ids) == 0 {
		return d, nil
	}
	es, _, err := m.get(ctx, ids) // with occurrences and file changes
	if err != nil {
		return Diagnosis{}, err
	}
	for _, e := range es {
		c := byID[e.ID]
		d.Matches = append(d.Matches, Match{Entry: e, Failure: c.failure, Evidence: c.ev})
	}
	return d, nil
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

// readErrors remembers how past entries' errors were read, by entry.
type readErrors struct {
	mu sync.Mutex
	m  map[memory.ID]readError
}

type readError struct {
	updated time.Time
	title   string
	x       memory.ErrorText
}

type candidate struct {
	e       memory.Entry
	failure bool
	ev      memory.Evidence
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
	all, err := tx.SearchMemory(ctx, store.MemoryQuery{Limit: 1, IncludeSuperseded: true})
	if err != nil {
		return 0, nil, err
	}
	n := max(all.Total, 1)
	df := make(map[string]int, len(terms))
	for _, t := range terms {
		r, err := tx.SearchMemory(ctx, store.MemoryQuery{Text: e.Shown(t), Limit: 1, IncludeSuperseded: true})
		if err != nil {
			return 0, nil, err
		}
		df[t] = r.Total
	}
	return n, func(t string) float64 { return rule.weight(df[t], n) }, nil
}
