package commitmsg

import (
	"go/parser"
	"testing"
)

func TestExprString(t *testing.T) {
	for _, src := range []string{
		"*pkg.Client",
		"map[string][]*T",
		"<-chan error",
		"chan<- int",
		"func(int, ...string) (bool, error)",
		"[4]byte",
		"Set[K, V]",
		"~int | ~string",
		"struct{A int; B, C string}",
		"interface{Read(p []byte) (int, error)}",
	} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		want := src
		if src == "interface{Read(p []byte) (int, error)}" {
			want = "interface{Read([]byte) (int, error)}" // parameter names do not count
		}
		if got := exprString(e); got != want {
			t.Errorf("exprString(%s) = %s, want %s", src, got, want)
		}
	}
}
