package convbench

import (
	"bufio"
	"embed"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// OpenDomain questions ask for an inference from what was said ("Is Leo
// good with his hands?"), answered by the turn that shows it.
const OpenDomain = "open-domain"

// Adversarial questions ask one speaker about what the other said or did
// ("When did Leo sign up for the half marathon?" when Hannah did), as real
// benchmarks do to catch a system that answers anyway; the turn that said it
// answers. Added to both splits (24 each) after the other questions, to
// check that weighting a question's names (rank.QueryWeights) does not bury
// the other speaker's turn; the name weight was chosen on dev's.
const Adversarial = "adversarial"

// WrittenCategories are the categories of the written dialogues'
// questions, in report order.
var WrittenCategories = []string{SingleHop, MultiHop, Temporal, OpenDomain, Paraphrase, Adversarial}

// Splits of the written dialogues, fixed before any ranking was tuned on
// them: ranking changes are measured on Dev and reported on Report.
const (
	Dev    = "dev"
	Report = "report"
)

//go:embed testdata/dialogues/*.txt
var writtenFS embed.FS

// Written returns the hand-written dialogues of a split (Dev or Report):
// casual chats between two friends over eight or nine dated sessions,
// 140 to 200 turns each, and about 75 questions each written as a person
// would ask them, labelled with the turns that answer. Dev holds two
// dialogues; Report four, two of them (05, 06) written after the ranking
// was tuned on the others and added before any further tuning.
//
// How a turn is stored, as a client recording a conversation through the
// memory tools would store it: one observation (type insight) per turn, added in order
// one after another (so its created time is the moment of recording,
// seconds after the turn before; the tools cannot backdate), content
// "Speaker: words said" with photos described in brackets as the chat
// showed them, no session and no tags, and a title whose style varies by
// dialogue as clients' do: speaker and date ("Hannah · 4 March 2023"),
// session and date ("Session 3: 8 April 2023"), the turn's first words
// ("Leo: Hey stranger! I'm good, busy…"), or the speaker alone.
//
// The file format (testdata/dialogues): "speakers: A, B", "split: dev",
// "== session N | 2 January 2006" opens a session, "Name: text" is a
// turn, a trailing " ^key" labels a turn for the questions, and after
// "== questions" each line is "category | question | key, key".
func Written(split string) (Set, error) {
	files, err := writtenFS.ReadDir("testdata/dialogues")
	if err != nil {
		return Set{}, err
	}
	var set Set
	for i, f := range files {
		name := path.Join("testdata/dialogues", f.Name())
		b, err := writtenFS.ReadFile(name)
		if err != nil {
			return Set{}, err
		}
		dlg, qs, sp, err := parseWritten(string(b), i%4)
		if err != nil {
			return Set{}, fmt.Errorf("%s: %w", name, err)
		}
		if sp != split {
			continue
		}
		for j := range qs {
			qs[j].Dialogue = len(set.Dialogues)
		}
		set.Dialogues = append(set.Dialogues, dlg)
		set.Questions = append(set.Questions, qs...)
	}
	if len(set.Dialogues) == 0 {
		return Set{}, fmt.Errorf("no written dialogues in split %q", split)
	}
	return set, nil
}

func parseWritten(src string, style int) (Dialogue, []Question, string, error) {
	var (
		dlg     Dialogue
		qs      []Question
		split   string
		session int
		date    time.Time
		inQs    bool
	)
	keys := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(src))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		bad := func(format string, a ...any) (Dialogue, []Question, string, error) {
			return Dialogue{}, nil, "", fmt.Errorf("line %d: %s", n, fmt.Sprintf(format, a...))
		}
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "speakers:"):
			sp := strings.Split(strings.TrimPrefix(line, "speakers:"), ",")
			if len(sp) != 2 {
				return bad("want two speakers")
			}
			dlg.Speakers = [2]string{strings.TrimSpace(sp[0]), strings.TrimSpace(sp[1])}
		case strings.HasPrefix(line, "split:"):
			split = strings.TrimSpace(strings.TrimPrefix(line, "split:"))
		case line == "== questions":
			inQs = true
		case strings.HasPrefix(line, "== session"):
			head := strings.Split(strings.TrimPrefix(line, "== session"), "|")
			if len(head) != 2 {
				return bad("want == session N | date")
			}
			s, err := strconv.Atoi(strings.TrimSpace(head[0]))
			if err != nil {
				return bad("session number: %v", err)
			}
			d, err := time.Parse("2 January 2006", strings.TrimSpace(head[1]))
			if err != nil {
				return bad("session date: %v", err)
			}
			session, date = s, d
		case inQs:
			f := strings.Split(line, "|")
			if len(f) != 3 {
				return bad("want category | question | keys")
			}
			q := Question{Category: strings.TrimSpace(f[0]), Text: strings.TrimSpace(f[1])}
			if !slices.Contains(WrittenCategories, q.Category) {
				return bad("unknown category %q", q.Category)
			}
			for _, k := range strings.Split(f[2], ",") {
				t, ok := keys[strings.TrimSpace(k)]
				if !ok {
					return bad("no turn is labelled %q", strings.TrimSpace(k))
				}
				q.Answers = append(q.Answers, t)
			}
			qs = append(qs, q)
		default:
			sp, text, ok := strings.Cut(line, ":")
			if !ok || (sp != dlg.Speakers[0] && sp != dlg.Speakers[1]) || session == 0 {
				return bad("want Speaker: text inside a session")
			}
			text = strings.TrimSpace(text)
			if i := strings.LastIndex(text, " ^"); i >= 0 {
				k := text[i+2:]
				if _, dup := keys[k]; dup || strings.ContainsAny(k, " ,|") {
					return bad("label %q is used twice or malformed", k)
				}
				keys[k] = len(dlg.Turns)
				text = strings.TrimSpace(text[:i])
			}
			content := sp + ": " + text
			var title string
			day := date.Format("2 January 2006")
			switch style {
			case 0:
				title = sp + " · " + day
			case 1:
				title = fmt.Sprintf("Session %d: %s", session, day)
			case 2:
				w := strings.Fields(content)
				title = strings.Join(w[:min(6, len(w))], " ") + "…"
			default:
				title = sp
			}
			dlg.Turns = append(dlg.Turns, Turn{Speaker: sp, Session: session, Date: date, Title: title, Text: content})
		}
	}
	if split != Dev && split != Report {
		return Dialogue{}, nil, "", fmt.Errorf("split is %q, want %q or %q", split, Dev, Report)
	}
	return dlg, qs, split, sc.Err()
}
