package tool

import "testing"

// TestValidText pins the UTF-8 check that DecodeArgs adds to encoding/json.
func TestValidText(t *testing.T) {
	for raw, want := range map[string]bool{
		`"plain"`:                    true,
		`"é ☃ 😀"`:                    true,
		`"\u00e9"`:                   true,
		`"\ud83d\ude00"`:             true, // a surrogate pair
		`"\uD83D\uDE00"`:             true,
		`"\\ud800"`:                  true, // an escaped backslash, then text
		`"\\\\ud800"`:                true,
		`"\ud800"`:                   false, // a lone high surrogate
		`"\udc00"`:                   false, // a lone low surrogate
		`"\ud800x"`:                  false,
		`"\ud800\u0041"`:             false, // high, then not a low
		`"\ud800\ud800\udc00"`:       false,
		`"\\\ud800"`:                 false, // a backslash, then a lone surrogate
		"\"a\xffb\"":                 false,
		"\"\xed\xa0\x80\"":           false, // a surrogate encoded in UTF-8
		"\"\xc3\x28\"":               false,
		`12`:                         true,
		`{"a":"\ud83d\ude00x"}`:      true,
		`["\ud83d","\ude00"]`:        false,
		`"\u12"`:                     true, // not an escape json accepts; unmarshal reports it
		`"` + "\\ud800\\u" + `"`:     false,
		`"\ud800\udbff"`:             false,
		`"\udbff\udfff"`:             true,
		`"\ue000\uffff\u0000"`:       true,
		`"\uDBFF\uDFFF\uD800\uDC00"`: true,
	} {
		if got := validText([]byte(raw)); got != want {
			t.Errorf("validText(%s) = %v, want %v", raw, got, want)
		}
	}
}
