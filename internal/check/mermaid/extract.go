package mermaid

import (
	"path"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// isMarkdown reports whether a path is a Markdown file, whose ```mermaid
// blocks are the diagrams.
func isMarkdown(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".mdx", ".markdown":
		return true
	}
	return false
}

// isMermaid reports whether a path is a Mermaid file, one diagram.
func isMermaid(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".mmd", ".mermaid":
		return true
	}
	return false
}

// mermaidBlocks returns the text of each ```mermaid (or ~~~mermaid) fenced
// block of a Markdown file, each line's fence indentation removed, with
// file offsets. A block left open runs to the end of the file, as
// CommonMark reads it.
func mermaidBlocks(content string) []syntax.Src {
	var blocks []syntax.Src
	for ls := 0; ls < len(content); {
		le := syntax.LineEnd(content, ls)
		indent, fence, ok := openingFence(content[ls:le])
		if !ok {
			ls = le + 1
			continue
		}
		b, next := fencedBody(content, le+1, indent, fence)
		blocks = append(blocks, b)
		ls = next
	}
	return blocks
}

// openingFence reads a fence line opening a mermaid block: its indentation
// and its fence ("```", "~~~~", ...).
func openingFence(line string) (indent int, fence string, ok bool) {
	for indent < len(line) && (line[indent] == ' ' || line[indent] == '\t') {
		indent++
	}
	rest := line[indent:]
	if len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, "", false
	}
	n := 0
	for n < len(rest) && rest[n] == rest[0] {
		n++
	}
	if n < 3 {
		return 0, "", false
	}
	info := strings.TrimSpace(rest[n:])
	if rest[0] == '`' && strings.Contains(info, "`") {
		return 0, "", false
	}
	word, _, _ := strings.Cut(info, " ")
	word, _, _ = strings.Cut(word, "\t")
	word, _, _ = strings.Cut(word, "{") // ```mermaid{...} attribute syntax
	if !strings.EqualFold(word, "mermaid") {
		return 0, "", false
	}
	return indent, rest[:n], true
}

// fencedBody reads a fenced block's lines from start up to its closing
// fence; it returns the body and where the next line after it starts.
func fencedBody(content string, start, indent int, fence string) (syntax.Src, int) {
	var b strings.Builder
	var off []int
	ls := start
	for ls < len(content) {
		le := syntax.LineEnd(content, ls)
		line := content[ls:le]
		if isClosingFence(line, fence) {
			off = append(off, ls)
			return syntax.Src{Text: b.String(), Off: off}, le + 1
		}
		cut := 0
		for cut < indent && cut < len(line) && (line[cut] == ' ' || line[cut] == '\t') {
			cut++
		}
		b.WriteString(line[cut:])
		for i := ls + cut; i < le; i++ {
			off = append(off, i)
		}
		if le < len(content) {
			b.WriteByte('\n')
			off = append(off, le)
		}
		ls = le + 1
	}
	off = append(off, len(content))
	return syntax.Src{Text: b.String(), Off: off}, len(content)
}

func isClosingFence(line, fence string) bool {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, fence) {
		return false
	}
	t = strings.TrimLeft(t, fence[:1])
	return strings.TrimSpace(t) == ""
}
