package e2e

// Hook latency, end to end: `cairn hook EVENT` spawned as Claude Code
// spawns it (a new process per event, the payload on stdin), on a project
// with 1,000 tasks, 10,000 memory entries and real AGENTS.md and CLAUDE.md.
// Reports p50/p99 wall time including process start, and the bootstrap's
// size in bytes and o200k tokens; asserts none of it.
//
//	go test -run '^$' -bench '^BenchmarkHook$' -benchtime 200x ./internal/e2e/
//
// The budget is session-start p50 ≤ 50 ms; bench/hooks.txt keeps the
// numbers measured with the change that introduced the hooks.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

func BenchmarkHook(b *testing.B) {
	dir := seededProject(b)
	bin := cairntest.Binary(b)
	count := o200k(b)
	payload := func(fixture string) []byte {
		raw, err := os.ReadFile(filepath.Join("testdata", "hooks", fixture+".json"))
		if err != nil {
			b.Fatal(err)
		}
		return bytes.ReplaceAll(raw, []byte("{{CWD}}"), []byte(dir))
	}
	run := func(b *testing.B, event string, in []byte) (time.Duration, string) {
		cmd := exec.Command(bin, "hook", event)
		cmd.Dir = dir
		cmd.Stdin = bytes.NewReader(in)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		if err := cmd.Run(); err != nil || errb.Len() > 0 {
			b.Fatalf("cairn hook %s: %v %s", event, err, errb.String())
		}
		return time.Since(start), out.String()
	}
	for _, c := range []struct{ name, event, fixture string }{
		{"session-start", "session-start", "session-start-startup"},
		{"session-start-resume", "session-start", "session-start-resume"},
		{"user-prompt-submit", "user-prompt-submit", "user-prompt-submit-match"},
		{"post-tool-use", "post-tool-use", "post-tool-use-edit"},
		{"stop", "stop", "stop"},
	} {
		b.Run(c.name, func(b *testing.B) {
			in := payload(c.fixture)
			for range 3 {
				run(b, c.event, in) // page cache, the first session
			}
			lat := make([]time.Duration, b.N)
			var text string
			b.ResetTimer()
			for i := range b.N {
				lat[i], text = run(b, c.event, in)
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(cairntest.Percentile(lat, 50).Microseconds())/1e3, "p50-ms")
			b.ReportMetric(float64(cairntest.Percentile(lat, 99).Microseconds())/1e3, "p99-ms")
			if c.event == "session-start" {
				b.ReportMetric(float64(len(text)), "out-bytes")
				b.ReportMetric(float64(count(text)), "out-tokens")
			}
		})
	}
}
