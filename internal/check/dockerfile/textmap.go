package dockerfile

import (
	"sort"
	"strings"
	"unicode"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

// A textMap maps byte offsets in a text BuildKit assembled from the file
// (an instruction's continuation lines joined, a heredoc's body) back to
// lines and columns of the original file.
type textMap struct {
	segs []seg // by off
}

// seg is a piece of the text that is contiguous in the file.
type seg struct {
	off  int // offset of its first byte in the text
	line int // 1-based line of the file
	col  int // 1-based byte column of its first byte on that line
}

// pos returns the line and column of the text's byte at off; 0, 0 when the
// map is empty.
func (m textMap) pos(off int) (line, col int) {
	if len(m.segs) == 0 {
		return 0, 0
	}
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].off > off }) - 1
	i = max(i, 0)
	s := m.segs[i]
	return s.line, s.col + max(off-s.off, 0)
}

// shift returns the map of the text that starts at off of m's text.
func (m textMap) shift(off int) textMap {
	out := textMap{segs: make([]seg, 0, len(m.segs))}
	for i, s := range m.segs {
		end := 1 << 62
		if i+1 < len(m.segs) {
			end = m.segs[i+1].off
		}
		if end <= off {
			continue
		}
		if s.off < off {
			s.col += off - s.off
			s.off = off
		}
		s.off -= off
		out.segs = append(out.segs, s)
	}
	return out
}

// source is a Dockerfile's lines, as the parser reads them.
type source struct {
	lines  []string // without their line ends
	escape byte     // the escape token: \ or `
	bom    int      // the length of the byte-order mark the first line had
}

func newSource(b []byte, escape rune) *source {
	s := &source{escape: byte(escape)}
	text := string(b)
	s.lines = strings.Split(text, "\n")
	for i, l := range s.lines {
		s.lines[i] = strings.TrimRight(l, "\r")
	}
	if first, ok := strings.CutPrefix(s.lines[0], "\uFEFF"); ok {
		s.lines[0], s.bom = first, len("\uFEFF")
	}
	return s
}

// line returns the 1-based line n, "" when there is none.
func (s *source) line(n int) string {
	if n < 1 || n > len(s.lines) {
		return ""
	}
	return s.lines[n-1]
}

// instruction maps node's Original (its lines joined as the parser joins
// them: continuation characters removed, comment and blank lines inside
// dropped) back to the file. It also returns the last line of the
// instruction before any heredoc body. ok is false when the text rebuilt
// from the file is not the parser's, so positions are not to be trusted.
func (s *source) instruction(n *parser.Node) (m textMap, last int, ok bool) {
	ln := n.StartLine
	raw := s.line(ln)
	lead := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
	text, more := s.trimContinuation(raw[lead:])
	var b strings.Builder
	col := lead + 1
	if ln == 1 {
		col += s.bom
	}
	m.segs = append(m.segs, seg{off: 0, line: ln, col: col})
	b.WriteString(text)
	last = ln
	for more && ln < len(s.lines) {
		ln++
		last = ln
		raw := s.line(ln)
		trimmed := strings.TrimLeftFunc(raw, unicode.IsSpace)
		if strings.HasPrefix(trimmed, "#") || trimmed == "" {
			continue
		}
		text, more = s.trimContinuation(raw)
		m.segs = append(m.segs, seg{off: b.Len(), line: ln, col: 1})
		b.WriteString(text)
	}
	return m, last, b.String() == n.Original
}

// trimContinuation strips a line-continuation escape (and the blanks after
// it) from the end of a line, as BuildKit's parser does; more says whether
// there was one.
func (s *source) trimContinuation(line string) (string, bool) {
	t := strings.TrimRight(line, " \t")
	if t == "" || t[len(t)-1] != s.escape {
		return line, false
	}
	if len(t) >= 2 && t[len(t)-2] == s.escape {
		return line, false // an escaped escape
	}
	return t[:len(t)-1], true
}

// heredocs maps the bodies of node's heredocs, in order, given the last line
// of the instruction itself. Each body starts on the line after the previous
// one's terminator.
func heredocMaps(n *parser.Node, last int) []textMap {
	out := make([]textMap, 0, len(n.Heredocs))
	ln := last + 1
	for _, h := range n.Heredocs {
		var m textMap
		off := 0
		for line := range strings.SplitAfterSeq(h.Content, "\n") {
			if line == "" {
				break
			}
			m.segs = append(m.segs, seg{off: off, line: ln, col: 1})
			off += len(line)
			ln++
		}
		ln++ // the terminator
		out = append(out, m)
	}
	return out
}
