package dockerfile

import (
	_ "crypto/sha512" // go-digest knows sha384 and sha512 only when linked, as in BuildKit
	"strings"
	"testing"

	"github.com/distribution/reference"
)

// refCases are image references from the reference grammar's own corners:
// docker.io defaults, registries with ports, IPv4 and IPv6 hosts, tags,
// digests, separators, lengths, case, and forms that are invalid.
var refCases = []string{
	"ubuntu", "ubuntu:22.04", "library/ubuntu", "docker.io/ubuntu", "index.docker.io/ubuntu:latest",
	"docker.io/library/ubuntu@sha256:" + strings.Repeat("a", 64),
	"ubuntu:22.04@sha256:" + strings.Repeat("0123456789abcdef", 4),
	"ubuntu@sha512:" + strings.Repeat("ab", 64), "ubuntu@sha384:" + strings.Repeat("c", 96),
	"ubuntu@sha256:" + strings.Repeat("a", 63), "ubuntu@sha256:" + strings.Repeat("A", 64),
	"ubuntu@md5:" + strings.Repeat("a", 32), "ubuntu@sha256:" + strings.Repeat("a", 31), "ubuntu@sha256", "ubuntu@",
	"ubuntu@sha256+b64u.x:" + strings.Repeat("a", 40), "ubuntu@1sha:" + strings.Repeat("a", 64),
	"ubuntu@sha256:" + strings.Repeat("g", 64), "ubuntu@@sha256:" + strings.Repeat("a", 64),
	"localhost/foo", "localhost:5000/foo", "localhost:5000/foo:bar", "localhost:5000", "localhost",
	"example.com/foo", "example.com:443/a/b/c:v1", "example.com:/foo", "example.com:x/foo", "example.com:5000:6000/foo",
	"127.0.0.1:5000/foo", "[::1]/foo", "[::1]:5000/foo:tag", "[fe80::1%eth0]/foo", "[]/foo", "[::1:5000/foo", "[::1]x/foo",
	"Foo/bar", "FOO.io/bar", "foo.io/Bar", "Ubuntu", "ubuntu:Latest", "ubuntu:LATEST", "foo/Bar:tag",
	"my-registry.io/a-b--c/d.e/f__g:t", "a/b_c", "a/b___c", "a/b__c", "a/b.c", "a/b..c", "a/-b", "a/b-", "a/_b", "a/b.",
	"-foo.io/x", "foo-.io/x", "fo-o.io/x", "foo..io/x", "foo.io./x", ".foo/x", "a//b", "a/", "/a", "", ":", "@", ":tag",
	"ubuntu:", "ubuntu:-x", "ubuntu:.x", "ubuntu:_x", "ubuntu:x_y.z-1", "ubuntu:" + strings.Repeat("t", 128),
	"ubuntu:" + strings.Repeat("t", 129), strings.Repeat("a", 255), "library/" + strings.Repeat("a", 248),
	"library/" + strings.Repeat("a", 247), "x.io/" + strings.Repeat("b", 256),
	strings.Repeat("a", 64), strings.Repeat("A", 64), strings.Repeat("a", 63), "sha256:" + strings.Repeat("a", 64),
	"foo bar", "foo/bar baz", "foo\tbar", "ü/bar", "foo/bär", "foo:ta g", "${IMAGE}", "$IMG:1", "scratch",
	"golang:1.22-alpine AS build", "0:0@A0:" + strings.Repeat("0", 32), "x@a.b:" + strings.Repeat("0", 32), "a.b.c.d.e/f/g/h/i:j", "1.2.3.4/x", "a:1/b", "a:b/c",
}

func TestImageRefParsesAsDistributionReference(t *testing.T) {
	for _, s := range refCases {
		checkRefParity(t, s)
	}
}

// FuzzImageRef compares the parser with distribution/reference on
// arbitrary strings.
func FuzzImageRef(f *testing.F) {
	for _, s := range refCases {
		f.Add(s)
	}
	f.Fuzz(checkRefParity)
}

func checkRefParity(t *testing.T, s string) {
	t.Helper()
	got, err := parseImageRef(s)
	want, wantErr := reference.ParseNormalizedNamed(s)
	if (err == nil) != (wantErr == nil) {
		t.Errorf("%q: error %v, distribution/reference says %v", s, err, wantErr)
		return
	}
	if err != nil {
		if err.Error() != wantErr.Error() {
			t.Errorf("%q: error %q, distribution/reference says %q", s, err, wantErr)
		}
		return
	}
	var wantTag, wantDigest string
	if tg, ok := want.(reference.Tagged); ok {
		wantTag = tg.Tag()
	}
	if d, ok := want.(reference.Digested); ok {
		wantDigest = d.Digest().String()
	}
	if got.domain != reference.Domain(want) || got.path != reference.Path(want) || got.tag != wantTag || got.digest != wantDigest {
		t.Errorf("%q: parsed %+v, distribution/reference says domain %q path %q tag %q digest %q",
			s, got, reference.Domain(want), reference.Path(want), wantTag, wantDigest)
	}
}
