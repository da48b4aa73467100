package brief

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// OptimizeRequest is what optimize_context takes.
type OptimizeRequest struct {
	Query        string
	BudgetTokens int // zero: DefaultOptimizeBudget
	// Candidates are memory ids (m12) and task ids (12) to choose among;
	// empty: what matches the query in memory, tasks and the agent
	// instructions.
	Candidates []string
}

// Optimize limits.
const (
	DefaultOptimizeBudget = 1000
	maxCandidates         = 100
)

// ContextItem is one piece of context a selection weighed.
type ContextItem struct {
	Ref    string // m12, 12, or file › section for an instruction
	Kind   string // memory, task, instruction
	Line   string
	Score  float64 // share of the query's words it holds, 0 to 1
	Tokens int
	Why    string // why it was dropped
}

// Optimized is a selection within a budget and what it dropped.
type Optimized struct {
	Chosen  []ContextItem
	Dropped []ContextItem
	Tokens  int
	Budget  int
}

// OptimizeContext chooses, within a token budget, the memory entries,
// tasks and instruction lines most relevant to a query: the share of the
// query's words each holds, ties to the search's rank; what does not fit,
// or matches none of the words, is dropped and said so.
func (b *Service) OptimizeContext(ctx context.Context, req OptimizeRequest) (Optimized, error) {
	if req.BudgetTokens == 0 {
		req.BudgetTokens = DefaultOptimizeBudget
	}
	if req.BudgetTokens < 50 || req.BudgetTokens > MaxBootstrapBudget {
		return Optimized{}, &problem.FieldError{Field: "budget_tokens", Problem: fmt.Sprintf("is %d", req.BudgetTokens),
			Fix: fmt.Sprintf("use 50 to %d (default %d)", MaxBootstrapBudget, DefaultOptimizeBudget)}
	}
	if len(req.Query) > knowledge.MaxQuery {
		return Optimized{}, &problem.FieldError{Field: "query", Problem: fmt.Sprintf("is %d bytes", len(req.Query)), Fix: fmt.Sprintf("keep it under %d", knowledge.MaxQuery)}
	}
	ws := words.Query(req.Query)
	if len(ws) == 0 {
		return Optimized{}, &problem.FieldError{Field: "query", Problem: "has no word to match (three letters or more, not a stop word)",
			Fix: "give the topic in a few words, such as \"database busy timeout\""}
	}
	if len(req.Candidates) > maxCandidates {
		return Optimized{}, &problem.FieldError{Field: "candidates", Problem: fmt.Sprintf("has %d items", len(req.Candidates)), Fix: fmt.Sprintf("give at most %d", maxCandidates)}
	}
	items, err := b.candidates(ctx, req, ws)
	if err != nil {
		return Optimized{}, err
	}
	// Stable: items arrive in search rank, which breaks ties.
	slices.SortStableFunc(items, func(x, y ContextItem) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		return 0
	})
	out := Optimized{Budget: req.BudgetTokens, Chosen: []ContextItem{}}
	for _, it := range items {
		it.Tokens = b.opts.Count(it.Line) + 1
		switch {
		case it.Score == 0:
			it.Why = "matches none of the query's words"
			out.Dropped = append(out.Dropped, it)
		case out.Tokens+it.Tokens > req.BudgetTokens:
			it.Why = "over the budget"
			out.Dropped = append(out.Dropped, it)
		default:
			out.Tokens += it.Tokens
			out.Chosen = append(out.Chosen, it)
		}
	}
	return out, nil
}

// candidates are the named items, or what the query finds.
func (b *Service) candidates(ctx context.Context, req OptimizeRequest, ws []string) ([]ContextItem, error) {
	var items []ContextItem
	if len(req.Candidates) > 0 {
		var mids []string
		for i, c := range req.Candidates {
			c = strings.TrimSpace(c)
			if strings.HasPrefix(strings.ToLower(c), "m") {
				id, err := memory.ParseID(c)
				if err != nil {
					return nil, &problem.FieldError{Field: fmt.Sprintf("candidates[%d]", i), Problem: "is not a memory or task id", Fix: "pass ids such as m12 (memory) or 12 (a task)"}
				}
				mids = append(mids, id.String())
				continue
			}
			d, err := b.plan.Get(ctx, c)
			if fe, ok := problem.As(err); ok && fe.Kind == problem.Invalid {
				return nil, &problem.FieldError{Field: fmt.Sprintf("candidates[%d]", i), Problem: fe.Problem, Fix: "pass ids such as m12 (memory) or 12 (a task)"}
			}
			if err != nil {
				return nil, err
			}
			items = append(items, taskItem(d.Task, ws))
		}
		es, missing, err := b.memory.Get(ctx, mids)
		if err != nil {
			return nil, err
		}
		if len(missing) > 0 {
			return nil, &problem.FieldError{Field: "candidates", Problem: "names " + missing[0].String() + ", which does not exist", Fix: "pass ids of entries that exist", Hint: problem.SearchMemory}
		}
		for _, e := range es {
			h := b.memory.HitOf(e, e.Content, 0)
			items = append(items, ContextItem{Ref: e.ID.String(), Kind: "memory", Line: string(e.Type) + " " + memories.IndexLine(h),
				Score: words.Overlap(ws, e.Title+" "+e.SearchText())})
		}
		return items, nil
	}
	res, err := b.memory.Search(ctx, memories.SearchQuery{Text: strings.Join(ws, " "), Page: page.Page{Limit: 30}})
	if err != nil {
		return nil, err
	}
	for _, h := range res.Hits {
		items = append(items, ContextItem{Ref: h.ID.String(), Kind: "memory", Line: string(h.Type) + " " + memories.IndexLine(h), Score: words.Overlap(ws, h.Title+" "+h.Snippet)})
	}
	board, err := b.plan.Board(ctx)
	if err != nil {
		return nil, err
	}
	var ts []task.Task
	for _, t := range board.Tasks.All() {
		if t.Status.Open() && words.Overlap(ws, t.Title) > 0 {
			ts = append(ts, *t)
		}
	}
	slices.SortFunc(ts, func(x, y task.Task) int { return int(x.ID - y.ID) })
	for _, t := range ts[:min(len(ts), 30)] {
		items = append(items, taskItem(t, ws))
	}
	for _, l := range b.knowledge.Instructions().Lines {
		if l.Kind == "heading" {
			continue
		}
		if s := words.Overlap(ws, l.Text+" "+l.Section); s > 0 {
			where := l.File
			if l.Section != "" {
				where += " › " + l.Section
			}
			items = append(items, ContextItem{Ref: where, Kind: "instruction", Line: where + ": " + l.Text, Score: s})
		}
	}
	return items, nil
}

func taskItem(t task.Task, ws []string) ContextItem {
	return ContextItem{Ref: t.ID.String(), Kind: "task", Line: fmt.Sprintf("[%s] %s (%s, %s)", t.ID, words.OneLine(t.Title, 160), t.Status, t.Priority),
		Score: words.Overlap(ws, t.Title+" "+t.Body)}
}
