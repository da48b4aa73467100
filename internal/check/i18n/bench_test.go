package i18n

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
)

// bigSet is a base and a translation of n keys each, nested two deep,
// with i18next placeholders and plurals.
func bigSet(n int) (en, fr []byte) {
	var a, b strings.Builder
	a.WriteString("{\n")
	b.WriteString("{\n")
	for i := range n {
		sep := ","
		if i == n-1 {
			sep = ""
		}
		fmt.Fprintf(&a, "  \"section%d\": {\"title\": \"Title %d for {{name}}\", \"count_one\": \"{{count}} item\", \"count_other\": \"{{count}} items\"}%s\n", i, i, sep)
		fmt.Fprintf(&b, "  \"section%d\": {\"title\": \"Titre %d pour {{name}}\", \"count_one\": \"{{count}} élément\", \"count_other\": \"{{count}} éléments\"}%s\n", i, i, sep)
	}
	a.WriteString("}\n")
	b.WriteString("}\n")
	return []byte(a.String()), []byte(b.String())
}

func benchCheck(b *testing.B, files []check.File) {
	b.ReportAllocs()
	in := &check.Input{Files: files}
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func read(b *testing.B, p string) []byte {
	data, err := os.ReadFile("testdata/corpus/valid/" + p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkTypical: a real-sized pair of i18next files (en base, fr).
func BenchmarkTypical(b *testing.B) {
	benchCheck(b, []check.File{
		{Path: "app/src/locales/en.json", Content: read(b, "app/src/locales/en.json")},
		{Path: "app/src/locales/fr.json", Content: read(b, "app/src/locales/fr.json")},
	})
}

// BenchmarkTypicalPO: a template and a catalog.
func BenchmarkTypicalPO(b *testing.B) {
	benchCheck(b, []check.File{
		{Path: "po/notes.pot", Content: read(b, "po/notes.pot")},
		{Path: "po/fr.po", Content: read(b, "po/fr.po")},
	})
}

// BenchmarkLarge: two files of 5,000 groups (15,000 messages, ~500 KB each).
func BenchmarkLarge(b *testing.B) {
	en, fr := bigSet(5000)
	b.SetBytes(int64(len(en) + len(fr)))
	benchCheck(b, []check.File{{Path: "locales/en.json", Content: en}, {Path: "locales/fr.json", Content: fr}})
}

// BenchmarkLargeParseOnly is the floor: parsing the same two files with
// jsonpos, and with encoding/json into a map.
func BenchmarkLargeParseOnly(b *testing.B) {
	en, fr := bigSet(5000)
	b.SetBytes(int64(len(en) + len(fr)))
	b.Run("jsonpos", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = jsonpos.Parse(en, jsonpos.Options{})
			_, _ = jsonpos.Parse(fr, jsonpos.Options{})
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var x, y map[string]any
			_ = json.Unmarshal(en, &x)
			_ = json.Unmarshal(fr, &y)
		}
	})
}

// TestHostile feeds inputs built to blow up a naive checker: each must be
// answered quickly.
func TestHostile(t *testing.T) {
	laughs := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'k'; i++ {
		laughs += fmt.Sprintf("%c: &%c {", i, i)
		for j := range 10 {
			laughs += fmt.Sprintf("k%d: *%c, ", j, i-1)
		}
		laughs += "}\n"
	}
	for _, tc := range []struct{ name, path, body string }{
		{"yaml billion laughs", "locales/en.yaml", laughs},
		{"deep JSON", "locales/en.json", strings.Repeat(`{"a":`, 100000)},
		{"deep YAML", "locales/en.yaml", strings.Repeat("[", 100000)},
		{"many braces", "locales/en.json", `{"a": "` + strings.Repeat("{a", 200000) + `"}`},
		{"many i18next braces", "locales/en.json", `{"a": "` + strings.Repeat("{{", 200000) + `"}`},
		{"long ICU", "locales/en.json", `{"a": "` + strings.Repeat("{n, plural, other {", 30) + strings.Repeat("}}", 30) + strings.Repeat("{x} ", 50000) + `"}`},
		{"po duplicates", "po/fr.po", strings.Repeat("msgid \"a\"\nmsgstr \"b\"\n", 50000)},
		{"rails families", "config/locales/en.yml", "en:\n" + strings.Repeat("  k: {one: a, other: b, x: {y: c}}\n", 1) + func() string {
			var b strings.Builder
			for i := range 20000 {
				fmt.Fprintf(&b, "  k%d:\n    one: a\n    other: b\n", i)
			}
			return b.String()
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			in := &check.Input{Files: []check.File{{Path: tc.path, Content: []byte(tc.body)}}}
			if _, err := New().Check(context.Background(), in); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > slow*30*time.Second { // a hang or a blow-up, not a speed budget
				t.Errorf("took %v", d)
			}
		})
	}
}
