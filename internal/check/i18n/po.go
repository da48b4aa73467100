package i18n

import (
	"fmt"
	"strconv"
	"strings"
)

// A GNU gettext PO/POT parser, as msgfmt reads them: comments (translator
// "# ", extracted "#.", references "#:", flags "#,", previous "#|"),
// msgctxt, msgid, msgid_plural, msgstr and msgstr[N], each a C string
// continued over following lines; obsolete entries ("#~") are read and
// kept apart.

// poEntry is one message of a catalog.
type poEntry struct {
	Ctxt        *string // nil: no msgctxt (distinct from an empty one)
	ID          string
	IDPlural    string
	HasPlural   bool
	Str         []string // msgstr, or msgstr[0..n]
	Flags       []string // from "#," lines: fuzzy, c-format, ...
	Obsolete    bool
	Line        int // the line of msgid
	StrLine     int // the line of the first msgstr
	StrLines    []int
	ctxtLine    int
	lastKeyword string
}

func (e *poEntry) key() string {
	if e.Ctxt == nil {
		return e.ID
	}
	return *e.Ctxt + "\x04" + e.ID
}

func (e *poEntry) hasFlag(f string) bool {
	for _, x := range e.Flags {
		if x == f {
			return true
		}
	}
	return false
}

// display names the entry in a message: msgid "Open" (msgctxt "menu").
func (e *poEntry) display() string {
	s := "msgid " + strconv.Quote(clipText(e.ID))
	if e.Ctxt != nil {
		s += " (msgctxt " + strconv.Quote(clipText(*e.Ctxt)) + ")"
	}
	return s
}

// translated reports whether any msgstr is non-empty.
func (e *poEntry) translated() bool {
	for _, s := range e.Str {
		if s != "" {
			return true
		}
	}
	return false
}

// poFile is a parsed catalog.
type poFile struct {
	Entries []*poEntry // the header (msgid "") included, obsolete ones too
	Header  map[string]string
	// NPlurals is the header's Plural-Forms nplurals, 0 when absent.
	NPlurals   int
	PluralLine int
}

// poError is a line a catalog does not parse at.
type poError struct {
	Line, Col int
	Msg       string
}

// parsePO parses a catalog. It stops at the first error, as msgfmt does,
// and returns what it read until then.
func parsePO(src string) (*poFile, *poError) {
	f := &poFile{}
	var cur *poEntry
	var flags []string
	pending := false // comments or flags are waiting for their entry
	finish := func() {
		if cur != nil {
			f.Entries = append(f.Entries, cur)
			cur = nil
		}
	}
	lines := strings.Split(src, "\n")
	for n, raw := range lines {
		line := strings.TrimRight(raw, "\r")
		ln := n + 1
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" {
			continue
		}
		obsolete := false
		if strings.HasPrefix(trimmed, "#~") {
			rest := strings.TrimLeft(trimmed[2:], " \t")
			if strings.HasPrefix(rest, "|") || rest == "" {
				continue // a previous msgid of an obsolete entry, or nothing
			}
			obsolete, trimmed = true, rest
		} else if trimmed[0] == '#' {
			if strings.HasPrefix(trimmed, "#,") {
				for _, fl := range strings.Split(trimmed[2:], ",") {
					if fl = strings.TrimSpace(fl); fl != "" {
						flags = append(flags, fl)
					}
				}
			}
			if cur != nil && cur.Str != nil {
				finish()
			}
			pending = true
			continue
		}
		col := len(line) - len(trimmed) + 1
		if trimmed[0] == '"' {
			if cur == nil || cur.lastKeyword == "" {
				return f, &poError{ln, col, "a string continuation line with no keyword before it"}
			}
			s, err := poString(trimmed)
			if err != "" {
				return f, &poError{ln, col, err}
			}
			cur.appendTo(s)
			continue
		}
		kw, rest := trimmed, ""
		if i := strings.IndexAny(trimmed, " \t\""); i >= 0 {
			kw, rest = trimmed[:i], strings.TrimLeft(trimmed[i:], " \t")
		}
		if rest == "" || rest[0] != '"' {
			if !isPOKeyword(kw) {
				return f, &poError{ln, col, "unknown keyword " + strconv.Quote(clipText(kw)) + ": expected msgctxt, msgid, msgid_plural or msgstr"}
			}
			return f, &poError{ln, col, kw + " needs a string in double quotes"}
		}
		s, err := poString(rest)
		if err != "" {
			return f, &poError{ln, len(line) - len(rest) + 1, err}
		}
		switch {
		case kw == "msgctxt":
			if cur != nil && cur.Str != nil || cur != nil && cur.lastKeyword == "msgid" {
				finish()
			}
			if cur == nil {
				cur = &poEntry{}
			}
			ctx := s
			cur.Ctxt, cur.ctxtLine, cur.lastKeyword = &ctx, ln, "msgctxt"
		case kw == "msgid":
			if cur != nil && (cur.Str != nil || cur.lastKeyword == "msgid") {
				finish()
			}
			if cur == nil {
				cur = &poEntry{}
			}
			cur.ID, cur.Line, cur.lastKeyword = s, ln, "msgid"
		case kw == "msgid_plural":
			if cur == nil || cur.lastKeyword != "msgid" {
				return f, &poError{ln, col, "msgid_plural must follow a msgid"}
			}
			cur.IDPlural, cur.HasPlural, cur.lastKeyword = s, true, "msgid_plural"
		case kw == "msgstr":
			if cur == nil || cur.lastKeyword != "msgid" {
				if cur != nil && cur.HasPlural {
					return f, &poError{ln, col, "an entry with msgid_plural needs msgstr[0], msgstr[1]…, not msgstr"}
				}
				return f, &poError{ln, col, "msgstr must follow a msgid"}
			}
			cur.Str, cur.StrLine, cur.StrLines, cur.lastKeyword = []string{s}, ln, []int{ln}, "msgstr"
		case strings.HasPrefix(kw, "msgstr[") && strings.HasSuffix(kw, "]"):
			idx, err := strconv.Atoi(kw[len("msgstr[") : len(kw)-1])
			if err != nil || idx < 0 {
				return f, &poError{ln, col, "bad plural index in " + kw}
			}
			if cur == nil || !cur.HasPlural {
				return f, &poError{ln, col, kw + " without a msgid_plural: use msgstr for a message without plural forms"}
			}
			if idx != len(cur.Str) {
				return f, &poError{ln, col, fmt.Sprintf("%s out of order: expected msgstr[%d]", kw, len(cur.Str))}
			}
			if cur.Str == nil {
				cur.StrLine = ln
			}
			cur.Str = append(cur.Str, s)
			cur.StrLines = append(cur.StrLines, ln)
			cur.lastKeyword = "msgstr"
		default:
			return f, &poError{ln, col, "unknown keyword " + strconv.Quote(clipText(kw)) + ": expected msgctxt, msgid, msgid_plural or msgstr"}
		}
		cur.Obsolete = obsolete
		if pending || flags != nil {
			if cur.Flags == nil {
				cur.Flags = flags
			}
			flags, pending = nil, false
		}
	}
	if cur != nil && cur.Str == nil {
		return f, &poError{cur.Line, 1, "the entry " + cur.display() + " has no msgstr"}
	}
	finish()
	f.readHeader()
	return f, nil
}

func isPOKeyword(kw string) bool {
	switch kw {
	case "msgctxt", "msgid", "msgid_plural", "msgstr":
		return true
	}
	return strings.HasPrefix(kw, "msgstr[")
}

func (e *poEntry) appendTo(s string) {
	switch e.lastKeyword {
	case "msgctxt":
		c := *e.Ctxt + s
		e.Ctxt = &c
	case "msgid":
		e.ID += s
	case "msgid_plural":
		e.IDPlural += s
	case "msgstr":
		e.Str[len(e.Str)-1] += s
	}
}

// poString decodes one C string literal that must fill the rest of the
// line; it returns a message on error.
func poString(s string) (string, string) {
	if s == "" || s[0] != '"' {
		return "", "expected a string in double quotes"
	}
	var b strings.Builder
	i := 1
	for ; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", "a string ends in a backslash"
		}
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '\\', '"', '\'', '?':
			b.WriteByte(e)
		case 'x':
			j := i + 1
			v := 0
			for j < len(s) && j < i+3 && isHexByte(s[j]) {
				v = v*16 + hexVal(s[j])
				j++
			}
			if j == i+1 {
				return "", `\x needs hexadecimal digits`
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			if e >= '0' && e <= '7' {
				j, v := i, 0
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					v = v*8 + int(s[j]-'0')
					j++
				}
				b.WriteByte(byte(v))
				i = j - 1
				continue
			}
			return "", fmt.Sprintf(`invalid escape \%c in a string`, e)
		}
	}
	if i >= len(s) {
		return "", "a string is not closed on its line"
	}
	if rest := strings.TrimSpace(s[i+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
		return "", "unexpected text after the string: " + strconv.Quote(clipText(rest))
	}
	return b.String(), ""
}

func isHexByte(c byte) bool {
	return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

func hexVal(c byte) int {
	if c <= '9' {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}

// readHeader reads the header entry's fields and Plural-Forms.
func (f *poFile) readHeader() {
	for _, e := range f.Entries {
		if e.ID != "" || e.Ctxt != nil || e.Obsolete || len(e.Str) == 0 {
			continue
		}
		f.Header = map[string]string{}
		for i, line := range strings.Split(e.Str[0], "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			k = strings.TrimSpace(k)
			f.Header[k] = strings.TrimSpace(v)
			if k == "Plural-Forms" {
				f.PluralLine = e.StrLine + i
				for _, part := range strings.Split(v, ";") {
					if name, val, ok := strings.Cut(strings.TrimSpace(part), "="); ok && strings.TrimSpace(name) == "nplurals" {
						if n, err := strconv.Atoi(strings.TrimSpace(val)); err == nil && n > 0 && n < 100 {
							f.NPlurals = n
						}
					}
				}
			}
		}
		return
	}
}

// poSyntax is the placeholder syntax a PO entry's flags declare, and
// whether it declares one.
func poSyntax(e *poEntry) (syntax, bool) {
	for _, fl := range e.Flags {
		if strings.HasPrefix(fl, "no-") {
			continue
		}
		switch fl {
		case "c-format", "objc-format", "php-format", "javascript-format", "sh-format", "awk-format", "lua-format", "perl-format", "gcc-internal-format", "gfc-internal-format", "object-pascal-format":
			return synPrintf, true
		case "python-format":
			return synPython, true
		case "python-brace-format", "perl-brace-format", "csharp-format":
			return synBrace, true
		case "ruby-format":
			return synRails, true
		case "java-format", "java-printf-format":
			if fl == "java-printf-format" {
				return synPrintf, true
			}
			return synICU, true
		}
	}
	return synNone, false
}

// clipText shortens a key or value for a message.
func clipText(s string) string {
	if len(s) <= 60 {
		return s
	}
	i := 57
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}
