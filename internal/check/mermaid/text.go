package mermaid

import (
	"sort"
	"strings"
)

// src is text as one stage of Mermaid's preprocessing leaves it, with the
// file offset of each of its bytes: Mermaid removes front matter,
// directives and comment lines and rewrites a few characters before its
// parser runs, and a finding must still point into the file.
type src struct {
	text string
	// off[i] is the file offset of text[i]; off[len(text)] is where the
	// text ends in the file.
	off []int
}

// newSrc is the part of a file from start to start+len(text).
func newSrc(text string, start int) src {
	off := make([]int, len(text)+1)
	for i := range off {
		off[i] = start + i
	}
	return src{text: text, off: off}
}

// fileOff is the file offset of byte i of s (i may be len(s.text)).
func (s src) fileOff(i int) int {
	if i < 0 {
		i = 0
	}
	if i > len(s.text) {
		i = len(s.text)
	}
	return s.off[i]
}

// edit is a replacement of text[from:to] by repl.
type edit struct {
	from, to int
	repl     string
}

// apply returns s with edits made, which must be sorted and not overlap.
// Replacement bytes take the file offset of the start of what they replace.
func (s src) apply(edits []edit) src {
	if len(edits) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s.text))
	off := make([]int, 0, len(s.text)+1)
	last := 0
	for _, e := range edits {
		b.WriteString(s.text[last:e.from])
		off = append(off, s.off[last:e.from]...)
		b.WriteString(e.repl)
		for range len(e.repl) {
			off = append(off, s.off[e.from])
		}
		last = e.to
	}
	b.WriteString(s.text[last:])
	off = append(off, s.off[last:]...)
	return src{text: b.String(), off: off}
}

// cut returns s without text[from:to].
func (s src) cut(from, to int) src { return s.apply([]edit{{from: from, to: to}}) }

// slice returns text[from:to] with its offsets.
func (s src) slice(from, to int) src {
	return src{text: s.text[from:to], off: s.off[from : to+1]}
}

// appendText returns s with t added at its end, placed where s ends.
func (s src) appendText(t string) src {
	off := append(s.off[:len(s.off):len(s.off)], make([]int, len(t))...)
	for i := len(s.text) + 1; i < len(off); i++ {
		off[i] = s.off[len(s.text)]
	}
	return src{text: s.text + t, off: off}
}

// lines maps file offsets to 1-based lines and columns.
type lines []int // the offset each line starts at

func newLines(content string) lines {
	ls := lines{0}
	for i := 0; i < len(content); i++ {
		if content[i] == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// pos returns the line and column (both 1-based, the column in bytes) of
// file offset off.
func (ls lines) pos(off int) (line, col int) {
	i := sort.Search(len(ls), func(i int) bool { return ls[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - ls[i] + 1
}
