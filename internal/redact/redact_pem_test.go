package redact

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// oldPEM is the regexp findPrivateKey replaced: the reference its answers
// are held to. Its lazy search for an END line from every BEGIN line made
// text of many BEGIN lines and no END quadratic (33 KB: seconds).
var oldPEM = regexp.MustCompile(`(?m)-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=]*(?:\r?\n[A-Za-z0-9+/=]+\r?$)*)`)

// TestFindPrivateKeyAgreesWithRegexp generates texts from the pieces of
// private-key blocks (BEGIN and END lines of several labels, broken ones,
// base64 lines, prose, CRLF) and holds every match findPrivateKey finds,
// from every position, to the regexp's.
func TestFindPrivateKeyAgreesWithRegexp(t *testing.T) {
	pieces := []string{
		"-----BEGIN RSA PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----", "-----BEGIN OPENSSH PRIVATE KEY-----",
		"-----BEGIN ENCRYPTED PRIVATE KEY-----", "-----BEGIN PGP PRIVATE KEY BLOCK-----", "-----BEGIN rsa PRIVATE KEY-----",
		"-----BEGIN RSA PRIVATE KEY----", "-----BEGIN PUBLIC KEY-----", "PRIVATE KEY", "-----BEGIN",
		"-----END RSA PRIVATE KEY-----", "-----END PRIVATE KEY-----", "-----END PGP PRIVATE KEY BLOCK-----", "-----END",
		"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn", "b3BlbnNzaC1rZXk=", "abc+/=", "then restart", " ", "-",
		"\n", "\n", "\r\n", "\n\n",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		f := finder{rule: &secretRule{kind: KindPrivateKey}, s: s, hay: s, endFrom: -1}
		for pos := 0; pos <= len(s); pos++ {
			want := oldPEM.FindStringIndex(s[pos:])
			if want != nil {
				want[0], want[1] = want[0]+pos, want[1]+pos
			}
			got := findPrivateKey(&f, pos)
			if (want == nil) != (got == nil) || want != nil && (want[0] != got[0] || want[1] != got[1]) {
				t.Fatalf("text %d %q from %d: found %v, the regexp %v", n, s, pos, got, want)
			}
		}
	}
}

// TestRedactManyBeginLines is the attack that found the quadratic search:
// a command of repeated BEGIN lines and no END is one key, redacted whole.
func TestRedactManyBeginLines(t *testing.T) {
	s := strings.Repeat("-----BEGIN RSA PRIVATE KEY-----\n", 8000)
	out, r := Redact(s)
	if strings.Contains(out, "BEGIN") || r.ByKind[KindPrivateKey] == 0 {
		t.Fatalf("not redacted: %d redactions, %.200q", r.Total, out)
	}
}

// BenchmarkRedactManyBeginLines: ns/op should grow in step with the size
// (1x, 2x, 4x), as the quadratic search's did not (1x, 3x, 18x).
func BenchmarkRedactManyBeginLines(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		s := strings.Repeat("-----BEGIN RSA PRIVATE KEY-----\n", n)
		b.Run(strconv.Itoa(n)+"-lines", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				Redact(s)
			}
		})
	}
}
