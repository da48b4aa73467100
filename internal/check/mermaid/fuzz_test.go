package mermaid

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheckFile feeds the parsers arbitrary text, seeded with the corpus:
// no panic, and every finding inside the text.
func FuzzCheckFile(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*.mmd"))
	more, _ := filepath.Glob(filepath.Join("testdata", "corpus", "*", "*", "*.mmd"))
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil && len(b) < 8192 {
			f.Add(string(b), false)
		}
	}
	f.Add("```mermaid\nflowchart TD\nA-->B\n```\n", true)
	f.Fuzz(func(t *testing.T, content string, markdown bool) {
		name := "f.mmd"
		if markdown {
			name = "f.md"
		}
		fc := checkFile(name, content)
		lines := strings.Count(content, "\n") + 1
		for _, fd := range fc.Findings {
			if fd.Line < 0 || fd.Line > lines+1 || fd.Message == "" || !utf8.ValidString(fd.Message) && utf8.ValidString(content) {
				t.Fatalf("bad finding %+v for %q", fd, content)
			}
		}
	})
}
