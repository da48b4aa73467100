// Package lazyre is a regular expression compiled on first use. Packages
// that every cairn process links (memory, redact) hold many patterns that
// most processes never run; compiling them at init made every start, a
// hook's or `cairn serve` answering initialize, pay for all of them.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a pattern compiled when first used.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// New returns src, to be compiled when first used; a bad pattern panics
// then, so each package that declares patterns compiles them all in a test
// (Compile).
func New(src string) *Regexp { return &Regexp{src: src} }

// Compile compiles the pattern now, if it is not yet, and returns it.
func (l *Regexp) Compile() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *Regexp) MatchString(s string) bool { return l.Compile().MatchString(s) }

func (l *Regexp) ReplaceAllString(s, repl string) string {
	return l.Compile().ReplaceAllString(s, repl)
}

func (l *Regexp) ReplaceAllStringFunc(s string, repl func(string) string) string {
	return l.Compile().ReplaceAllStringFunc(s, repl)
}

func (l *Regexp) FindString(s string) string { return l.Compile().FindString(s) }

func (l *Regexp) FindStringIndex(s string) []int { return l.Compile().FindStringIndex(s) }

func (l *Regexp) FindStringSubmatch(s string) []string { return l.Compile().FindStringSubmatch(s) }

func (l *Regexp) FindStringSubmatchIndex(s string) []int {
	return l.Compile().FindStringSubmatchIndex(s)
}

func (l *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.Compile().FindAllStringSubmatch(s, n)
}

func (l *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.Compile().FindAllStringSubmatchIndex(s, n)
}

// String returns the source text of the pattern.
func (l *Regexp) String() string { return l.src }
