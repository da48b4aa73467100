package httpserver

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestIsResponseEvent(t *testing.T) {
	for _, c := range []struct {
		event string
		want  bool
	}{
		{"event: message\nid: S_0\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n", true},
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":17,\"error\":{\"code\":-32602}}\n\n", true},
		{"data: {\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b,c\",\"result\":{}}\n\n", true},
		// A request to the client: an id, then a method.
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"elicitation/create\",\"params\":{}}\n\n", false},
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"sampling/createMessage\"}\n\n", false},
		// A notification: no id, though its text quotes a response.
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"data: {\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"result\\\":{}}\"}}\n\n", false},
		{": ok\n\n", false},
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"unterminated\n\n", false},
		{"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3}\n\n", false},
	} {
		if got := isResponseEvent([]byte(c.event)); got != c.want {
			t.Errorf("isResponseEvent(%q) = %v, want %v", c.event, got, c.want)
		}
	}
}

// TestStreamFlushesUntilTheResponse: what a call sends before its answer
// (a notification) reaches the client while the call runs; the answer
// itself goes out with the end of the response, in one piece.
func TestStreamFlushesUntilTheResponse(t *testing.T) {
	const note = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n"
	const answer = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n"
	read := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // as the SDK does; then a client gone cancels r's context
		jw := &jsonErrors{ResponseWriter: w, id: []byte("7")}
		jw.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(jw, note)
		http.NewResponseController(jw).Flush()
		select { // the client has the notification before the answer is written
		case <-read:
		case <-r.Context().Done(): // the client gave up: the notification never came
			return
		}
		io.WriteString(jw, answer)
		http.NewResponseController(jw).Flush()
	}))
	defer ts.Close()
	// A notification held back would leave the client waiting: it gives up
	// after a while, and the test fails instead of hanging.
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Post(ts.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	var got strings.Builder
	for !strings.HasSuffix(got.String(), "\n\n") {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the notification: %v (have %q)", err, got.String())
		}
		got.WriteString(line)
	}
	if got.String() != note {
		t.Fatalf("first event %q, want the notification", got.String())
	}
	close(read)
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != answer {
		t.Fatalf("rest %q, %v; want the answer", rest, err)
	}
	if len(resp.TransferEncoding) != 1 || resp.TransferEncoding[0] != "chunked" {
		t.Fatalf("a streamed response is chunked; got %v", resp.TransferEncoding)
	}
}

// TestAnswerGoesOutWhole: a call whose stream holds only its answer is sent
// as one response with a Content-Length, not flushed and then ended.
func TestAnswerGoesOutWhole(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	post := func(body string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		req.Header = h.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	h.Set("Mcp-Session-Id", resp.Header.Get("Mcp-Session-Id"))
	h.Set("Mcp-Protocol-Version", "2025-06-18")
	io.Copy(io.Discard, resp.Body)
	if r := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %s", r.Status)
	}
	resp = post(`{"jsonrpc":"2.0","id":"c,1","method":"tools/call","params":{"name":"get_current_task","arguments":{}}}`)
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"id":"c,1","result"`) {
		t.Fatalf("call: %s %s", resp.Status, body)
	}
	if resp.ContentLength != int64(len(body)) || len(resp.TransferEncoding) != 0 {
		t.Fatalf("answer sent with Content-Length %d, Transfer-Encoding %v; want one whole response of %d bytes", resp.ContentLength, resp.TransferEncoding, len(body))
	}
}
