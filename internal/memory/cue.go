package memory

import (
	"strings"
	"sync"
	"unicode"
)

// Answer cues: what kind of answer a text holds (a time, a number, a place,
// a name), indexed as terms of their own so a question asking for that kind
// ("When did...", "How many...", "Where...", "Who...") can favour the
// entries that hold one (see rank.Search). A cue term is not a word: words
// are runs of letters and digits, and every cue starts with '_', so no text
// and no query's words can name one.
const (
	CueTime   = "_time"
	CueNumber = "_number"
	CuePlace  = "_place"
	CueName   = "_name"
)

// cueWords are the words Cues looks for: built on first use, not at every
// process start.
var cueWords = sync.OnceValue(func() *cueSets {
	return &cueSets{
		// time: words that say when on their own.
		time: set(`yesterday today tonight tomorrow ago weekend fortnight
		monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays
		january february april june july august september october november december
		spring summer autumn winter christmas easter halloween`),
		// timeUnits: words that say when or how long after a number or
		// "last", "next", "this": "two weeks", "last month", "next year".
		timeUnits: set(`minute minutes hour hours day days night nights week weeks month months year years
		morning afternoon evening weekend summer winter spring autumn time`),
		timeLead: set(`last next this`),
		// placeLead: the prepositions a place's name follows: "in Lisbon",
		// "up to the Lakes".
		placeLead: set(`in at to from near around into outside`),
		// count: the spelled numbers that count things ("one" is mostly a
		// pronoun: "the Neil Young one").
		count: set(`two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen
		seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand dozen`),
	}
})

type cueSets struct{ time, timeUnits, timeLead, placeLead, count map[string]bool }

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Cues returns the answer cues text holds, in a fixed order: CueTime for a
// time expression (a weekday, a month, "yesterday", "two weeks ago", "last
// month", "4pm", a year), CueNumber for a number (digits or a spelled
// count), CuePlace for a capitalised name after "in", "at", "to", "from"...,
// CueName for any capitalised word other than a sentence's first (and
// "I" and words in capitals).
func Cues(text string) []string {
	var has [4]bool
	type word struct {
		w     string // lower case
		upper bool   // written with a capital, not a sentence's first word
	}
	var ws []word
	start := true
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(".!?", r)
	}) {
		for f != "" {
			head, rest, end := f, "", false
			if i := strings.IndexAny(f, ".!?"); i >= 0 {
				head, rest, end = f[:i], f[i+1:], true
			}
			if head != "" {
				r := []rune(head)
				// Not "I", nor a word in capitals ("I DID IT"), which shouts.
				up := !start && unicode.IsUpper(r[0]) && head != "I" && strings.ToUpper(head) != head
				ws = append(ws, word{strings.ToLower(head), up})
				start = false
			}
			if end {
				start = true
			}
			f = rest
		}
	}
	c := cueWords()
	for i, w := range ws {
		switch {
		case c.time[w.w], w.upper && (w.w == "may" || w.w == "march"):
			has[0] = true
		case c.timeLead[w.w] && i+1 < len(ws) && (c.timeUnits[ws[i+1].w] || c.time[ws[i+1].w]):
			has[0] = true
		}
		if w.upper {
			has[3] = true
			if i > 0 && c.placeLead[ws[i-1].w] {
				has[2] = true
			}
		}
		if unicode.IsDigit(rune(w.w[0])) || c.count[w.w] {
			has[1] = true
			if len(w.w) == 4 && (strings.HasPrefix(w.w, "19") || strings.HasPrefix(w.w, "20")) && isDigits(w.w) {
				has[0] = true // a year
			}
			if strings.HasSuffix(w.w, "am") || strings.HasSuffix(w.w, "pm") {
				has[0] = true // 4pm
			}
			if i+1 < len(ws) && (c.timeUnits[ws[i+1].w] || ws[i+1].w == "o") {
				has[0] = true // two weeks, 5 o'clock
			}
		}
	}
	var out []string
	for i, c := range []string{CueTime, CueNumber, CuePlace, CueName} {
		if has[i] {
			out = append(out, c)
		}
	}
	return out
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// AnswerCue is the cue of the kind of answer a question asks for: CueTime
// for "When...", "What time/year/month/day..."; CueNumber for "How
// many/much/long/old/often/far..."; CuePlace for "Where...", "Which
// city/country/town/place..."; CueName for "Who...", "What is X's name",
// "What is X called" (not "Whose...": an owner is as often "his mum's" as a
// name; on the dev split it cost one question). "" for anything else, and for a text that
// is not a question ("connection pool timeout").
func AnswerCue(question string) string {
	ws := words(question)
	if len(ws) == 0 {
		return ""
	}
	for i, w := range ws {
		if i >= 3 && w != "name" && w != "called" {
			continue // a question word only in the first few ("And when did...")
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		switch w {
		case "when":
			return CueTime
		case "where":
			return CuePlace
		case "who", "whom":
			return CueName
		case "how":
			switch next {
			case "many", "much", "long", "old", "often", "far", "heavy", "tall", "big":
				return CueNumber
			}
		case "what", "which":
			switch next {
			case "time", "year", "month", "day", "date", "week":
				return CueTime
			case "city", "country", "town", "place", "village", "county", "state":
				return CuePlace
			}
		case "name", "called":
			if i > 0 && strings.Contains(question, "?") {
				return CueName
			}
		}
	}
	return ""
}
