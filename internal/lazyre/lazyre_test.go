package lazyre

import "testing"

func TestCompiledOnFirstUse(t *testing.T) {
	l := New(`a(b+)`)
	if l.re != nil {
		t.Fatal("compiled before its first use")
	}
	if m := l.FindStringSubmatch("xabbby"); len(m) != 2 || m[1] != "bbb" {
		t.Fatalf("FindStringSubmatch: %q", m)
	}
	if l.Compile() != l.re || l.String() != `a(b+)` {
		t.Fatal("compiled twice, or the source lost")
	}
}
