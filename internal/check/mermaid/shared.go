package mermaid

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// indexByteFrom is the index of the first c at or after i, or len(t).
func indexByteFrom(t string, i int, c byte) int {
	if j := strings.IndexByte(t[i:], c); j >= 0 {
		return i + j
	}
	return len(t)
}

// newlineRunEnd matches \s*(\r?\n)+ at i: white space ending in line
// breaks; 0 for none.
func newlineRunEnd(t string, i int) int {
	j := skipJSSpace(t, i)
	nl := strings.LastIndexByte(t[i:j], '\n')
	if nl < 0 {
		return 0
	}
	return i + nl + 1
}

// newlineRunFrom skips (\r?\n)* at i.
func newlineRunFrom(t string, i int) int {
	for i < len(t) && (t[i] == '\n' || t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n') {
		i++
	}
	return i
}

func quoteShort(s string) string { return `"` + shorten(s) + `"` }

// shorten cuts s to about 40 bytes, at a character boundary.
func shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

type flowRef struct {
	id   string
	at   token
	verb string
}

type shapeData struct {
	text     string
	from, to int
}

// splitIDs splits "a,b" as Mermaid does for class and classDef, keeping
// each part's position.
func splitIDs(t token) []token {
	var out []token
	from := t.from
	for _, part := range strings.Split(t.val, ",") {
		if part != "" {
			out = append(out, token{kind: t.kind, val: part, from: from, to: from + len(part)})
		}
		from += len(part) + 1
	}
	return out
}

// parseMetadata parses an @{ ... } block's YAML as Mermaid does (js-yaml,
// wrapped in braces when on one line), reporting an error in it.
func parseMetadata(d *diagram, code src, s shapeData) (*yaml.Node, bool) {
	text := s.text
	if !strings.Contains(text, "\n") {
		text = "{\n" + text + "\n}"
	} else {
		text += "\n"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		_, msg := yamlErrorLine(err)
		if yamlStricter(msg, s.text) {
			return nil, false
		}
		d.report(ruleSyntax, code, s.from, s.to-1, "the @{ ... } data is not valid YAML: "+msg,
			"write it as key: value pairs separated by commas, quoting values that hold : or #: A@{ shape: rect, label: \"a: b\" }")
		return nil, false
	}
	if k := duplicateKey(&doc, 0); k != nil {
		d.report(ruleSyntax, code, s.from, s.to-1, fmt.Sprintf("the @{ ... } data has the key %q twice, which Mermaid's YAML reader refuses", k.Value),
			"keep one of the two keys")
		return nil, false
	}
	return &doc, true
}

// nearestHint suggests the known name closest to s, if one is close.
func nearestHint(s string, known map[string]bool) string {
	best, bestD := "", 3
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if d := editDistance(strings.ToLower(s), strings.ToLower(k), bestD); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || best == s {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", quoteShort(best))
}

func nearestHintTokens(s string, known map[string]token) string {
	m := make(map[string]bool, len(known))
	for k := range known {
		m[k] = true
	}
	return nearestHint(s, m)
}

type flowState uint8

// accKeyword matches accTitle\s*:\s*, accDescr\s*:\s* and accDescr\s*{\s*.
func accKeyword(t string, i int, fold bool) (kind string, end int, st flowState) {
	if hasPrefixAt(t, i, "accTitle", fold) {
		j := skipJSSpace(t, i+8)
		if j < len(t) && t[j] == ':' {
			return "acc_title", skipJSSpace(t, j+1), fsAccTitle
		}
		return "", 0, 0
	}
	if hasPrefixAt(t, i, "accDescr", fold) {
		j := skipJSSpace(t, i+8)
		if j < len(t) && t[j] == ':' {
			return "acc_descr", skipJSSpace(t, j+1), fsAccDescr
		}
		if j < len(t) && t[j] == '{' {
			return "acc_descr_multiline", skipJSSpace(t, j+1), fsAccDescrMulti
		}
	}
	return "", 0, 0
}

// isUnicodeText is the lexers' UNICODE_TEXT class: a letter outside ASCII,
// in the Basic Multilingual Plane.
func isUnicodeText(r rune) bool {
	return r > 0x7f && r <= 0xffff && r != 0xfffd && unicode.IsLetter(r)
}

// newlinesEnd matches (\r?\n)+ at i.
func newlinesEnd(t string, i int) int {
	j := i
	for j < len(t) {
		if t[j] == '\n' {
			j++
		} else if t[j] == '\r' && j+1 < len(t) && t[j+1] == '\n' {
			j += 2
		} else {
			break
		}
	}
	return j
}

// breakLines replaces each line break and the white space after it by
// <br/>, as the lexer does inside a quoted shape data value.
func breakLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\n' {
			b.WriteString("<br/>")
			i = skipJSSpace(s, i+1)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// directionLines caches, for the line being lexed, where the rule
// .*direction\s+XX[^\n]* would match for each direction.
type directionLines struct {
	from, to int    // the part of the line scanned
	last     [5]int // the last "direction" before each direction, -1 for none
	end      [5]int
	valid    bool
}

// keywordLine matches kw\s[stop-excluded]+ at i.
func keywordLine(t string, i int, kw, stop string) int {
	if !hasPrefixAt(t, i, kw, true) || i+len(kw) >= len(t) {
		return 0
	}
	r, n := decodeRune(t, i+len(kw))
	if !isJSSpace(r) {
		return 0
	}
	j := i + len(kw) + n
	k := j
	for k < len(t) && strings.IndexByte(stop, t[k]) < 0 {
		k++
	}
	if k == j {
		return 0
	}
	return k
}

// unquote removes a STRING's quotes and backslash escapes.
func unquote(s string) string {
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// yamlErrorLine splits "yaml: line 3: did not find..." into 3 and the rest.
func yamlErrorLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	}
	return line, msg
}

// duplicateKey finds a key given twice in one mapping, as js-yaml (which
// refuses that) would; depth bounds the walk.
func duplicateKey(n *yaml.Node, depth int) *yaml.Node {
	if n == nil || depth > 100 {
		return nil
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.ScalarNode && k.Value != "<<" {
				if seen[k.Value] {
					return k
				}
				seen[k.Value] = true
			}
		}
	}
	if n.Kind == yaml.AliasNode {
		return nil
	}
	for _, c := range n.Content {
		if k := duplicateKey(c, depth+1); k != nil {
			return k
		}
	}
	return nil
}

func charIn(chars string) func(string, int) int {
	return func(t string, i int) int {
		if strings.IndexByte(chars, t[i]) >= 0 {
			return i + 1
		}
		return -1
	}
}

func runOf(chars string) func(string, int) int {
	return func(t string, i int) int {
		j := i
		for j < len(t) && strings.IndexByte(chars, t[j]) >= 0 {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

func runOfWord(t string, i int) int {
	j := i
	for j < len(t) && isWordByte(t[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func digitsAt(t string, i, n int) bool {
	if i+n > len(t) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !isDigit(t[k]) {
			return false
		}
	}
	return true
}

// maxNesting bounds how deeply blocks may nest before a parser gives up.
const maxNesting = 500
const (
	fsInitial flowState = iota
	fsString
	fsMdString
	fsAccTitle
	fsAccDescr
	fsAccDescrMulti
	fsDir
	fsText
	fsEllipseText
	fsTrapText
	fsEdgeText
	fsThickEdgeText
	fsDottedEdgeText
	fsClick
	fsCallbackName
	fsCallbackArgs
	fsShapeData
	fsShapeDataStr
)

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit (long strings are not compared).
func editDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// yamlStricter reports a YAML error that go-yaml gives where Mermaid's
// js-yaml (YAML 1.2) may accept the text: plain scalars that start with
// ":" or hold "?" in a flow mapping.
func yamlStricter(msg, text string) bool {
	if !strings.Contains(msg, "did not find expected node content") &&
		!strings.Contains(msg, "did not find expected ',' or '}'") {
		return false
	}
	if strings.Contains(text, "?") {
		return true
	}
	for i := 0; i+1 < len(text); i++ {
		if text[i] == ':' && (i == 0 || text[i-1] == ' ' || text[i-1] == ',' || text[i-1] == ':') && text[i+1] != ' ' {
			return true
		}
	}
	return false
}
