package mcpserver

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	focustools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/focus"
	loopstools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/loops"
	memorytools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/memory"
	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	sessiontools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/session"
)

// BenchmarkDecodeArgs is what decoding a call's arguments costs, on every
// call, for tools whose schemas declare enums, bounds and lists:
// go test -run '^$' -bench DecodeArgs -count 10 ./internal/mcpserver
func BenchmarkDecodeArgs(b *testing.B) {
	for _, c := range []struct {
		tool, args string
		decode     func(json.RawMessage, *jsonschema.Schema) error
	}{
		{"create_task", `{"title":"Deploy to staging","description":"after CI","priority":"high","status":"pending","dependencies":[4,"5"]}`, decodeOnly[plantools.CreateTaskArgs]},
		{"get_big_picture", `{"format":"json","offset":0,"limit":50}`, decodeOnly[focustools.BigPictureArgs]},
		{"memory_search", `{"query":"redirect login","type":["decision","mistake"],"tag":"auth","limit":10}`, decodeOnly[memorytools.MemorySearchArgs]},
		{"query_tasks", `{"filters":{"priority":["high","low"]},"fields":["id","title","priority"],"sort":{"field":"priority","order":"desc"},"limit":20}`, decodeOnly[plantools.QueryTasksArgs]},
		{"session", `{"action":"update","decisions":[{"decision":"Use PKCE","reasoning":"public client"}],"files_modified":["auth.go"]}`, decodeOnly[sessiontools.SessionArgs]},
		{"loop_record", `{"id":"8","last_action":"fixed the parser","next_steps":["fix the lexer"],"percentage":40,"message":"parser done"}`, decodeOnly[loopstools.LoopRecordArgs]},
	} {
		schema := toolSchema(b, c.tool)
		raw := json.RawMessage(c.args)
		if err := c.decode(raw, schema); err != nil {
			b.Fatalf("%s %s: %v", c.tool, c.args, err)
		}
		b.Run(c.tool, func(b *testing.B) {
			b.ReportAllocs()
			// The thread's CPU time too: on a shared machine sec/op counts
			// the time the benchmark waited for a CPU.
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			start := threadCPU()
			for b.Loop() {
				if err := c.decode(raw, schema); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(threadCPU()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

func decodeOnly[In any](raw json.RawMessage, schema *jsonschema.Schema) error {
	_, err := tool.DecodeArgs[In](raw, schema)
	return err
}

// toolSchema is the decoding schema of the tool named name.
func toolSchema(tb testing.TB, name string) *jsonschema.Schema {
	tb.Helper()
	for _, t := range allTools() {
		if t.Def.Name == name {
			return t.Schema()
		}
	}
	tb.Fatalf("no tool %s", name)
	return nil
}
