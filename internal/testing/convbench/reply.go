package convbench

import (
	"math/rand/v2"
	"strings"
)

// Reply is the category of questions whose answer is a turn that replies to
// the other speaker's question just before it ("Where did you go last
// week?" → "I just got back from Reykjavik."): the human question uses the
// asking turn's words more than the answer's.
const Reply = "reply"

// WithReplies adds to each session of set, before its closing turns and at
// most once, a question from one speaker and the other's answer, and a
// Reply question about each. It draws from its own generator seeded from
// seed, so Generate's turns and questions are unchanged apart from the
// shifted indexes of later turns.
func WithReplies(set Set, seed uint64) Set {
	r := rand.New(rand.NewPCG(seed^0x5eed5eed, seed+0x1234567))
	out := Set{Dialogues: make([]Dialogue, len(set.Dialogues))}
	remap := make([][]int, len(set.Dialogues))
	var added []Question
	for d, dlg := range set.Dialogues {
		var turns []Turn
		m := make([]int, len(dlg.Turns))
		used := map[string]bool{}
		for i, tn := range dlg.Turns {
			// The session's last two turns are its closers.
			last := i+2 < len(dlg.Turns) && dlg.Turns[i+2].Session != tn.Session || i+2 == len(dlg.Turns)
			if last && (i == 0 || dlg.Turns[i-1].Session == tn.Session) && r.IntN(2) == 0 {
				who := r.IntN(2)
				asker, teller := dlg.Speakers[who], dlg.Speakers[1-who]
				rt := &replyTopics[r.IntN(len(replyTopics))]
				val := rt.vals[r.IntN(len(rt.vals))]
				if !used[teller+"|"+val] {
					used[teller+"|"+val] = true
					ask := fill(rt.ask[r.IntN(len(rt.ask))], "{o}", teller)
					ans := fill(rt.tell[r.IntN(len(rt.tell))], "{x}", val)
					turns = append(turns, styled(dlg, tn, asker, ask), styled(dlg, tn, teller, ans))
					added = append(added, Question{Dialogue: d, Category: Reply,
						Text: fill(rt.q[r.IntN(len(rt.q))], "{s}", teller), Answers: []int{len(turns) - 1}})
				}
			}
			m[i] = len(turns)
			turns = append(turns, tn)
		}
		out.Dialogues[d] = Dialogue{Speakers: dlg.Speakers, Turns: turns}
		remap[d] = m
	}
	for _, q := range set.Questions {
		a := make([]int, len(q.Answers))
		for i, x := range q.Answers {
			a[i] = remap[q.Dialogue][x]
		}
		q.Answers = a
		out.Questions = append(out.Questions, q)
	}
	out.Questions = append(out.Questions, added...)
	return out
}

// styled makes a turn by who in the title and tag style of like's dialogue.
func styled(dlg Dialogue, like Turn, who, text string) Turn {
	t := Turn{Speaker: who, Session: like.Session, Date: like.Date, Text: text}
	t.Title = strings.ReplaceAll(like.Title, like.Speaker, who)
	t.Tags = make([]string, len(like.Tags))
	for i, tag := range like.Tags {
		t.Tags[i] = strings.ReplaceAll(tag, strings.ToLower(like.Speaker), strings.ToLower(who))
	}
	if strings.HasSuffix(like.Title, "…") { // first words of the text
		w := strings.Fields(text)
		t.Title = strings.Join(w[:min(6, len(w))], " ") + "…"
	}
	return t
}

// A replyTopic is asked by one speaker and answered by the other in the
// next turn, the answer not repeating the question's words.
type replyTopic struct {
	vals []string
	ask  []string // the asking turn; {o} is the one asked
	tell []string // the answering turn; {x} the value
	q    []string // the human question; {s} the one who answered
}

var replyTopics = []replyTopic{
	{
		vals: []string{"Reykjavik", "Lisbon", "Kyoto", "Marrakesh", "Vancouver", "Prague"},
		ask:  []string{"So where did you go on your trip last week, {o}?", "Which city did you end up visiting on vacation?"},
		tell: []string{"I just got back from {x}! Still jet-lagged.", "{x}. Honestly I'd move there tomorrow."},
		q:    []string{"Which city did {s} visit on the trip?", "Where did {s} go on vacation?"},
	},
	{
		vals: []string{"The Overstory", "Educated", "Circe", "Pachinko", "Station Eleven"},
		ask:  []string{"What book are you reading at the moment, {o}?", "Read anything good lately?"},
		tell: []string{"{x}. I can't put it down.", "Right now it's {x}, my sister lent it to me."},
		q:    []string{"What book is {s} reading?", "Which book did {s} read lately?"},
	},
	{
		vals: []string{"a Thai place downtown", "the new ramen bar", "a tiny Ethiopian restaurant", "that taco truck by the park"},
		ask:  []string{"Where did you have dinner for your birthday, {o}?", "Which restaurant did you pick for the birthday dinner?"},
		tell: []string{"We went to {x}. Best meal I've had all year.", "Oh, {x}! The spicy stuff was amazing."},
		q:    []string{"Where did {s} have the birthday dinner?", "Which restaurant did {s} choose for the birthday?"},
	},
	{
		vals: []string{"violin", "cello", "ukulele", "piano", "drums"},
		ask:  []string{"What instrument is your daughter learning, {o}?", "Which instrument did your kid pick at school?"},
		tell: []string{"The {x}, of all things. Our neighbors are being very patient.", "{x}! She practices every single evening."},
		q:    []string{"What instrument is {s}'s daughter learning?", "Which instrument did {s}'s kid pick?"},
	},
	{
		vals: []string{"a marathon", "a half marathon", "a triathlon", "a charity bike ride"},
		ask:  []string{"What race are you training for these days, {o}?", "What's all that training for?"},
		tell: []string{"{x} in the spring. My knees are already complaining.", "Signed up for {x}, so no excuses now."},
		q:    []string{"What race is {s} training for?", "What is {s}'s training for?"},
	},
}
