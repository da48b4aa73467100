// Package usage is what Cairn measures of its own use: one event per tool
// call, hook, knowledge read or check run, and the daily aggregates raw
// events roll up into once they are older than the retention. It is pure:
// the recording lives in service/insight, the rows in the stores.
package usage

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind is what an event measures.
type Kind string

// The kinds of events.
const (
	KindCall  Kind = "call"  // an MCP tool call; Name is the tool
	KindHook  Kind = "hook"  // a client's hook; Name is the event
	KindRead  Kind = "read"  // a knowledge entry read; Name is the tool, Subject the entry
	KindCheck Kind = "check" // a check run (hands); Name is the check, Outcome ok or failed
	KindClass Kind = "class" // a task classified; Name is the tool, Subject what it matched best
)

// Kinds lists every kind.
var Kinds = []Kind{KindCall, KindHook, KindRead, KindCheck, KindClass}

// OK is the outcome of an event that succeeded; any other outcome names
// what went wrong (a problem kind, "failed" for a check that found
// problems).
const OK = "ok"

// Unknown is the value of a field the client did not say: never a guess.
const Unknown = "unknown"

// Event is one measured thing.
type Event struct {
	At      time.Time
	Kind    Kind
	Name    string
	Toolset string
	Agent   string
	Session int64 // the session the call worked in; zero: none known
	// Client and ClientVersion are what the client said of itself
	// (clientInfo, the hook's client); Model what it said of its model
	// (a header, a hook's payload, the session tool), "" when it did not.
	Client        string
	ClientVersion string
	Model         string
	Duration      time.Duration
	Outcome       string
	Bytes         int // the answer's size
	// Subject is what a read or check was about, what a classification
	// matched; for a call, a digest of its arguments (ArgsDigest), so that
	// a call retried with other arguments is seen.
	Subject string
}

// Failed reports whether the event did not succeed.
func (e Event) Failed() bool { return e.Outcome != OK }

// CheckSubject writes what a check event was about: "files=3 error=1
// warning=2 info=0", which ParseCheckSubject reads back.
func CheckSubject(files, errs, warnings, infos int) string {
	return fmt.Sprintf("files=%d error=%d warning=%d info=%d", files, errs, warnings, infos)
}

// ParseCheckSubject reads a check event's subject; ok is false for any
// other text.
func ParseCheckSubject(s string) (files, errs, warnings, infos int, ok bool) {
	n, err := fmt.Sscanf(s, "files=%d error=%d warning=%d info=%d", &files, &errs, &warnings, &infos)
	return files, errs, warnings, infos, err == nil && n == 4
}

// Buckets is how many duration buckets a Day keeps: bucket i holds the
// durations under 2^i microseconds (and at least half that), the last one
// everything longer.
const Buckets = 26

// Bucket is the histogram bucket of duration d.
func Bucket(d time.Duration) int {
	us := d.Microseconds()
	b := 0
	for us > 0 && b < Buckets-1 {
		us >>= 1
		b++
	}
	return b
}

// bucketMid is a duration that stands for bucket b: its geometric middle.
func bucketMid(b int) time.Duration {
	if b == 0 {
		return 0
	}
	lo := math.Pow(2, float64(b-1))
	return time.Duration(lo*math.Sqrt2) * time.Microsecond
}

// Hist is a histogram of durations.
type Hist [Buckets]int

// Add counts d.
func (h *Hist) Add(d time.Duration) { h[Bucket(d)]++ }

// Merge adds o's counts.
func (h *Hist) Merge(o Hist) {
	for i := range h {
		h[i] += o[i]
	}
}

// Quantile estimates the q-quantile (0..1) of the counted durations, to
// within a factor of √2.
func (h Hist) Quantile(q float64) time.Duration {
	n := 0
	for _, c := range h {
		n += c
	}
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(q * float64(n)))
	rank = max(rank, 1)
	seen := 0
	for b, c := range h {
		if seen += c; seen >= rank {
			return bucketMid(b)
		}
	}
	return bucketMid(Buckets - 1)
}

// String is the histogram as stored: counts separated by commas, trailing
// zeros left out.
func (h Hist) String() string {
	last := -1
	for i, c := range h {
		if c != 0 {
			last = i
		}
	}
	parts := make([]string, last+1)
	for i := range parts {
		parts[i] = strconv.Itoa(h[i])
	}
	return strings.Join(parts, ",")
}

// ParseHist reads a histogram as String writes it; what it cannot read
// counts as zero.
func ParseHist(s string) Hist {
	var h Hist
	for i, p := range strings.Split(s, ",") {
		if i >= Buckets {
			break
		}
		h[i], _ = strconv.Atoi(p)
	}
	return h
}

// Key is what events are aggregated by in a day.
type Key struct {
	Kind    Kind
	Name    string
	Toolset string
	Agent   string
	Client  string
	Model   string
	Outcome string
}

// Day is the events of one day that share a Key, counted.
type Day struct {
	Day time.Time // midnight UTC
	Key
	Count    int
	Duration time.Duration // the sum
	Bytes    int64         // the sum
	Hist     Hist
}

// KeyOf is the key e aggregates under.
func KeyOf(e Event) Key {
	return Key{Kind: e.Kind, Name: e.Name, Toolset: e.Toolset, Agent: e.Agent, Client: e.Client, Model: e.Model, Outcome: e.Outcome}
}

// DayOf is midnight UTC of t's day.
func DayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// RollUp aggregates events into days, in day then key order.
func RollUp(es []Event) []Day {
	type dk struct {
		day time.Time
		Key
	}
	byKey := map[dk]*Day{}
	for _, e := range es {
		k := dk{DayOf(e.At), KeyOf(e)}
		d := byKey[k]
		if d == nil {
			d = &Day{Day: k.day, Key: k.Key}
			byKey[k] = d
		}
		d.Count++
		d.Duration += e.Duration
		d.Bytes += int64(e.Bytes)
		d.Hist.Add(e.Duration)
	}
	out := make([]Day, 0, len(byKey))
	for _, d := range byKey {
		out = append(out, *d)
	}
	slices.SortFunc(out, func(a, b Day) int { return cmp.Or(a.Day.Compare(b.Day), compareKeys(a.Key, b.Key)) })
	return out
}

func compareKeys(a, b Key) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name), cmp.Compare(a.Toolset, b.Toolset),
		cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.Client, b.Client), cmp.Compare(a.Model, b.Model), cmp.Compare(a.Outcome, b.Outcome))
}

// ArgsDigest is a short digest of a call's arguments (their JSON as
// sent): two calls with the same digest had the same arguments, byte for
// byte. It is not a secret's hash: it only tells calls apart.
func ArgsDigest(args []byte) string {
	h := fnv.New64a()
	h.Write(args)
	return strconv.FormatUint(h.Sum64(), 36)
}

// IsDigest reports whether s has the shape ArgsDigest gives: nothing to
// redact in it.
func IsDigest(s string) bool {
	if s == "" || len(s) > 13 {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z') {
			return false
		}
	}
	return true
}
