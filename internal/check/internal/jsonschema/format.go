package jsonschema

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// formats are the format checks of JSON Schema (and semver), each by the
// RFC that defines it. A value that is not a string passes.
var formats = map[string]func(any) error{
	"date-time": str(dateTime), "date": str(date), "time": str(timeOfDay), "duration": str(duration),
	"period": str(period), "email": str(email), "hostname": str(hostname), "ipv4": str(ipv4),
	"ipv6": str(ipv6), "uri": str(uri), "iri": str(uri), "uri-reference": str(uriReference),
	"iri-reference": str(uriReference), "uri-template": str(uriTemplate), "json-pointer": str(jsonPointer),
	"relative-json-pointer": str(relativeJSONPointer), "uuid": str(uuid), "semver": str(semver),
}

func str(f func(string) error) func(any) error {
	return func(v any) error {
		if s, ok := v.(string); ok {
			return f(s)
		}
		return nil
	}
}

func goRegexp(p string) (Regexp, error) { return regexp.Compile(p) }

func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// date: RFC 3339 full-date.
func date(s string) error {
	_, err := time.Parse("2006-01-02", s)
	return err
}

// timeOfDay: RFC 3339 full-time, the offset required; a leap second only
// at 23:59 UTC.
func timeOfDay(s string) error {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return errors.New("not hh:mm:ss followed by an offset")
	}
	var hms [3]int
	for i := range 3 {
		part := s[i*3 : i*3+2]
		if digits(part) != 2 {
			return errors.New("hour, minute and second are two digits each")
		}
		hms[i], _ = strconv.Atoi(part)
	}
	h, m, sec := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || sec > 60 {
		return errors.New("hour, minute or second out of range")
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := digits(frac)
		if n == 0 {
			return errors.New("no digits after the decimal point")
		}
		rest = frac[n:]
	}
	if rest != "Z" && rest != "z" {
		if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' || digits(rest[1:3]) != 2 || digits(rest[4:]) != 2 {
			return errors.New("the offset is Z or ±hh:mm")
		}
		oh, _ := strconv.Atoi(rest[1:3])
		om, _ := strconv.Atoi(rest[4:])
		if oh > 23 || om > 59 {
			return errors.New("offset out of range")
		}
		off := oh*60 + om
		if rest[0] == '+' {
			off = -off
		}
		utc := ((h*60+m+off)%(24*60) + 24*60) % (24 * 60)
		h, m = utc/60, utc%60
	}
	if sec == 60 && (h != 23 || m != 59) {
		return errors.New("a leap second is only 23:59:60 UTC")
	}
	return nil
}

// dateTime: RFC 3339 date-time.
func dateTime(s string) error {
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return errors.New("not a date, T and a time with its offset")
	}
	if err := date(s[:10]); err != nil {
		return fmt.Errorf("its date: %w", err)
	}
	if err := timeOfDay(s[11:]); err != nil {
		return fmt.Errorf("its time: %w", err)
	}
	return nil
}

// duration: ISO 8601 as RFC 3339's appendix A has it: P, then weeks
// alone, or dates (Y M D) and a T with times (H M S), units in order.
func duration(s string) error {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return errors.New("a duration is P followed by its parts")
	}
	if w, ok := strings.CutSuffix(rest, "W"); ok {
		if w == "" || digits(w) != len(w) {
			return errors.New("weeks are a number before W")
		}
		return nil
	}
	parts := strings.Split(rest, "T")
	if len(parts) > 2 {
		return errors.New("more than one T")
	}
	for i, part := range parts {
		if i == 1 && part == "" {
			return errors.New("no time after T")
		}
		units := [2]string{"YMD", "HMS"}[i]
		for part != "" {
			n := digits(part)
			if n == 0 {
				return errors.New("a part without its number")
			}
			if n == len(part) {
				return errors.New("a number without its unit")
			}
			j := strings.IndexByte(units, part[n])
			if j < 0 {
				return fmt.Errorf("unit %q is out of place", part[n])
			}
			units, part = units[j+1:], part[n+1:]
		}
	}
	return nil
}

// period: RFC 3339 appendix A: start/end, start/duration or
// duration/end.
func period(s string) error {
	start, end, ok := strings.Cut(s, "/")
	if !ok {
		return errors.New("a period is two parts with a slash")
	}
	if strings.HasPrefix(start, "P") {
		if err := duration(start); err != nil {
			return err
		}
		return dateTime(end)
	}
	if err := dateTime(start); err != nil {
		return err
	}
	if strings.HasPrefix(end, "P") {
		return duration(end)
	}
	return dateTime(end)
}

// hostname: RFC 1123 labels.
func hostname(s string) error {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return errors.New("longer than 253 characters")
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" || len(label) > 63 {
			return errors.New("a label is 1 to 63 characters")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return errors.New("a label starts and ends with a letter or digit")
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return fmt.Errorf("%q is not allowed in a host name", c)
			}
		}
	}
	return nil
}

// email: RFC 5321 mailbox: a dot-atom or quoted local part, and a host
// name or an address literal.
func email(s string) error {
	if len(s) > 254 {
		return errors.New("longer than 254 characters")
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return errors.New("no @")
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return errors.New("the local part is longer than 64 characters")
	}
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return errors.New("a quoted local part has no backslash or quote")
		}
	} else {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return errors.New("the local part's dots separate words")
		}
		for _, c := range local {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".!#$%&'*+-/=?^_`{|}~", c)) {
				return fmt.Errorf("%q is not allowed in the local part", c)
			}
		}
	}
	if lit, ok := strings.CutPrefix(domain, "["); ok {
		if lit, ok = strings.CutSuffix(lit, "]"); ok {
			if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
				return ipv6(v6)
			}
			return ipv4(lit)
		}
	}
	return hostname(domain)
}

// ipv4: dotted decimal, no leading zeros.
func ipv4(s string) error {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return errors.New("not four numbers")
	}
	for _, p := range parts {
		if p == "" || digits(p) != len(p) || (len(p) > 1 && p[0] == '0') {
			return errors.New("each part is a number without leading zeros")
		}
		if n, err := strconv.Atoi(p); err != nil || n > 255 {
			return errors.New("each part is 0 to 255")
		}
	}
	return nil
}

// ipv6: RFC 4291 text, no zone.
func ipv6(s string) error {
	if !strings.Contains(s, ":") {
		return errors.New("no colon")
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return err
	}
	if a.Zone() != "" {
		return errors.New("a zone is not part of the address")
	}
	return nil
}

func parseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if h := u.Hostname(); strings.Contains(h, ":") {
		if !strings.Contains(u.Host, "[") {
			return nil, errors.New("an IPv6 host is in brackets")
		}
		if err := ipv6(h); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// uri: RFC 3986 URI, with a scheme.
func uri(s string) error {
	u, err := parseURL(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return errors.New("a relative reference, not a URI")
	}
	return nil
}

// uriReference: RFC 3986 URI or relative reference.
func uriReference(s string) error {
	if strings.Contains(s, `\`) {
		return errors.New(`a backslash`)
	}
	_, err := parseURL(s)
	return err
}

// uriTemplate: RFC 6570: a URL whose path's braces pair up, unnested.
func uriTemplate(s string) error {
	u, err := parseURL(s)
	if err != nil {
		return err
	}
	for seg := range strings.SplitSeq(u.RawPath, "/") {
		seg, err := url.PathUnescape(seg)
		if err != nil {
			return err
		}
		open := false
		for _, c := range seg {
			switch c {
			case '{':
				if open {
					return errors.New("nested braces")
				}
				open = true
			case '}':
				if !open {
					return errors.New("a closing brace without its opening one")
				}
				open = false
			}
		}
		if open {
			return errors.New("a brace not closed")
		}
	}
	return nil
}

// jsonPointer: RFC 6901.
func jsonPointer(s string) error {
	if s == "" {
		return nil
	}
	if s[0] != '/' {
		return errors.New("a JSON pointer starts with /")
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return errors.New("~ is followed by 0 or 1")
		}
	}
	return nil
}

// relativeJSONPointer: a non-negative integer, then # or a JSON pointer.
func relativeJSONPointer(s string) error {
	n := digits(s)
	if n == 0 {
		return errors.New("a relative JSON pointer starts with a number")
	}
	if n > 1 && s[0] == '0' {
		return errors.New("the number has a leading zero")
	}
	if s[n:] == "#" {
		return nil
	}
	return jsonPointer(s[n:])
}

// uuid: RFC 4122 text, 8-4-4-4-12 hex digits.
func uuid(s string) error {
	groups := strings.Split(s, "-")
	if len(groups) != 5 {
		return errors.New("not five groups")
	}
	for i, g := range groups {
		if len(g) != [5]int{8, 4, 4, 4, 12}[i] {
			return errors.New("groups of 8, 4, 4, 4 and 12 hex digits")
		}
		for j := 0; j < len(g); j++ {
			if !isHex(g[j]) {
				return fmt.Errorf("%q is not a hex digit", g[j])
			}
		}
	}
	return nil
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// semver: Semantic Versioning 2.0.0.
func semver(s string) error {
	isIdent := func(id string) bool {
		for _, c := range id {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
				return false
			}
		}
		return id != ""
	}
	if core, build, ok := strings.Cut(s, "+"); ok {
		for id := range strings.SplitSeq(build, ".") {
			if !isIdent(id) {
				return errors.New("a build identifier is letters, digits and hyphens")
			}
		}
		s = core
	}
	if core, pre, ok := strings.Cut(s, "-"); ok {
		for id := range strings.SplitSeq(pre, ".") {
			if !isIdent(id) {
				return errors.New("a pre-release identifier is letters, digits and hyphens")
			}
			if digits(id) == len(id) && len(id) > 1 && id[0] == '0' {
				return errors.New("a numeric pre-release identifier has no leading zero")
			}
		}
		s = core
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return errors.New("major.minor.patch")
	}
	for _, p := range parts {
		if p == "" || digits(p) != len(p) || (len(p) > 1 && p[0] == '0') {
			return errors.New("major, minor and patch are numbers without leading zeros")
		}
	}
	return nil
}
