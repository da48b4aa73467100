package knowledge

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// Heuristic is one rule of thumb a decision is checked against.
type Heuristic struct {
	Name     string
	Question string // what to ask of the decision
}

// DefaultHeuristics are used when the project has no heuristics file.
var DefaultHeuristics = []Heuristic{
	{"Reversibility", "If this turns out wrong, how much does undoing it cost, and can it be tried behind a flag or on one module first?"},
	{"Simplest thing", "Is there a simpler option that meets today's need, without building for a future that may not come?"},
	{"Existing pieces", "Does the codebase or the standard library already have something that does this?"},
	{"Blast radius", "What else breaks or changes behaviour if this is wrong: data, public interfaces, other teams?"},
	{"Evidence", "What measurement, test or reproduction says this is needed and will work?"},
	{"Data safety", "Can this lose, corrupt or leak data, secrets or personal information, and what guards against it?"},
	{"Operability", "How will anyone notice it failing in production, and how is it rolled back?"},
	{"Testability", "Can it be tested automatically, end to end, with real parts rather than mocks?"},
	{"Consistency", "Does it follow the project's conventions and past decisions, or knowingly change them (and record why)?"},
	{"Cost over time", "Who maintains it, and what does it cost in dependencies, upgrades and understanding a year from now?"},
}

// HeuristicsFiles are where a project's own heuristics are looked for,
// relative to the root: a Markdown list, or one ## heading per heuristic.
var HeuristicsFiles = []string{"heuristics.md", "knowledge/heuristics.md", "specs/heuristics.md", "docs/heuristics.md", ".cairn/heuristics.md"}

// Applied is a decision run through the heuristics.
type Applied struct {
	Decision   string
	Source     string // the file, or "default"
	Heuristics []Heuristic
	// Related are the project's past decisions and mistakes that share the
	// decision's words, as index lines.
	Related []string
}

// ApplyHeuristics returns the heuristics to weigh a decision against (the
// project's own file, else DefaultHeuristics), those that share the
// decision's words first, and the past decisions and mistakes it recalls.
func (b *Service) ApplyHeuristics(ctx context.Context, decision string) (Applied, error) {
	decision = strings.TrimSpace(decision)
	if decision == "" {
		return Applied{}, &problem.FieldError{Field: "decision", Problem: "is empty", Fix: "give the decision in a sentence, such as \"cache sessions in Redis\""}
	}
	if len(decision) > 4096 {
		return Applied{}, &problem.FieldError{Field: "decision", Problem: fmt.Sprintf("is %d bytes", len(decision)), Fix: "keep it under 4096: the decision and its main reason"}
	}
	out := Applied{Decision: decision, Source: "default"}
	hs := DefaultHeuristics
	for _, rel := range HeuristicsFiles {
		if text := b.detector.ReadFile(b.root, rel); text != "" {
			if own := parseHeuristics(text); len(own) > 0 {
				hs, out.Source = own, rel
				break
			}
		}
	}
	ws := words.Query(decision)
	out.Heuristics = slices.Clone(hs)
	slices.SortStableFunc(out.Heuristics, func(x, y Heuristic) int {
		ox, oy := words.Overlap(ws, x.Name+" "+x.Question), words.Overlap(ws, y.Name+" "+y.Question)
		switch {
		case ox > oy:
			return -1
		case ox < oy:
			return 1
		}
		return 0
	})
	if len(ws) > 0 {
		res, err := b.memory.Search(ctx, memories.SearchQuery{Text: strings.Join(ws[:min(len(ws), 12)], " "), Types: []string{"decision", "mistake"}, Page: page.Page{Limit: 8}})
		if err != nil {
			return Applied{}, err
		}
		need := max(1, (min(len(ws), 4)+1)/2)
		for _, h := range res.Hits {
			if words.Overlap(ws, h.Title+" "+h.Snippet)*float64(len(ws)) >= float64(need) && len(out.Related) < 3 {
				out.Related = append(out.Related, string(h.Type)+" "+memories.IndexLine(h))
			}
		}
	}
	return out, nil
}

// parseHeuristics reads "## Name" sections (their first line is the
// question) or list items ("- Name: question").
func parseHeuristics(text string) []Heuristic {
	var out []Heuristic
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	sections := slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "## ") })
	for i := 0; i < len(lines) && len(out) < 50; i++ {
		l := strings.TrimSpace(lines[i])
		if h, ok := strings.CutPrefix(l, "## "); ok {
			q := ""
			for j := i + 1; j < len(lines); j++ {
				if n := strings.TrimSpace(lines[j]); n != "" {
					if !strings.HasPrefix(n, "#") {
						q = strings.TrimLeft(n, "-*> ")
					}
					break
				}
			}
			out = append(out, Heuristic{Name: projectinfoClip(h), Question: projectinfoClip(q)})
			continue
		}
		if sections {
			continue // a file of sections: its lists are the sections' text
		}
		item := strings.TrimSpace(strings.TrimLeft(l, "-*+"))
		if n := strings.IndexAny(item, ".)"); n > 0 && n <= 3 && strings.Trim(item[:n], "0123456789") == "" {
			item = strings.TrimSpace(item[n+1:])
		} else if item == l {
			continue // not a list item
		}
		if item == "" {
			continue
		}
		name, q, ok := strings.Cut(item, ":")
		if !ok || len(name) > 60 {
			name, q = "", item
		}
		out = append(out, Heuristic{Name: projectinfoClip(strings.Trim(strings.TrimSpace(name), "*_")), Question: projectinfoClip(strings.TrimSpace(q))})
	}
	return out
}

func projectinfoClip(s string) string { return problem.Clip(s, 300) }

// TechCompatibility checks the project's stack (see
// projectinfo.Compatibility) and where each item of stack is used.
func (b *Service) TechCompatibility(stack []string) (projectinfo.CompatReport, error) {
	if len(stack) > 50 {
		return projectinfo.CompatReport{}, &problem.FieldError{Field: "stack", Problem: fmt.Sprintf("has %d items", len(stack)), Fix: "give at most 50"}
	}
	for i, s := range stack {
		if len(s) > 100 {
			return projectinfo.CompatReport{}, &problem.FieldError{Field: fmt.Sprintf("stack[%d]", i), Problem: fmt.Sprintf("is %d bytes", len(s)), Fix: "give a technology's name, such as \"React\" or \"Go\""}
		}
	}
	return projectinfo.Compatibility(b.Project(), stack), nil
}
