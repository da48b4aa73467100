package memory

import (
	"regexp"
	"sync"
)

// A lazyRegexp is compiled on first use. The package has many
// patterns (error text, fingerprint blurs); compiling them at init made
// every process start, `cairn serve` answering initialize included, pay
// about a millisecond for patterns most sessions never use.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// lazyRE returns a pattern compiled when first used; a bad pattern panics
// then, and TestPatternsCompile compiles every one.
func lazyRE(src string) *lazyRegexp { return &lazyRegexp{src: src} }

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRegexp) ReplaceAllString(s, repl string) string {
	return l.get().ReplaceAllString(s, repl)
}

func (l *lazyRegexp) ReplaceAllStringFunc(s string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(s, repl)
}

func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}

func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}

func (l *lazyRegexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }

func (l *lazyRegexp) FindString(s string) string { return l.get().FindString(s) }

func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
