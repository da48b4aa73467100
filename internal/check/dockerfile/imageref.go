package dockerfile

import (
	"errors"
	"fmt"
	"strings"
)

// imageRef is a parsed image reference, [domain/]path[:tag][@digest], read
// the way Docker (and BuildKit, through distribution/reference) reads a
// FROM: a familiar name such as "ubuntu" is docker.io/library/ubuntu.
//
// It is written by hand from the reference grammar rather than linked from
// distribution/reference, whose regular expressions (and go-digest's) are
// compiled when any cairn process starts, a hook included.
type imageRef struct {
	domain, path, tag, digest string
}

// The errors say what distribution/reference and go-digest say, so that a
// finding's words are BuildKit's.
var (
	errRefFormat    = errors.New("invalid reference format")
	errRefUppercase = errors.New("repository name must be lowercase")
	errRefEmpty     = errors.New("repository name must have at least one component")
	errRefTooLong   = fmt.Errorf("repository name must not be more than %d characters", maxRepoPath)
	errDigestFormat = errors.New("invalid checksum digest format")
	errDigestLength = errors.New("invalid checksum digest length")
	errDigestAlg    = errors.New("unsupported digest algorithm")
)

const (
	defaultRegistry = "docker.io"
	legacyRegistry  = "index.docker.io"
	officialPrefix  = "library/"
	maxRepoPath     = 255
	maxTag          = 128
)

// digestHexLen is the hex length of each digest algorithm go-digest knows.
var digestHexLen = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}

// parseImageRef parses s as distribution/reference's ParseNormalizedNamed.
func parseImageRef(s string) (imageRef, error) {
	if len(s) == 64 && isLowerHex(s) {
		return imageRef{}, fmt.Errorf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	domain, rest := splitRegistry(s)
	remote := rest
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		remote = rest[:i]
	}
	if strings.ToLower(remote) != remote {
		return imageRef{}, fmt.Errorf("invalid reference format: repository name (%s) must be lowercase", remote)
	}
	return parseFullRef(domain + "/" + rest)
}

// splitRegistry splits a registry off a familiar name: the first component
// is one when it has a '.' or ':', is localhost, or has an uppercase letter
// (which a repository path may not).
func splitRegistry(name string) (domain, rest string) {
	first, after, ok := strings.Cut(name, "/")
	switch {
	case !ok:
		return defaultRegistry, officialPrefix + name
	case first == "localhost":
		domain, rest = first, after
	case first == legacyRegistry:
		domain, rest = defaultRegistry, after
	case strings.ContainsAny(first, ".:"), strings.ToLower(first) != first:
		domain, rest = first, after
	default:
		domain, rest = defaultRegistry, name
	}
	if domain == defaultRegistry && !strings.Contains(rest, "/") {
		rest = officialPrefix + rest
	}
	return domain, rest
}

// parseFullRef parses name[:tag][@digest] as distribution/reference's Parse.
func parseFullRef(s string) (imageRef, error) {
	r, ok := matchRef(s)
	if !ok {
		switch {
		case s == "":
			return imageRef{}, errRefEmpty
		case func() bool { _, ok := matchRef(strings.ToLower(s)); return ok }():
			return imageRef{}, errRefUppercase
		}
		return imageRef{}, errRefFormat
	}
	if len(r.path) > maxRepoPath {
		return imageRef{}, errRefTooLong
	}
	if r.digest != "" {
		if err := validateDigest(r.digest); err != nil {
			return imageRef{}, err
		}
	}
	return r, nil
}

// matchRef splits s by the reference grammar:
//
//	reference := name [ ":" tag ] [ "@" digest ]
//	name      := [ domain "/" ] path-component [ "/" path-component ]*
//
// A ':' after the last '/' starts the tag; one before it is a port.
func matchRef(s string) (imageRef, bool) {
	var r imageRef
	name := s
	if i := strings.IndexByte(s, '@'); i >= 0 {
		name, r.digest = s[:i], s[i+1:]
		if !isDigestShape(r.digest) {
			return r, false
		}
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 && i > strings.LastIndexByte(name, '/') {
		name, r.tag = name[:i], name[i+1:]
		if !isTag(r.tag) {
			return r, false
		}
	}
	// The domain is optional and tried first: "a/b" is domain a, path b.
	if d, p, ok := strings.Cut(name, "/"); ok && isDomainAndPort(d) && isPath(p) {
		r.domain, r.path = d, p
		return r, true
	}
	if isPath(name) {
		r.path = name
		return r, true
	}
	return r, false
}

// isPath: path-component [ "/" path-component ]*.
func isPath(s string) bool {
	for c := range strings.SplitSeq(s, "/") {
		if !isPathComponent(c) {
			return false
		}
	}
	return true
}

// isPathComponent: [a-z0-9]+ ( separator [a-z0-9]+ )*, where a separator
// is one '.', one or two '_', or any number of '-'.
func isPathComponent(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); {
		if isLowerAlnum(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !isLowerAlnum(s[j]) {
			j++
		}
		switch sep := s[i:j]; {
		case sep == "." || sep == "_" || sep == "__":
		case strings.Trim(sep, "-") == "":
		default:
			return false
		}
		i = j
	}
	return true
}

// isDomainAndPort: host [ ":" port ], where host is a domain name (its
// components letters, digits and inner '-', joined by '.'; an IPv4
// address is one) or an IPv6 address in brackets.
func isDomainAndPort(s string) bool {
	host := s
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		host = s[:end+1]
		if !isIPv6Bracketed(host) {
			return false
		}
		if rest := s[end+1:]; rest != "" {
			port, ok := strings.CutPrefix(rest, ":")
			return ok && isDigits(port)
		}
		return true
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		host = s[:i]
		if !isDigits(s[i+1:]) {
			return false
		}
	}
	for c := range strings.SplitSeq(host, ".") {
		if !isDomainComponent(c) {
			return false
		}
	}
	return true
}

func isDomainComponent(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}

func isIPv6Bracketed(s string) bool {
	inner := s[1 : len(s)-1]
	if inner == "" {
		return false
	}
	for i := 0; i < len(inner); i++ {
		if !isHex(inner[i]) && inner[i] != ':' {
			return false
		}
	}
	return true
}

// isTag: [\w][\w.-]{0,127}.
func isTag(s string) bool {
	if s == "" || len(s) > maxTag || !isWord(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isWord(s[i]) && s[i] != '.' && s[i] != '-' {
			return false
		}
	}
	return true
}

// isDigestShape: algorithm ":" hex{32,}, the algorithm's components
// [A-Za-z][A-Za-z0-9]* joined by one of "-_+.".
func isDigestShape(s string) bool {
	alg, hex, ok := strings.Cut(s, ":")
	if !ok || len(hex) < 32 || alg == "" {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if !isHex(hex[i]) {
			return false
		}
	}
	start := true
	for i := 0; i < len(alg); i++ {
		c := alg[i]
		switch {
		case start:
			if !isLetter(c) {
				return false
			}
			start = false
		case strings.IndexByte("-_+.", c) >= 0:
			start = true
		case !isLetter(c) && !isDigit(c):
			return false
		}
	}
	return !start
}

// validateDigest checks a digest of the right shape as go-digest does: a
// known algorithm, and its length of lowercase hex.
func validateDigest(s string) error {
	alg, hex, _ := strings.Cut(s, ":")
	n, ok := digestHexLen[alg]
	if !ok {
		// go-digest calls an unknown algorithm unsupported only when it
		// is written in lowercase: [a-z0-9]+ ([.+_-] [a-z0-9]+)*.
		for c := range strings.FieldsFuncSeq(alg, func(r rune) bool { return strings.ContainsRune(".+_-", r) }) {
			if strings.ToLower(c) != c {
				return errDigestFormat
			}
		}
		return errDigestAlg
	}
	if len(hex) != n {
		return errDigestLength
	}
	if !isLowerHex(hex) {
		return errDigestFormat
	}
	return nil
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) && (s[i] < 'a' || s[i] > 'f') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isLetter(c byte) bool     { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool      { return isLetter(c) || isDigit(c) }
func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || isDigit(c) }
func isWord(c byte) bool       { return isAlnum(c) || c == '_' }
func isHex(c byte) bool        { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
