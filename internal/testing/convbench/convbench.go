// Package convbench generates a conversational retrieval benchmark: long
// multi-session dialogues between two people, each turn one memory entry,
// and questions in plain English whose answers are one or two known turns.
//
// It is shaped like LoCoMo (dated sessions, two named speakers, single-hop,
// multi-hop and temporal questions) but written by a generator with a fixed
// seed, so it is the same on every machine. Life events are told in one turn
// and surrounded by what makes a conversation hard to search: greetings and
// reactions that name the other speaker, follow-up questions and
// elaborations that share the event's topic but not its words, and other
// turns on the same topic that do not answer. Paraphrase questions share
// few words with their answer.
package convbench

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// Categories of question.
const (
	SingleHop  = "single-hop"
	MultiHop   = "multi-hop"
	Temporal   = "temporal"
	Paraphrase = "paraphrase"
)

// Categories lists them in report order.
var Categories = []string{SingleHop, MultiHop, Temporal, Paraphrase}

// Set is a generated benchmark.
type Set struct {
	Dialogues []Dialogue
	Questions []Question
}

// Dialogue is one conversation, stored in a memory of its own.
type Dialogue struct {
	Speakers [2]string
	Turns    []Turn
}

// Turn is one utterance as a client would store it: a short title (its
// style varies between dialogues), the words said, tags.
type Turn struct {
	Speaker string
	Session int
	Date    time.Time
	Title   string
	Text    string
	Tags    []string
}

// Question asks about one dialogue; Answers are indexes of its turns.
type Question struct {
	Dialogue int
	Category string
	Text     string
	Answers  []int
}

var names = []string{"Caroline", "Melanie", "Evan", "Sam", "Priya", "Tomas", "Jolene", "Deborah", "Andrew", "Audrey",
	"Calvin", "Nadia", "Omar", "Lena", "Marcus", "Gina", "Joanna", "Nate", "Maria", "Rosa"}

// Generate makes a set of n dialogues from seed.
func Generate(seed uint64, n int) Set {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var set Set
	perm := r.Perm(len(names))
	for d := range n {
		g := &gen{r: r, style: d % 4}
		g.speakers = [2]string{names[perm[(2*d)%len(names)]], names[perm[(2*d+1)%len(names)]]}
		g.dialogue(d, &set)
	}
	return set
}

type event struct {
	turn    int
	speaker string
	t       *topic
	val     string // as told
	valQ    string // as a question names it
}

type gen struct {
	r        *rand.Rand
	style    int
	speakers [2]string
	turns    []Turn
	events   []event
	date     time.Time
	session  int
}

func (g *gen) pick(l []string) string { return l[g.r.IntN(len(l))] }

func fill(s string, kv ...string) string {
	for i := 0; i+1 < len(kv); i += 2 {
		s = strings.ReplaceAll(s, kv[i], kv[i+1])
	}
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func (g *gen) say(who int, text string) int {
	sp := g.speakers[who]
	date := g.date.Format("2 January 2006")
	var title string
	var tags []string
	switch g.style {
	case 0:
		title, tags = sp+" · "+date, []string{strings.ToLower(sp)}
	case 1:
		title, tags = fmt.Sprintf("Session %d: %s", g.session, sp), []string{fmt.Sprintf("session-%d", g.session)}
	case 2:
		w := strings.Fields(text)
		title = strings.Join(w[:min(6, len(w))], " ") + "…"
		tags = []string{strings.ToLower(sp), "chat"}
	default:
		title = sp + " said"
	}
	g.turns = append(g.turns, Turn{Speaker: sp, Session: g.session, Date: g.date, Title: title, Text: text, Tags: tags})
	return len(g.turns) - 1
}

func (g *gen) dialogue(d int, set *Set) {
	g.date = time.Date(2023, time.Month(1+g.r.IntN(6)), 1+g.r.IntN(27), 0, 0, 0, 0, time.UTC)
	sessions := 30 + g.r.IntN(10)
	used := map[string]bool{}
	for s := 1; s <= sessions; s++ {
		g.session = s
		g.date = g.date.AddDate(0, 0, 4+g.r.IntN(18))
		who := g.r.IntN(2)
		g.say(who, fill(g.pick(openers), "{o}", g.speakers[1-who]))
		g.say(1-who, fill(g.pick(chatter), "{o}", g.speakers[who]))
		for range 2 + g.r.IntN(3) {
			teller := g.r.IntN(2)
			t := &topics[g.r.IntN(len(topics))]
			val := g.pick(t.vals)
			key := g.speakers[teller] + "|" + val
			if used[key] {
				continue
			}
			used[key] = true
			told, asked, _ := strings.Cut(val, "|")
			if asked == "" {
				asked = told
			}
			if t.nums {
				num := numbers[g.r.IntN(len(numbers))]
				told = strings.ReplaceAll(told, "{n}", num.word)
				asked = strings.ReplaceAll(asked, "{nd}", num.digits)
			}
			o := g.speakers[1-teller]
			// A turn on the topic that does not answer, sometimes before.
			if g.r.IntN(3) == 0 {
				g.say(g.r.IntN(2), fill(g.pick(t.near), "{o}", o))
			}
			i := g.say(teller, fill(g.pick(t.tell), "{x}", told, "{when}", g.pick(whens), "{o}", o))
			g.events = append(g.events, event{turn: i, speaker: g.speakers[teller], t: t, val: told, valQ: asked})
			g.say(1-teller, fill(g.pick(reactions), "{o}", g.speakers[teller]))
			if g.r.IntN(4) == 0 {
				g.say(1-teller, fill(g.pick(valFollowups), "{xq}", asked))
				g.say(teller, g.pick(elaborations))
			} else if g.r.IntN(2) == 0 {
				g.say(1-teller, g.pick(followups))
				g.say(teller, g.pick(elaborations))
			}
			if g.r.IntN(2) == 0 {
				g.say(1-teller, fill(g.pick(t.near), "{o}", g.speakers[teller]))
			}
			for range g.r.IntN(3) {
				w := g.r.IntN(2)
				g.say(w, fill(g.pick(chatter), "{o}", g.speakers[1-w]))
			}
		}
		// Someone asks after an earlier event: its words again, no answer.
		if len(g.events) > 0 && g.r.IntN(2) == 0 {
			e := g.events[g.r.IntN(len(g.events))]
			asker := 0
			if g.speakers[0] == e.speaker {
				asker = 1
			}
			g.say(asker, fill(g.pick(callbacks), "{xq}", e.valQ, "{o}", e.speaker))
			g.say(1-asker, g.pick(callbackAnswers))
		}
		g.say(who, fill(g.pick(closers), "{o}", g.speakers[1-who]))
		g.say(1-who, fill(g.pick(closers), "{o}", g.speakers[who]))
	}
	set.Dialogues = append(set.Dialogues, Dialogue{Speakers: g.speakers, Turns: g.turns})
	q := func(cat, text string, answers ...int) {
		set.Questions = append(set.Questions, Question{Dialogue: d, Category: cat, Text: text, Answers: answers})
	}
	byKind := map[string][]event{}
	for _, e := range g.events {
		ask := func(l []string) string { return fill(g.pick(l), "{s}", e.speaker, "{xq}", e.valQ) }
		q(SingleHop, ask(e.t.ask), e.turn)
		q(Temporal, ask(e.t.when), e.turn)
		q(Paraphrase, ask(e.t.para), e.turn)
		k := e.speaker + "|" + e.t.kind
		byKind[k] = append(byKind[k], e)
	}
	kinds := make([]string, 0, len(multiAsk))
	for k := range multiAsk {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, sp := range g.speakers {
		for _, kind := range kinds {
			ask := multiAsk[kind]
			es := byKind[sp+"|"+kind]
			if len(es) < 2 {
				continue
			}
			// Two of the speaker's events of this kind, on different topics
			// when there are.
			a := es[g.r.IntN(len(es))]
			b := es[g.r.IntN(len(es))]
			for tries := 0; (b.turn == a.turn || b.t == a.t) && tries < 10; tries++ {
				b = es[g.r.IntN(len(es))]
			}
			if b.turn == a.turn {
				continue
			}
			if g.r.IntN(2) == 0 {
				q(MultiHop, fill(g.pick(ask), "{s}", sp), a.turn, b.turn)
			} else {
				q(MultiHop, fill(g.pick(orderAsk), "{s}", sp, "{a}", a.valQ, "{b}", b.valQ), a.turn, b.turn)
			}
		}
	}
}
