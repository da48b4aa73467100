package rank

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/testing/convbench"
)

// memSource is an index in memory, for testing the search algorithm.
type memSource struct {
	docs  int
	total float64
	post  map[string][]Posting // impact order
}

func newMemSource(docs []Doc) *memSource {
	s := &memSource{post: map[string][]Posting{}}
	for i, d := range docs {
		if len(d.TF) == 0 {
			continue
		}
		s.docs++
		s.total += d.Len
		for t, tf := range d.TF {
			s.post[t] = append(s.post[t], Posting{Entry: int64(i + 1), TF: tf, Len: d.Len})
		}
	}
	avg := s.total / float64(max(1, s.docs))
	for _, ps := range s.post {
		sort.SliceStable(ps, func(i, j int) bool { return Impact(ps[i].TF, ps[i].Len, avg) > Impact(ps[j].TF, ps[j].Len, avg) })
	}
	return s
}

func (s *memSource) Stats(context.Context) (int, float64, error) { return s.docs, s.total, nil }
func (s *memSource) DF(_ context.Context, terms []string) (map[string]int, error) {
	out := map[string]int{}
	for _, t := range terms {
		if n := len(s.post[t]); n > 0 {
			out[t] = n
		}
	}
	return out, nil
}
func (s *memSource) Top(_ context.Context, terms []string, limits []int) ([][]Posting, error) {
	out := make([][]Posting, len(terms))
	for i, t := range terms {
		ps := s.post[t]
		out[i] = ps[:min(limits[i], len(ps))]
	}
	return out, nil
}
func (s *memSource) Lookup(_ context.Context, terms []string, es []int64) (map[string][]Posting, error) {
	out := map[string][]Posting{}
	for _, t := range terms {
		for _, p := range s.post[t] {
			if slices.Contains(es, p.Entry) {
				out[t] = append(out[t], p)
			}
		}
	}
	return out, nil
}

// TestSearchWithinBudget: when common terms' postings cannot all be read,
// the ranking still agrees with exhaustive BM25 on the best entries.
func TestSearchWithinBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	z := rand.NewZipf(r, 1.1, 3, 2000)
	docs := make([]Doc, 20000)
	for i := range docs {
		var ws []string
		for range 20 + r.IntN(40) {
			ws = append(ws, fmt.Sprintf("w%d", z.Uint64()))
		}
		docs[i] = Analyze("", strings.Join(ws, " "), nil, "")
	}
	src := newMemSource(docs)
	ctx := context.Background()
	saved := PostingBudget
	defer func() { PostingBudget = saved }()
	agree, n := 0, 0
	for q := range 50 {
		terms := []string{fmt.Sprintf("w%d", q%5), fmt.Sprintf("w%d", 3+q%7), fmt.Sprintf("w%d", 40+q)}
		PostingBudget = 1 << 30
		exact, err := Search(ctx, src, Query{Terms: terms}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if exact.AtLeast {
			t.Fatalf("an unbounded search is partial")
		}
		PostingBudget = 1200
		got, err := Search(ctx, src, Query{Terms: terms}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if !got.AtLeast || len(got.Hits) != 10 {
			t.Fatalf("%v: at least %v, %d hits", terms, got.AtLeast, len(got.Hits))
		}
		for i, h := range got.Hits {
			if h.Score <= 0 || (i > 0 && h.Score > got.Hits[i-1].Score) {
				t.Fatalf("%v: hit %d scored %.3f after %.3f", terms, i, h.Score, got.Hits[max(i-1, 0)].Score)
			}
		}
		want := map[int64]bool{}
		for _, h := range exact.Hits {
			want[h.Entry] = true
		}
		for _, h := range got.Hits {
			n++
			if want[h.Entry] {
				agree++
			}
		}
	}
	if share := float64(agree) / float64(n); share < 0.9 {
		t.Errorf("bounded search shares %.2f of exhaustive BM25's top 10, want ≥ 0.9", share)
	}
}

// TestSweep measures ranking choices on the conversational benchmark's
// development seed, in memory (CAIRN_RANK_SWEEP=1 to run).
func TestSweep(t *testing.T) {
	if os.Getenv("CAIRN_RANK_SWEEP") == "" {
		t.Skip("set CAIRN_RANK_SWEEP=1")
	}
	set := convbench.Generate(1, 6)
	for _, tw := range []float64{1, 2, 4, 8} {
		for _, gw := range []float64{0.5, 1, 2} {
			TitleWeight, TagWeight = tw, gw
			res := map[string]*convbench.Scores{}
			for d, dlg := range set.Dialogues {
				docs := make([]Doc, len(dlg.Turns))
				for i, tn := range dlg.Turns {
					docs[i] = Analyze(tn.Title, tn.Text, tn.Tags, "")
				}
				src := newMemSource(docs)
				for _, q := range set.Questions {
					if q.Dialogue != d {
						continue
					}
					r, _ := Search(context.Background(), src, Query{Terms: termsOf(q.Text)}, 10)
					var ranked []int
					for _, h := range r.Hits {
						ranked = append(ranked, int(h.Entry-1))
					}
					for _, c := range []string{q.Category, "all"} {
						if res[c] == nil {
							res[c] = &convbench.Scores{}
						}
						res[c].Add(ranked, q.Answers)
					}
				}
			}
			var b strings.Builder
			for _, c := range append(convbench.Categories, "all") {
				fmt.Fprintf(&b, " %s %.3f", c, res[c].R10())
			}
			t.Logf("title %.1f tags %.1f:%s", tw, gw, b.String())
		}
	}
}

func termsOf(q string) []string { return memoryTerms(q) }

// countingSource counts the postings a search reads.
type countingSource struct {
	*memSource
	read int
}

func (c *countingSource) Top(ctx context.Context, terms []string, limits []int) ([][]Posting, error) {
	lists, err := c.memSource.Top(ctx, terms, limits)
	for _, ps := range lists {
		c.read += len(ps)
	}
	return lists, err
}

// TestSearchMaxScore: when the rarer terms' entries already outscore what
// the common terms could add, the common terms' lists are not read, and
// the ranking is still exhaustive BM25's.
func TestSearchMaxScore(t *testing.T) {
	docs := make([]Doc, 5000)
	for i := range docs {
		body := "common words here"
		if i%250 == 3 {
			body += " rare"
		}
		if i%2 == 0 {
			body += " half"
		}
		docs[i] = Analyze("", body, nil, "")
	}
	src := &countingSource{memSource: newMemSource(docs)}
	ctx := context.Background()
	got, err := Search(ctx, src, Query{Terms: []string{"rare", "common", "half"}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if src.read > 100 {
		t.Errorf("read %d postings; the common terms' lists should not be read", src.read)
	}
	saved := PostingBudget
	PostingBudget = 1 << 30
	defer func() { PostingBudget = saved }()
	exact, err := Search(ctx, src, Query{Terms: []string{"rare", "common", "half"}}, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i := range exact.Hits {
		if got.Hits[i].Entry != exact.Hits[i].Entry || math.Abs(got.Hits[i].Score-exact.Hits[i].Score) > 1e-9 {
			t.Fatalf("hit %d: %+v, exhaustive %+v", i, got.Hits[i], exact.Hits[i])
		}
	}
	if !got.AtLeast || got.MaxDF != 5000 {
		t.Errorf("at least %v, commonest term in %d entries; want a lower bound and 5000", got.AtLeast, got.MaxDF)
	}
}

// TestContext: which turns before an entry it is indexed with.
func TestContext(t *testing.T) {
	t0 := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	n := int64(0)
	e := func(content string, after time.Duration) memory.Entry {
		n++
		return memory.Entry{ID: memory.ID(n), Content: content, CreatedAt: t0.Add(after)}
	}
	// titled is a turn whose title, not its body, says who speaks.
	titled := func(title, content string, after time.Duration) memory.Entry {
		x := e(content, after)
		x.Title = title
		return x
	}
	for _, c := range []struct {
		name string
		e    memory.Entry
		prev []memory.Entry
		want []string
	}{
		{"answer to a question", e("I went to Oslo.", 2*time.Minute), []memory.Entry{e("Where did you go?", time.Minute), e("Hi", 0)}, []string{"Where did you go?"}},
		{"no question, no speakers", e("Second note.", 2*time.Minute), []memory.Entry{e("First note.", time.Minute)}, nil},
		{"dialogue: two turns back", e("Ana: Saturday, on the Downs.", 2*time.Minute),
			[]memory.Entry{e("Ben: WHAT. When??", time.Minute), e("Ana: Jonah proposed!", 0)}, []string{"WHAT. When??", "Jonah proposed!"}},
		{"dialogue: same speaker twice", e("Ana: And the ring was his mum's.", 2*time.Minute),
			[]memory.Entry{e("Ana: Jonah proposed!", time.Minute), e("Ben: News?", 0)}, []string{"Jonah proposed!", "News?"}},
		{"dialogue: too long before", e("Ana: Saturday.", time.Hour),
			[]memory.Entry{e("Ben: When??", time.Minute)}, nil},
		{"dialogue: the turn two back too long before", e("Ana: Saturday.", 2*time.Hour+time.Minute),
			[]memory.Entry{e("Ben: Wow.", 2*time.Hour), e("Ana: Jonah proposed!", 0)}, []string{"Wow."}},
		{"one label is no dialogue", e("Decision: retries back off.", 2*time.Minute),
			[]memory.Entry{e("Decision: the cache uses sqlite.", time.Minute), e("Decision: logs go to stderr.", 0)}, nil},
		{"capitals are no speaker", e("TODO: rename the loader.", 2*time.Minute),
			[]memory.Entry{e("FIXME: flaky test.", time.Minute)}, nil},
		{"a note after a dialogue", e("Plain note.", 2*time.Minute),
			[]memory.Entry{e("Ben: Hello.", time.Minute), e("Ana: Hi.", 0)}, nil},
		{"speakers in titles, taking turns", titled("Ana", "Saturday, on the Downs.", 2*time.Minute),
			[]memory.Entry{titled("Ben · 8 May 2023", "WHAT. When?", time.Minute), titled("Ana · 8 May 2023", "Jonah proposed!", 0)},
			[]string{"WHAT. When?", "Jonah proposed!"}},
		{"speakers in titles, only two turns", titled("Ben", "Wow.", time.Minute),
			[]memory.Entry{titled("Ana", "Jonah proposed!", 0)}, nil},
		{"one-word titles of notes", titled("Migrations", "Run them at open.", 2*time.Minute),
			[]memory.Entry{titled("Caching", "An LRU of 1,000.", time.Minute), titled("Logging", "To stderr.", 0)}, nil},
		{"turn ids before the speakers", e("D1:3 Ana: Saturday, on the Downs.", 2*time.Minute),
			[]memory.Entry{e("D1:2 Ben: WHAT. When??", time.Minute), e("[D1:1] Ana: Jonah proposed!", 0)}, []string{"WHAT. When??", "Jonah proposed!"}},
		{"turn ids and speakers in titles", titled("D1:3 Ana", "D1:3 Saturday, on the Downs.", 2*time.Minute),
			[]memory.Entry{titled("D1:2 Ben", "D1:2 WHAT. When?", time.Minute), titled("[D1:1] Ana", "Jonah proposed!", 0)},
			[]string{"WHAT. When?", "Jonah proposed!"}},
		{"titles that are no names", titled("Ana said", "Saturday.", 2*time.Minute),
			[]memory.Entry{titled("use WAL", "Readers never block.", time.Minute), titled("Ana said", "Hi.", 0)}, nil},
	} {
		if got := Context(c.e, c.prev...); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	for in, want := range map[string]string{"Leo: hi": "Leo", "Mary Ann: hi": "Mary Ann", "O'Neil: hi": "O'Neil",
		"TODO: x": "", "note: x": "", "[1:56 pm, 8 May 2023] Leo: hi": "Leo", "[x] y": "", "[photo] Leo said": "", "See http://x": "", "Why: because: x": "Why", "A: x": "", "Three Word Name: x": "",
		"D1:3 Caroline: hi": "Caroline", "[D1:3] Caroline: hi": "Caroline", "S12:140 Mary Ann: hi": "Mary Ann", "D1:3x Caroline: hi": ""} {
		if got := Speaker(in); got != want {
			t.Errorf("Speaker(%q) = %q, want %q", in, got, want)
		}
	}
	for title, want := range map[string]string{"Leo": "Leo", "Mary Ann - session 2": "Mary Ann", "Leo · 8 May 2023": "Leo", "Leo (photo)": "Leo",
		"Session 3: 8 April 2023": "", "Use WAL mode": "", "TODO": "", "leo": "", "": "",
		"D1:3 Caroline": "Caroline", "[D1:3] Caroline · 8 May 2023": "Caroline", "D1:3": ""} {
		if got, byTitle := speakerOf(memory.Entry{Title: title, Content: "words"}); got != want || byTitle != (want != "") {
			t.Errorf("speakerOf(title %q) = %q, %v; want %q", title, got, byTitle, want)
		}
	}
}

// TestQueryWeights: a name the question writes with a capital counts
// NameWeight times, so the turns of the person asked about rank above a
// turn holding a somewhat rarer word of the question.
func TestQueryWeights(t *testing.T) {
	var docs []Doc
	for _, body := range []string{
		"Hannah: lovely sunny morning", "Hannah: lunch with Maya later", "Hannah: night shift again",
		"Leo: museum trip Sunday", "Leo: another museum closed",
		"Leo: guitar lesson went", "Leo: canoe nearly finished", "Leo: bees doing great",
		"Leo: rain all weekend", "Leo: Ines says hello", "Leo: honey jars labelled",
		"Leo: Dave plays folk", "Leo: Malcolm mentors beekeeping", "Leo: sanding hull slowly",
		"Leo: Lisbon tiles photo", "Leo: grandma flew alone", "Leo: open mic Thursday",
		"Leo: Harvest Moon song", "Leo: fingertips really hurt", "Leo: Wharfe near Otley",
	} {
		docs = append(docs, Analyze("", body, nil))
	}
	src := newMemSource(docs)
	q := "Was Hannah at the museum?"
	terms := memory.Terms(q)
	plain, err := Search(context.Background(), src, Query{Terms: terms}, 3)
	if err != nil {
		t.Fatal(err)
	}
	w := QueryWeights(q, terms)
	if fmt.Sprint(terms, w) != fmt.Sprint("[hannah museum] ", []float64{NameWeight, 1}) {
		t.Fatalf("terms %v, weights %v; want hannah at %v", terms, w, NameWeight)
	}
	named, err := Search(context.Background(), src, Query{Terms: terms, Weights: w}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if top := plain.Hits[0].Entry; top != 4 && top != 5 {
		t.Errorf("unweighted, the best is entry %d; want a museum turn (4 or 5)", top)
	}
	if top := named.Hits[0].Entry; top > 3 {
		t.Errorf("with the name weighted, the best is entry %d; want one of Hannah's turns (1 to 3)", top)
	}
	if QueryWeights("what did she say about the museum", []string{"museum"}) != nil {
		t.Error("a query without names should have no weights")
	}
}

// TestCueBoost: a "When..." question ranks the match that says when above
// a better word match that does not; a question asking for no kind of
// answer ranks by words alone.
func TestCueBoost(t *testing.T) {
	var docs []Doc
	for _, body := range []string{
		"Hannah: Ran the half marathon, brutal.",
		"Hannah: Ran the half marathon yesterday, aching all over, never again.",
		"Leo: The canoe floats!", "Leo: Bees are doing great.", "Leo: Rain all day.",
	} {
		docs = append(docs, Analyze("Hannah · 4 March 2023", body, nil))
	}
	if _, ok := docs[0].TF[memory.CueTime]; ok {
		t.Fatal("the title's date gave a turn without a time the time cue")
	}
	src := newMemSource(docs)
	search := func(q Query) []Scored {
		r, err := Search(context.Background(), src, q, 3)
		if err != nil {
			t.Fatal(err)
		}
		return r.Hits
	}
	when := "When did Hannah run the half marathon?"
	terms := memory.Terms(when)
	plain := search(Query{Terms: terms, Weights: QueryWeights(when, terms)})
	cued := search(NewQuery(when, terms))
	if plain[0].Entry != 1 {
		t.Fatalf("without the cue: %v, want entry 1 (the shorter) first", plain)
	}
	if cued[0].Entry != 2 || math.Abs(cued[0].Score-plain[1].Score*(1+CueBoost)) > 1e-9 {
		t.Errorf("with the time cue: %v, want entry 2 first at %v times its score %v", cued, 1+CueBoost, plain[1].Score)
	}
	did := "Did Hannah run the half marathon?"
	if q := NewQuery(did, memory.Terms(did)); q.Cue != "" || search(q)[0].Entry != 1 {
		t.Errorf("a question asking for no kind of answer: cue %q, hits %v; want none and entry 1 first", q.Cue, search(q))
	}
}

// TestTurnIDs: a turn id before the speaker ("D1:3 Caroline: ...") is not
// indexed: its "3" would match every question with a three in it.
func TestTurnIDs(t *testing.T) {
	d := Analyze("D1:3 Caroline", "D1:3 Caroline: I have three cats.", nil)
	plain := Analyze("Caroline", "Caroline: I have three cats.", nil)
	if fmt.Sprint(d) != fmt.Sprint(plain) {
		t.Errorf("with turn ids %v, without %v; want the same", d, plain)
	}
	for in, want := range map[string]string{"D1:3 hi": "hi", "[D1:3] hi": "hi", "d12:140": "", "S2:1\tx": "x",
		"10:30 standup": "10:30 standup", "TODO: x": "TODO: x", "D1:3x hi": "D1:3x hi", "[D1:3 hi": "[D1:3 hi", "ABCD1:3 hi": "ABCD1:3 hi", "D:3 hi": "D:3 hi", "D1: hi": "D1: hi"} {
		if got := cutTurnID(in); got != want {
			t.Errorf("cutTurnID(%q) = %q, want %q", in, got, want)
		}
	}
}
