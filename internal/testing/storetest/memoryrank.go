package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
)

// testMemorySearchRanksAlways: a search is ranked by relevance whatever
// its words and the memory's size, with a score on every hit; when its
// commonest word's entries are too many to read, the total is a lower
// bound; updates and deletions keep the index true. Both stores give the
// same answers.
func testMemorySearchRanksAlways(t *testing.T, s store.Store) {
	ctx := context.Background()
	n := rank.PostingBudget + 300 // "common" is in more entries than a search reads
	var rare []memory.ID
	update(t, s, func(tx store.Tx) error {
		for i := range n {
			e := memory.Entry{Type: memory.Insight, Title: fmt.Sprint("note ", i), Content: "common words everywhere", CreatedAt: t0, UpdatedAt: t0}
			if i%1000 == 7 {
				e.Content += " zebra"
			}
			if i%3 == 0 {
				e.Content += " frequent frequent"
			}
			got, err := tx.PutMemory(ctx, e)
			if err != nil {
				return err
			}
			if i%1000 == 7 {
				rare = append(rare, got.ID)
			}
		}
		return nil
	})
	search := func(q store.MemoryQuery) store.MemoryResult {
		t.Helper()
		var r store.MemoryResult
		view(t, s, func(tx store.Tx) (err error) {
			r, err = store.SearchMemory(ctx, tx, q)
			return err
		})
		for i, h := range r.Hits {
			if h.Score <= 0 || (i > 0 && h.Score > r.Hits[i-1].Score) {
				t.Errorf("%q: hit %d (%s) scored %.3f after %.3f", q.Text, i, h.Entry.ID, h.Score, r.Hits[max(i-1, 0)].Score)
			}
		}
		return r
	}
	ids := func(r store.MemoryResult) []memory.ID {
		var out []memory.ID
		for _, h := range r.Hits {
			out = append(out, h.Entry.ID)
		}
		return out
	}

	r := search(store.MemoryQuery{Text: "Where are the common zebras?", Limit: 10})
	got := ids(r)[:len(rare)]
	slices.Sort(got)
	if fmt.Sprint(got) != fmt.Sprint(rare) || r.Total != n || !r.AtLeast {
		t.Errorf("common zebra: first %v (want %v), total %d (at least %v), want %d at least", got, rare, r.Total, r.AtLeast, n)
	}
	r = search(store.MemoryQuery{Text: "common frequent", Limit: 10})
	for _, h := range r.Hits {
		if (int(h.Entry.ID)-int(rare[0])+7)%3 != 0 {
			t.Errorf("common frequent: %s has not the word frequent", h.Entry.ID)
		}
	}
	if len(r.Hits) != 10 || r.Total < n || !r.AtLeast {
		t.Errorf("common frequent: %d hits, total %d (at least %v)", len(r.Hits), r.Total, r.AtLeast)
	}
	// A filter applies to the postings read: still ranked, total counted.
	r = search(store.MemoryQuery{Text: "zebra", Types: []memory.Type{memory.Insight}, Limit: 2})
	if len(r.Hits) != 2 || r.Total != len(rare) || r.AtLeast {
		t.Errorf("zebra, insights: %d hits, total %d (at least %v)", len(r.Hits), r.Total, r.AtLeast)
	}
	// Stopwords alone match nothing rather than everything.
	if r = search(store.MemoryQuery{Text: "what did they do"}); len(r.Hits) != 0 {
		t.Errorf("stopwords: %d hits", len(r.Hits))
	}
	// Updating and deleting keep the index true.
	update(t, s, func(tx store.Tx) error {
		es, err := store.Memories(ctx, tx, rare[:1], 0)
		if err != nil || len(es) != 1 {
			return fmt.Errorf("read %v: %v", rare[0], err)
		}
		es[0].Content = "a giraffe now"
		if _, err := tx.PutMemory(ctx, es[0]); err != nil {
			return err
		}
		_, err = tx.DeleteMemories(ctx, rare[1:2])
		return err
	})
	if r = search(store.MemoryQuery{Text: "zebra"}); fmt.Sprint(ids(r)) != fmt.Sprint(rare[2:]) || r.Total != len(rare)-2 {
		t.Errorf("zebra after update and delete: %v total %d, want %v", ids(r), r.Total, rare[2:])
	}
	if r = search(store.MemoryQuery{Text: "giraffes"}); fmt.Sprint(ids(r)) != fmt.Sprint(rare[:1]) {
		t.Errorf("giraffes: %v, want %v", ids(r), rare[:1])
	}
}

// testMemorySearchReplyContext: an entry recorded right after another in
// the same session (or with no session, like it) is also found by the
// words of the one before, below an entry holding them itself: an answer
// by the question it answers; turns of a dialogue ("Name: ...") by the
// two turns before. A different session or a gap over rank.ContextGap
// keeps entries apart, and so does a label that is not a dialogue's
// ("Decision: ..." after "Decision: ...").
func testMemorySearchReplyContext(t *testing.T, s store.Store) {
	ctx := context.Background()
	add := func(session string, at time.Time, content string) memory.ID {
		t.Helper()
		var id memory.ID
		update(t, s, func(tx store.Tx) error {
			e, err := tx.PutMemory(ctx, memory.Entry{Type: memory.Insight, Title: "turn", Content: content, SessionID: session, CreatedAt: at, UpdatedAt: at})
			id = e.ID
			return err
		})
		return id
	}
	search := func(text string) []memory.ID {
		t.Helper()
		return searchTop10(t, s, text)
	}
	q := add("", t0, "Where did you go on your trip last week?")
	a := add("", t0.Add(time.Minute), "I just got back from Reykjavik, still jet-lagged.")
	if got := search("trip last week"); fmt.Sprint(got) != fmt.Sprint([]memory.ID{q, a}) {
		t.Errorf("trip last week: got %v, want the question %s then its answer %s", got, q, a)
	}
	add("", t0.Add(2*time.Minute), "Which concert did you see?")
	other := add("s-other", t0.Add(3*time.Minute), "The symphony downtown.")
	add("", t0.Add(4*time.Minute), "Which museum did you visit?")
	late := add("", t0.Add(5*time.Minute+rank.ContextGap), "The modern art one by the river.")
	for _, w := range []string{"concert", "museum"} {
		for _, id := range search(w) {
			if id == other || id == late {
				t.Errorf("%s: %s found by the words of an entry in another session or too long before", w, id)
			}
		}
	}
	// Turns of a dialogue ("Name: ..."): the turn two back is context
	// too, below the nearer ones.
	at := t0.Add(time.Hour)
	news := add("", at, "Ana: Also! Jonah proposed on Saturday!!")
	when := add("", at.Add(time.Second), "Ben: WHAT. Where??")
	where := add("", at.Add(2*time.Second), "Ana: Up on the Downs at sunset, with the dog in a bow tie.")
	if got := search("Jonah proposed"); fmt.Sprint(got) != fmt.Sprint([]memory.ID{news, when, where}) {
		t.Errorf("Jonah proposed: got %v, want the news %s, the reply %s, then the answer two turns on %s", got, news, when, where)
	}
	// Notes that start with a label are not a dialogue: one speaker.
	at = at.Add(time.Hour)
	add("", at, "Decision: the cache layer uses sqlite")
	retries := add("", at.Add(time.Second), "Decision: retries back off exponentially")
	add("", at.Add(2*time.Second), "TODO: rename the config loader")
	todo := add("", at.Add(3*time.Second), "FIXME: flaky websocket test")
	for w, leak := range map[string]memory.ID{"sqlite cache": retries, "rename config loader": todo} {
		for _, id := range search(w) {
			if id == leak {
				t.Errorf("%s: %s found by the words of the labelled note before it", w, id)
			}
		}
	}
}

// testMemorySearchAnswerCue: a question asking when ranks the match that
// says a time above a better word match that does not (rank.CueBoost),
// and a turn id before the speaker ("D1:3 Ana: ...") is neither indexed
// nor in the way of the dialogue's context.
func testMemorySearchAnswerCue(t *testing.T, s store.Store) {
	ctx := context.Background()
	add := func(at time.Time, content string) memory.ID {
		t.Helper()
		var id memory.ID
		update(t, s, func(tx store.Tx) error {
			e, err := tx.PutMemory(ctx, memory.Entry{Type: memory.Insight, Title: "turn", Content: content, CreatedAt: at, UpdatedAt: at})
			id = e.ID
			return err
		})
		return id
	}
	// Hours apart: no turn is another's context.
	short := add(t0, "D1:1 Ana: Ran the half marathon, brutal.")
	add(t0.Add(time.Hour), "D1:2 Ben: The canoe floats!")
	dated := add(t0.Add(2*time.Hour), "D1:3 Ana: Ran the half marathon on Saturday, aching all over, never again.")
	if got := searchTop10(t, s, "Did Ana run the half marathon?"); len(got) < 2 || got[0] != short || got[1] != dated {
		t.Errorf("did Ana run: got %v, want the shorter match %s, then %s", got, short, dated)
	}
	if got := searchTop10(t, s, "When did Ana run the half marathon?"); len(got) < 2 || got[0] != dated {
		t.Errorf("when did Ana run: got %v, want the match that says when, %s, first", got, dated)
	}
	if got := searchTop10(t, s, "three"); len(got) != 0 {
		t.Errorf("three: got %v; a turn id's number is not a word of the turn", got)
	}
	at := t0.Add(5 * time.Hour)
	news := add(at, "D2:1 Ana: Also! Jonah proposed!!")
	when := add(at.Add(time.Second), "[D2:2] Ben: WHAT. Where??")
	where := add(at.Add(2*time.Second), "D2:3 Ana: Up on the Downs, with the dog in a bow tie.")
	if got := searchTop10(t, s, "Jonah proposed"); fmt.Sprint(got) != fmt.Sprint([]memory.ID{news, when, where}) {
		t.Errorf("Jonah proposed: got %v, want the news %s, the reply %s, then the answer two turns on %s", got, news, when, where)
	}
}

// testMemoryEditedContext: a turn's words are found in the turns after it
// (see testMemorySearchReplyContext), so an edit or a delete of a turn
// carries over to them: its new words find the next turn, its old words
// and a deleted turn's words find nothing more, and a turn whose turn
// before was deleted takes its context from the turns before that.
func testMemoryEditedContext(t *testing.T, s store.Store) {
	ids := AddDialogue(t, s, t0.Add(3*time.Hour))
	search := func(text string) []memory.ID {
		t.Helper()
		out := searchTop10(t, s, text)
		slices.Sort(out)
		return out
	}
	if got, want := search("greyhound"), ids[2:5]; !slices.Equal(got, want) {
		t.Fatalf("greyhound before the edits: got %v, want %v", got, want)
	}
	EditDialogue(t, s, ids)
	for _, c := range []struct {
		words string
		want  []memory.ID
	}{
		{"whippet", ids[1:4]}, // the edit, and the two turns after it
		{"kind", nil},         // the edit's old words
		{"eighteen", nil},     // the deleted turn
		{"greyhound", []memory.ID{ids[2], ids[3], ids[5]}}, // two turns back from "Where did you find her?" now
		{"calm", []memory.ID{ids[3], ids[5], ids[6]}},      // and the turn after that
	} {
		if got := search(c.words); !slices.Equal(got, c.want) {
			t.Errorf("%s after an edit and a delete: got %v, want %v", c.words, got, c.want)
		}
	}
}

// searchTop10 is the ids of a search's first ten hits, best first.
func searchTop10(t *testing.T, s store.Store, text string) []memory.ID {
	t.Helper()
	var r store.MemoryResult
	view(t, s, func(tx store.Tx) (err error) {
		r, err = store.SearchMemory(context.Background(), tx, store.MemoryQuery{Text: text, Limit: 10})
		return err
	})
	var out []memory.ID
	for _, h := range r.Hits {
		out = append(out, h.Entry.ID)
	}
	return out
}

// AddDialogue records a short dialogue of seven turns, one second apart
// from at, and returns their ids; EditDialogue then rewrites the second
// turn ("What kind?" becomes "Which breed, a whippet?") and deletes the
// fifth ("She sleeps eighteen hours a day"). A store's own tests use them
// to check what the edits leave in its index.
func AddDialogue(t *testing.T, s store.Store, at time.Time) []memory.ID {
	t.Helper()
	ctx := context.Background()
	var ids []memory.ID
	update(t, s, func(tx store.Tx) error {
		for i, c := range []string{
			"Maya: Guess who finally adopted a dog?", "Jonas: No way! What kind?", "Maya: A rescue greyhound called Pepper",
			"Jonas: She looks so calm", "Maya: She sleeps eighteen hours a day", "Jonas: Where did you find her?", "Maya: At the shelter on Mill Road",
		} {
			e, err := tx.PutMemory(ctx, memory.Entry{Type: memory.Insight, Title: "chat", Content: c, SessionID: "s-dog", CreatedAt: at.Add(time.Duration(i) * time.Second)})
			ids = append(ids, e.ID)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return ids
}

// EditDialogue: see AddDialogue.
func EditDialogue(t *testing.T, s store.Store, ids []memory.ID) {
	t.Helper()
	ctx := context.Background()
	update(t, s, func(tx store.Tx) error {
		es, err := store.Memories(ctx, tx, []memory.ID{ids[1]}, 0)
		if err != nil {
			return err
		}
		e := es[0]
		e.Content = "Jonas: No way! Which breed, a whippet?"
		if _, err := tx.PutMemory(ctx, e); err != nil {
			return err
		}
		_, err = tx.DeleteMemories(ctx, []memory.ID{ids[4]})
		return err
	})
}
