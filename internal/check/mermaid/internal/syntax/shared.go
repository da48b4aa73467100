package syntax

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// IndexByteFrom is the index of the first c at or after i, or len(t).
func IndexByteFrom(t string, i int, c byte) int {
	if j := strings.IndexByte(t[i:], c); j >= 0 {
		return i + j
	}
	return len(t)
}

// NewlineRunEnd matches \s*(\r?\n)+ at i: white space ending in line
// breaks; 0 for none.
func NewlineRunEnd(t string, i int) int {
	j := SkipJSSpace(t, i)
	nl := strings.LastIndexByte(t[i:j], '\n')
	if nl < 0 {
		return 0
	}
	return i + nl + 1
}

// NewlineRunFrom skips (\r?\n)* at i.
func NewlineRunFrom(t string, i int) int {
	for i < len(t) && (t[i] == '\n' || t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n') {
		i++
	}
	return i
}

func QuoteShort(s string) string { return `"` + shorten(s) + `"` }

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

type FlowRef struct {
	ID   string
	At   Token
	Verb string
}

type ShapeData struct {
	Text     string
	From, To int
}

// SplitIDs splits "a,b" as Mermaid does for class and classDef, keeping
// each part's position.
func SplitIDs(t Token) []Token {
	var out []Token
	from := t.From
	for _, part := range strings.Split(t.Val, ",") {
		if part != "" {
			out = append(out, Token{Kind: t.Kind, Val: part, From: from, To: from + len(part)})
		}
		from += len(part) + 1
	}
	return out
}

// ParseMetadata parses an @{ ... } block's YAML as Mermaid does (js-yaml,
// wrapped in braces when on one line), reporting an error in it.
func ParseMetadata(d *Diagram, code Src, s ShapeData) (*yaml.Node, bool) {
	text := s.Text
	if !strings.Contains(text, "\n") {
		text = "{\n" + text + "\n}"
	} else {
		text += "\n"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		_, msg := YamlErrorLine(err)
		if yamlStricter(msg, s.Text) {
			return nil, false
		}
		d.Report(RuleSyntax, code, s.From, s.To-1, "the @{ ... } data is not valid YAML: "+msg,
			"write it as key: value pairs separated by commas, quoting values that hold : or #: A@{ shape: rect, label: \"a: b\" }")
		return nil, false
	}
	if k := DuplicateKey(&doc, 0); k != nil {
		d.Report(RuleSyntax, code, s.From, s.To-1, fmt.Sprintf("the @{ ... } data has the key %q twice, which Mermaid's YAML reader refuses", k.Value),
			"keep one of the two keys")
		return nil, false
	}
	return &doc, true
}

// NearestHint suggests the known name closest to s, if one is close.
func NearestHint(s string, known map[string]bool) string {
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
	return fmt.Sprintf(" (did you mean %s?)", QuoteShort(best))
}

func NearestHintTokens(s string, known map[string]Token) string {
	m := make(map[string]bool, len(known))
	for k := range known {
		m[k] = true
	}
	return NearestHint(s, m)
}

type FlowState uint8

// AccKeyword matches accTitle\s*:\s*, accDescr\s*:\s* and accDescr\s*{\s*.
func AccKeyword(t string, i int, fold bool) (kind string, end int, st FlowState) {
	if HasPrefixAt(t, i, "accTitle", fold) {
		j := SkipJSSpace(t, i+8)
		if j < len(t) && t[j] == ':' {
			return "acc_title", SkipJSSpace(t, j+1), FsAccTitle
		}
		return "", 0, 0
	}
	if HasPrefixAt(t, i, "accDescr", fold) {
		j := SkipJSSpace(t, i+8)
		if j < len(t) && t[j] == ':' {
			return "acc_descr", SkipJSSpace(t, j+1), FsAccDescr
		}
		if j < len(t) && t[j] == '{' {
			return "acc_descr_multiline", SkipJSSpace(t, j+1), FsAccDescrMulti
		}
	}
	return "", 0, 0
}

// IsUnicodeText is the lexers' UNICODE_TEXT class: a letter outside ASCII,
// in the Basic Multilingual Plane.
func IsUnicodeText(r rune) bool {
	return r > 0x7f && r <= 0xffff && r != 0xfffd && unicode.IsLetter(r)
}

// NewlinesEnd matches (\r?\n)+ at i.
func NewlinesEnd(t string, i int) int {
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

// BreakLines replaces each line break and the white space after it by
// <br/>, as the lexer does inside a quoted shape data value.
func BreakLines(s string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\n' {
			b.WriteString("<br/>")
			i = SkipJSSpace(s, i+1)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// DirectionLines caches, for the line being lexed, where the rule
// .*direction\s+XX[^\n]* would match for each direction.
type DirectionLines struct {
	from, to int    // the part of the line scanned
	last     [5]int // the last "direction" before each direction, -1 for none
	end      [5]int
	valid    bool
}

// KeywordLine matches kw\s[stop-excluded]+ at i.
func KeywordLine(t string, i int, kw, stop string) int {
	if !HasPrefixAt(t, i, kw, true) || i+len(kw) >= len(t) {
		return 0
	}
	r, n := DecodeRune(t, i+len(kw))
	if !IsJSSpace(r) {
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

// Unquote removes a STRING's quotes and backslash escapes.
func Unquote(s string) string {
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

// YamlErrorLine splits "yaml: line 3: did not find..." into 3 and the rest.
func YamlErrorLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		if i := strings.Index(msg, ": "); i >= 0 {
			msg = msg[i+2:]
		}
	}
	return line, msg
}

// DuplicateKey finds a key given twice in one mapping, as js-yaml (which
// refuses that) would; depth bounds the walk.
func DuplicateKey(n *yaml.Node, depth int) *yaml.Node {
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
		if k := DuplicateKey(c, depth+1); k != nil {
			return k
		}
	}
	return nil
}

func CharIn(chars string) func(string, int) int {
	return func(t string, i int) int {
		if strings.IndexByte(chars, t[i]) >= 0 {
			return i + 1
		}
		return -1
	}
}

func RunOf(chars string) func(string, int) int {
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

func RunOfWord(t string, i int) int {
	j := i
	for j < len(t) && IsWordByte(t[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func DigitsAt(t string, i, n int) bool {
	if i+n > len(t) {
		return false
	}
	for k := i; k < i+n; k++ {
		if !IsDigit(t[k]) {
			return false
		}
	}
	return true
}

// maxNesting bounds how deeply blocks may nest before a parser gives up.
const maxNesting = 500
const (
	FsInitial FlowState = iota
	FsString
	FsMdString
	FsAccTitle
	FsAccDescr
	FsAccDescrMulti
	FsDir
	FsText
	FsEllipseText
	FsTrapText
	FsEdgeText
	FsThickEdgeText
	FsDottedEdgeText
	FsClick
	FsCallbackName
	FsCallbackArgs
	FsShapeData
	FsShapeDataStr
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

var directionNames = [5]string{"TB", "BT", "RL", "LR", "TD"}
var directionKinds = [5]string{"direction_tb", "direction_bt", "direction_rl", "direction_lr", "direction_td"}

// Match returns the token kind and end of a direction statement lexed at
// i, or "".
func (c *DirectionLines) Match(t string, i int) (string, int) {
	if !c.valid || i < c.from || i > c.to {
		c.scan(t, i)
	}
	for k := range directionNames {
		if c.last[k] >= i {
			return directionKinds[k], c.end[k]
		}
	}
	return "", 0
}

func (c *DirectionLines) scan(t string, i int) {
	c.valid, c.from, c.to = true, i, LineEnd(t, i)
	for k := range c.last {
		c.last[k] = -1
	}
	line := t[i:c.to]
	for off := 0; ; {
		p := strings.Index(line[off:], "direction")
		if p < 0 {
			return
		}
		p += off
		q := SkipJSSpace(t, i+p+9)
		if q > i+p+9 {
			for k, d := range directionNames {
				if strings.HasPrefix(t[q:], d) {
					c.last[k], c.end[k] = i+p, LineEnd(t, q)
				}
			}
		}
		off = p + 1
	}
}
