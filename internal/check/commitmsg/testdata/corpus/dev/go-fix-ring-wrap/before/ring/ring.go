// Package ring is a fixed-size ring buffer of log lines.
package ring

// Buffer keeps the last N lines.
type Buffer struct {
	lines []string
	next  int
	full  bool
}

// New returns a buffer of n lines.
func New(n int) *Buffer { return &Buffer{lines: make([]string, n)} }

// Add appends a line, dropping the oldest when full.
func (b *Buffer) Add(line string) {
	b.lines[b.next] = line
	b.next++
	if b.next > len(b.lines) {
		b.next = 0
		b.full = true
	}
}

// Lines returns the lines, oldest first.
func (b *Buffer) Lines() []string {
	if !b.full {
		return append([]string(nil), b.lines[:b.next]...)
	}
	return append(append([]string(nil), b.lines[b.next:]...), b.lines[:b.next]...)
}
