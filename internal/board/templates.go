package board

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"math"
	"path"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// templates holds one template set a page: the layout with that page's
// blocks.
type templates struct {
	pages map[string]*template.Template
}

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	"clock":  func(t time.Time) string { return t.UTC().Format("15:04 UTC") },
	"iso":    func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"pct":    func(f float64) int { return int(math.Round(math.Max(0, math.Min(100, f)))) },
	"add":    func(a, b int) int { return a + b },
	"mul100": func(f float64) float64 { return 100 * f },
	// took is how long from one RFC 3339 time to another, worded as every
	// elapsed time is (words.Duration); "" when either is not a time.
	"took": func(from, to string) string {
		a, errA := time.Parse(time.RFC3339, from)
		b, errB := time.Parse(time.RFC3339, to)
		if errA != nil || errB != nil {
			return ""
		}
		return words.Duration(b.Sub(a))
	},
	// plural is a count with its noun: {{plural .N "entry" "entries"}}.
	"plural": words.Plural,
	"ids": func(ids []task.ID) string {
		s := make([]string, len(ids))
		for i, id := range ids {
			s[i] = "#" + id.String()
		}
		return strings.Join(s, ", ")
	},
	"status":      func(s task.Status) string { return strings.ReplaceAll(string(s), "-", " ") },
	"loopActions": loopActions,
	// jsonText is a value as compact JSON, for free-form data such as a
	// loop's metadata.
	"jsonText": func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(b)
	},
	"indent": func(d int) int { return min(d, 12) },
	"first": func(s string, n int) string {
		if len(s) <= n {
			return s
		}
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		return s[:n] + "…"
	},
}

func parseTemplates() (*templates, error) {
	layout, err := fs.ReadFile(templateFS, "templates/layout.html")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return nil, err
	}
	t := &templates{pages: map[string]*template.Template{}}
	for _, n := range names {
		name := strings.TrimSuffix(path.Base(n), ".html")
		if name == "layout" {
			continue
		}
		body, err := fs.ReadFile(templateFS, n)
		if err != nil {
			return nil, err
		}
		pt, err := template.New("layout").Funcs(funcs).Parse(string(layout))
		if err != nil {
			return nil, fmt.Errorf("board: parse layout: %w", err)
		}
		if _, err := pt.Parse(string(body)); err != nil {
			return nil, fmt.Errorf("board: parse %s: %w", n, err)
		}
		t.pages[name] = pt
	}
	return t, nil
}

func (t *templates) execute(w io.Writer, name string, p pageData) error {
	pt, ok := t.pages[name]
	if !ok {
		return fmt.Errorf("no template %q", name)
	}
	return pt.Execute(w, p)
}
