// Package jsonpos parses JSON (RFC 8259), and JSON5 when asked, into a tree
// that keeps what the checkers of locale files and design tokens need and
// encoding/json throws away: the byte offset of every key and value, and
// every member of an object in order, repeated keys included (encoding/json
// silently keeps the last one).
//
// In strict mode it accepts exactly what encoding/json accepts (a fuzz test
// holds the two together), except that a leading UTF-8 byte order mark is
// skipped, as Node's require and most loaders of locale files do. Nesting
// is bounded (Options.MaxDepth) and the work is linear in the input.
package jsonpos

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Kind is the kind of a JSON value.
type Kind uint8

// The kinds of values.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Node is one value and where it is.
type Node struct {
	Kind Kind
	// Off and End are the byte offsets of the value's first byte and of
	// the byte after it.
	Off, End int
	// Str is a string's decoded value, a number's literal text ("1e3",
	// and in JSON5 "0x1F", "Infinity"), "true" or "false".
	Str string
	// Members are an object's members in order, repeated keys included.
	Members []Member
	// Elems are an array's elements.
	Elems []*Node
}

// Member is one key and value of an object.
type Member struct {
	Key    string
	KeyOff int // the offset of the key's first byte (its quote, if any)
	Value  *Node
}

// Get returns the value of key as JSON.parse would: the last member with
// that key; nil when there is none or n is not an object.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// Member returns the last member with key, and whether there is one.
func (n *Node) Member(key string) (Member, bool) {
	if n == nil || n.Kind != Object {
		return Member{}, false
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i], true
		}
	}
	return Member{}, false
}

// Float returns a number's value; ok is false for other kinds.
func (n *Node) Float() (f float64, ok bool) {
	if n == nil || n.Kind != Number {
		return 0, false
	}
	s := strings.TrimPrefix(n.Str, "+")
	switch s {
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	case "NaN", "-NaN":
		return math.NaN(), true
	}
	neg := strings.HasPrefix(s, "-")
	if h := strings.TrimPrefix(s, "-"); len(h) > 2 && (h[:2] == "0x" || h[:2] == "0X") {
		u, err := strconv.ParseUint(h[2:], 16, 64)
		if err != nil {
			return 0, false
		}
		if neg {
			return -float64(u), true
		}
		return float64(u), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil || isRange(err)
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// Options say which syntax to read.
type Options struct {
	// JSON5 reads JSON5: comments, trailing commas, unquoted keys,
	// single-quoted strings, hexadecimal numbers, Infinity and NaN.
	JSON5 bool
	// MaxDepth bounds nesting; 0 means DefaultMaxDepth.
	MaxDepth int
}

// DefaultMaxDepth is the nesting a document may have unless Options say
// otherwise: far beyond any real locale or token file, far below what
// could exhaust memory.
const DefaultMaxDepth = 512

// SyntaxError is where and why a document does not parse.
type SyntaxError struct {
	Off int // byte offset of the offending byte
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// Parse parses one JSON (or JSON5) document.
func Parse(b []byte, opt Options) (*Node, error) {
	p := &parser{b: b, json5: opt.JSON5, maxDepth: opt.MaxDepth}
	if p.maxDepth <= 0 {
		p.maxDepth = DefaultMaxDepth
	}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		p.i = 3
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.i >= len(b) {
		return nil, p.errAt(p.i, "the document is empty: expected a value")
	}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.i < len(b) {
		return nil, p.errAt(p.i, "unexpected "+p.describe(p.i)+" after the top-level value")
	}
	return n, nil
}

type parser struct {
	b        []byte
	i        int
	json5    bool
	maxDepth int
	buf      []byte // scratch for decoding strings with escapes
}

func (p *parser) errAt(off int, msg string) error { return &SyntaxError{Off: off, Msg: msg} }

// describe names what is at offset i, for messages.
func (p *parser) describe(i int) string {
	if i >= len(p.b) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.b[i:])
	if r < 0x20 || r == utf8.RuneError {
		return fmt.Sprintf("character %U", r)
	}
	return fmt.Sprintf("character %q", r)
}

// space skips white space, and in JSON5 comments.
func (p *parser) space() error {
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch c {
		case ' ', '\t', '\n', '\r':
			p.i++
			continue
		}
		if !p.json5 {
			return nil
		}
		switch {
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '/':
			for p.i < len(p.b) && p.b[p.i] != '\n' && p.b[p.i] != '\r' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.b) && p.b[p.i+1] == '*':
			end := bytes.Index(p.b[p.i+2:], []byte("*/"))
			if end < 0 {
				return p.errAt(p.i, "a /* comment is not closed")
			}
			p.i += 2 + end + 2
		case c == '\v' || c == '\f':
			p.i++
		case c >= 0x80:
			r, n := utf8.DecodeRune(p.b[p.i:])
			if r == 0xA0 || r == 0xFEFF || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Zs, r) {
				p.i += n
				continue
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value(depth int) (*Node, error) {
	if depth >= p.maxDepth {
		return nil, p.errAt(p.i, fmt.Sprintf("nesting deeper than %d levels", p.maxDepth))
	}
	if p.i >= len(p.b) {
		return nil, p.errAt(p.i, "unexpected end of input: expected a value")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"' || (c == '\'' && p.json5):
		off := p.i
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &Node{Kind: String, Off: off, End: p.i, Str: s}, nil
	case c == '-' || (c >= '0' && c <= '9') || (p.json5 && (c == '+' || c == '.' || c == 'I' || c == 'N')):
		return p.number()
	case c == 't':
		return p.literal("true", Bool)
	case c == 'f':
		return p.literal("false", Bool)
	case c == 'n':
		return p.literal("null", Null)
	}
	return nil, p.errAt(p.i, "unexpected "+p.describe(p.i)+": expected a value")
}

func (p *parser) literal(word string, k Kind) (*Node, error) {
	off := p.i
	if !strings.HasPrefix(string(p.b[p.i:min(len(p.b), p.i+len(word))]), word) {
		return nil, p.errAt(p.i, "unexpected "+p.describe(p.i)+": expected a value")
	}
	p.i += len(word)
	n := &Node{Kind: k, Off: off, End: p.i}
	if k == Bool {
		n.Str = word
	}
	return n, nil
}

func (p *parser) object(depth int) (*Node, error) {
	n := &Node{Kind: Object, Off: p.i}
	p.i++ // {
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.i < len(p.b) && p.b[p.i] == '}' && (len(n.Members) == 0 || p.json5) {
			p.i++
			n.End = p.i
			return n, nil
		}
		keyOff := p.i
		key, err := p.key()
		if err != nil {
			return nil, err
		}
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.errAt(p.i, "unexpected "+p.describe(p.i)+" after object key "+strconv.Quote(clip(key))+": expected ':'")
		}
		p.i++
		if err := p.space(); err != nil {
			return nil, err
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Members = append(n.Members, Member{Key: key, KeyOff: keyOff, Value: v})
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.i >= len(p.b) {
			return nil, p.errAt(p.i, "unexpected end of input: the object at offset "+strconv.Itoa(n.Off)+" is not closed")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			n.End = p.i
			return n, nil
		default:
			return nil, p.errAt(p.i, "unexpected "+p.describe(p.i)+" after the value of "+strconv.Quote(clip(key))+": expected ',' or '}'")
		}
	}
}

func (p *parser) key() (string, error) {
	if p.i >= len(p.b) {
		return "", p.errAt(p.i, "unexpected end of input: expected an object key")
	}
	c := p.b[p.i]
	if c == '"' || (c == '\'' && p.json5) {
		return p.str()
	}
	if p.json5 {
		start := p.i
		for p.i < len(p.b) {
			r, size := utf8.DecodeRune(p.b[p.i:])
			if r == '$' || r == '_' || unicode.IsLetter(r) || (p.i > start && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == 0x200C || r == 0x200D)) {
				p.i += size
				continue
			}
			break
		}
		if p.i > start {
			return string(p.b[start:p.i]), nil
		}
	}
	return "", p.errAt(p.i, "unexpected "+p.describe(p.i)+": expected an object key in double quotes")
}

func (p *parser) array(depth int) (*Node, error) {
	n := &Node{Kind: Array, Off: p.i}
	p.i++ // [
	for {
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.i < len(p.b) && p.b[p.i] == ']' && (len(n.Elems) == 0 || p.json5) {
			p.i++
			n.End = p.i
			return n, nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Elems = append(n.Elems, v)
		if err := p.space(); err != nil {
			return nil, err
		}
		if p.i >= len(p.b) {
			return nil, p.errAt(p.i, "unexpected end of input: the array at offset "+strconv.Itoa(n.Off)+" is not closed")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			n.End = p.i
			return n, nil
		default:
			return nil, p.errAt(p.i, "unexpected "+p.describe(p.i)+" after an array element: expected ',' or ']'")
		}
	}
}

// str reads a quoted string at p.i and decodes it.
func (p *parser) str() (string, error) {
	q := p.b[p.i]
	start := p.i
	p.i++
	// Fast path: no escapes.
	j := p.i
	for j < len(p.b) && p.b[j] != q && p.b[j] != '\\' && p.b[j] >= 0x20 {
		j++
	}
	if j < len(p.b) && p.b[j] == q {
		s := validString(p.b[p.i:j])
		p.i = j + 1
		return s, nil
	}
	buf := append(p.buf[:0], p.b[p.i:j]...)
	p.i = j
	for {
		if p.i >= len(p.b) {
			return "", p.errAt(start, "a string is not closed")
		}
		c := p.b[p.i]
		switch {
		case c == q:
			p.i++
			p.buf = buf
			return validString(buf), nil
		case c == '\\':
			var err error
			buf, err = p.escape(buf)
			if err != nil {
				return "", err
			}
		case c < 0x20 && !(p.json5 && c != '\n' && c != '\r'):
			if c == '\n' || c == '\r' {
				return "", p.errAt(p.i, "a string is not closed before the end of the line")
			}
			return "", p.errAt(p.i, fmt.Sprintf("control character %U in a string: escape it", rune(c)))
		default:
			buf = append(buf, c)
			p.i++
		}
	}
}

// validString is b as a string, each byte of an invalid UTF-8 sequence
// replaced by U+FFFD, as encoding/json decodes it.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out = utf8.AppendRune(out, r)
		b = b[n:]
	}
	return string(out)
}

func (p *parser) escape(buf []byte) ([]byte, error) {
	at := p.i
	p.i++ // backslash
	if p.i >= len(p.b) {
		return nil, p.errAt(at, "a string is not closed")
	}
	c := p.b[p.i]
	p.i++
	switch c {
	case '"', '\\', '/':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		r, ok := p.hex(4)
		if !ok {
			return nil, p.errAt(at, `invalid \u escape: want four hexadecimal digits`)
		}
		if utf16.IsSurrogate(r) {
			// A high surrogate followed by \u and a low one is one rune;
			// anything else is U+FFFD, as encoding/json decodes it.
			if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
				save := p.i
				p.i += 2
				if r2, ok := p.hex(4); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						return utf8.AppendRune(buf, d), nil
					}
				}
				p.i = save
			}
			return utf8.AppendRune(buf, utf8.RuneError), nil
		}
		return utf8.AppendRune(buf, r), nil
	}
	if p.json5 {
		switch c {
		case '\'':
			return append(buf, '\''), nil
		case 'v':
			return append(buf, '\v'), nil
		case '0':
			if p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
				return nil, p.errAt(at, `invalid escape \0 followed by a digit`)
			}
			return append(buf, 0), nil
		case 'x':
			r, ok := p.hex(2)
			if !ok {
				return nil, p.errAt(at, `invalid \x escape: want two hexadecimal digits`)
			}
			return utf8.AppendRune(buf, r), nil
		case '\n':
			return buf, nil
		case '\r':
			if p.i < len(p.b) && p.b[p.i] == '\n' {
				p.i++
			}
			return buf, nil
		}
		if c >= '1' && c <= '9' {
			return nil, p.errAt(at, fmt.Sprintf(`invalid escape \%c`, c))
		}
		// Any other character escapes itself (ECMAScript NonEscapeCharacter).
		p.i--
		r, n := utf8.DecodeRune(p.b[p.i:])
		p.i += n
		if r == 0x2028 || r == 0x2029 {
			return buf, nil
		}
		return utf8.AppendRune(buf, r), nil
	}
	return nil, p.errAt(at, fmt.Sprintf(`invalid escape \%s in a string`, string(rune(c))))
}

func (p *parser) hex(n int) (rune, bool) {
	if p.i+n > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+n] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	p.i += n
	return r, true
}

func (p *parser) number() (*Node, error) {
	off := p.i
	digits := func() int {
		s := p.i
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
		}
		return p.i - s
	}
	bad := func() (*Node, error) {
		return nil, p.errAt(off, "invalid number "+strconv.Quote(clip(string(p.b[off:min(len(p.b), max(p.i+1, off+1))]))))
	}
	if p.json5 {
		if p.b[p.i] == '+' || p.b[p.i] == '-' {
			p.i++
		}
		rest := string(p.b[p.i:min(len(p.b), p.i+8)])
		switch {
		case strings.HasPrefix(rest, "Infinity"):
			p.i += 8
			return &Node{Kind: Number, Off: off, End: p.i, Str: string(p.b[off:p.i])}, nil
		case strings.HasPrefix(rest, "NaN"):
			p.i += 3
			return &Node{Kind: Number, Off: off, End: p.i, Str: string(p.b[off:p.i])}, nil
		case strings.HasPrefix(rest, "0x") || strings.HasPrefix(rest, "0X"):
			p.i += 2
			s := p.i
			for p.i < len(p.b) && isHex(p.b[p.i]) {
				p.i++
			}
			if p.i == s {
				return bad()
			}
			return &Node{Kind: Number, Off: off, End: p.i, Str: string(p.b[off:p.i])}, nil
		}
		intDigits := 0
		if p.i < len(p.b) && p.b[p.i] == '0' {
			p.i++
			intDigits = 1
		} else {
			intDigits = digits()
		}
		frac := 0
		if p.i < len(p.b) && p.b[p.i] == '.' {
			p.i++
			frac = digits()
		}
		if intDigits == 0 && frac == 0 {
			return bad()
		}
		if err := p.exponent(); err != nil {
			return bad()
		}
		return &Node{Kind: Number, Off: off, End: p.i, Str: string(p.b[off:p.i])}, nil
	}
	if p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.i < len(p.b) && p.b[p.i] >= '1' && p.b[p.i] <= '9':
		digits()
	default:
		return bad()
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return bad()
		}
	}
	if err := p.exponent(); err != nil {
		return bad()
	}
	return &Node{Kind: Number, Off: off, End: p.i, Str: string(p.b[off:p.i])}, nil
}

func (p *parser) exponent() error {
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		s := p.i
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
		}
		if p.i == s {
			return fmt.Errorf("no exponent digits")
		}
	}
	return nil
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) <= 60 {
		return s
	}
	i := 57
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// Lines turns byte offsets into 1-based lines and columns (columns count
// bytes, as check.Finding's do).
type Lines struct{ starts []int }

// NewLines indexes the line starts of b.
func NewLines(b []byte) *Lines {
	starts := make([]int, 1, 64)
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Lines{starts}
}

// Pos returns the line and column of offset off.
func (l *Lines) Pos(off int) (line, col int) {
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return i + 1, off - l.starts[i] + 1
}

// Line returns the line of offset off.
func (l *Lines) Line(off int) int {
	line, _ := l.Pos(off)
	return line
}
