package i18n

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An ICU MessageFormat parser (the syntax of ICU4J/ICU4C, formatjs and
// Flutter's gen-l10n): enough of it to list a message's arguments, check
// that its braces and quotes close, and read the branches of its plural
// and select arguments, nested to any depth the limit allows.
//
//	message  = { text | argument | "#" (inside plural) }
//	argument = "{" name [ "," type [ "," style ] ] "}"
//	plural   = "{" name "," ("plural"|"selectordinal") "," ["offset:" n] { selector "{" message "}" } "}"
//	select   = "{" name "," "select" "," { keyword "{" message "}" } "}"
//
// Apostrophes quote as ICU's default mode does: '' is one apostrophe, and
// an apostrophe before {, }, # (in a plural) or | starts literal text that
// the next lone apostrophe ends.

// icuArg is one argument of a message.
type icuArg struct {
	Name string
	Type string // "", "number", "plural", "select", "selectordinal", ...
	Off  int    // byte offset of its "{"
	// Selectors are a plural or select argument's branch keys, in order
	// ("one", "=0", "other").
	Selectors []string
}

// icuError is where a message does not parse.
type icuError struct {
	Off int
	Msg string
}

func (e *icuError) Error() string { return e.Msg }

// icuMaxDepth bounds the nesting of plural and select arguments.
const icuMaxDepth = 32

type icuParser struct {
	s    string
	i    int
	args []icuArg
}

// parseICU parses a message and returns its arguments in order of
// appearance (nested ones included).
func parseICU(s string) ([]icuArg, error) {
	p := &icuParser{s: s}
	if err := p.message(0, false); err != nil {
		return p.args, err
	}
	if p.i < len(p.s) {
		return p.args, &icuError{p.i, "an unmatched '}'; quote a literal brace as '}'"}
	}
	return p.args, nil
}

// message reads text and arguments until an unmatched "}" or the end.
func (p *icuParser) message(depth int, inPlural bool) error {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case '{':
			if err := p.argument(depth, inPlural); err != nil {
				return err
			}
		case '}':
			return nil
		case '\'':
			p.quote(inPlural)
		default:
			p.i++
		}
	}
	return nil
}

// quote reads an apostrophe at p.i: ” or a quoted literal, or a lone one.
func (p *icuParser) quote(inPlural bool) {
	p.i++
	if p.i >= len(p.s) {
		return
	}
	switch c := p.s[p.i]; {
	case c == '\'':
		p.i++
	case c == '{' || c == '}' || c == '|' || (c == '#' && inPlural):
		// Literal text up to the next lone apostrophe (or the end).
		for p.i < len(p.s) {
			if p.s[p.i] == '\'' {
				if p.i+1 < len(p.s) && p.s[p.i+1] == '\'' {
					p.i += 2
					continue
				}
				p.i++
				return
			}
			p.i++
		}
	}
}

func (p *icuParser) space() {
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !unicode.IsSpace(r) {
			return
		}
		p.i += n
	}
}

// word reads a name: anything up to white space or ICU syntax.
func (p *icuParser) word() string {
	start := p.i
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if unicode.IsSpace(r) || strings.ContainsRune("{},#'", r) {
			break
		}
		p.i += n
	}
	return p.s[start:p.i]
}

func (p *icuParser) argument(depth int, inPlural bool) error {
	open := p.i
	if depth >= icuMaxDepth {
		return &icuError{open, fmt.Sprintf("arguments nested deeper than %d levels", icuMaxDepth)}
	}
	p.i++ // {
	p.space()
	name := p.word()
	if name == "" {
		return &icuError{open, "an argument without a name: '{' must start an argument like {name}; quote a literal brace as '{'"}
	}
	p.space()
	arg := icuArg{Name: name, Off: open}
	if p.i >= len(p.s) {
		return &icuError{open, "the argument {" + name + " is not closed"}
	}
	switch p.s[p.i] {
	case '}':
		p.i++
		p.args = append(p.args, arg)
		return nil
	case ',':
		p.i++
	default:
		return &icuError{p.i, "unexpected " + quoteRune(p.s, p.i) + " in the argument {" + name + "}: expected ',' or '}'"}
	}
	p.space()
	arg.Type = p.word()
	p.space()
	if arg.Type == "" {
		return &icuError{open, "the argument {" + name + ", } has no type"}
	}
	idx := len(p.args)
	p.args = append(p.args, arg)
	switch arg.Type {
	case "plural", "selectordinal", "select":
		if p.i >= len(p.s) || p.s[p.i] != ',' {
			return &icuError{open, "the " + arg.Type + " argument {" + name + "} has no branches: write {" + name + ", " + arg.Type + ", other {…}}"}
		}
		p.i++
		sels, err := p.branches(depth, arg)
		p.args[idx].Selectors = sels
		return err
	}
	// A simple argument: an optional style, up to the matching brace.
	if p.i < len(p.s) && p.s[p.i] == ',' {
		p.i++
		level := 0
		for p.i < len(p.s) {
			switch p.s[p.i] {
			case '\'':
				p.quote(false)
				continue
			case '{':
				level++
			case '}':
				if level == 0 {
					p.i++
					return nil
				}
				level--
			}
			p.i++
		}
		return &icuError{open, "the argument {" + name + ", " + arg.Type + ", … is not closed"}
	}
	if p.i >= len(p.s) || p.s[p.i] != '}' {
		return &icuError{open, "the argument {" + name + ", " + arg.Type + " is not closed"}
	}
	p.i++
	return nil
}

// branches reads the selectors and sub-messages of a plural or select
// argument, up to and including its closing brace.
func (p *icuParser) branches(depth int, arg icuArg) ([]string, error) {
	var sels []string
	plural := arg.Type != "select"
	p.space()
	if plural && strings.HasPrefix(p.s[p.i:], "offset:") {
		p.i += len("offset:")
		p.space()
		if p.word() == "" {
			return sels, &icuError{p.i, "offset: in {" + arg.Name + "} needs a number"}
		}
	}
	for {
		p.space()
		if p.i >= len(p.s) {
			return sels, &icuError{arg.Off, "the " + arg.Type + " argument {" + arg.Name + "} is not closed"}
		}
		if p.s[p.i] == '}' {
			p.i++
			if len(sels) == 0 {
				return sels, &icuError{arg.Off, "the " + arg.Type + " argument {" + arg.Name + "} has no branches"}
			}
			return sels, nil
		}
		selOff := p.i
		sel := p.word()
		if sel == "" {
			return sels, &icuError{p.i, "unexpected " + quoteRune(p.s, p.i) + " in {" + arg.Name + ", " + arg.Type + "}: expected a selector such as one or other"}
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '{' {
			return sels, &icuError{selOff, "the selector " + sel + " in {" + arg.Name + ", " + arg.Type + "} has no {message}"}
		}
		p.i++
		if err := p.message(depth+1, plural); err != nil {
			return sels, err
		}
		if p.i >= len(p.s) {
			return sels, &icuError{selOff, "the " + sel + " branch of {" + arg.Name + "} is not closed"}
		}
		p.i++ // }
		sels = append(sels, sel)
	}
}

func quoteRune(s string, i int) string {
	if i >= len(s) {
		return "end of message"
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return fmt.Sprintf("%q", r)
}

// icuComplex reports whether s has an ICU argument with a type ("{n,
// plural," and the like): a sign the text is ICU MessageFormat rather than
// plain text with braces.
func icuComplex(s string) bool {
	for i := strings.IndexByte(s, '{'); i >= 0 && i < len(s); {
		j := i + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		k := j
		for k < len(s) && (isWordByte(s[k])) {
			k++
		}
		if k > j {
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			if k < len(s) && s[k] == ',' {
				rest := strings.TrimLeft(s[k+1:], " \t")
				for _, t := range []string{"plural", "select", "selectordinal", "number", "date", "time"} {
					if strings.HasPrefix(rest, t) && (len(rest) == len(t) || !isWordByte(rest[len(t)])) {
						return true
					}
				}
			}
		}
		n := strings.IndexByte(s[i+1:], '{')
		if n < 0 {
			break
		}
		i += 1 + n
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}
