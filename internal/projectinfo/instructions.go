package projectinfo

import (
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// instructionFiles are the files and folders where repositories keep
// instructions for agents, in the order a digest shows them.
var instructionFiles = func(w *walked) []string {
	var out []string
	for _, f := range []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md", ".github/copilot-instructions.md", ".cursorrules", ".windsurfrules", ".clinerules"} {
		if fi, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	for _, d := range []string{".cursor/rules", ".github/instructions", ".clinerules", ".claude/rules"} {
		p := filepath.Join(w.root, filepath.FromSlash(d))
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			continue
		}
		w.stamp(d, fi)
		entries, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			if e.Type().IsRegular() && (strings.HasSuffix(e.Name(), ".md") || strings.HasSuffix(e.Name(), ".mdc")) {
				names = append(names, path.Join(d, e.Name()))
			}
		}
		sort.Strings(names)
		out = append(out, names[:min(len(names), 20)]...)
	}
	return out
}

// Line kinds in a digest.
const (
	KindHeading = "heading" // a section title
	KindRule    = "rule"    // an instruction: must, never, always, prefer…
	KindCommand = "command" // a command to run
	KindSummary = "summary" // a rule file's description
)

// Line is one line of an instruction digest.
type Line struct {
	File    string `json:"file"`
	Section string `json:"section,omitempty"` // the heading it is under
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	// Weight orders lines by how much an agent needs them; higher first.
	Weight int `json:"weight"`
	Order  int `json:"-"` // position in the file
}

// Digest is the instruction files' headings and key lines.
type Digest struct {
	Files []string `json:"files"`
	Lines []Line   `json:"lines"`
	// Bytes is the files' total size, to say what the digest saves.
	Bytes int `json:"bytes"`
}

// CairnBegin and CairnEnd delimit the section `cairn init` writes in
// AGENTS.md; a digest leaves it out (it is about Cairn itself).
const (
	CairnBegin = "<!-- cairn:begin -->"
	CairnEnd   = "<!-- cairn:end -->"
)

// ruleWords mark a line as an instruction.
var ruleWords = []string{"must", "never", "always", "don't", "do not", "should", "avoid", "prefer", "required", "important",
	"only ", "before commit", "before you", "make sure", "ensure", "use ", "run ", "no ", "keep ", "instead of"}

const maxLine = 200

// digest reads the instruction files into headings and key lines.
func digest(w *walked, files []string) Digest {
	d := Digest{Files: files}
	for _, f := range files {
		text := w.read(f)
		d.Bytes += len(text)
		d.Lines = append(d.Lines, digestFile(f, text)...)
	}
	return d
}

func digestFile(file, text string) []Line {
	var (
		out     []Line
		section string
		fence   bool
		fenceSh bool
		skip    bool
		order   int
	)
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	// Front matter (rule files): its description says what the file is for.
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines) && i < 40; i++ {
			l := strings.TrimSpace(lines[i])
			if l == "---" {
				lines = lines[i+1:]
				break
			}
			if v, ok := strings.CutPrefix(l, "description:"); ok && strings.TrimSpace(v) != "" {
				out = append(out, Line{File: file, Kind: KindSummary, Text: clip(strings.Trim(strings.TrimSpace(v), `"'`)), Weight: 6, Order: order})
				order++
			}
		}
	}
	for _, raw := range lines {
		l := strings.TrimSpace(raw)
		switch {
		case strings.Contains(l, CairnBegin):
			skip = true
			continue
		case strings.Contains(l, CairnEnd):
			skip = false
			continue
		case skip:
			continue
		case strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~"):
			if fence = !fence; fence {
				lang := strings.ToLower(strings.TrimLeft(l, "`~ "))
				fenceSh = lang == "" || lang == "sh" || lang == "bash" || lang == "shell" || lang == "console" || lang == "zsh"
			}
			continue
		case fence:
			if cmd := strings.TrimPrefix(l, "$ "); fenceSh && l != "" && !strings.HasPrefix(l, "#") && len(l) <= 120 && !strings.Contains(text, "`"+commandOf(cmd)+"`") {
				out = append(out, Line{File: file, Section: section, Kind: KindCommand, Text: cmd, Weight: 3, Order: order})
				order++
			}
			continue
		case l == "" || strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "|---") || strings.HasPrefix(l, "| ---"):
			continue
		}
		if h, ok := heading(l); ok {
			section = h
			out = append(out, Line{File: file, Kind: KindHeading, Text: h, Weight: 4, Order: order})
			order++
			continue
		}
		item := strings.TrimSpace(strings.TrimLeft(l, "-*+> "))
		if n := strings.IndexAny(item, ".)"); n > 0 && n <= 3 && isDigits(item[:n]) {
			item = strings.TrimSpace(item[n+1:])
		}
		if item == "" {
			continue
		}
		w := weight(item, l != item)
		if w == 0 {
			continue
		}
		out = append(out, Line{File: file, Section: section, Kind: KindRule, Text: clip(item), Weight: w, Order: order})
		order++
	}
	return out
}

func heading(l string) (string, bool) {
	if !strings.HasPrefix(l, "#") {
		return "", false
	}
	h := strings.TrimSpace(strings.TrimLeft(l, "#"))
	if h == "" || strings.HasPrefix(l, "#!") {
		return "", false
	}
	return clip(h), true
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// weight scores a line: instructions and commands matter, prose does not.
func weight(item string, listItem bool) int {
	low := strings.ToLower(item)
	w := 0
	for _, word := range ruleWords {
		if strings.Contains(low, word) {
			w += 2
		}
	}
	for _, strong := range []string{"never", "must", "always", "do not", "don't", "important"} {
		if strings.Contains(low, strong) {
			w += 3
		}
	}
	if strings.Contains(item, "`") {
		w++
	}
	if listItem && w > 0 {
		w++
	}
	if w > 0 && len(item) > 300 {
		w-- // a paragraph: clipped, worth less
	}
	return w
}

func clip(s string) string {
	if len(s) <= maxLine {
		return s
	}
	n := maxLine
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return strings.TrimSpace(s[:n]) + "…"
}

// commandOf is a shell line without its trailing comment.
func commandOf(line string) string {
	if i := strings.Index(line, " #"); i > 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}
