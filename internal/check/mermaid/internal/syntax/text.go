package syntax

import (
	"sort"
	"strings"
)

// Src is text as one stage of Mermaid's preprocessing leaves it, with the
// file offset of each of its bytes: Mermaid removes front matter,
// directives and comment lines and rewrites a few characters before its
// parser runs, and a finding must still point into the file.
type Src struct {
	Text string
	// Off[i] is the file offset of text[i]; off[len(text)] is where the
	// text ends in the file.
	Off []int
}

// NewSrc is the part of a file from start to start+len(text).
func NewSrc(text string, start int) Src {
	off := make([]int, len(text)+1)
	for i := range off {
		off[i] = start + i
	}
	return Src{Text: text, Off: off}
}

// FileOff is the file offset of byte i of s (i may be len(s.text)).
func (s Src) FileOff(i int) int {
	if i < 0 {
		i = 0
	}
	if i > len(s.Text) {
		i = len(s.Text)
	}
	return s.Off[i]
}

// Edit is a replacement of text[from:to] by repl.
type Edit struct {
	From, To int
	Repl     string
}

// Apply returns s with edits made, which must be sorted and not overlap.
// Replacement bytes take the file offset of the start of what they replace.
func (s Src) Apply(edits []Edit) Src {
	if len(edits) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s.Text))
	off := make([]int, 0, len(s.Text)+1)
	last := 0
	for _, e := range edits {
		b.WriteString(s.Text[last:e.From])
		off = append(off, s.Off[last:e.From]...)
		b.WriteString(e.Repl)
		for range len(e.Repl) {
			off = append(off, s.Off[e.From])
		}
		last = e.To
	}
	b.WriteString(s.Text[last:])
	off = append(off, s.Off[last:]...)
	return Src{Text: b.String(), Off: off}
}

// Cut returns s without text[from:to].
func (s Src) Cut(from, to int) Src { return s.Apply([]Edit{{From: from, To: to}}) }

// Slice returns text[from:to] with its offsets.
func (s Src) Slice(from, to int) Src {
	return Src{Text: s.Text[from:to], Off: s.Off[from : to+1]}
}

// AppendText returns s with t added at its end, placed where s ends.
func (s Src) AppendText(t string) Src {
	off := append(s.Off[:len(s.Off):len(s.Off)], make([]int, len(t))...)
	for i := len(s.Text) + 1; i < len(off); i++ {
		off[i] = s.Off[len(s.Text)]
	}
	return Src{Text: s.Text + t, Off: off}
}

// lines maps file offsets to 1-based lines and columns.
type lines []int // the offset each line starts at

func NewLines(content string) lines {
	ls := lines{0}
	for i := 0; i < len(content); i++ {
		if content[i] == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// Pos returns the line and column (both 1-based, the column in bytes) of
// file offset off.
func (ls lines) Pos(off int) (line, col int) {
	i := sort.Search(len(ls), func(i int) bool { return ls[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - ls[i] + 1
}
