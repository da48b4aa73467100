package i18n

import (
	"strings"
)

// syntax is how a set's messages write their placeholders.
type syntax string

// The placeholder syntaxes the param "syntax" names.
const (
	synAuto    syntax = "auto"    // guessed per message: ICU when it has typed arguments, else every named form below
	synICU     syntax = "icu"     // ICU MessageFormat: {name}, {n, plural, ...}; parse errors are findings
	synI18next syntax = "i18next" // {{name}}, $t(key)
	synPrintf  syntax = "printf"  // %s %d %1$s
	synRails   syntax = "rails"   // %{name} %<name>s
	synPython  syntax = "python"  // %(name)s, %s, and {name}
	synBrace   syntax = "brace"   // {name} {0}, not parsed as ICU
	synChrome  syntax = "chrome"  // $name$ $1 (Chrome's messages.json)
	synNone    syntax = "none"    // placeholders are not compared
)

var syntaxes = []syntax{synAuto, synICU, synI18next, synPrintf, synRails, synPython, synBrace, synChrome, synNone}

// placeholders lists a message's placeholders, each normalized to one
// spelling per syntax ("{name}", "{{name}}", "%1$s"), in order. printf
// says whether printf directives count (in auto mode only when the set
// uses them: "50% off" is no directive). icu parses ICU arguments; its
// error is returned.
func placeholders(syn syntax, s string, printf bool) (out []string, args []icuArg, err error) {
	switch syn {
	case synNone:
		return nil, nil, nil
	case synICU:
		args, err = parseICU(s)
		return icuNames(args), args, err
	case synChrome:
		return chromePlaceholders(s), nil, nil
	case synPrintf:
		return printfArgs(s, true), nil, nil
	case synAuto:
		if icuComplex(s) {
			args, err = parseICU(s)
			if err == nil {
				return icuNames(args), args, nil
			}
			args, err = nil, nil // not ICU after all: read it as text
		}
	}
	return named(syn, s, printf || syn == synPython || syn == synRails), nil, nil
}

func icuNames(args []icuArg) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		out = append(out, "{"+a.Name+"}")
	}
	return out
}

// named finds the named placeholder forms of i18next, Rails, Python and
// plain braces, and printf directives when printf is set.
func named(syn syntax, s string, printf bool) []string {
	var out []string
	brace := syn == synAuto || syn == synBrace || syn == synPython
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{':
			if strings.HasPrefix(s[i:], "{{") {
				if syn == synAuto || syn == synI18next {
					if end := indexWithin(s[i+2:], "}}", 128); end >= 0 {
						inner := strings.TrimSpace(s[i+2 : i+2+end])
						inner = strings.TrimSpace(strings.TrimPrefix(inner, "-"))
						if k := strings.IndexByte(inner, ','); k >= 0 {
							inner = strings.TrimSpace(inner[:k])
						}
						if inner != "" && !strings.ContainsAny(inner, "{} \t\n") {
							out = append(out, "{{"+inner+"}}")
						}
						i += 2 + end + 1
						continue
					}
				}
				if syn == synPython || syn == synBrace {
					i++ // {{ is a literal brace
					continue
				}
			}
			if !brace {
				continue
			}
			end := indexWithin(s[i+1:], "}", 80)
			if end < 0 {
				continue
			}
			inner := s[i+1 : i+1+end]
			if syn == synPython { // {name!r:>10} and {0.attr}
				if k := strings.IndexAny(inner, "!:"); k >= 0 {
					inner = inner[:k]
				}
			}
			if isIdent(inner) {
				out = append(out, "{"+inner+"}")
				i += 1 + end
			}
		case '$':
			if (syn == synAuto || syn == synI18next) && strings.HasPrefix(s[i:], "$t(") {
				end := indexWithin(s[i:], ")", 256)
				if end > 3 {
					ref := s[i+3 : i+end]
					if k := strings.IndexByte(ref, ','); k >= 0 {
						ref = ref[:k]
					}
					out = append(out, "$t("+strings.TrimSpace(ref)+")")
					i += end
				}
			}
		case '%':
			if i+1 >= len(s) {
				continue
			}
			next := s[i+1]
			switch {
			case next == '%':
				i++
			case next == '{' && (syn == synAuto || syn == synRails):
				if end := indexWithin(s[i+2:], "}", 66); end > 0 && isIdent(s[i+2:i+2+end]) {
					out = append(out, "%{"+s[i+2:i+2+end]+"}")
					i += 2 + end
				}
			case next == '<' && (syn == synAuto || syn == synRails):
				if end := indexWithin(s[i+2:], ">", 66); end > 0 && isIdent(s[i+2:i+2+end]) {
					out = append(out, "%<"+s[i+2:i+2+end]+">")
					i += 2 + end
				}
			case next == '(' && (syn == synAuto || syn == synPython):
				if end := indexWithin(s[i+2:], ")", 66); end > 0 && isIdent(s[i+2:i+2+end]) {
					out = append(out, "%("+s[i+2:i+2+end]+")")
					i += 2 + end
				}
			}
		}
	}
	if printf {
		out = append(out, printfArgs(s, syn != synAuto)...)
	}
	return out
}

// indexWithin is strings.Index(s, sep) looking only at the first max
// bytes, so that scanning a message for placeholders stays linear however
// many unclosed braces it has.
func indexWithin(s, sep string, max int) int {
	if len(s) > max {
		s = s[:max]
	}
	return strings.Index(s, sep)
}

func isIdent(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isWordByte(c) || c == '.' || c == '-') {
			return false
		}
	}
	return s[0] != '.' && s[0] != '-'
}

// printfArgs lists the arguments a printf format consumes, as "%N$c"
// with N the argument's position and c its conversion class, so that
// "%s %d" and "%2$d %1$s" compare equal. strict accepts every flag (as
// msgfmt does for c-format); otherwise a space flag or a letter after the
// conversion ("50% off", "%success") is taken for text.
func printfArgs(s string, strict bool) []string {
	var out []string
	seq := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		j := i + 1
		if j < len(s) && s[j] == '%' {
			i = j
			continue
		}
		// %n$
		pos := 0
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j && k < len(s) && s[k] == '$' {
			for _, d := range s[j:k] {
				pos = pos*10 + int(d-'0')
				if pos > 999 {
					break
				}
			}
			j = k + 1
		}
		for j < len(s) && strings.IndexByte("-+#0'", s[j]) >= 0 || (strict && j < len(s) && s[j] == ' ') {
			j++
		}
		star := 0
		if j < len(s) && s[j] == '*' {
			star++
			j++
		} else {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
		}
		if j < len(s) && s[j] == '.' {
			j++
			if j < len(s) && s[j] == '*' {
				star++
				j++
			} else {
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
		}
		for j < len(s) && strings.IndexByte("hlLqjzt", s[j]) >= 0 {
			j++
		}
		if j >= len(s) {
			continue
		}
		class := convClass(s[j])
		if class == "" {
			continue
		}
		if !strict && j+1 < len(s) && isWordByte(s[j+1]) && s[j+1] != '_' {
			continue
		}
		for range star {
			seq++
			out = append(out, argKey(seq, "d"))
		}
		if pos == 0 {
			seq++
			pos = seq
		}
		out = append(out, argKey(pos, class))
		i = j
	}
	return out
}

func argKey(pos int, class string) string {
	return "%" + itoa(pos) + "$" + class
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// convClass groups printf conversions by the type of argument they take.
func convClass(c byte) string {
	switch c {
	case 'd', 'i':
		return "d"
	case 'o', 'u', 'x', 'X':
		return "u"
	case 'e', 'E', 'f', 'F', 'g', 'G', 'a', 'A':
		return "f"
	case 'c', 'C':
		return "c"
	case 's', 'S':
		return "s"
	case 'p':
		return "p"
	case '@':
		return "@"
	}
	return ""
}

// chromePlaceholders are the $name$ and $1 substitutions of a Chrome
// extension message; names are case-insensitive.
func chromePlaceholders(s string) []string {
	var out []string
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		if s[i+1] == '$' {
			i++
			continue
		}
		if s[i+1] >= '1' && s[i+1] <= '9' {
			out = append(out, s[i:i+2])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && (isWordByte(s[j]) || s[j] == '@') {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == '$' {
			out = append(out, "$"+strings.ToLower(s[i+1:j])+"$")
			i = j
		}
	}
	return out
}

// guessPrintf reports whether a set's base messages use printf directives
// and no named placeholders: then "%s" in its messages is a placeholder.
func guessPrintf(values []string) bool {
	printf, other := 0, 0
	for _, v := range values {
		if len(printfArgs(v, false)) > 0 {
			printf++
		}
		if len(named(synAuto, v, false)) > 0 {
			other++
		}
	}
	return printf > 0 && printf >= other
}

// diffPlaceholders returns the placeholders of want missing from have and
// those of have not in want, each listed once. Counts are not compared for
// named placeholders (a translation may name a person twice); printf
// directives compare by position and type, so a dropped or retyped one
// shows.
func diffPlaceholders(want, have []string) (missing, extra []string) {
	in := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	for _, w := range want {
		if !in(have, w) && !in(missing, w) {
			missing = append(missing, w)
		}
	}
	for _, h := range have {
		if !in(want, h) && !in(extra, h) {
			extra = append(extra, h)
		}
	}
	return missing, extra
}
