package insight

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/store"
)

// Ratings a feedback gives.
const (
	Good = "good"
	Bad  = "bad"
)

// Who gives feedback.
const (
	ByPerson = "person"
	ByAgent  = "agent"
)

// Ratings and Givers list the values of Feedback.Rating and Feedback.By.
var (
	Ratings = []string{Good, Bad}
	Givers  = []string{ByPerson, ByAgent}
)

// maxNote bounds a feedback's note, in characters.
const maxNote = 500

// Feedback is a rating of a session, or of one of its answers (Tool).
type Feedback struct {
	Session string // "s4"; empty: the agent's open session (the newest session, for a person)
	Rating  string // good or bad
	Tool    string // the tool whose answer is rated; empty: the session
	Note    string
	By      string // person or agent
}

// FeedbackResult is what Feedback stored.
type FeedbackResult struct {
	Session  memory.SessionID
	Rating   string
	Target   string // "session" or the tool
	By       string
	Note     string // as stored, redacted
	Redacted int
	Count    int // how many times this same feedback was given
}

func (f *Feedback) clean() (int, error) {
	f.Rating = strings.ToLower(strings.TrimSpace(f.Rating))
	if f.Rating != Good && f.Rating != Bad {
		return 0, &problem.FieldError{Field: "rating", Problem: "is " + problem.Quote(f.Rating), Fix: "use good or bad"}
	}
	f.By = strings.ToLower(strings.TrimSpace(f.By))
	if f.By != ByPerson && f.By != ByAgent {
		return 0, &problem.FieldError{Field: "by", Problem: "is " + problem.Quote(f.By), Fix: "use person or agent"}
	}
	f.Tool = strings.TrimSpace(f.Tool)
	if len(f.Tool) > 64 || strings.ContainsAny(f.Tool, " \t\n") {
		return 0, &problem.FieldError{Field: "tool", Problem: "is " + problem.Quote(problem.Clip(f.Tool, 40)) + ", not a tool name", Fix: "name the tool whose answer you rate, such as memory_search, or leave it out to rate the session"}
	}
	f.Note = strings.TrimSpace(f.Note)
	if !utf8.ValidString(f.Note) {
		return 0, &problem.FieldError{Field: "note", Problem: "is not valid UTF-8", Fix: "send the note as UTF-8 text"}
	}
	if n := utf8.RuneCountInString(f.Note); n > maxNote {
		return 0, &problem.FieldError{Field: "note", Problem: fmt.Sprintf("is %d characters", n), Fix: fmt.Sprintf("keep it under %d: what was good or bad, in a sentence", maxNote)}
	}
	red := 0
	if f.Note != "" {
		var r redact.Redactions
		f.Note, r = redact.Redact(f.Note)
		red = r.Total
	}
	return red, nil
}

// Give stores a feedback as an event of its session (agent's open one
// when f.Session is empty; for a person, the newest session): the same
// rating of the same thing with the same note counts again rather than
// adding a row. Bad arguments change nothing.
func (s *Service) Give(ctx context.Context, agent string, f Feedback) (FeedbackResult, error) {
	red, err := f.clean()
	if err != nil {
		return FeedbackResult{}, err
	}
	var id memory.SessionID
	if strings.TrimSpace(f.Session) != "" {
		if id, err = memory.ParseSessionID(f.Session); err != nil {
			return FeedbackResult{}, &problem.FieldError{Field: "session_id", Problem: "is " + problem.Quote(f.Session) + ", not a session id",
				Fix: `pass an id such as "s4"`, Hint: problem.ListSessions}
		}
	}
	target := "session"
	if f.Tool != "" {
		target = f.Tool
	}
	out := FeedbackResult{Rating: f.Rating, Target: target, By: f.By, Note: f.Note, Redacted: red}
	err = s.st.Update(ctx, func(tx store.Tx) error {
		sess, err := feedbackSession(ctx, tx, agent, id)
		if err != nil {
			return err
		}
		out.Session = sess.ID
		sum := sha256.Sum256([]byte(f.Note))
		key := f.Rating + "\n" + target + "\n" + f.By + "\n" + hex.EncodeToString(sum[:6])
		e := memory.Event{Session: sess.ID, Kind: memory.EventFeedback, Key: key, Subject: target, Detail: f.Rating, Type: f.By, Note: f.Note, At: s.opts.Now()}
		if err := tx.RecordEvent(ctx, e); err != nil {
			return err
		}
		es, _, err := tx.Events(ctx, store.EventQuery{Sessions: []memory.SessionID{sess.ID}, Kinds: []memory.EventKind{memory.EventFeedback}})
		for _, x := range es {
			if x.Key == key {
				out.Count = x.Count
			}
		}
		return err
	})
	if err != nil {
		return FeedbackResult{}, err
	}
	return out, nil
}

// feedbackSession is the session a feedback rates: id, else the agent's
// open session, else (no agent: a person at the terminal) the newest.
func feedbackSession(ctx context.Context, tx store.Tx, agent string, id memory.SessionID) (memory.Session, error) {
	if id != 0 {
		sess, err := store.Session(ctx, tx, id)
		if _, missing := memory.MissingOf(err); missing {
			return sess, &problem.FieldError{Field: "session_id", Problem: "names session " + id.String() + ", which does not exist",
				Fix: "pass an existing id", Hint: problem.ListSessions}
		}
		return sess, err
	}
	q := store.SessionQuery{Agent: agent, OpenOnly: agent != "", Limit: 1}
	ss, _, err := tx.Sessions(ctx, q)
	if err != nil {
		return memory.Session{}, err
	}
	if len(ss) == 0 {
		p := "is missing and there is no session"
		if agent != "" {
			p = "is missing and this agent has no open session"
		}
		return memory.Session{}, &problem.FieldError{Field: "session_id", Problem: p, Fix: "pass the session's id", Hint: problem.ListSessions}
	}
	return ss[0], nil
}

// FeedbackCounts are the feedback a group of sessions received.
type FeedbackCounts struct {
	Good, Bad int // ratings of sessions
	// AnswersGood and AnswersBad rate single answers (a tool named).
	AnswersGood, AnswersBad int
}

// Total is how many ratings there are.
func (c FeedbackCounts) Total() int { return c.Good + c.Bad + c.AnswersGood + c.AnswersBad }

func (c *FeedbackCounts) add(o FeedbackCounts) {
	c.Good += o.Good
	c.Bad += o.Bad
	c.AnswersGood += o.AnswersGood
	c.AnswersBad += o.AnswersBad
}

// countFeedback counts a feedback event (its Count: each time it was given).
func (c *FeedbackCounts) countFeedback(e memory.Event) {
	n := max(e.Count, 1)
	switch {
	case e.Subject == "session" && e.Detail == Good:
		c.Good += n
	case e.Subject == "session":
		c.Bad += n
	case e.Detail == Good:
		c.AnswersGood += n
	default:
		c.AnswersBad += n
	}
}
