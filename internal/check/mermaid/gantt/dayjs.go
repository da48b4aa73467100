package gantt

import (
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Gantt dates are read the way Mermaid reads them: dayjs(input, format,
// true) with the customParseFormat and advancedFormat plugins. In strict
// mode dayjs parses the input with the format's tokens, builds a date (the
// JavaScript Date constructor's overflow included) and accepts it only if
// formatting that date with the same format gives the input back. This
// file implements that parse and that format for the English locale.

var enMonths = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September",
	"October", "November", "December"}
var enWeekdays = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// dayjsStrict reports whether dayjs(input, format, true) is a valid date.
func dayjsStrict(input, format string) bool {
	if strings.ContainsAny(format, "Ll") && strings.ContainsAny(format, "LTlt") && localizedToken(format) {
		return false // localized formats: not read here; treat as not matching
	}
	if format == "x" || format == "X" {
		n, err := strconv.ParseInt(input, 10, 64)
		if err != nil {
			return false
		}
		return dayjsFormat(timestamp(n, format), format) == input
	}
	d, ok := dayjsParse(input, format, time.Now())
	if !ok {
		return false
	}
	out, ok := dayjsFormatOK(d, format)
	return ok && out == input
}

func localizedToken(format string) bool {
	for _, t := range []string{"LTS", "LT", "LLLL", "LLL", "LL", "L", "llll", "lll", "ll", "l"} {
		if strings.Contains(format, t) {
			return true
		}
	}
	return false
}

func timestamp(n int64, format string) time.Time {
	if format == "X" {
		return time.UnixMilli(n * 1000).UTC()
	}
	return time.UnixMilli(n).UTC()
}

// parseToken is one token of a parse format: a literal, or a kind of
// field.
type parseToken struct {
	literal string
	field   string
}

// parseTokens splits a format as customParseFormat's
// /(\[[^[]*\])|([-_:/.,()\s]+)|(A|a|Q|YYYY|YY?|ww?|MM?M?M?|Do|DD?|hh?|HH?|mm?|ss?|S{1,3}|z|ZZ?)/g
// does; characters no alternative matches are dropped.
func parseTokens(f string) []parseToken {
	var out []parseToken
	for i := 0; i < len(f); {
		c := f[i]
		switch {
		case c == '[':
			end := strings.IndexByte(f[i+1:], ']')
			if end >= 0 && !strings.Contains(f[i+1:i+1+end], "[") {
				out = append(out, parseToken{literal: f[i+1 : i+1+end]})
				i += end + 2
				continue
			}
			i++
		case strings.IndexByte("-_:/.,() \t\n", c) >= 0:
			j := i
			for j < len(f) && strings.IndexByte("-_:/.,() \t\n\v\f\r", f[j]) >= 0 {
				j++
			}
			out = append(out, parseToken{literal: f[i:j]})
			i = j
		default:
			if tok := fieldToken(f[i:]); tok != "" {
				if tok == "z" {
					out = append(out, parseToken{literal: "z"})
				} else {
					out = append(out, parseToken{field: tok})
				}
				i += len(tok)
				continue
			}
			i++
		}
	}
	return out
}

// fieldToken matches A|a|Q|YYYY|YY?|ww?|MM?M?M?|Do|DD?|hh?|HH?|mm?|ss?|S{1,3}|z|ZZ? at the start of s.
func fieldToken(s string) string {
	for _, t := range []string{"A", "a", "Q", "YYYY"} {
		if strings.HasPrefix(s, t) {
			return t
		}
	}
	run := func(c byte, max int) string {
		n := 0
		for n < len(s) && n < max && s[n] == c {
			n++
		}
		return s[:n]
	}
	switch s[0] {
	case 'Y':
		return run('Y', 2)
	case 'w':
		return run('w', 2)
	case 'M':
		return run('M', 4)
	case 'D':
		if strings.HasPrefix(s, "Do") {
			return "Do"
		}
		return run('D', 2)
	case 'h', 'H', 'm', 's', 'Z':
		return run(s[0], 2)
	case 'S':
		return run('S', 3)
	case 'z':
		return "z"
	}
	return ""
}

// dayjsFields are the values a parse collects.
type dayjsFields struct {
	year, month, day, hours, minutes, seconds, ms int
	hasYear, hasMonth, hasDay                     bool
	afternoon                                     int // 0 unset, 1 am, 2 pm
	zone                                          *int
}

// dayjsParse parses input with format's tokens as customParseFormat does,
// and builds the date as it does with JavaScript's Date.
func dayjsParse(input, format string, now time.Time) (time.Time, bool) {
	var f dayjsFields
	start := 0
	for _, tok := range parseTokens(format) {
		if tok.field == "" {
			start += len(tok.literal)
			continue
		}
		if start > len(input) {
			start = len(input)
		}
		value, ok := matchField(input[start:], tok.field)
		if !ok || !f.set(tok.field, value) {
			return time.Time{}, false
		}
		input = strings.Replace(input, value, "", 1)
	}
	return f.date(now)
}

// matchField finds the first match of a field's expression in s.
func matchField(s, field string) (string, bool) {
	switch field {
	case "Q", "S":
		return findDigits(s, 1, 1)
	case "SS", "DD", "MM", "YY", "ww":
		return findDigits(s, 2, 2)
	case "SSS":
		return findDigits(s, 3, 3)
	case "YYYY":
		return findDigits(s, 4, 4)
	case "s", "ss", "m", "mm", "H", "h", "HH", "hh", "D", "w", "M":
		return findDigits(s, 1, 2)
	case "Y":
		return findSigned(s)
	case "A", "a", "Do", "MMM", "MMMM":
		return findWord(s)
	case "Z", "ZZ":
		return findOffset(s)
	}
	return "", false
}

func findDigits(s string, minN, maxN int) (string, bool) {
	for i := 0; i < len(s); i++ {
		n := 0
		for i+n < len(s) && n < maxN && syntax.IsDigit(s[i+n]) {
			n++
		}
		if n >= minN {
			return s[i : i+n], true
		}
	}
	return "", false
}

func findSigned(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		j := i
		if s[j] == '+' || s[j] == '-' {
			j++
		}
		k := j
		for k < len(s) && syntax.IsDigit(s[k]) {
			k++
		}
		if k > j {
			return s[i:k], true
		}
	}
	return "", false
}

// findWord is \d*[^-_:/,()\s\d]+.
func findWord(s string) (string, bool) {
	isWord := func(c byte) bool {
		return !syntax.IsDigit(c) && !syntax.IsJSSpaceByte(c) && strings.IndexByte("-_:/,()", c) < 0
	}
	for i := 0; i < len(s); i++ {
		j := i
		for j < len(s) && syntax.IsDigit(s[j]) {
			j++
		}
		k := j
		for k < len(s) && isWord(s[k]) {
			k++
		}
		if k > j {
			return s[i:k], true
		}
	}
	return "", false
}

// findOffset is [+-]\d\d:?(\d\d)?|Z.
func findOffset(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == 'Z' {
			return "Z", true
		}
		if (s[i] == '+' || s[i] == '-') && i+2 < len(s) && syntax.IsDigit(s[i+1]) && syntax.IsDigit(s[i+2]) {
			j := i + 3
			if j < len(s) && s[j] == ':' {
				j++
			}
			if j+1 < len(s) && syntax.IsDigit(s[j]) && syntax.IsDigit(s[j+1]) {
				return s[i : j+2], true
			}
			if s[j-1] == ':' {
				j--
			}
			return s[i:j], true
		}
	}
	return "", false
}

// set applies a field's value as the field's parser does.
func (f *dayjsFields) set(field, v string) bool {
	n, _ := strconv.Atoi(v)
	switch field {
	case "A", "a":
		pm := "PM"
		if field == "a" {
			pm = "pm"
		}
		f.afternoon = 1
		if v == pm {
			f.afternoon = 2
		}
	case "Q":
		f.month, f.hasMonth = (n-1)*3+1, true
	case "S":
		f.ms = n * 100
	case "SS":
		f.ms = n * 10
	case "SSS":
		f.ms = n
	case "s", "ss":
		f.seconds = n
	case "m", "mm":
		f.minutes = n
	case "H", "h", "HH", "hh":
		f.hours = n
	case "D", "DD":
		f.day, f.hasDay = n, true
	case "Do":
		digits, ok := findDigits(v, 1, len(v))
		if !ok {
			return false
		}
		d, _ := strconv.Atoi(digits)
		for i := 1; i <= 31; i++ {
			if ordinal(i) == v {
				d = i
			}
		}
		f.day, f.hasDay = d, true
	case "w", "ww":
		return false // needs dayjs's weekOfYear plugin, which Mermaid does not load
	case "M", "MM":
		f.month, f.hasMonth = n, true
	case "MMM", "MMMM":
		return f.setMonthName(field, v)
	case "Y", "YYYY":
		f.year, f.hasYear = n, true
	case "YY":
		if n > 68 {
			n += 1900
		} else {
			n += 2000
		}
		f.year, f.hasYear = n, true
	case "Z", "ZZ":
		off := offsetMinutes(v)
		f.zone = &off
	}
	return true
}

func (f *dayjsFields) setMonthName(field, v string) bool {
	for i, m := range enMonths {
		if field == "MMM" && m[:3] == v || field == "MMMM" && m == v {
			f.month, f.hasMonth = i+1, true
			return true
		}
	}
	return false
}

func offsetMinutes(s string) int {
	if s == "Z" {
		return 0
	}
	h, _ := strconv.Atoi(s[1:3])
	m := 0
	rest := strings.TrimPrefix(s[3:], ":")
	if len(rest) == 2 {
		m, _ = strconv.Atoi(rest)
	}
	minutes := h*60 + m
	if minutes == 0 {
		return 0
	}
	if s[0] == '+' {
		return -minutes
	}
	return minutes
}

// date builds the date as parseFormattedInput does.
func (f *dayjsFields) date(now time.Time) (time.Time, bool) {
	if f.afternoon == 2 && f.hours < 12 {
		f.hours += 12
	} else if f.afternoon == 1 && f.hours == 12 {
		f.hours = 0
	}
	year := f.year
	if !f.hasYear || year == 0 {
		year = now.Year()
	}
	day := f.day
	if !f.hasDay || day == 0 {
		day = 1
		if (!f.hasYear || f.year == 0) && (!f.hasMonth || f.month == 0) {
			day = now.Day()
		}
	}
	month := 0
	if !(f.hasYear && f.year != 0 && (!f.hasMonth || f.month == 0)) {
		if f.month > 0 {
			month = f.month - 1
		} else {
			month = int(now.Month()) - 1
		}
	}
	if f.zone != nil {
		return jsDate(year, month, day, f.hours, f.minutes, f.seconds, f.ms+*f.zone*60*1000), true
	}
	return jsDate(year, month, day, f.hours, f.minutes, f.seconds, f.ms), true
}

// jsDate is JavaScript's new Date(y, M, d, h, m, s, ms), overflow and the
// 1900 offset of years 0 to 99 included (in UTC, standing for local time).
func jsDate(y, M, d, h, m, s, ms int) time.Time {
	if y >= 0 && y <= 99 {
		y += 1900
	}
	return time.Date(y, time.January, 1, 0, 0, 0, 0, time.UTC).
		AddDate(0, M, d-1).
		Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second + time.Duration(ms)*time.Millisecond)
}

// ordinal is the English locale's ordinal, without its brackets.
func ordinal(n int) string {
	suffix := []string{"th", "st", "nd", "rd"}
	v := n % 100
	s := ""
	if i := (v - 20) % 10; i >= 0 && i < 4 {
		s = suffix[i]
	}
	if s == "" && v < 4 {
		s = suffix[v]
	}
	if s == "" {
		s = suffix[0]
	}
	return strconv.Itoa(n) + s
}

func dayjsFormat(d time.Time, format string) string {
	s, _ := dayjsFormatOK(d, format)
	return s
}

// dayjsFormatOK formats d as dayjs's format with advancedFormat does; it
// reports false for tokens that throw without plugins Mermaid loads.
func dayjsFormatOK(d time.Time, format string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(format); {
		if format[i] == '[' {
			if end := strings.IndexByte(format[i+1:], ']'); end > 0 {
				b.WriteString(format[i+1 : i+1+end])
				i += end + 2
				continue
			}
		}
		tok, val, ok := formatToken(d, format[i:])
		if !ok {
			return "", false
		}
		if tok == "" {
			b.WriteByte(format[i])
			i++
			continue
		}
		b.WriteString(val)
		i += len(tok)
	}
	return b.String(), true
}

// formatToken formats the token at the start of s: "" when s starts with
// a literal character.
func formatToken(d time.Time, s string) (tok, val string, ok bool) {
	pad := func(n, w int) string {
		v := strconv.Itoa(n)
		for len(v) < w {
			v = "0" + v
		}
		return v
	}
	run := func(c byte, max int) int {
		n := 0
		for n < len(s) && n < max && s[n] == c {
			n++
		}
		return n
	}
	h12 := d.Hour() % 12
	if h12 == 0 {
		h12 = 12
	}
	switch {
	case strings.HasPrefix(s, "Do"):
		return "Do", ordinal(d.Day()), true
	case strings.HasPrefix(s, "wo"), strings.HasPrefix(s, "zzz"), strings.HasPrefix(s, "gggg"), strings.HasPrefix(s, "GGGG"):
		return "", "", false
	case s[0] == 'Q':
		return "Q", strconv.Itoa((int(d.Month())-1)/3 + 1), true
	case s[0] == 'w' || s[0] == 'W' || s[0] == 'z':
		return "", "", false
	case s[0] == 'X':
		return "X", strconv.FormatInt(d.UnixMilli()/1000, 10), true
	case s[0] == 'x':
		return "x", strconv.FormatInt(d.UnixMilli(), 10), true
	case s[0] == 'k':
		n := run('k', 2)
		h := d.Hour()
		if h == 0 {
			h = 24
		}
		return s[:n], pad(h, n), true
	case strings.HasPrefix(s, "YYYY"):
		return "YYYY", pad(d.Year(), 4), true
	case strings.HasPrefix(s, "YY"):
		y := strconv.Itoa(d.Year())
		return "YY", y[max(0, len(y)-2):], true
	case s[0] == 'M':
		switch n := run('M', 4); n {
		case 1:
			return "M", strconv.Itoa(int(d.Month())), true
		case 2:
			return "MM", pad(int(d.Month()), 2), true
		case 3:
			return "MMM", enMonths[d.Month()-1][:3], true
		default:
			return "MMMM", enMonths[d.Month()-1], true
		}
	case s[0] == 'D':
		n := run('D', 2)
		return s[:n], pad(d.Day(), n), true
	case s[0] == 'd':
		switch n := run('d', 4); n {
		case 1:
			return "d", strconv.Itoa(int(d.Weekday())), true
		case 2, 3:
			return s[:n], enWeekdays[d.Weekday()][:n], true
		default:
			return "dddd", enWeekdays[d.Weekday()], true
		}
	case s[0] == 'H':
		n := run('H', 2)
		return s[:n], pad(d.Hour(), n), true
	case s[0] == 'h':
		n := run('h', 2)
		return s[:n], pad(h12, n), true
	case s[0] == 'a' || s[0] == 'A':
		v := "AM"
		if d.Hour() >= 12 {
			v = "PM"
		}
		if s[0] == 'a' {
			v = strings.ToLower(v)
		}
		return s[:1], v, true
	case s[0] == 'm':
		n := run('m', 2)
		return s[:n], pad(d.Minute(), n), true
	case s[0] == 's':
		n := run('s', 2)
		return s[:n], pad(d.Second(), n), true
	case strings.HasPrefix(s, "SSS"):
		return "SSS", pad(d.Nanosecond()/1e6, 3), true
	case s[0] == 'Z':
		n := run('Z', 2)
		if n == 1 {
			return "Z", "+00:00", true
		}
		return "ZZ", "+0000", true
	}
	return "", "", true
}

// jsDateFails reports strings that JavaScript's new Date(s) surely does
// not read: empty, no digits, a word after the first number that is not a
// month or weekday name, or a time of day alone. V8's fallback date parser reads much else, some
// of it wrongly; for those this reports false, and the caller warns
// instead of claiming a failure.
func jsDateFails(s string) bool {
	s = stripParens(strings.TrimSpace(s))
	if s == "" {
		return true
	}
	digits, month := false, false
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case syntax.IsDigit(c):
			digits = true
			i++
		case syntax.IsAlpha(c):
			j := i
			for j < len(s) && syntax.IsAlpha(s[j]) {
				j++
			}
			w := strings.ToLower(s[i:j])
			switch {
			case isMonthWord(w):
				month = true
			case isWeekdayWord(w), w == "am", w == "pm", w == "utc", w == "gmt", w == "t", w == "z":
			case !digits:
				// V8 skips words before the first number.
			default:
				return true
			}
			i = j
		default:
			i++
		}
	}
	if !digits && !month {
		return true
	}
	return isClockOnly(s)
}

// isClockOnly matches \d{1,2}:\d\d(:\d\d)?.
func isClockOnly(s string) bool {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for k, p := range parts {
		if p == "" || len(p) > 2 || k > 0 && len(p) != 2 || !syntax.DigitsAt(p, 0, len(p)) {
			return false
		}
	}
	return true
}

func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '(':
			depth++
		case s[i] == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteByte(s[i])
		}
	}
	return strings.TrimSpace(b.String())
}

func isMonthWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, m := range enMonths {
		if strings.HasPrefix(strings.ToLower(m), w) || strings.HasPrefix(w, strings.ToLower(m[:3])) {
			return true
		}
	}
	return false
}

func isWeekdayWord(w string) bool {
	if len(w) < 3 {
		return false
	}
	for _, d := range enWeekdays {
		if strings.HasPrefix(w, strings.ToLower(d[:3])) {
			return true
		}
	}
	return false
}
