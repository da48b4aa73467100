package insight

import (
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/internal/usage"
)

// retryGap is the longest pause after a call in which calling the same
// tool again with other arguments counts as retrying it.
const retryGap = 2 * time.Minute

// AnswerDerivation says how an answer's quality is derived; the answers
// that show it carry it.
const AnswerDerivation = "bad: errored, or retried at once (the same caller's next call, within 2 min, the same tool with other arguments); whether a query's results were used is not recorded"

// Answers counts tool answers by quality.
type Answers struct {
	Calls   int
	Errored int
	Retried int // succeeded, then called again at once with other arguments
}

// Bad is how many answers were bad: errored or retried.
func (a Answers) Bad() int { return a.Errored + a.Retried }

// Rate is the share of bad answers, with its interval.
func (a Answers) Rate(z float64) usage.Rate { return usage.WilsonZ(a.Bad(), a.Calls, z) }

func (a *Answers) add(o Answers) {
	a.Calls += o.Calls
	a.Errored += o.Errored
	a.Retried += o.Retried
}

// callQuality is each call's quality in es (oldest first): errored, or
// retried by the next call of the same caller. A call whose arguments were
// not recorded (no digest) is never taken for a retry, nor its successor.
type callQuality struct {
	errored, retried bool
}

func qualities(es []usage.Event) []callQuality {
	out := make([]callQuality, len(es))
	last := map[string]int{} // caller → index of its last call
	for i, e := range es {
		if e.Kind != usage.KindCall {
			continue
		}
		out[i].errored = e.Failed()
		who := caller(e)
		if j, ok := last[who]; ok {
			p := es[j]
			if p.Name == e.Name && !p.Failed() && p.Subject != "" && e.Subject != "" && p.Subject != e.Subject && e.At.Sub(p.At) <= retryGap {
				out[j].retried = true
			}
		}
		last[who] = i
	}
	return out
}

// caller names who made a call: its session, else its agent and client.
func caller(e usage.Event) string {
	if e.Session != 0 {
		return "s:" + strconv.FormatInt(e.Session, 10)
	}
	return "a:" + e.Agent + "/" + e.Client
}

func (a *Answers) count(q callQuality) {
	a.Calls++
	switch {
	case q.errored:
		a.Errored++
	case q.retried:
		a.Retried++
	}
}
