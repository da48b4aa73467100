package mcpserver

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// decodeSeeds are messages and near-messages for the comparison with the
// SDK's decoder.
var decodeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_current_task","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":"a-1","method":"ping"}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"x"}}`,
	`{"jsonrpc":"2.0","id":7,"method":""}`,
	`{"jsonrpc":"2.0","id":7,"method":null}`,
	`{"jsonrpc":"2.0","id":7,"method":5}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":-3,"result":{"ok":true}}`,
	`{"jsonrpc":"2.0","id":"r","error":{"code":-32601,"message":"no","data":{"x":[1,2]}}}`,
	`{"jsonrpc":"2.0","id":"r","error":null,"result":1}`,
	`{"jsonrpc":"2.0","id":77}`,
	`{"jsonrpc":"2.0","result":1}`,
	`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
	`{"JSONRPC":"2.0","ID":1,"Method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":[1],"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":"p\u00e9ng","params":"s\"\\"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 999) + strings.Repeat("]", 999) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":"` + strings.Repeat("[", 1100) + `"}`,
	`{"jsonrpc":"2.0","id":1,"method":"ping"} x`,
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	`{"jsonrpc":"2.0","id":1,"method":"ping",}`,
	`null`, `42`, `"s"`, `{}`, ``,
}

// TestDecodeMessageMatchesSDK: the stdio transport's decoder gives the
// SDK's answer (the same message, or an error where the SDK has one) for
// the seeds and for thousands of random mutations of them.
func TestDecodeMessageMatchesSDK(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	inputs := append([]string{}, decodeSeeds...)
	inputs = append(inputs, stdioSeeds...)
	alphabet := []byte(`{}[]":,\ 0123456789.-eE+tnfrul"jsonrpcidmethodparamsresulterror` + "\x00\xff")
	for range 20000 {
		b := []byte(decodeSeeds[rng.IntN(len(decodeSeeds))])
		for range 1 + rng.IntN(3) {
			switch i := rng.IntN(len(b) + 1); {
			case len(b) == 0 || rng.IntN(3) == 0: // insert
				b = append(b[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, b[i:]...)...)
			case rng.IntN(2) == 0 && i < len(b): // delete
				b = append(b[:i], b[i+1:]...)
			case i < len(b): // replace
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		want, werr := jsonrpc.DecodeMessage([]byte(in))
		got, gerr := decodeMessage([]byte(in))
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("decode %q: error %v; the SDK's %v", clip(in), gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decode %q = %#v; the SDK's %#v", clip(in), got, want)
		}
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// BenchmarkDecodeMessage compares the stdio transport's decoder with the
// SDK's on a tools/call.
func BenchmarkDecodeMessage(b *testing.B) {
	line := []byte(decodeSeeds[0])
	for _, c := range []struct {
		name   string
		decode func([]byte) (jsonrpc.Message, error)
	}{{"sdk", jsonrpc.DecodeMessage}, {"stdio", decodeMessage}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.decode(line); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
