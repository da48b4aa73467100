package flowchart

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Caches that keep the flowchart lexer linear: several of its rules look
// ahead over white space, the rest of a line or a run of characters at
// every token, which on a long line would be quadratic.

// spaceRuns remembers the last run of white space skipped.
type spaceRuns struct{ from, to int }

// skip returns the first index at or after i that is not \s.
func (w *spaceRuns) skip(t string, i int) int {
	if w.to > w.from && i >= w.from && i <= w.to {
		return w.to
	}
	j := syntax.SkipJSSpace(t, i)
	w.from, w.to = i, j
	return j
}

// link matches \s*[xo<]?cc+[cxo>]\s* (c is - or =) at i: a link without
// text. It returns where the match ends, 0 for none.
func (w *spaceRuns) link(t string, i int, c byte) int {
	j := w.skip(t, i)
	if j < len(t) && (t[j] == 'x' || t[j] == 'o' || t[j] == '<') {
		if e := linkBody(t, j+1, c); e > 0 {
			return syntax.SkipJSSpace(t, e)
		}
	}
	if e := linkBody(t, j, c); e > 0 {
		return syntax.SkipJSSpace(t, e)
	}
	return 0
}

// linkBody matches cc+[cxo>] at j.
func linkBody(t string, j int, c byte) int {
	k := j
	for k < len(t) && t[k] == c {
		k++
	}
	n := k - j
	if n >= 2 && k < len(t) && (t[k] == 'x' || t[k] == 'o' || t[k] == '>') {
		return k + 1
	}
	if n >= 3 {
		return k
	}
	return 0
}

// startLink matches \s*[xo<]?s\s* at i: the start of a link with text.
func (w *spaceRuns) startLink(t string, i int, s string) int {
	j := w.skip(t, i)
	if j < len(t) && (t[j] == 'x' || t[j] == 'o' || t[j] == '<') && strings.HasPrefix(t[j+1:], s) {
		return syntax.SkipJSSpace(t, j+1+len(s))
	}
	if strings.HasPrefix(t[j:], s) {
		return syntax.SkipJSSpace(t, j+len(s))
	}
	return 0
}

// dottedLink matches \s*[xo<]?-?\.+-[xo>]?\s* at i.
func (w *spaceRuns) dottedLink(t string, i int) int {
	j := w.skip(t, i)
	if j < len(t) && (t[j] == 'x' || t[j] == 'o' || t[j] == '<') {
		if e := dottedBody(t, j+1); e > 0 {
			return syntax.SkipJSSpace(t, e)
		}
	}
	if e := dottedBody(t, j); e > 0 {
		return syntax.SkipJSSpace(t, e)
	}
	return 0
}

// dottedBody matches -?\.+-[xo>]? at k.
func dottedBody(t string, k int) int {
	if k < len(t) && t[k] == '-' {
		k++
	}
	d := k
	for k < len(t) && t[k] == '.' {
		k++
	}
	if k == d || k >= len(t) || t[k] != '-' {
		return 0
	}
	k++
	if k < len(t) && (t[k] == 'x' || t[k] == 'o' || t[k] == '>') {
		k++
	}
	return k
}

// invisibleLink matches \s*~~[~]+\s* at i.
func (w *spaceRuns) invisibleLink(t string, i int) int {
	j := w.skip(t, i)
	k := j
	for k < len(t) && t[k] == '~' {
		k++
	}
	if k-j < 3 {
		return 0
	}
	return syntax.SkipJSSpace(t, k)
}

// linkIDRun caches the run of characters the LINK_ID rule
// [^\s"\[\]\(\)\{\}\|]+@(?=[^\{"]) can cover, and its last usable "@".
type linkIDRun struct {
	from, to, at int
	valid        bool
}

// match returns where a LINK_ID token lexed at i ends, 0 for none.
func (c *linkIDRun) match(t string, i int) int {
	if !c.valid || i < c.from || i >= c.to {
		c.scan(t, i)
	}
	if c.at >= i+1 {
		return c.at + 1
	}
	return 0
}

func (c *linkIDRun) scan(t string, i int) {
	c.valid, c.from, c.at = true, i, -1
	j := i
	for j < len(t) {
		r, n := syntax.DecodeRune(t, j)
		if syntax.IsJSSpace(r) || strings.ContainsRune("\"[](){}|", r) {
			break
		}
		if r == '@' && j+1 < len(t) && t[j+1] != '{' && t[j+1] != '"' {
			c.at = j
		}
		j += n
	}
	c.to = j
	if j == i {
		c.to = i + 1 // an empty run: nothing matches here
	}
}
