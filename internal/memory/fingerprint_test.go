package memory

import (
	"fmt"
	"testing"
)

func TestFingerprintSame(t *testing.T) {
	for _, tc := range [][2]string{
		{"open /tmp/x1: too many files", "Open /tmp/x22: too many files"},
		{"Boom on start", "boom on start!"},
		{"panic at 0xc000123456 in worker", "panic at 0xc0009abcde in worker"},
		{"build failed at store.go:12:5", "build failed at store.go:140:22"},
		{"context deadline exceeded after 1.5s", "context deadline exceeded after 200ms"},
		{"timed out after 30 seconds", "timed out after 5 seconds"},
		{`unexpected value "abc" for mode`, `unexpected value "x y z" for mode`},
		{"can't find 'alpha' in map", "can't find 'beta' in map"},
		{"commit 3f2a9b1c not found", "commit 9e8d7c6baa not found"},
		{"object 0123abcd-4567-89ab-cdef-0123456789ab missing", "object ffffffff-0000-1111-2222-333333333333 missing"},
		{"dial tcp 127.0.0.1:54321: connection refused", "dial tcp 127.0.0.1:40001: connection refused"},
		{"log at 2026-11-23T19:28:41Z: disk full", "log at 2026-11-24T01:02:03.5+01:00: disk full"},
		{`cannot remove C:\Users\ann\AppData\Local\Temp\go-build12\x.exe`, `cannot remove C:\Users\bob\AppData\Local\Temp\go-build99\y.exe`},
		{"write /var/folders/ab/xyz/T/TestA123/001/db: read-only", "write /var/folders/cd/uvw/T/TestA456/002/db: read-only"},
	} {
		if a, b := Fingerprint(tc[0]), Fingerprint(tc[1]); a != b {
			t.Errorf("Fingerprint(%q) = %q, Fingerprint(%q) = %q: want the same", tc[0], a, tc[1], b)
		}
	}
}

func TestFingerprintDistinct(t *testing.T) {
	for _, tc := range [][2]string{
		{"flaky test 1 in worker", "flaky test 2 in worker"},
		{"TestFoo/case_1 failed", "TestFoo/case_2 failed"},
		{"TestParse failed", "TestPrint failed"},
		{"undefined: fooBar", "undefined: fooBaz"},
		{"http 404 on /api", "http 500 on /api"},
		{"deadbeef handler crashed", "facade handler crashed"},
		{"worker 3 exited", "worker 30 exited"},
	} {
		if a, b := Fingerprint(tc[0]), Fingerprint(tc[1]); a == b {
			t.Errorf("Fingerprint(%q) = Fingerprint(%q) = %q: want them apart", tc[0], tc[1], a)
		}
	}
	seen := map[string]int{}
	for i := range 400 {
		seen[Fingerprint(fmt.Sprintf("flaky test %d in worker", i))]++
	}
	if len(seen) != 400 {
		t.Errorf("400 titles gave %d fingerprints, want 400", len(seen))
	}
}
