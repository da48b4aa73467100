package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkEncoded encodes v as the SDK encodes a result: encoding/json without
// HTML escaping, no trailing newline.
func sdkEncoded(t *testing.T, v any) json.RawMessage {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// TestEncodeMessageMatchesSDK: the stdio transport writes every message
// byte for byte as jsonrpc.EncodeMessage does, answers whose result it
// puts together itself included.
func TestEncodeMessageMatchesSDK(t *testing.T) {
	// Not compact, so not the SDK's: its spaces are kept (the same JSON).
	spaced := json.RawMessage("{ \"spaced\" : [ 1 , 2 ] }")
	text := "YOU ARE HERE: <b> & \"quoted\"\nline two\u2028\u2029 tab\t é 🙂 \x01"
	results := []json.RawMessage{
		sdkEncoded(t, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}},
			StructuredContent: map[string]any{"title": text, "n": 3, "list": []any{1.5, nil, true}}}),
		sdkEncoded(t, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, IsError: true}),
		sdkEncoded(t, map[string]any{}),
		json.RawMessage(`{"html":"\u003cb\u003e"}`), // json.Marshal's escapes, kept
		json.RawMessage(`1`), json.RawMessage(`"s"`), json.RawMessage(`null`), json.RawMessage(`[]`),
		spaced,
		json.RawMessage("{\"a\":\n1}"), // goes through EncodeMessage: one message a line
	}
	var ids []jsonrpc.ID
	for _, v := range []any{0.0, 1.0, -7.0, float64(1 << 53), -float64(1 << 53), "a-1", "<&>\u2028", ""} {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	var msgs []jsonrpc.Message
	for _, id := range ids {
		for _, r := range results {
			msgs = append(msgs, &jsonrpc.Response{ID: id, Result: r})
		}
		msgs = append(msgs,
			&jsonrpc.Response{ID: id},
			&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "no <such> method"}},
			&jsonrpc.Response{ID: id, Error: errors.New("plain"), Result: results[0]},
			&jsonrpc.Request{ID: id, Method: "ping", Params: results[2]})
	}
	msgs = append(msgs, &jsonrpc.Response{Result: results[0]}, // no id
		&jsonrpc.Request{Method: "notifications/tools/list_changed"})
	for i, m := range msgs {
		want, werr := jsonrpc.EncodeMessage(m)
		got, gerr := encodeMessage(m)
		if r, ok := m.(*jsonrpc.Response); ok && bytes.Equal(r.Result, spaced) && r.Error == nil {
			var c bytes.Buffer
			if err := json.Compact(&c, got); err != nil {
				t.Fatal(err)
			}
			got = c.Bytes()
		}
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Errorf("message %d (%#v):\n got %s (%v)\nwant %s (%v)", i, m, got, gerr, want, werr)
		}
		if bytes.Contains(got, []byte("\n")) {
			t.Errorf("message %d spans lines: %s", i, got)
		}
	}
}

// TestEncodeMessageWritesOneLine: what the transport writes for an answer
// is one line a JSON-RPC decoder reads back as the same answer.
func TestEncodeMessageWritesOneLine(t *testing.T) {
	id, err := jsonrpc.MakeID(42.0)
	if err != nil {
		t.Fatal(err)
	}
	res := sdkEncoded(t, &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a\nb"}}})
	var out bytes.Buffer
	c := &lineConn{out: &out, pending: map[jsonrpc.ID]bool{}}
	if err := c.Write(t.Context(), &jsonrpc.Response{ID: id, Result: res}); err != nil {
		t.Fatal(err)
	}
	line := out.String()
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Fatalf("not one line: %q", line)
	}
	m, err := jsonrpc.DecodeMessage([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.ID != id || !bytes.Equal(r.Result, res) || r.Error != nil {
		t.Fatalf("read back %#v", m)
	}
}
