package mcpserver

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestStdioStopsReadingAtMaxInFlight: a client that writes requests and
// never reads the answers fills its own pipe, not the server's memory
// (issue 34, attack 8: 200,000 pings grew it past 1 GB). With MaxInFlight
// unanswered the reader waits; each answer lets one more in.
func TestStdioStopsReadingAtMaxInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var in strings.Builder
		for i := range 10 {
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i+1)
		}
		conn, err := (&StdioTransport{In: strings.NewReader(in.String()), Out: io.Discard, MaxInFlight: 4}).Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		got := make(chan jsonrpc.Message, 10)
		go func() {
			for {
				msg, err := conn.Read(context.Background())
				if err != nil {
					close(got)
					return
				}
				got <- msg
			}
		}()
		synctest.Wait()
		if n := len(got); n != 4 {
			t.Fatalf("%d requests read with none answered, want 4", n)
		}
		first := (<-got).(*jsonrpc.Request)
		if err := conn.Write(context.Background(), &jsonrpc.Response{ID: first.ID, Result: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := len(got); n != 4 { // three left, one more read
			t.Fatalf("%d unanswered requests read after one answer, want 4", n)
		}
	})
}
