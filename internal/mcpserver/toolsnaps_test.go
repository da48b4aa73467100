package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
)

// Tool-schema snapshots, like github-mcp-server's toolsnaps: every tool as it
// goes over the wire in tools/list is kept in __toolsnaps__/<name>.snap, so a
// change to a name, a description, an argument or an annotation (what the
// model reads, and pays for in tokens on every turn) shows up in review.

const (
	snapDir       = "__toolsnaps__"
	updateEnv     = "UPDATE_TOOLSNAPS"
	updateCommand = "UPDATE_TOOLSNAPS=true go test ./internal/mcpserver -run TestToolSnaps"
	// targetTokensPerTool is the budget the tool surface aims for on average,
	// over every toolset; the test fails above it. It was 90; issue 28 (the
	// insight toolset, whose answers carry intervals that need saying) lets
	// it rise to 100, and the hands toolset (each check's params) keeps
	// within it.
	targetTokensPerTool = 100
	// maxDefaultTokens is what tools/list may cost with the default toolsets
	// (no --toolsets): an agent pays it on every turn, so the test fails
	// above it (issues 12 and 16).
	//
	// Both budgets count what the model reads: each tool's name, description
	// and input schema. Annotations are for the client (whether to ask
	// before a call); the model APIs' tool definitions have no field for
	// them, so they cost no tokens on a turn. They are reported beside it
	// (issue 32 made every hint explicit: about 20 tokens on a writing tool).
	maxDefaultTokens = 3000
)

func TestToolSnaps(t *testing.T) {
	update := os.Getenv(updateEnv) == "true" || os.Getenv(updateEnv) == "1"
	result, tools := listToolsOverTheWire(t, "all")

	if update {
		if err := os.MkdirAll(snapDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seen := make(map[string]bool)
	for _, tl := range tools {
		seen[tl.name+".snap"] = true
		path := filepath.Join(snapDir, tl.name+".snap")
		want, err := os.ReadFile(path)
		switch {
		case update:
			if err != nil || !bytes.Equal(want, tl.snap) {
				if err := os.WriteFile(path, tl.snap, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("updated %s", path)
			}
		case errors.Is(err, os.ErrNotExist):
			t.Errorf("tool %s has no snapshot %s.\nReview the tool below, then run:\n  %s\n\n%s", tl.name, path, updateCommand, tl.snap)
		case err != nil:
			t.Fatal(err)
		case !bytes.Equal(want, tl.snap):
			t.Errorf("tool %s differs from its snapshot %s (- snapshot, + now):\n%s\nIf the change is intended, review it and run:\n  %s",
				tl.name, path, lineDiff(string(want), string(tl.snap)), updateCommand)
		}
	}
	// A snapshot of a tool that is no longer served is stale.
	entries, err := os.ReadDir(snapDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".snap") || seen[e.Name()] {
			continue
		}
		path := filepath.Join(snapDir, e.Name())
		if update {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			t.Logf("removed %s: no such tool", path)
			continue
		}
		t.Errorf("snapshot %s has no tool: it was removed or renamed. If intended, run:\n  %s", path, updateCommand)
	}

	checkToolsetTokens(t, tools, update)
	all := reportSize(t, "every toolset", result, tools)
	if avg := float64(all) / float64(len(tools)); avg > targetTokensPerTool {
		t.Errorf("tools/list for every toolset costs %.1f tokens per tool on average, above %d: shorten the descriptions of the biggest tools above",
			avg, targetTokensPerTool)
	}
	// What an agent pays by default, with no --toolsets.
	def, defTools := listToolsOverTheWire(t, "default")
	if total := reportSize(t, "default toolsets", def, defTools); total > maxDefaultTokens {
		t.Errorf("tools/list for the default toolsets costs %d tokens, above %d: shorten the descriptions of the biggest tools above, or move a tool out of the default toolsets",
			total, maxDefaultTokens)
	}
}

// checkToolsetTokens holds toolset_tokens_gen.go, what the toolsets tool
// says each toolset costs, to the tools as sent: each toolset's tools'
// o200k_base tokens, summed. With update, it rewrites the file.
func checkToolsetTokens(t *testing.T, tools []wireTool, update bool) {
	t.Helper()
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatalf("o200k_base tokenizer: %v", err)
	}
	got := map[string]int{}
	for _, tl := range tools {
		ids, _, err := enc.Encode(string(withoutAnnotations(t, tl.raw)))
		if err != nil {
			t.Fatal(err)
		}
		if ts := mcpserver.ToolsetOf(tl.name); ts != "?" && ts != "toolsets" {
			got[ts] += len(ids)
		}
	}
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("// Code generated by TestToolSnaps (UPDATE_TOOLSNAPS=true); DO NOT EDIT.\n\npackage mcpserver\n\n")
	b.WriteString("// toolsetTokens is what each toolset's tools cost in tools/list, in\n// o200k_base tokens, summed over its tools as TestToolSnaps measures them.\n")
	b.WriteString("var toolsetTokens = map[string]int{\n")
	for _, n := range names {
		fmt.Fprintf(&b, "\t%q: %d,\n", n, got[n])
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	const path = "toolset_tokens_gen.go"
	if update {
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, n := range names {
		if mcpserver.ToolsetTokens[n] != got[n] {
			t.Errorf("%s says the %s toolset costs %d tokens; its tools cost %d. Run:\n  %s", path, n, mcpserver.ToolsetTokens[n], got[n], updateCommand)
		}
	}
}

// withoutAnnotations is a tool as sent less its annotations: what the
// model reads of it.
func withoutAnnotations(t *testing.T, raw []byte) []byte {
	t.Helper()
	var parts struct {
		Annotations json.RawMessage `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		t.Fatal(err)
	}
	if parts.Annotations == nil {
		return raw
	}
	ann := append(append([]byte(`"annotations":`), parts.Annotations...), ',')
	if !bytes.Contains(raw, ann) {
		ann = ann[:len(ann)-1]
	}
	return bytes.Replace(raw, ann, nil, 1)
}

// wireTool is one tool of a tools/list result, exactly as it was sent.
type wireTool struct {
	name string
	raw  json.RawMessage // the bytes on the wire
	snap []byte          // canonical, indented form for the snapshot file
}

// listToolsOverTheWire serves every toolset to an SDK client over in-memory
// transports and returns the raw tools/list result bytes (every page,
// concatenated) and its tools in order.
func listToolsOverTheWire(t *testing.T, toolsets ...string) (result []byte, tools []wireTool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := mcpserver.New(mcpserver.Options{
		Version:  "snapshot",
		Toolsets: toolsets,
		Services: func(context.Context) (*service.Set, error) {
			return nil, errors.New("listing tools needs no services")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	rec := &recordingTransport{Transport: ct, ids: make(map[jsonrpc.ID]bool)}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "toolsnaps", Version: "1"}, nil).Connect(ctx, rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	var listed []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, tool.Name)
	}

	rec.mu.Lock()
	pages := rec.results
	rec.mu.Unlock()
	if len(pages) == 0 {
		t.Fatal("recorded no tools/list response")
	}
	for _, page := range pages {
		result = append(result, page...)
		var r struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(page, &r); err != nil {
			t.Fatalf("tools/list result: %v", err)
		}
		for _, raw := range r.Tools {
			var head struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(raw, &head); err != nil || head.Name == "" {
				t.Fatalf("tool without a name: %s", raw)
			}
			tools = append(tools, wireTool{name: head.Name, raw: raw, snap: canonical(t, raw)})
		}
	}
	if len(tools) != len(listed) {
		t.Fatalf("recorded %d tools, the client listed %d", len(tools), len(listed))
	}
	for i, tl := range tools {
		if tl.name != listed[i] {
			t.Fatalf("recorded tool %d is %s, the client listed %s", i, tl.name, listed[i])
		}
	}
	names, err := mcpserver.ToolNames(toolsets, false)
	if err != nil {
		t.Fatal(err)
	}
	sorted := append([]string(nil), listed...)
	sort.Strings(sorted)
	if strings.Join(sorted, ",") != strings.Join(names, ",") {
		t.Fatalf("tools/list has %v, the declarations %v", sorted, names)
	}
	return result, tools
}

// canonical renders a tool with sorted keys, two-space indents, no HTML
// escaping and numbers as sent, ending in a newline.
func canonical(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// recordingTransport keeps the raw result of every tools/list response the
// client reads.
type recordingTransport struct {
	mcp.Transport
	mu      sync.Mutex
	ids     map[jsonrpc.ID]bool
	results [][]byte
}

func (r *recordingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, rec: r}, nil
}

type recordingConn struct {
	mcp.Connection
	rec *recordingTransport
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/list" {
		c.rec.mu.Lock()
		c.rec.ids[req.ID] = true
		c.rec.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.rec.mu.Lock()
		if c.rec.ids[resp.ID] && resp.Error == nil {
			c.rec.results = append(c.rec.results, append([]byte(nil), resp.Result...))
		}
		c.rec.mu.Unlock()
	}
	return msg, err
}

// reportSize logs what the tool surface costs: the whole tools/list result
// in bytes and o200k_base tokens (the GPT-4o family's encoding; other models'
// tokenizers differ by some percent), and each tool's share.
//
// It returns the tokens the model reads: the result without annotations.
func reportSize(t *testing.T, label string, result []byte, tools []wireTool) int {
	t.Helper()
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatalf("o200k_base tokenizer: %v", err)
	}
	count := func(s string) int {
		ids, _, err := enc.Encode(s)
		if err != nil {
			t.Fatalf("tokenize: %v", err)
		}
		return len(ids)
	}
	wire := count(string(result))
	model := result
	for _, tl := range tools {
		model = bytes.Replace(model, tl.raw, withoutAnnotations(t, tl.raw), 1)
	}
	total := count(string(model))
	var b strings.Builder
	fmt.Fprintf(&b, "tools/list (%s): %d tools, %d bytes, %d tokens (o200k_base) with annotations, %d without (what the model reads), %.1f per tool on average (target about %d)\n",
		label, len(tools), len(result), wire, total, float64(total)/float64(len(tools)), targetTokensPerTool)
	fmt.Fprintf(&b, "%-24s %6s %6s %6s %6s %6s\n", "tool", "bytes", "tokens", "descr", "schema", "annot")
	type row struct {
		name                                 string
		bytes, tokens, descr, schema, annots int
	}
	rows := make([]row, 0, len(tools))
	for _, tl := range tools {
		var parts struct {
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"inputSchema"`
			Annotations json.RawMessage `json:"annotations"`
		}
		if err := json.Unmarshal(tl.raw, &parts); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row{tl.name, len(tl.raw), count(string(tl.raw)), count(parts.Description),
			count(string(parts.InputSchema)), count(string(parts.Annotations))})
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].tokens > rows[j].tokens })
	for _, r := range rows {
		fmt.Fprintf(&b, "%-24s %6d %6d %6d %6d %6d\n", r.name, r.bytes, r.tokens, r.descr, r.schema, r.annots)
	}
	t.Log("\n" + strings.TrimRight(b.String(), "\n"))
	return total
}

// lineDiff is a small line diff (longest common subsequence) with three
// lines of context around each change.
func lineDiff(a, b string) string {
	x := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	y := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, line{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', x[i]})
			i++
		default:
			ops = append(ops, line{'+', y[j]})
			j++
		}
	}
	const context = 3
	var out strings.Builder
	skipped := false
	for k, l := range ops {
		near := false
		for d := max(0, k-context); d <= min(len(ops)-1, k+context); d++ {
			if ops[d].op != ' ' {
				near = true
				break
			}
		}
		if !near {
			if !skipped {
				out.WriteString("  ...\n")
				skipped = true
			}
			continue
		}
		skipped = false
		fmt.Fprintf(&out, "%c %s\n", l.op, l.text)
	}
	return out.String()
}
