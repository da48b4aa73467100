package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// fuzzMaxLine is the line limit under fuzzing: small, so that over-long lines
// are found as readily as short ones.
const fuzzMaxLine = 256

var stdioSeeds = []string{
	"",
	"\n",
	"\n\n \t\r\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping"}`, // no final newline
	`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\r\n",
	`{"jsonrpc":"2.0","id":"a","result":{}}` + "\n",
	"not json\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping"` + "\n",
	`[{"jsonrpc":"2.0","id":1,"method":"ping"}]` + "\n",
	"{}\n",
	`{"id":3,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":{},"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0"}` + "\n",
	`{"jsonrpc":"2.0","id":77}` + "\n",
	`{"jsonrpc":"2.0","id":"x","result":null}` + "\n",
	"null\n42\n\"s\"\ntrue\n[]\n",
	strings.Repeat("x", fuzzMaxLine+10) + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n",
	strings.Repeat(" ", fuzzMaxLine) + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping","params":` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + "}\n",
	"\u00a0\n",
	"\x00\n",
	"\xff\xfe\n",
	"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}\n",
	"\u2028\n\v\n\f\n",
	`{"jsonrpc":"2.0","id":""}0`, // trailing data after a message
	`{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n",
	`{"jsonrpc":"2.0","id":1,"method":"ping"} x` + "\n",
}

// FuzzStdioLines feeds arbitrary bytes to the stdio transport: it never
// panics or hangs, every message is delivered, and every non-blank line that
// is not a message gets exactly one JSON-RPC error frame, and nothing else is
// written.
func FuzzStdioLines(f *testing.F) {
	for _, s := range stdioSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		wantMsgs, wantErrs := expectLines(input, fuzzMaxLine)
		out := &syncBuffer{}
		tr := &StdioTransport{In: bytes.NewReader(input), Out: out, MaxLine: fuzzMaxLine}
		conn, err := tr.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var got int
		for {
			msg, err := conn.Read(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("read after %d messages: %v (input %q)", got, err, clipBytes(input))
			}
			if msg == nil {
				t.Fatal("nil message")
			}
			// Stand in for the server answering: at the end of input the
			// transport waits for requests to be answered.
			if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
				conn.(*lineConn).answered(req.ID)
			}
			got++
		}
		if got != wantMsgs {
			t.Fatalf("delivered %d messages, want %d (input %q)", got, wantMsgs, clipBytes(input))
		}
		frames := out.lines()
		if len(frames) != len(wantErrs) {
			t.Fatalf("wrote %d error frames, want %d (input %q):\n%s", len(frames), len(wantErrs), clipBytes(input), strings.Join(frames, "\n"))
		}
		for i, fr := range frames {
			checkErrorFrame(t, fr, wantErrs[i])
		}
	})
}

// expectLines works out, independently of the transport, what it must do
// with input: how many messages it delivers, and the error code it answers
// each other non-blank line with.
func expectLines(input []byte, maxLine int) (msgs int, errs []int64) {
	for len(input) > 0 {
		line := input
		if i := bytes.IndexByte(input, '\n'); i >= 0 {
			line, input = input[:i+1], input[i+1:]
		} else {
			input = nil
		}
		if len(line) > maxLine { // the limit counts the line with its newline
			errs = append(errs, jsonrpc.CodeInvalidRequest)
			continue
		}
		line = bytes.Trim(line, " \t\r\n") // JSON's whitespace
		switch {
		case len(line) == 0:
		case !json.Valid(line):
			errs = append(errs, jsonrpc.CodeParseError)
		default:
			msg, err := jsonrpc.DecodeMessage(line)
			if _, resp := msg.(*jsonrpc.Response); err == nil && (!resp || hasResultOrError(line)) {
				msgs++
			} else {
				errs = append(errs, jsonrpc.CodeInvalidRequest)
			}
		}
	}
	return msgs, errs
}

func checkErrorFrame(t *testing.T, frame string, code int64) {
	t.Helper()
	var f map[string]json.RawMessage
	if err := json.Unmarshal([]byte(frame), &f); err != nil {
		t.Fatalf("frame is not a JSON object: %v: %q", err, frame)
	}
	var e struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	id, hasID := f["id"]
	if string(f["jsonrpc"]) != `"2.0"` || !hasID || f["error"] == nil || f["result"] != nil || len(f) != 3 ||
		json.Unmarshal(f["error"], &e) != nil {
		t.Fatalf("not a JSON-RPC error response: %s", frame)
	}
	if e.Code != code {
		t.Fatalf("error code %d, want %d: %s", e.Code, code, frame)
	}
	if code == jsonrpc.CodeParseError && string(id) != "null" {
		t.Fatalf("a parse error must carry id null: %s", frame)
	}
	if string(id) != "null" {
		var v any
		if err := json.Unmarshal(id, &v); err != nil {
			t.Fatal(err)
		}
		switch v.(type) {
		case string, float64:
		default:
			t.Fatalf("id is neither null, a string nor a number: %s", frame)
		}
	}
	if e.Message == "" || len(frame) > 1024 {
		t.Fatalf("error frame message: %s", frame)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := strings.Split(s.b.String(), "\n")
	if out[len(out)-1] != "" {
		return append(out, "(no final newline)")
	}
	return out[:len(out)-1]
}
