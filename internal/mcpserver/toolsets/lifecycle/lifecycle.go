// Package lifecycle declares the lifecycle toolset: phases with exit
// criteria and gates, advanced with evidence.
package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// The lifecycle toolset: a task (a story) walks phases whose exit criteria
// need evidence, as in the agent-driven development lifecycle.

type lifecycleGetArgs struct {
	Definition string `json:"definition,omitempty" jsonschema:"omit to list all"`
}

type lifecycleInitArgs struct {
	TaskID     tool.IDArg `json:"task_id"`
	Definition string     `json:"definition,omitempty" jsonschema:"default asdd"`
}

type checkArg struct {
	Command  string `json:"command"`
	ExitCode *int   `json:"exit_code"`
}

type lifecycleAdvanceArgs struct {
	ID       tool.IDArg          `json:"id"`
	Evidence map[string]string   `json:"evidence,omitempty" jsonschema:"criterion id: proof (text, link, commit)"`
	Checks   map[string]checkArg `json:"checks,omitempty"`
	To       string              `json:"to,omitempty" jsonschema:"earlier phase to loop back to, with reason"`
	Reason   string              `json:"reason,omitempty"`
	Hold     bool                `json:"hold,omitempty" jsonschema:"record only, stay"`
}

type LifecycleIDArgs struct {
	ID tool.IDArg `json:"id"`
}

type LifecycleListArgs struct {
	Status string `json:"status,omitempty"`
	Phase  string `json:"phase,omitempty"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty" jsonschema:"default 20"`
}

func Tools() []tool.Tool {
	const ts = "lifecycle"
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "lifecycle_get", Annotations: tool.ReadOnly,
			Description: "Phases and exit criteria of a lifecycle definition; gates need a passing command."},
			lifecycleGet),
		tool.Declare(ts, mcp.Tool{Name: "lifecycle_init",
			Description: "Start a lifecycle on a task (a story), in its first phase."},
			lifecycleInit),
		tool.Declare(ts, mcp.Tool{Name: "lifecycle_advance",
			Description: "Move to the next phase once every exit criterion has evidence; else record it and name the missing."},
			lifecycleAdvance, func(s *jsonschema.Schema) {
				// The shape of a check is said in words: its schema cost more
				// than the rest of the tool.
				s.Properties["checks"] = &jsonschema.Schema{Type: "object",
					Description: `criterion id: {"command", "exit_code"}; gates need exit_code 0`}
			}),
		tool.Declare(ts, mcp.Tool{Name: "lifecycle_status", Annotations: tool.ReadOnly,
			Description: "A lifecycle's phase, criteria met and missing, time in phase, history."},
			LifecycleStatus),
		tool.Declare(ts, mcp.Tool{Name: "lifecycle_list", Annotations: tool.ReadOnly,
			Description: "Lifecycles, filtered, 20 a page."},
			LifecycleList, append(tool.PageShape(page.Lifecycle), tool.Enum("status", "open", "done"))...),
	}
}

// RequireLifecycles is the call's lifecycles service, or an Unavailable
// refusal when this project has none.
func RequireLifecycles(c tool.Call) (*lifecycles.Lifecycles, error) {
	if c.Lifecycles == nil {
		return nil, &problem.Error{Kind: problem.Unavailable, Problem: "unavailable: lifecycles are not available for this project"}
	}
	return c.Lifecycles, nil
}

type criterionOut struct {
	ID       string `json:"id"`
	Text     string `json:"text,omitempty"`
	Gate     bool   `json:"gate,omitempty"`
	Evidence string `json:"evidence,omitempty"`
}

type phaseDefOut struct {
	Name  string         `json:"name"`
	Goal  string         `json:"goal,omitempty"`
	Entry []string       `json:"entry,omitempty"`
	Exit  []criterionOut `json:"exit"`
}

type definitionOut struct {
	Name        string        `json:"name"`
	Description string        `json:"description,omitempty"`
	Source      string        `json:"source,omitempty"`
	Phases      []phaseDefOut `json:"phases,omitempty"`
	PhaseNames  []string      `json:"phaseNames,omitempty"`
}

type definitionsOut struct {
	Definitions []definitionOut `json:"definitions"`
	Problems    []string        `json:"problems,omitempty"`
}

func lifecycleGet(ctx context.Context, c tool.Call, in lifecycleGetArgs) (string, any, error) {
	l, err := RequireLifecycles(c)
	if err != nil {
		return "", nil, err
	}
	if strings.TrimSpace(in.Definition) == "" {
		ds, err := l.Definitions()
		if err != nil {
			return "", nil, err
		}
		return renderDefinitions(ds)
	}
	d, err := l.Definition(in.Definition)
	if err != nil {
		return "", nil, err
	}
	return renderDefinition(d)
}

// renderDefinitions lists the lifecycle definitions and the files skipped.
func renderDefinitions(ds lifecycles.Definitions) (string, any, error) {
	out := definitionsOut{}
	lines := []string{fmt.Sprintf("%s (default %s):", words.Plural(len(ds.List), "lifecycle definition", "lifecycle definitions"), lifecycle.DefaultName)}
	for _, d := range ds.List {
		out.Definitions = append(out.Definitions, definitionOut{Name: d.Name, Description: d.Description, Source: d.Source, PhaseNames: d.PhaseNames()})
		lines = append(lines, fmt.Sprintf("- %s (%s): %s", d.Name, d.Source, strings.Join(d.PhaseNames(), " → ")))
	}
	for _, p := range ds.Problems {
		out.Problems = append(out.Problems, lifecycle.Where(p))
		lines = append(lines, "malformed, skipped: "+lifecycle.Where(p))
	}
	return strings.Join(lines, "\n"), out, nil
}

// renderDefinition is one lifecycle: its phases, their entry conditions and
// exit criteria.
func renderDefinition(d lifecycle.Definition) (string, any, error) {
	out := definitionOut{Name: d.Name, Description: d.Description, Source: d.Source}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", d.Name, d.Source, d.Description)
	for i, p := range d.Phases {
		po := phaseDefOut{Name: p.Name, Goal: p.Goal, Entry: p.Entry}
		fmt.Fprintf(&b, "\n%d. %s: %s", i+1, p.Name, p.Goal)
		for _, e := range p.Entry {
			fmt.Fprintf(&b, "\n   entry: %s", e)
		}
		for _, c := range p.Exit {
			po.Exit = append(po.Exit, criterionOut{ID: c.ID, Text: c.Text, Gate: c.Gate})
			g := ""
			if c.Gate {
				g = " (gate)"
			}
			fmt.Fprintf(&b, "\n   - %s%s: %s", c.ID, g, c.Text)
		}
		out.Phases = append(out.Phases, po)
	}
	return b.String(), out, nil
}

type transitionOut struct {
	From   string `json:"from"`
	To     string `json:"to,omitempty"`
	At     string `json:"at"`
	Spent  int64  `json:"spentSeconds"`
	Back   bool   `json:"loopBack,omitempty"`
	Reason string `json:"reason,omitempty"`
}

type lifecycleOut struct {
	ID          int64            `json:"id"`
	Task        tool.TaskLink    `json:"task"`
	Definition  string           `json:"definition"`
	Status      string           `json:"status"`
	Phase       string           `json:"phase,omitempty"`
	PhaseNum    int              `json:"phaseNum,omitempty"`
	Phases      int              `json:"phases,omitempty"`
	Since       string           `json:"phaseSince,omitempty"`
	TimeInPhase int64            `json:"secondsInPhase,omitempty"`
	Met         []criterionOut   `json:"met,omitempty"`
	Missing     []criterionOut   `json:"missing,omitempty"`
	History     []transitionOut  `json:"history,omitempty"`      // the latest historyKept
	HistoryAll  int              `json:"historyTotal,omitempty"` // set when history leaves some out
	LoopBacks   int              `json:"loopBacks,omitempty"`
	Durations   map[string]int64 `json:"secondsByPhase,omitempty"`
	From        string           `json:"from,omitempty"`
	NotAdvanced bool             `json:"notAdvanced,omitempty"` // evidence recorded, criteria still missing
	Message     string           `json:"message,omitempty"`
}

// historyShown is how many transitions the text shows, newest last, and
// historyKept how many the structured answer carries: a story that loops
// back often must not grow its answers without bound.
const (
	historyShown = 5
	historyKept  = 20
)

func lifecycleResult(v lifecycles.LifecycleView) (string, lifecycleOut) {
	out := lifecycleOut{ID: v.ID, Task: tool.TaskLinkOf(v.Task), Definition: v.Definition, Status: v.Status, Phase: v.Phase,
		PhaseNum: v.PhaseNum, Phases: v.Phases}
	var b strings.Builder
	fmt.Fprintf(&b, "Lifecycle %d (%s) on task %s %q: ", v.ID, v.Definition, v.Task.ID, v.Task.Title)
	if v.Phase == "" {
		fmt.Fprintf(&b, "%s, started %s.", v.Status, tool.Timestamp(v.StartedAt))
	} else {
		out.Since, out.TimeInPhase = tool.Timestamp(v.PhaseSince), int64(v.TimeInPhase/time.Second)
		fmt.Fprintf(&b, "phase %s (%d/%d) for %s.", v.Phase, v.PhaseNum, v.Phases, words.Duration(v.TimeInPhase))
		if v.Goal != "" {
			b.WriteString(" Goal: " + v.Goal)
		}
	}
	for _, m := range v.Met {
		ev := m.Evidence.Text
		if m.Evidence.Command != "" {
			ev = fmt.Sprintf("`%s` exit %d", m.Evidence.Command, *m.Evidence.ExitCode)
			if m.Evidence.Text != "" {
				ev += "; " + m.Evidence.Text
			}
		}
		ev, _ = tool.PreviewBody(ev)
		out.Met = append(out.Met, criterionOut{ID: m.ID, Gate: m.Gate, Evidence: ev})
		fmt.Fprintf(&b, "\nmet %s: %s", m.ID, ev)
	}
	for _, m := range v.Missing {
		out.Missing = append(out.Missing, criterionOut{ID: m.ID, Text: m.Text, Gate: m.Gate})
		var notes []string
		if m.Gate {
			notes = append(notes, "gate: checks with exit_code 0")
		}
		if e := m.Short; e != nil && e.Command != "" && e.ExitCode != nil && *e.ExitCode != 0 {
			notes = append(notes, fmt.Sprintf("`%s` exited %d", clipText(e.Command, 200), *e.ExitCode))
		}
		g := ""
		if len(notes) > 0 {
			g = " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(&b, "\nmissing %s%s: %s", m.ID, g, m.Text)
	}
	if len(v.Durations) > 0 {
		out.Durations = map[string]int64{}
		for k, d := range v.Durations {
			out.Durations[k] = int64(d / time.Second)
		}
	}
	backs := 0
	if len(v.History) > historyKept {
		out.HistoryAll = len(v.History)
	}
	for i, h := range v.History {
		if i >= len(v.History)-historyKept {
			out.History = append(out.History, transitionOut{From: h.From, To: h.To, At: tool.Timestamp(h.At), Spent: int64(h.Spent / time.Second), Back: h.Back, Reason: h.Reason})
		}
		if h.Back {
			backs++
		}
		first := max(0, len(v.History)-historyShown)
		switch {
		case i == first && first > 0:
			fmt.Fprintf(&b, "\nhistory (%s earlier):", words.Plural(first, "change", "changes"))
		case i == first:
			b.WriteString("\nhistory:")
		}
		if i >= len(v.History)-historyShown {
			to := h.To
			if to == "" {
				to = "done"
			}
			fmt.Fprintf(&b, "\n- %s → %s after %s", h.From, to, words.Duration(h.Spent))
			if h.Back {
				b.WriteString(" (loop back: " + clipText(h.Reason, 200) + ")")
			}
		}
	}
	if backs > 0 {
		out.LoopBacks = backs
		fmt.Fprintf(&b, "\nLoop-backs: %d.", backs)
	}
	return b.String(), out
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return problem.Quote(s)
}

func lifecycleInit(ctx context.Context, c tool.Call, in lifecycleInitArgs) (string, any, error) {
	l, err := RequireLifecycles(c)
	if err != nil {
		return "", nil, err
	}
	v, err := l.Init(ctx, lifecycles.LifecycleInit{Task: string(in.TaskID), Definition: in.Definition})
	if err != nil {
		return "", nil, err
	}
	text, out := lifecycleResult(v)
	out.Message = fmt.Sprintf("Started lifecycle %d; lifecycle_advance with evidence for each missing criterion.", v.ID)
	return out.Message + "\n" + text, out, nil
}

func lifecycleAdvance(ctx context.Context, c tool.Call, in lifecycleAdvanceArgs) (string, any, error) {
	l, err := RequireLifecycles(c)
	if err != nil {
		return "", nil, err
	}
	req := lifecycles.AdvanceRequest{ID: string(in.ID), Evidence: in.Evidence, To: in.To, Reason: in.Reason, Hold: in.Hold}
	if len(in.Checks) > 0 {
		req.Checks = map[string]lifecycle.Check{}
		for k, ch := range in.Checks {
			if ch.ExitCode == nil {
				return "", nil, &problem.FieldError{Field: "checks." + clipText(k, 40) + ".exit_code", Problem: "is missing", Fix: "give the command's exit code (0 for success)"}
			}
			req.Checks[k] = lifecycle.Check{Command: ch.Command, ExitCode: *ch.ExitCode}
		}
	}
	r, err := l.Advance(ctx, req)
	if err != nil {
		return "", nil, err
	}
	text, out := lifecycleResult(r.LifecycleView)
	out.From = r.From
	switch {
	case in.Hold:
		out.Message = fmt.Sprintf("Recorded evidence; still in %s.", r.Phase)
	case r.Stayed:
		out.NotAdvanced = true
		ids := make([]string, len(r.Missing))
		for i, m := range r.Missing {
			ids[i] = m.ID
		}
		out.Message = fmt.Sprintf("Not advanced: %s still lacks evidence for %s. The evidence given is recorded; give the rest and advance again (hold: true records evidence without trying to advance).",
			r.Phase, strings.Join(ids, ", "))
	case r.Phase == "":
		out.Message = fmt.Sprintf("Finished %s: the lifecycle is done; complete the task when its work is.", r.From)
	case len(r.History) > 0 && r.History[len(r.History)-1].Back:
		out.Message = fmt.Sprintf("Looped back from %s to %s.", r.From, r.Phase)
	default:
		out.Message = fmt.Sprintf("Advanced from %s to %s.", r.From, r.Phase)
	}
	return out.Message + "\n" + text, out, nil
}

func LifecycleStatus(ctx context.Context, c tool.Call, in LifecycleIDArgs) (string, any, error) {
	l, err := RequireLifecycles(c)
	if err != nil {
		return "", nil, err
	}
	v, err := l.Status(ctx, string(in.ID))
	if err != nil {
		return "", nil, err
	}
	text, out := lifecycleResult(v)
	return text, out, nil
}

type lifecycleItemOut struct {
	ID         int64         `json:"id"`
	Task       tool.TaskLink `json:"task"`
	Definition string        `json:"definition"`
	Status     string        `json:"status"`
	Phase      string        `json:"phase,omitempty"`
	Since      string        `json:"phaseSince,omitempty"`
	LoopBacks  int           `json:"loopBacks,omitempty"`
}

type lifecycleListOut struct {
	Lifecycles []lifecycleItemOut `json:"lifecycles"`
	Total      int                `json:"total"`
	Offset     int                `json:"offset"`
	NextOffset int                `json:"nextOffset,omitempty"`
}

func LifecycleList(ctx context.Context, c tool.Call, in LifecycleListArgs) (string, any, error) {
	l, err := RequireLifecycles(c)
	if err != nil {
		return "", nil, err
	}
	page, err := l.List(ctx, lifecycles.LifecycleList{Status: in.Status, Phase: in.Phase, Page: page.Page{Offset: in.Offset, Limit: in.Limit}})
	if err != nil {
		return "", nil, err
	}
	out := lifecycleListOut{Lifecycles: []lifecycleItemOut{}, Total: page.Total, Offset: page.Offset, NextOffset: page.NextOffset}
	lines := []string{words.Plural(page.Total, "lifecycle matches", "lifecycles match")}
	switch n := len(page.Items); {
	case n == page.Total:
		lines[0] += ":"
	case n > 0:
		lines[0] += fmt.Sprintf(", %d-%d:", page.Offset+1, page.Offset+n)
	default:
		lines[0] += "."
	}
	if page.NextOffset > 0 {
		lines[0] += fmt.Sprintf(" (next offset %d)", page.NextOffset)
	}
	for _, it := range page.Items {
		o := lifecycleItemOut{ID: it.ID, Task: tool.TaskLinkOf(it.Task), Definition: it.Definition, Status: it.Status, LoopBacks: it.Loops}
		where := it.Status
		if it.Status == "open" {
			o.Phase, o.Since = it.Phase, tool.Timestamp(it.PhaseSince)
			where = "in " + it.Phase + " since " + o.Since
		}
		s := fmt.Sprintf("- %d (%s) task %s %q: %s", it.ID, it.Definition, it.Task.ID, it.Task.Title, where)
		if it.Loops > 0 {
			s += fmt.Sprintf(", loop-backs: %d", it.Loops)
		}
		out.Lifecycles = append(out.Lifecycles, o)
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n"), out, nil
}
