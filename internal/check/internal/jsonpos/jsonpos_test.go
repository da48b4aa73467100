package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toAny turns a tree into what encoding/json decodes, last key winning.
func toAny(n *Node) any {
	switch n.Kind {
	case Null:
		return nil
	case Bool:
		return n.Str == "true"
	case Number:
		f, _ := n.Float()
		return f
	case String:
		return n.Str
	case Array:
		out := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			out[i] = toAny(e)
		}
		return out
	}
	out := map[string]any{}
	for _, m := range n.Members {
		out[m.Key] = toAny(m.Value)
	}
	return out
}

func TestParse_KeepsPositionsAndRepeatedKeys(t *testing.T) {
	src := "{\n  \"a\": 1,\n  \"b\": {\"c\": \"x\\u00e9\"},\n  \"a\": [true, null]\n}\n"
	n, err := Parse([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := NewLines([]byte(src))
	type got struct {
		Key       string
		Line, Col int
		Kind      string
	}
	var have []got
	for _, m := range n.Members {
		l, c := lines.Pos(m.KeyOff)
		have = append(have, got{m.Key, l, c, m.Value.Kind.String()})
	}
	want := []got{{"a", 2, 3, "number"}, {"b", 3, 3, "object"}, {"a", 4, 3, "array"}}
	if d := cmp.Diff(want, have); d != "" {
		t.Errorf("members (-want +got):\n%s", d)
	}
	if s := n.Get("b").Get("c").Str; s != "xé" {
		t.Errorf("decoded string %q", s)
	}
	if n.Get("a").Kind != Array {
		t.Errorf("Get should return the last of repeated keys")
	}
}

func TestParse_Errors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		json5     bool
		off       int
		msg       string
	}{
		{"trailing comma", `{"a": 1,}`, false, 8, "expected an object key"},
		{"missing colon", `{"a" 1}`, false, 5, "expected ':'"},
		{"unclosed", `{"a": [1, 2`, false, 11, "not closed"},
		{"bad escape", `["\q"]`, false, 2, `invalid escape \q`},
		{"comment in JSON", "{// x\n}", false, 1, "expected an object key"},
		{"leading zero", `[01]`, false, 2, "unexpected character '1' after an array element"},
		{"depth", strings.Repeat("[", 600), false, 512, "nesting deeper"},
		{"open comment", "{/* x", true, 1, "not closed"},
		{"empty", "  ", false, 2, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src), Options{JSON5: tc.json5})
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("want a SyntaxError, got %v", err)
			}
			if se.Off != tc.off || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("got offset %d %q, want offset %d and %q", se.Off, se.Msg, tc.off, tc.msg)
			}
		})
	}
}

func TestParse_JSON5(t *testing.T) {
	src := `// tokens
{
  color: {
    'brand': { $value: '#fff', }, /* trailing comma */
    hex: 0x1F, inf: -Infinity, half: .5, plus: +1,
  },
}`
	n, err := Parse([]byte(src), Options{JSON5: true})
	if err != nil {
		t.Fatal(err)
	}
	c := n.Get("color")
	if v := c.Get("brand").Get("$value").Str; v != "#fff" {
		t.Errorf("brand = %q", v)
	}
	for key, want := range map[string]float64{"hex": 31, "inf": math.Inf(-1), "half": 0.5, "plus": 1} {
		if f, ok := c.Get(key).Float(); !ok || f != want {
			t.Errorf("%s = %v %v, want %v", key, f, ok, want)
		}
	}
}

func TestLines(t *testing.T) {
	l := NewLines([]byte("ab\ncd\n\nef"))
	for off, want := range map[int][2]int{0: {1, 1}, 1: {1, 2}, 3: {2, 1}, 6: {3, 1}, 8: {4, 2}} {
		if line, col := l.Pos(off); line != want[0] || col != want[1] {
			t.Errorf("Pos(%d) = %d:%d, want %d:%d", off, line, col, want[0], want[1])
		}
	}
}

// FuzzParse holds strict mode to encoding/json: the same documents parse,
// to the same values; JSON5 mode must never panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,2.5e3,-0,"x\ud83d\ude00"]`, `{"a":{"a":[]},"a":null}`, `"\u0000"`, `1.`, `{,}`, "{a:'b',}", "[0x1,+.5e1,NaN]", `"\ud800x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = Parse(b, Options{JSON5: true})
		n, err := Parse(b, Options{})
		body := bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
		valid := json.Valid(body)
		if (err == nil) != valid {
			if err != nil && strings.Contains(err.Error(), "nesting deeper") {
				return
			}
			t.Fatalf("Parse error %v but json.Valid %v for %q", err, valid, b)
		}
		if err != nil {
			return
		}
		var want any
		if err := json.Unmarshal(body, &want); err != nil {
			return // a number out of float64 range: encoding/json refuses to decode it
		}
		if d := cmp.Diff(want, toAny(n), cmp.Comparer(func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) })); d != "" {
			t.Fatalf("value differs for %q (-encoding/json +jsonpos):\n%s", b, d)
		}
	})
}
