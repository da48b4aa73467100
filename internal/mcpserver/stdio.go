package mcpserver

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// DefaultMaxLine bounds one inbound stdio message. A tool argument may carry
// a 1 MiB body, JSON-escaped up to six times its size in the worst case.
const DefaultMaxLine = 8 << 20

// StdioTransport is newline-delimited JSON-RPC over a reader and a writer
// (stdin and stdout), like the SDK's own, with one difference that matters to
// a long-lived server: a line that is not a valid JSON-RPC message is
// answered with a JSON-RPC error and skipped, instead of ending the session.
// One stray line from a client must not cost an agent its working memory.
//
// When input ends, the requests already received are still answered (and
// their writes made) before the connection reports the end, so a client that
// pipes its calls in and closes stdin loses nothing; DrainTimeout bounds the
// wait.
type StdioTransport struct {
	In           io.Reader
	Out          io.Writer
	MaxLine      int           // default DefaultMaxLine
	DrainTimeout time.Duration // default DefaultDrainTimeout
	MaxInFlight  int           // requests read and not yet answered; default DefaultMaxInFlight
	Logger       *slog.Logger
}

// DefaultDrainTimeout bounds how long requests in flight at the end of
// input may take to be answered.
const DefaultDrainTimeout = 30 * time.Second

// Connect implements mcp.Transport.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	maxLine := t.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	log := t.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	drain := t.DrainTimeout
	if drain <= 0 {
		drain = DefaultDrainTimeout
	}
	c := &lineConn{
		out:      t.Out,
		log:      log,
		incoming: make(chan jsonrpc.Message),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]bool{},
		drain:    drain,
		slots:    make(chan struct{}, cmp.Or(t.MaxInFlight, DefaultMaxInFlight)),
	}
	go c.readLoop(bufio.NewReaderSize(t.In, 64<<10), maxLine)
	return c, nil
}

type lineConn struct {
	out io.Writer
	log *slog.Logger
	wmu sync.Mutex

	incoming chan jsonrpc.Message // closed when input ends; then readErr is set
	readErr  error

	closeOnce sync.Once
	closed    chan struct{}

	// pending is the requests received and not yet answered; idle, when
	// set, is closed once pending is empty.
	pmu     sync.Mutex
	pending map[jsonrpc.ID]bool
	idle    chan struct{}
	drain   time.Duration
	// slots holds a token for each request in pending: at MaxInFlight
	// the reader stops reading until one is answered, so a client that
	// writes requests and never reads the answers fills its own pipe, not
	// this process's memory (200,000 pings grew it past 1 GB).
	slots chan struct{}
}

// DefaultMaxInFlight bounds the requests read and not yet answered.
const DefaultMaxInFlight = 128

// track notes a request that must be answered before the end of input is
// reported, waiting for a slot when MaxInFlight are unanswered, and forgets
// one the client cancelled (it gets no answer). It reports false when the
// connection closed while it waited.
func (c *lineConn) track(msg jsonrpc.Message) bool {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return true
	}
	if req.ID.IsValid() {
		select {
		case c.slots <- struct{}{}:
		case <-c.closed:
			return false
		}
		c.pmu.Lock()
		if c.pending[req.ID] {
			<-c.slots // the id is in flight already: one slot for both
		}
		c.pending[req.ID] = true
		c.pmu.Unlock()
		return true
	}
	if req.Method == "notifications/cancelled" {
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
				c.answered(id)
			}
		}
	}
	return true
}

// answered forgets a request once its response is written.
func (c *lineConn) answered(id jsonrpc.ID) {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if !c.pending[id] {
		return
	}
	delete(c.pending, id)
	<-c.slots
	if len(c.pending) == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// drained waits until every request received has been answered, the
// connection is closed, ctx ends or the drain timeout passes.
func (c *lineConn) drained(ctx context.Context) error {
	c.pmu.Lock()
	n := len(c.pending)
	if n == 0 {
		c.pmu.Unlock()
		return nil
	}
	idle := make(chan struct{})
	c.idle = idle
	c.pmu.Unlock()
	t := time.NewTimer(c.drain)
	defer t.Stop()
	select {
	case <-idle:
	case <-c.closed:
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		c.log.Warn("input ended; gave up waiting for requests in flight", "pending", n, "waited", c.drain)
	}
	return nil
}

func (c *lineConn) readLoop(r *bufio.Reader, maxLine int) {
	defer close(c.incoming)
	for {
		line, tooLong, err := readLine(r, maxLine)
		if tooLong {
			c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message too large: over %d bytes on one line; send a smaller message", maxLine))
		} else if line = bytes.Trim(line, jsonSpace); len(line) > 0 {
			if msg, ok := c.decode(line); ok {
				if !c.track(msg) {
					return
				}
				select {
				case c.incoming <- msg:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			c.readErr = err
			if errors.Is(err, io.EOF) {
				c.readErr = io.EOF
			}
			return
		}
	}
}

// jsonSpace is JSON's whitespace. A line of other (Unicode) spaces is not
// blank: it is not JSON, and is answered as such.
const jsonSpace = " \t\r\n"

// readLine reads one line. A line over max bytes is consumed and discarded,
// and reported as too long.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// decode parses one line; a line that is not a message is answered here.
func (c *lineConn) decode(line []byte) (jsonrpc.Message, bool) {
	// Validate first: the SDK's decoder reads the first JSON value and
	// ignores what follows it, so `{...} junk` or two messages on one line
	// would pass, the rest silently dropped.
	if !json.Valid(line) {
		c.reject(nil, jsonrpc.CodeParseError, "parse error: the line is not valid JSON; send one JSON-RPC message per line")
		return nil, false
	}
	msg, err := decodeMessage(line)
	if resp, ok := msg.(*jsonrpc.Response); err == nil && ok && !hasResultOrError(line) {
		// The SDK reads {"jsonrpc":"2.0","id":77} as a response with no
		// result, answers nothing and drops it; the sender waits forever.
		raw, _ := json.Marshal(resp.ID.Raw())
		c.reject(raw, jsonrpc.CodeInvalidRequest, `invalid request: a message with an id needs a "method" (a request) or a "result" or "error" (a response)`)
		return nil, false
	}
	if err == nil {
		return msg, true
	}
	if line[0] == '[' {
		c.reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: batches are not supported; send one JSON-RPC message per line")
		return nil, false
	}
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(line, &probe)
	id := probe.ID
	if len(id) == 0 || (id[0] != '"' && !isNumber(id)) {
		id = nil
	}
	c.reject(id, jsonrpc.CodeInvalidRequest, `invalid request: expected a JSON-RPC 2.0 message with "jsonrpc":"2.0" and a method or a result`)
	return nil, false
}

// decodeMessage is jsonrpc.DecodeMessage without its allocations: the SDK
// (v1.8.0, internal/json.Unmarshal) hands the bytes to segmentio's
// streaming Decoder through a bytes.Reader, and that Decoder allocates a
// 32 KiB read buffer (a large object to the Go allocator, zeroed each
// time) for each of the two values DecodeMessage reads, 64 KiB a message.
// This parses the line in place with the same library, flag and depth
// limit, so it takes and refuses the same messages as the SDK
// (TestDecodeMessageMatchesSDK).
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	if err := checkDepth(data, maxJSONDepth); err != nil {
		return nil, err
	}
	var msg wireMessage
	if _, err := segjson.Parse(data, &msg, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if msg.VersionTag != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", msg.VersionTag, "2.0")
	}
	id, err := jsonrpc.MakeID(msg.ID)
	if err != nil {
		return nil, err
	}
	if len(msg.Method) > 0 {
		// The "method" key was present: a request, whatever its value.
		var method string
		if _, err := segjson.Parse(msg.Method, &method, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		return &jsonrpc.Request{Method: method, ID: id, Params: msg.Params}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("invalid request: a response without an id")
	}
	resp := &jsonrpc.Response{ID: id, Result: msg.Result}
	if msg.Error != nil {
		resp.Error = msg.Error // not a typed nil
	}
	return resp, nil
}

// wireMessage is a JSON-RPC message on the wire, as the SDK decodes it.
type wireMessage struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"` // raw: present, even as "", makes a request
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *jsonrpc.Error  `json:"error,omitempty"`
}

// maxJSONDepth is the SDK's limit on the nesting of a message.
const maxJSONDepth = 1000

// checkDepth refuses JSON nested deeper than max objects and arrays, as the
// SDK does before it decodes a message.
func checkDepth(data []byte, max int) error {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > max {
				return fmt.Errorf("json: exceeded maximum nesting depth of %d", max)
			}
		case (b == '}' || b == ']') && depth > 0:
			depth--
		}
	}
	return nil
}

// hasResultOrError reports whether a JSON object has a "result" or an
// "error" member.
func hasResultOrError(line []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	_, r := m["result"]
	_, e := m["error"]
	return r || e
}

func isNumber(b []byte) bool {
	var f float64
	return json.Unmarshal(b, &f) == nil
}

// errorFrame is a JSON-RPC error response. It is encoded here rather than
// with jsonrpc.EncodeMessage because an error about an unreadable message
// must carry "id": null, which the SDK's encoder omits.
type errorFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (c *lineConn) reject(id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	f := errorFrame{JSONRPC: "2.0", ID: id}
	f.Error.Code, f.Error.Message = code, message
	b, _ := json.Marshal(f)
	c.log.Warn("rejected an inbound line", "code", code, "reason", message)
	if err := c.writeLine(b); err != nil {
		c.log.Error("write error response", "error", err)
	}
}

func (c *lineConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.out.Write(append(b, '\n'))
	return err
}

// Read implements mcp.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case msg, ok := <-c.incoming:
		if !ok {
			if err := c.drained(ctx); err != nil {
				return nil, err
			}
			return nil, c.readErr
		}
		return msg, nil
	}
}

// Write implements mcp.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b, err := encodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	err = c.writeLine(b)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.answered(resp.ID)
	}
	return err
}

// encodeMessage is jsonrpc.EncodeMessage, byte for byte, with one pass over
// an answer fewer. The SDK hands a response over with its result encoded
// already, by its own encoder, which leaves it compact; EncodeMessage would
// compact it once more (a scan and a copy of every byte of every answer, 8%
// of the server's CPU in a get_task). A response with a numeric id and a
// result, as every answer to the SDK's clients and to TypeScript's is, is
// put together around the result as it is; anything else goes through the
// SDK. A result that is not compact, which only another encoder could make,
// keeps its spaces (the same JSON); one with a newline goes through the SDK,
// so that a line is always one message. The buffer has room for writeLine's
// newline.
func encodeMessage(msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 && bytes.IndexByte(r.Result, '\n') < 0 {
		if id, ok := r.ID.Raw().(int64); ok {
			const head, mid = `{"jsonrpc":"2.0","id":`, `,"result":`
			b := make([]byte, 0, len(head)+20+len(mid)+len(r.Result)+2)
			b = append(b, head...)
			b = strconv.AppendInt(b, id, 10)
			b = append(b, mid...)
			b = append(b, r.Result...)
			return append(b, '}'), nil
		}
	}
	return jsonrpc.EncodeMessage(msg)
}

// Close implements mcp.Connection.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection; stdio has no session id.
func (c *lineConn) SessionID() string { return "" }
