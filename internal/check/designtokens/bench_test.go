package designtokens

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
)

func benchFiles(b *testing.B, files []check.File) {
	b.ReportAllocs()
	in := &check.Input{Files: files}
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTypical: the three DTCG files of the valid corpus (colors,
// base, composites with aliases between them).
func BenchmarkTypical(b *testing.B) {
	var files []check.File
	for _, p := range []string{"color.tokens.json", "base.tokens.json", "components.tokens.json"} {
		data, err := os.ReadFile("testdata/corpus/valid/dtcg/tokens/" + p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, check.File{Path: "tokens/" + p, Content: data})
	}
	benchFiles(b, files)
}

// large is a DTCG file of n color tokens in groups of ten, each group with
// a shadow aliasing one of them: about 200 bytes a token.
func large(n int) []byte {
	var s strings.Builder
	s.WriteString("{\n")
	for g := range n / 10 {
		fmt.Fprintf(&s, "  \"g%d\": {\n    \"$type\": \"color\",\n", g)
		for i := range 10 {
			fmt.Fprintf(&s, "    \"c%d\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [0.%d, 0.5, 0.25], \"hex\": \"#80%02x40\"}},\n", i, i, i*20)
		}
		fmt.Fprintf(&s, "    \"shadow\": {\"$type\": \"shadow\", \"$value\": {\"color\": \"{g%d.c3}\", \"offsetX\": {\"value\": 0, \"unit\": \"px\"}, \"offsetY\": {\"value\": 2, \"unit\": \"px\"}, \"blur\": {\"value\": 4, \"unit\": \"px\"}, \"spread\": {\"value\": 0, \"unit\": \"px\"}}}\n  }", g)
		if g < n/10-1 {
			s.WriteString(",")
		}
		s.WriteString("\n")
	}
	s.WriteString("}\n")
	return []byte(s.String())
}

// BenchmarkLarge: 5,000 tokens, about 1 MB.
func BenchmarkLarge(b *testing.B) {
	data := large(5000)
	b.SetBytes(int64(len(data)))
	benchFiles(b, []check.File{{Path: "x.tokens.json", Content: data}})
}

// BenchmarkLargeParseOnly is the floor: the same file parsed by jsonpos,
// and by encoding/json into a map.
func BenchmarkLargeParseOnly(b *testing.B) {
	data := large(5000)
	b.SetBytes(int64(len(data)))
	b.Run("jsonpos", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = jsonpos.Parse(data, jsonpos.Options{})
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v map[string]any
			_ = json.Unmarshal(data, &v)
		}
	})
}
