package httpserver

import (
	"context"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkHTTPCall measures one tool call (get_current_task, on a real
// SQLite store) through the whole HTTP surface: the SDK's client, the
// checks, the SDK's handler and back, in each mode. With tokens, the bearer
// check is included.
//
//	go test -run '^$' -bench BenchmarkHTTPCall -benchtime 2000x ./internal/httpserver
func BenchmarkHTTPCall(b *testing.B) {
	token := Token{Name: "bench", Secret: "bench-token-0123456789", Projects: []string{"*"}}
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"stateful-sse", Config{}},
		{"stateful-json", Config{JSONResponse: true}},
		{"stateless-json", Config{Stateless: true, JSONResponse: true}},
		{"stateful-sse-token", Config{Tokens: []Token{token}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			_, ts := newTestServer(b, c.cfg)
			hdr := http.Header{"X-Cairn-Agent": {"bench"}}
			if len(c.cfg.Tokens) > 0 {
				hdr.Set("Authorization", "Bearer "+token.Secret)
			}
			ctx := context.Background()
			client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
			sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{
				Endpoint:   ts.URL + "/mcp",
				HTTPClient: &http.Client{Transport: addHeaders{hdr}},
				MaxRetries: -1,
			}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer sess.Close()
			params := &mcp.CallToolParams{Name: "get_current_task", Arguments: map[string]any{}}
			if _, err := sess.CallTool(ctx, params); err != nil { // opens the store
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res, err := sess.CallTool(ctx, params)
				if err != nil || res.IsError {
					b.Fatalf("call: %v %+v", err, res)
				}
			}
		})
	}
}

type addHeaders struct{ h http.Header }

func (a addHeaders) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range a.h {
		r.Header[k] = v
	}
	return http.DefaultTransport.RoundTrip(r)
}
