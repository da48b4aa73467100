package dockerfile

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"

	"github.com/cairn-dev/cairn/internal/check"
)

// hostile are inputs built to make a parser or a check slow, deep or
// confused, each about 1 MiB (the runner's cap).
func hostile() map[string]string {
	const size = 1 << 20
	rep := func(s string) string { return strings.Repeat(s, size/len(s)) }
	return map[string]string{
		"one huge continued RUN":    "FROM alpine:3.20\nRUN true " + rep("&& apt-get install x \\\n") + "\n",
		"deep command substitution": "FROM alpine:3.20\nRUN " + strings.Repeat("$(", 100_000) + strings.Repeat(")", 100_000) + "\n",
		"deep ${:-} in ENV":         "FROM alpine:3.20\nENV A=" + strings.Repeat("${A:-", 50_000) + strings.Repeat("}", 50_000) + "\n",
		"long pipe chain":           "FROM alpine:3.20\nRUN " + rep("echo a | ") + "cat\n",
		"many apk commands":         "FROM alpine:3.20\nRUN " + rep("apk add x; ") + "\n",
		"many stages": "FROM alpine:3.20 AS s0\n" + func() string {
			var b strings.Builder
			for i := 1; b.Len() < size; i++ {
				fmt.Fprintf(&b, "FROM s%d AS s%d\nENV K%d=v\nCOPY --from=s%d /a /b\n", i-1, i, i, i/2)
			}
			return b.String()
		}(),
		"many ENV then many stages": "FROM alpine:3.20 AS base\n" + rep("ENV KEY_ABCDEFGH=1\n")[:size/2] + rep("FROM base\nENV X=1\n")[:size/2],
		"many meta ARGs and FROMs":  rep("ARG A=1\n")[:size/2] + rep("FROM alpine:$B\n")[:size/2],
		"many unknown variables":    "FROM scratch\n" + rep("COPY $abcdefgh $ijklmnop\n"),
		"many heredocs":             "FROM alpine:3.20\nRUN " + strings.Repeat("<<E ", 5000) + "true\n" + rep("x\nE\n"),
		"long variable names":       "FROM scratch\nARG " + strings.Repeat("a", 60_000) + "=1\nCOPY $" + strings.Repeat("a", 59_999) + "b /x\n",
		"many COPY wildcards":       "FROM alpine:3.20\n" + rep("COPY */*/*.[ch] /src/\n"),
		"junk":                      rep("\x01\x02 FROM \\\n\t\"[{<<\"'`$"),
		"long line":                 "FROM alpine:3.20\nRUN echo " + strings.Repeat("a", 70_000) + "\n",
		"unterminated heredoc":      "FROM alpine:3.20\nRUN <<EOF\n" + rep("line\n"),
		"nested JSON":               "FROM alpine:3.20\nCMD " + strings.Repeat("[", 300_000) + "\n",
		"many ONBUILD":              "FROM alpine:3.20\n" + rep("ONBUILD RUN apk add x\n"),
	}
}

// TestHostileInput checks that every hostile input is checked without a
// panic, in bounded time, with findings on real lines.
func TestHostileInput(t *testing.T) {
	for name, src := range hostile() {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "Dockerfile", Content: []byte(src)}}})
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Count(src, "\n") + 1
			for _, f := range res.Findings {
				if f.Line < 0 || f.Line > lines {
					t.Errorf("finding at line %d of %d: %s", f.Line, lines, f)
				}
			}
			if d := time.Since(start); d > 120*time.Second && !raceEnabled { // a hang, not a speed budget (6 s under a load of 30)
				t.Errorf("took %s", d)
			}
			t.Logf("%d bytes, %d findings in %s", len(src), len(res.Findings), time.Since(start).Round(time.Millisecond))
		})
	}
}

// FuzzCheck feeds the checker arbitrary Dockerfiles: it must never panic,
// and every finding must be on a line of the file.
func FuzzCheck(f *testing.F) {
	for _, dir := range []string{"testdata/corpus/valid", "testdata/corpus/defects"} {
		_ = walkFiles(dir, func(b []byte) { f.Add(b) })
	}
	for _, s := range []string{
		"FROM alpine\nRUN <<EOF\necho\nEOF\n",
		"# escape=`\nFROM a\nRUN x `\n y\n",
		"FROM a AS b\nCOPY --from=b . .\n",
		"ARG X=${Y:-z}\nFROM ${X}\n",
		"FROM scratch\nRUN [\"sh\", \"-c\", \"a | b\"]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "Dockerfile", Content: b}}})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Count(string(b), "\n") + 1
		for _, fd := range res.Findings {
			if fd.Line < 0 || fd.Line > lines || fd.Col < 0 || fd.Message == "" {
				t.Fatalf("bad finding %s in %q", fd, b)
			}
		}
	})
}

// walkFiles calls fn with each Dockerfile under dir.
func walkFiles(dir string, fn func([]byte)) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := dir + "/" + e.Name()
		if e.IsDir() {
			_ = walkFiles(p, fn)
			continue
		}
		if New().Wants(p, nil) {
			if b, err := os.ReadFile(p); err == nil {
				fn(b)
			}
		}
	}
	return nil
}

// typical is a realistic multi-stage Dockerfile of the corpus.
func typical(b *testing.B) []byte {
	src, err := os.ReadFile("testdata/corpus/valid/python-worker/Dockerfile")
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// large is a generated Dockerfile of many stages and RUNs, about 200 KB.
func large() []byte {
	var s strings.Builder
	for i := 0; s.Len() < 200<<10; i++ {
		fmt.Fprintf(&s, "FROM debian:12-slim AS s%d\nARG V%d=1\nENV PATH=/opt/s%d/bin:$PATH\n", i, i, i)
		fmt.Fprintf(&s, "RUN apt-get update \\\n && apt-get install -y --no-install-recommends curl ca-certificates \\\n && curl -fsSL https://example.com/%d | tar xz -C /opt \\\n && rm -rf /var/lib/apt/lists/*\n", i)
		fmt.Fprintf(&s, "COPY --from=s%d /opt /opt\nWORKDIR /opt/s%d\nUSER 10001\n", i/2, i)
	}
	return []byte(s.String())
}

func benchCheck(b *testing.B, src []byte) {
	in := &check.Input{Files: []check.File{{Path: "Dockerfile", Content: src}}}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// benchParse is the baseline: BuildKit's parser and instructions alone.
func benchParse(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := parser.Parse(strings.NewReader(string(src)))
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := instructions.Parse(res.AST, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckTypical(b *testing.B)         { benchCheck(b, typical(b)) }
func BenchmarkParseTypicalBaseline(b *testing.B) { benchParse(b, typical(b)) }
func BenchmarkCheckLarge(b *testing.B)           { benchCheck(b, large()) }
func BenchmarkParseLargeBaseline(b *testing.B)   { benchParse(b, large()) }

// TestFindingCap checks that a rule lists at most findcap.PerRule findings
// in a file, and one more that counts the rest.
func TestFindingCap(t *testing.T) {
	src := "FROM scratch\n" + strings.Repeat("COPY $nope /x\n", maxPerRule+7)
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "Dockerfile", Content: []byte(src)}}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	var last check.Finding
	for _, f := range res.Findings {
		if f.Rule == buildkitID("UndefinedVar") {
			n++
			last = f
		}
	}
	if n != maxPerRule+1 || !strings.Contains(last.Message, "and 7 more findings") {
		t.Errorf("%d UndefinedVar findings, the last %q; want %d and a count of 7 more", n, last.Message, maxPerRule+1)
	}
}
