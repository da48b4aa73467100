package httpserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"

	"github.com/cairn-dev/cairn/internal/problem"
)

// An answer is the JSON body an HTTP request is refused with: the status,
// a stable reason code, what was wrong and how to fix it. The server's own
// refusals are problem.Errors (see answerFor); sdkProblem relays the SDK's.
type answer struct {
	Status  int    `json:"status"`
	Reason  string `json:"reason"`
	Problem string `json:"problem"`
	Fix     string `json:"fix,omitempty"`

	// id is the JSON-RPC id of the refused request when it could be read, so
	// that clients match the error to their call and show its message; else
	// null.
	id json.RawMessage
}

// httpStatus is the status a request refused for each kind is answered
// with. The server itself refuses only the transport's kinds (and
// Unavailable, NotFound, Invalid, Internal); the others are a tool's
// answers, which travel inside a 200 response, and have a status here so
// that the table is whole.
var httpStatus = [problem.NumKinds]int{
	problem.Invalid:          http.StatusBadRequest,
	problem.NotFound:         http.StatusNotFound,
	problem.Cycle:            http.StatusConflict,
	problem.NoProject:        http.StatusNotFound,
	problem.Zen:              http.StatusConflict,
	problem.OpenChildren:     http.StatusConflict,
	problem.Closed:           http.StatusConflict,
	problem.Transition:       http.StatusConflict,
	problem.OpenDeps:         http.StatusConflict,
	problem.Claimed:          http.StatusConflict,
	problem.CriteriaMissing:  http.StatusConflict,
	problem.Malformed:        http.StatusUnprocessableEntity,
	problem.Unavailable:      http.StatusServiceUnavailable,
	problem.Storage:          http.StatusServiceUnavailable,
	problem.Cancelled:        http.StatusServiceUnavailable,
	problem.Unauthorized:     http.StatusUnauthorized,
	problem.Forbidden:        http.StatusForbidden,
	problem.TooLarge:         http.StatusRequestEntityTooLarge,
	problem.UnsupportedMedia: http.StatusUnsupportedMediaType,
	problem.TooMany:          http.StatusTooManyRequests,
	problem.Internal:         http.StatusInternalServerError,
}

// answerFor is the answer to a request refused for e: the status of e's
// kind and reason, a code that names the refusal more finely than its kind
// (missing_token, invalid_token…) for clients that match on it. e names no
// action: what to do is in its Fix.
func answerFor(reason string, e *problem.Error) *answer {
	return &answer{Status: httpStatus[e.Kind], Reason: reason, Problem: e.Problem, Fix: e.Fix}
}

// JSON-RPC error codes used in problem bodies.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeServerError    = -32000 // transport-level refusals: auth, origin, size, routing
)

// errorBody is a JSON-RPC error response, so that MCP clients (the Go SDK's
// among them) surface its message; data carries the problem for people and
// scripts.
type errorBody struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    answer `json:"data"`
	} `json:"error"`
}

func (p answer) body() []byte {
	var b errorBody
	b.JSONRPC = "2.0"
	b.ID = json.RawMessage("null")
	if len(p.id) > 0 {
		b.ID = p.id
	}
	b.Error.Code = codeServerError
	switch p.Reason {
	case "parse_error":
		b.Error.Code = codeParseError
	case "invalid_request", "unsupported_media_type", "not_acceptable", "method_not_allowed":
		b.Error.Code = codeInvalidRequest
	}
	b.Error.Message = p.Problem
	if p.Fix != "" {
		b.Error.Message += "; " + p.Fix
	}
	b.Error.Data = p
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // "<token>" reads better than "\u003ctoken\u003e"
	_ = enc.Encode(b)
	return out.Bytes()
}

func writeProblem(w http.ResponseWriter, p answer) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_, _ = w.Write(p.body())
}

// sdkProblem turns a plain-text error answer of the SDK's handler into an
// answer with a fix. The SDK's refusals are typed by their status alone, and
// their words are its own to change: they are shown as the problem, never
// read. Where one status has several causes (400), the request r tells them
// apart by what it sent: the headers the SDK checks.
func sdkProblem(status int, text string, r *http.Request) answer {
	p := answer{Status: status, Reason: reasonFor(status), Problem: strings.TrimSpace(text)}
	switch status {
	case http.StatusUnsupportedMediaType:
		p.Fix = "send Content-Type: application/json with a JSON-RPC message"
	case http.StatusNotFound:
		// The SDK's only plain-text 404: no such session (or one closing).
		p.Reason = "session_not_found"
		p.Fix = "the session ended (idle timeout, DELETE or a restart); initialize a new one without Mcp-Session-Id"
	case http.StatusForbidden:
		// Host and Origin are checked before the handler (its own checks
		// are off), so its only 403 is a session another token started.
		p.Reason = "session_token_mismatch"
		p.Fix = "a session belongs to the token that started it; send that token, or initialize a new session"
	case http.StatusMethodNotAllowed:
		p.Fix = "send JSON-RPC messages with POST; GET and DELETE need a session (not in stateless mode)"
	case http.StatusRequestEntityTooLarge:
		p.Fix = "send a smaller message"
	case http.StatusBadRequest:
		p.Reason, p.Fix = badRequest(r)
	}
	return p
}

// badRequest says which of the SDK's 400 refusals r met, from what r sent,
// in the order the SDK checks: the protocol version header, then (on a
// POST) the media types it accepts, then the session header that GET and
// DELETE need; else the body, which is not one JSON-RPC message.
func badRequest(r *http.Request) (reason, fix string) {
	if r == nil {
		return "invalid_request", invalidBodyFix
	}
	if v := r.Header.Get("MCP-Protocol-Version"); v != "" && !slices.Contains(mcp.SupportedProtocolVersions(), v) {
		return "unsupported_protocol_version", "send an MCP-Protocol-Version this server lists, or omit the header and initialize again"
	}
	jsonOK, streamOK := acceptable(r.Header.Values("Accept"))
	switch {
	case r.Method == http.MethodPost && !(jsonOK && streamOK):
		return "not_acceptable", "send Accept: application/json, text/event-stream"
	case r.Method == http.MethodGet && !streamOK:
		return "not_acceptable", "send Accept: text/event-stream"
	case (r.Method == http.MethodGet || r.Method == http.MethodDelete) && r.Header.Get("Mcp-Session-Id") == "":
		return "session_required", "send the Mcp-Session-Id header the initialize response gave you"
	}
	return "invalid_request", invalidBodyFix
}

const invalidBodyFix = "send one JSON-RPC message (or a batch) as the body, per the MCP Streamable HTTP transport"

// acceptable reports whether Accept header values take JSON and an event
// stream: a media range that covers each (application/json or
// application/*, text/event-stream or text/*, */*), parameters aside.
func acceptable(values []string) (jsonOK, streamOK bool) {
	for _, v := range values {
		for r := range strings.SplitSeq(v, ",") {
			base, _, _ := strings.Cut(r, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				jsonOK = true
			case "text/event-stream", "text/*":
				streamOK = true
			case "*/*":
				jsonOK, streamOK = true, true
			}
		}
	}
	return jsonOK, streamOK
}

func reasonFor(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request"
	case http.StatusUnauthorized:
		return "unauthorized"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusNotFound:
		return "not_found"
	case http.StatusMethodNotAllowed:
		return "method_not_allowed"
	case http.StatusRequestEntityTooLarge:
		return "body_too_large"
	case http.StatusUnsupportedMediaType:
		return "unsupported_media_type"
	case http.StatusServiceUnavailable:
		return "unavailable"
	}
	return "http_" + strconv.Itoa(status)
}

// jsonErrors makes every plain-text error answer of the wrapped handler (the
// SDK's http.Error calls) a JSON problem. Everything else, SSE streams
// included, passes through untouched.
type jsonErrors struct {
	http.ResponseWriter
	req       *http.Request   // what sdkProblem tells a 400's causes apart by
	id        json.RawMessage // the request's JSON-RPC id, if any
	intercept bool
	status    int
	buf       bytes.Buffer
	// onHeader, if set, runs once as the response's header is written,
	// before the client can see it.
	onHeader func()
	// answered: the response to the POST's one request (id) has been
	// written, so nothing follows it on this stream; see Flush.
	answered bool
}

func (j *jsonErrors) headerOut() {
	if f := j.onHeader; f != nil {
		j.onHeader = nil
		f()
	}
}

func (j *jsonErrors) WriteHeader(status int) {
	j.headerOut()
	if j.status == 0 {
		j.status = status
	}
	if status >= 400 && strings.HasPrefix(j.Header().Get("Content-Type"), "text/plain") {
		j.intercept = true
		return
	}
	j.ResponseWriter.WriteHeader(status)
}

func (j *jsonErrors) Write(b []byte) (int, error) {
	if j.intercept {
		if j.buf.Len() < 4096 {
			j.buf.Write(b[:min(len(b), 4096-j.buf.Len())])
		}
		return len(b), nil
	}
	j.headerOut()
	if j.status == 0 {
		j.status = http.StatusOK
	}
	if j.id != nil && !j.answered {
		j.answered = isResponseEvent(b)
	}
	return j.ResponseWriter.Write(b)
}

// Flush lets SSE responses stream: a progress notification, a log message
// or a request to the client reaches it while the call runs. The response
// to the POST's one request is the stream's last event, and the SDK
// flushes it before it returns; that flush is left to net/http, which sends
// the whole answer in one write (with a Content-Length when it is short)
// as the handler returns, instead of one write for the event and another
// for the end of the chunked body.
func (j *jsonErrors) Flush() {
	if !j.intercept && !j.answered {
		if f, ok := j.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (j *jsonErrors) Unwrap() http.ResponseWriter { return j.ResponseWriter }

func (j *jsonErrors) finish() {
	if j.intercept {
		p := sdkProblem(j.status, j.buf.String(), j.req)
		if p.Reason != "session_not_found" {
			// A null id keeps a 404 a lost session to the SDK's client
			// (ErrSessionMissing), which then stops using it.
			p.id = j.id
		}
		writeProblem(j.ResponseWriter, p)
	}
}

// isResponseEvent reports whether b, one write of the SDK's, is an SSE
// event carrying a JSON-RPC response: its data starts
// {"jsonrpc":"2.0","id":ID, then "result" or "error" (the SDK's field
// order). A request to the client has "method" after the id, and a
// notification no id, so neither is taken for one. A POST with one request
// gets at most one response on its stream, so it is that request's.
func isResponseEvent(b []byte) bool {
	const head = `{"jsonrpc":"2.0","id":`
	i := bytes.Index(b, []byte("data: "+head))
	if i < 0 || (i > 0 && b[i-1] != '\n') {
		return false
	}
	rest := b[i+len("data: "+head):]
	if len(rest) > 0 && rest[0] == '"' { // a string id: skip to its closing quote
		j := 1
		for j < len(rest) && rest[j] != '"' {
			if rest[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(rest) {
			return false
		}
		rest = rest[j+1:]
	} else if k := bytes.IndexByte(rest, ','); k >= 0 {
		rest = rest[k:]
	} else {
		return false
	}
	return bytes.HasPrefix(rest, []byte(`,"result":`)) || bytes.HasPrefix(rest, []byte(`,"error":`))
}

// requestID returns the id of a single JSON-RPC request in body, or nil.
func requestID(body []byte) json.RawMessage {
	if !json.Valid(body) {
		return nil
	}
	id, _ := peekRequest(body)
	return id
}

// peekRequest returns requestID's id and whether body, valid JSON, is an
// initialize request (the one that makes a session), from one decode: every
// POST reads both. It decodes with segmentio's Parse (the SDK's JSON
// library), which reads the bytes in place: encoding/json took about 12 µs
// a call (2% of the server's CPU under load.sh), Parse about 1 µs; on
// valid JSON both read the same id and method
// (TestPeekRequestMatchesEncodingJSON).
func peekRequest(body []byte) (id json.RawMessage, initialize bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"` // raw: a method of another type leaves the id alone
	}
	if rest, err := segjson.Parse(body, &m, 0); err != nil || len(bytes.TrimSpace(rest)) > 0 {
		return nil, false
	}
	if len(m.Method) > 0 && m.Method[0] == '"' {
		var method string
		_, err := segjson.Parse(m.Method, &method, 0)
		initialize = err == nil && method == "initialize"
	}
	if len(m.ID) == 0 || string(m.ID) == "null" {
		return nil, initialize
	}
	if m.ID[0] != '"' && (m.ID[0] < '0' || m.ID[0] > '9') && m.ID[0] != '-' {
		return nil, initialize // ids are strings or numbers
	}
	return m.ID, initialize
}
