// Package focus declares the focus toolset: the focus stack (YOU ARE HERE),
// deeper and next steps, completion.
package focus

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// The focus toolset: the 12 commands of the focus-stack specification, with
// its parameter and result field names.

type NewTaskArgs struct {
	Title string `json:"title"`
	Body  string `json:"body,omitempty"`
}

type BodyArgs struct {
	Body string `json:"body"`
}

type IncludeBodyArgs struct {
	IncludeBody bool `json:"include_body,omitempty"`
}

type TaskIDArgs struct {
	TaskID tool.IDArg `json:"task_id" jsonschema:"id or parentId.N"`
}

type PageArgs struct {
	Offset int `json:"offset,omitempty"`
	Limit  int `json:"limit,omitempty"`
}

type BigPictureArgs struct {
	Format string `json:"format,omitempty"`
	PageArgs
}

type CompletedArgs struct {
	Order string `json:"order,omitempty" jsonschema:"logical: last completed first"`
	PageArgs
}

type completeArgs struct {
	Force bool `json:"force,omitempty"`
}

type removeArgs struct {
	TaskID tool.IDArg `json:"task_id" jsonschema:"id or parentId.N"`
	Force  bool       `json:"force,omitempty"`
}

func Tools() []tool.Tool {
	const ts = "focus"
	archive := func(extra ...func(*jsonschema.Schema)) []func(*jsonschema.Schema) {
		return append(tool.PageShape(page.Archive), extra...)
	}
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "create_new_task",
			Description: "Add a child of the current task (a root in zen) and focus it. For a task with dependencies, not focused: create_task."},
			createNewTask),
		tool.Declare(ts, mcp.Tool{Name: "extend_current_task",
			Description: "Add a sibling right after the current task and focus it."},
			extendCurrentTask),
		tool.Declare(ts, mcp.Tool{Name: "get_current_task", Annotations: tool.ReadOnly,
			Description: "YOU ARE HERE: current task, body, breadcrumb, left siblings."},
			GetCurrentTask),
		tool.Declare(ts, mcp.Tool{Name: "get_big_picture", Annotations: tool.ReadOnly,
			Description: "The task tree with YOU ARE HERE; paged by line. Flat rows: get_stack_overview."},
			GetBigPicture, append(tool.PageShape(page.Outline), tool.Enum("format", "text", "json"))...),
		tool.Declare(ts, mcp.Tool{Name: "complete_current_task",
			Description: "Finish the current task for good (children and dependencies first) and focus the next ready one."},
			completeCurrentTask),
		tool.Declare(ts, mcp.Tool{Name: "get_completed_tasks", Annotations: tool.ReadOnly,
			Description: "Completed tasks with bodies and completion times."},
			getCompletedTasks, archive(tool.Enum("order", "chronological", "logical"))...),
		tool.Declare(ts, mcp.Tool{Name: "update_current_task",
			Description: "Replace the current task's body (notes, results)."},
			updateCurrentTask),
		tool.Declare(ts, mcp.Tool{Name: "get_stack_overview", Annotations: tool.ReadOnly,
			Description: "Every task as a flat row: id, parent, depth, status, title."},
			getStackOverview, tool.PageShape(page.Outline)...),
		tool.Declare(ts, mcp.Tool{Name: "peek_context", Annotations: tool.ReadOnly,
			Description: "The current task's parent and previous sibling; focus stays."},
			peekContext),
		tool.Declare(ts, mcp.Tool{Name: "list_siblings", Annotations: tool.ReadOnly,
			Description: "Tasks before the current one at its level."},
			listSiblings, tool.PageShape(page.Sibling)...),
		tool.Declare(ts, mcp.Tool{Name: "switch_focus",
			Description: "Make any open task current, by id."},
			switchFocus),
		tool.Declare(ts, mcp.Tool{Name: "remove_task",
			Description: "Remove a task and its subtasks from the outline, moving focus on if it was here; completed ones stay archived. delete_task: the plan's twin."},
			removeTask),
	}
}

// taskRef is a task as the focus results list it.
type taskRef struct {
	TaskID      string `json:"task_id"`
	Title       string `json:"title"`
	Status      string `json:"status,omitempty"`
	Body        string `json:"body,omitempty"`
	Clipped     bool   `json:"body_truncated,omitempty"`
	CreatedAt   string `json:"created_at,omitempty"`
	CompletedAt string `json:"completed_at,omitempty"`
}

// focusStatus is a task's status as the focus view shows it.
func focusStatus(t task.Task, current task.ID) string {
	switch {
	case t.ID == current && current != 0:
		return "current"
	case t.Status == task.StatusDone:
		return "completed"
	case t.Status == task.StatusPending:
		return "pending"
	}
	return string(t.Status)
}

func ref(t task.Task, current task.ID, withBody bool) taskRef {
	r := taskRef{TaskID: t.ID.String(), Title: t.Title, Status: focusStatus(t, current),
		CreatedAt: tool.Timestamp(t.CreatedAt), CompletedAt: tool.Timestamp(t.CompletedAt)}
	if withBody {
		r.Body, r.Clipped = tool.PreviewBody(t.Body)
	}
	return r
}

// completedPreview is how much of each body get_completed_tasks shows: a
// page of 20 with bodies clipped at bodyPreview was up to 40 KB.
const completedPreview = 500

func (r taskRef) label() string { return fmt.Sprintf("[%s] %s", r.TaskID, r.Title) }

type createdOut struct {
	TaskID    string `json:"task_id"`
	Message   string `json:"message"`
	IsCurrent bool   `json:"is_current"`
	ParentID  string `json:"parent_id,omitempty"`
}

func created(t task.Task, how string) (string, any, error) {
	msg := fmt.Sprintf("Created %s %s; it is now current.", tool.TaskLabel(t), how)
	out := createdOut{TaskID: t.ID.String(), Message: msg, IsCurrent: true}
	if t.ParentID != 0 {
		out.ParentID = t.ParentID.String()
	}
	return msg, out, nil
}

func createNewTask(ctx context.Context, c tool.Call, in NewTaskArgs) (string, any, error) {
	t, err := c.Focus.CreateNewTask(ctx, c.Agent, in.Title, in.Body)
	if err != nil {
		return "", nil, err
	}
	how := "as a root task"
	if t.ParentID != 0 {
		how = "under [" + t.ParentID.String() + "]"
	}
	return created(t, how)
}

func extendCurrentTask(ctx context.Context, c tool.Call, in NewTaskArgs) (string, any, error) {
	t, err := c.Focus.ExtendCurrentTask(ctx, c.Agent, in.Title, in.Body)
	if err != nil {
		return "", nil, err
	}
	return created(t, "as the next step at the same level")
}

type zenOut struct {
	Zen        bool   `json:"zen"`
	Agent      string `json:"agent,omitempty"` // whose focus this is
	Message    string `json:"message"`
	NextTaskID string `json:"next_task_id,omitempty"` // what get_next_task recommends
}

const zenMessage = "Zen: no current task. get_next_task says what to do next; switch_focus to it, or create_new_task for new work."

func zen() (string, any, error) { return zenMessage, zenOut{Zen: true, Message: zenMessage}, nil }

// zenText says what an agent in zen can start: the task get_next_task
// would recommend, else what is open, else that all is done.
func zenText(z focus.Zen) string {
	switch {
	case z.Next != nil:
		return fmt.Sprintf("Zen: no current task. Next (as get_next_task recommends): %s; switch_focus %s to start it, or create_new_task for new work.",
			tool.TaskLabel(*z.Next), z.Next.ID)
	case z.Total == 0:
		return "Zen: no tasks yet. Start work with create_new_task."
	case z.Held > 0:
		return fmt.Sprintf("Zen: no current task, and other agents hold every ready task (%d); get_tasks shows who, or create_new_task for new work.", z.Held)
	case z.Open == 1:
		return "Zen: no current task, and the 1 open task is not ready (deferred, blocked or waiting on a dependency); get_tasks shows it, switch_focus works on it anyway."
	case z.Open > 1:
		return fmt.Sprintf("Zen: no current task, and none of the %d open tasks is ready (deferred, blocked or waiting on dependencies); get_tasks shows them, switch_focus works on one anyway.", z.Open)
	}
	return "Zen: all tasks are complete. Start new work with create_new_task."
}

func nextID(z focus.Zen) string {
	if z.Next == nil {
		return ""
	}
	return z.Next.ID.String()
}

func zenFrom(z focus.Zen) (string, any, error) {
	msg := zenText(z)
	return msg, zenOut{Zen: true, Message: msg, NextTaskID: nextID(z)}, nil
}

type currentOut struct {
	Agent      string          `json:"agent"` // whose focus this is
	TaskID     string          `json:"task_id"`
	Title      string          `json:"title"`
	Body       string          `json:"body"`
	Status     string          `json:"status"`
	Depth      int             `json:"depth"`
	CreatedAt  string          `json:"created_at"`
	Breadcrumb []taskRef       `json:"breadcrumb,omitempty"`
	Left       []taskRef       `json:"siblings_to_left,omitempty"`
	LeftMore   int             `json:"more_to_left,omitempty"` // siblings to the left not listed; list_siblings has all
	Held       *tool.ClaimView `json:"held_by,omitempty"`      // another agent's live claim on the task
	moreClosed bool            // every one of LeftMore is closed
}

func GetCurrentTask(ctx context.Context, c tool.Call, _ tool.NoArgs) (string, any, error) {
	v, err := c.Focus.Current(ctx, c.Agent)
	if err != nil || v.Zen {
		if err != nil {
			return "", nil, err
		}
		text, out, err := zenFrom(v.ZenHint)
		z := out.(zenOut)
		z.Agent = c.Agent
		return strings.Replace(text, "Zen:", "Zen (agent "+c.Agent+"):", 1), z, err
	}
	out := viewCurrent(v)
	out.Agent = c.Agent
	return out.text(), out, nil
}

func viewCurrent(v focus.CurrentView) currentOut {
	t := v.Task
	out := currentOut{TaskID: t.ID.String(), Title: t.Title, Body: t.Body, Status: "current", Depth: v.Depth, CreatedAt: tool.Timestamp(t.CreatedAt)}
	for _, a := range v.Breadcrumb {
		out.Breadcrumb = append(out.Breadcrumb, taskRef{TaskID: a.ID.String(), Title: a.Title})
	}
	for _, s := range v.Left {
		out.Left = append(out.Left, taskRef{TaskID: s.ID.String(), Title: s.Title, Status: focusStatus(s, t.ID)})
		// Open siblings are listed first: once a closed one is listed,
		// every one left out is closed too.
		out.moreClosed = out.moreClosed || !s.Status.Open()
	}
	out.LeftMore = v.LeftMore
	out.Held = tool.ClaimViewOf(v.Held, false)
	return out
}

// heldText says who holds a task another agent claimed, and what to do.
func heldText(c *tool.ClaimView) string {
	return fmt.Sprintf("held by %s until %s: ask them, or wait; writing to it needs force: true", c.Agent, c.Until)
}

// text is YOU ARE HERE: the task, its path, its left siblings, its body.
func (o currentOut) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "YOU ARE HERE: [%s] %s (depth %d; agent %s)\n", o.TaskID, o.Title, o.Depth, o.Agent)
	if o.Held != nil {
		fmt.Fprintf(&b, "Claim: %s\n", heldText(o.Held))
	}
	if len(o.Breadcrumb) > 0 {
		parts := make([]string, len(o.Breadcrumb))
		for i, a := range o.Breadcrumb {
			parts[i] = a.label()
		}
		fmt.Fprintf(&b, "Path: %s\n", strings.Join(parts, " > "))
	}
	if len(o.Left) > 0 {
		parts := make([]string, len(o.Left))
		for i, s := range o.Left {
			parts[i] = fmt.Sprintf("%s (%s)", s.label(), s.Status)
		}
		more := ""
		if o.LeftMore > 0 {
			closed := ""
			if o.moreClosed {
				closed = " closed"
			}
			more = fmt.Sprintf("; %d more%s (list_siblings)", o.LeftMore, closed)
		}
		fmt.Fprintf(&b, "Left: %s%s\n", strings.Join(parts, ", "), more)
	}
	if o.Body != "" {
		fmt.Fprintf(&b, "Body:\n%s", o.Body)
	}
	return strings.TrimRight(b.String(), "\n")
}

type outlineNode struct {
	TaskID      string         `json:"task_id"`
	Title       string         `json:"title"`
	Status      string         `json:"status"`
	IsCurrent   bool           `json:"is_current,omitempty"`
	ParentID    string         `json:"parent_id,omitempty"` // only on a node whose parent is outside the page
	CreatedAt   string         `json:"created_at"`
	CompletedAt string         `json:"completed_at,omitempty"`
	Phase       string         `json:"phase,omitempty"` // of its open lifecycle
	SubTasks    []*outlineNode `json:"sub_tasks,omitempty"`
}

type bigPictureOut struct {
	Format     string         `json:"format"`
	BigPicture string         `json:"big_picture,omitempty"`
	Tasks      []*outlineNode `json:"tasks,omitempty"`
	Total      int            `json:"total"`
	CurrentID  string         `json:"current_task_id,omitempty"`
	// CurrentLine is the current task's line (from 1) when this page does
	// not show it.
	CurrentLine int    `json:"current_line,omitempty"`
	Zen         bool   `json:"zen,omitempty"`
	NextTaskID  string `json:"next_task_id,omitempty"` // in zen: what get_next_task recommends
	NextOffset  int    `json:"next_offset,omitempty"`
}

func GetBigPicture(ctx context.Context, c tool.Call, in BigPictureArgs) (string, any, error) {
	format := in.Format // decodeArgs checked it against the schema's enum
	if format == "" {
		format = "text"
	}
	p, err := c.Focus.BigPicture(ctx, c.Agent, page.Page(in.PageArgs))
	if err != nil {
		return "", nil, err
	}
	out := bigPictureOut{Format: format, Total: p.Total, Zen: p.Current == 0, NextOffset: p.NextOffset, CurrentLine: p.CurrentLine}
	if p.Current != 0 {
		out.CurrentID = p.Current.String()
	} else {
		out.NextTaskID = nextID(p.Zen)
	}
	if format == "json" {
		out.Tasks = nest(p.Outline, p.Current, p.Phases)
		b, err := json.Marshal(out)
		return string(b), out, err
	}
	out.BigPicture = renderOutline(p)
	return out.BigPicture, out, nil
}

// renderOutline is a page of the outline, indented, with YOU ARE HERE.
func renderOutline(p focus.Picture) string {
	var b strings.Builder
	if p.Total == 0 {
		b.WriteString("(no tasks yet: zen) Start with create_new_task.")
	}
	for _, e := range p.Outline {
		b.WriteString(strings.Repeat("  ", e.Depth))
		fmt.Fprintf(&b, "%s (%s)", tool.TaskLabel(e.Task), focusStatus(e.Task, p.Current))
		if ph := p.Phases[e.ID]; ph != "" {
			b.WriteString(" [phase " + ph + "]")
		}
		if e.ID == p.Current {
			b.WriteString(" <-- YOU ARE HERE")
		}
		b.WriteByte('\n')
	}
	if p.Current == 0 && p.Total > 0 {
		if p.Zen.Open == 0 {
			b.WriteString("(all tasks completed: zen)\n")
		} else {
			fmt.Fprintf(&b, "(%s)\n", zenText(p.Zen))
		}
	}
	if p.CurrentLine > 0 {
		fmt.Fprintf(&b, "(YOU ARE HERE is [%s], line %d, not on this page: offset %d starts a page at it)\n", p.Current, p.CurrentLine, p.CurrentLine-1)
	}
	if p.NextOffset != 0 || p.Offset > 0 {
		fmt.Fprintf(&b, "(lines %d-%d of %d", p.Offset+1, p.Offset+len(p.Outline), p.Total)
		if p.NextOffset != 0 {
			fmt.Fprintf(&b, "; next offset %d", p.NextOffset)
		}
		b.WriteString(")\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// nest turns a window of the outline back into a tree. A node whose parent
// is outside the window is a top-level node that names its parent.
func nest(page []task.Entry, current task.ID, phases map[task.ID]string) []*outlineNode {
	byID := make(map[task.ID]*outlineNode, len(page))
	var roots []*outlineNode
	for _, e := range page {
		n := &outlineNode{TaskID: e.ID.String(), Title: e.Title, Status: focusStatus(e.Task, current),
			IsCurrent: e.ID == current, CreatedAt: tool.Timestamp(e.CreatedAt), CompletedAt: tool.Timestamp(e.CompletedAt), Phase: phases[e.ID]}
		byID[e.ID] = n
		if p, ok := byID[e.ParentID]; ok {
			p.SubTasks = append(p.SubTasks, n)
			continue
		}
		if e.ParentID != 0 {
			n.ParentID = e.ParentID.String()
		}
		roots = append(roots, n)
	}
	return roots
}

type completeOut struct {
	TaskID      string `json:"task_id"`
	Message     string `json:"message"`
	CompletedAt string `json:"completed_at"`
	CurrentID   string `json:"current_task_id,omitempty"`
	Zen         bool   `json:"zen,omitempty"`
	NextTaskID  string `json:"next_task_id,omitempty"` // in zen: what get_next_task recommends
	// Passed are the tasks focus passed over as other agents hold them.
	Passed []heldOut `json:"passed_held,omitempty"`
}

// heldOut is a task another agent holds.
type heldOut struct {
	TaskID string `json:"task_id"`
	Title  string `json:"title"`
	Agent  string `json:"agent"`
	Until  string `json:"until"`
}

// passedShown is how many passed-over tasks an answer names.
const passedShown = 3

// passedText names the tasks focus passed over, as others hold them.
func passedText(hs []focus.HeldTask) (string, []heldOut) {
	if len(hs) == 0 {
		return "", nil
	}
	var (
		out   []heldOut
		names []string
	)
	for _, h := range hs[:min(len(hs), passedShown)] {
		o := heldOut{TaskID: h.Task.ID.String(), Title: h.Task.Title, Agent: h.Claim.Agent, Until: tool.Timestamp(h.Claim.ExpiresAt)}
		out = append(out, o)
		names = append(names, fmt.Sprintf("%s (%s holds it until %s)", tool.TaskLabel(h.Task), o.Agent, o.Until))
	}
	if n := len(hs) - len(out); n > 0 {
		names = append(names, fmt.Sprintf("%d more", n))
	}
	return " Passed over " + strings.Join(names, ", ") + ".", out
}

func completeCurrentTask(ctx context.Context, c tool.Call, in completeArgs) (string, any, error) {
	r, err := c.Focus.CompleteCurrentTask(ctx, c.Agent, in.Force)
	if err != nil {
		return "", nil, err
	}
	msg := fmt.Sprintf("Completed %s.", tool.TaskLabel(r.Task))
	out := completeOut{TaskID: r.Task.ID.String(), CompletedAt: tool.Timestamp(r.Task.CompletedAt)}
	passed, held := passedText(r.Passed)
	msg += passed
	out.Passed = held
	if r.Next.ID == 0 {
		out.Zen = true
		msg += " " + zenText(r.Zen)
		out.NextTaskID = nextID(r.Zen)
	} else {
		out.CurrentID = r.Next.ID.String()
		msg += fmt.Sprintf(" Now current: %s.", tool.TaskLabel(r.Next))
	}
	out.Message = msg
	return msg, out, nil
}

type completedOut struct {
	Count      int       `json:"count"`
	Order      string    `json:"order"`
	Tasks      []taskRef `json:"tasks"`
	NextOffset int       `json:"next_offset,omitempty"`
}

func getCompletedTasks(ctx context.Context, c tool.Call, in CompletedArgs) (string, any, error) {
	a, err := c.Focus.CompletedTasks(ctx, focus.CompletedQuery{Order: in.Order, Page: page.Page(in.PageArgs)})
	if err != nil {
		return "", nil, err
	}
	out := completedOut{Count: a.Total, Order: a.Order, Tasks: []taskRef{}, NextOffset: a.NextOffset}
	for _, c := range a.Tasks {
		r := taskRef{TaskID: c.TaskID.String(), Title: c.Title, CompletedAt: tool.Timestamp(c.CompletedAt)}
		r.Body, r.Clipped = tool.ClipBody(c.Body, completedPreview)
		out.Tasks = append(out.Tasks, r)
	}
	return out.text(a.Offset), out, nil
}

// text is a page of the archive (at offset), with the bodies.
func (o completedOut) text(offset int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d completed (%s)", o.Count, o.Order)
	if o.NextOffset != 0 {
		fmt.Fprintf(&b, "; showing %d-%d, next offset %d", offset+1, offset+len(o.Tasks), o.NextOffset)
	}
	for _, r := range o.Tasks {
		fmt.Fprintf(&b, "\n%s (completed %s)", r.label(), r.CompletedAt)
		if r.Body != "" {
			b.WriteString("\n" + indent(r.Body))
		}
		if r.Clipped {
			fmt.Fprintf(&b, "\n  (body clipped at %d bytes; get_task %s shows it whole)", completedPreview, r.TaskID)
		}
	}
	return b.String()
}

// indent sets a body off under its task's line.
func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

type messageOut struct {
	TaskID  string `json:"task_id"`
	Message string `json:"message"`
}

func updateCurrentTask(ctx context.Context, c tool.Call, in BodyArgs) (string, any, error) {
	t, err := c.Focus.UpdateCurrentTask(ctx, c.Agent, in.Body)
	if err != nil {
		return "", nil, err
	}
	msg := fmt.Sprintf("Updated the body of %s (%d bytes).", tool.TaskLabel(t), len(t.Body))
	return msg, messageOut{TaskID: t.ID.String(), Message: msg}, nil
}

type overviewRow struct {
	TaskID   string `json:"task_id"`
	ParentID string `json:"parent_id,omitempty"`
	Depth    int    `json:"depth"`
	Status   string `json:"status"`
	Title    string `json:"title"`
}

type overviewOut struct {
	Count      int           `json:"count"`
	CurrentID  string        `json:"current_task_id,omitempty"`
	Tasks      []overviewRow `json:"tasks"`
	NextOffset int           `json:"next_offset,omitempty"`
}

func getStackOverview(ctx context.Context, c tool.Call, in PageArgs) (string, any, error) {
	p, err := c.Focus.BigPicture(ctx, c.Agent, page.Page(in))
	if err != nil {
		return "", nil, err
	}
	out := overviewOut{Count: p.Total, Tasks: []overviewRow{}, NextOffset: p.NextOffset}
	if p.Current != 0 {
		out.CurrentID = p.Current.String()
	}
	for _, e := range p.Outline {
		r := overviewRow{TaskID: e.ID.String(), Depth: e.Depth + 1, Status: focusStatus(e.Task, p.Current), Title: e.Title}
		if e.ParentID != 0 {
			r.ParentID = e.ParentID.String()
		}
		out.Tasks = append(out.Tasks, r)
	}
	return out.text(), out, nil
}

// text is the overview as a tab-separated table.
func (o overviewOut) text() string {
	var b strings.Builder
	if o.CurrentID != "" {
		fmt.Fprintf(&b, "current: %s\n", o.CurrentID)
	} else {
		b.WriteString("current: none (zen)\n")
	}
	b.WriteString("id\tparent\tdepth\tstatus\ttitle\n")
	for _, r := range o.Tasks {
		parent := r.ParentID
		if parent == "" {
			parent = "-"
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\t%s\n", r.TaskID, parent, r.Depth, r.Status, r.Title)
	}
	fmt.Fprintf(&b, "(%d of %s", len(o.Tasks), words.Count(o.Count, "task"))
	if o.NextOffset != 0 {
		fmt.Fprintf(&b, "; next offset %d", o.NextOffset)
	}
	b.WriteString(")")
	return b.String()
}

type peekOut struct {
	TaskID    string   `json:"task_id,omitempty"`
	Parent    *taskRef `json:"parent_context,omitempty"`
	Immediate *taskRef `json:"immediate_context,omitempty"`
	Zen       bool     `json:"zen,omitempty"`
	Message   string   `json:"message,omitempty"`
}

func peekContext(ctx context.Context, c tool.Call, in IncludeBodyArgs) (string, any, error) {
	v, err := c.Focus.PeekContext(ctx, c.Agent, in.IncludeBody)
	if err != nil || v.Zen {
		if err != nil {
			return "", nil, err
		}
		return zen()
	}
	out := peekOut{TaskID: v.Current.ID.String()}
	if v.Parent != nil {
		r := ref(*v.Parent, v.Current.ID, in.IncludeBody)
		out.Parent = &r
	}
	if v.Left != nil {
		r := ref(*v.Left, v.Current.ID, in.IncludeBody)
		out.Immediate = &r
	}
	return out.text(tool.TaskLabel(v.Current)), out, nil
}

// text is the current task (current names it) and what is around it.
func (o peekOut) text(current string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Current: %s\n", current)
	for _, x := range []struct {
		name, none string
		r          *taskRef
	}{{"Parent", "none (a root task)", o.Parent}, {"Before it", "nothing (first at its level)", o.Immediate}} {
		if x.r == nil {
			fmt.Fprintf(&b, "%s: %s\n", x.name, x.none)
			continue
		}
		fmt.Fprintf(&b, "%s: %s (%s)\n", x.name, x.r.label(), x.r.Status)
		if x.r.Body != "" {
			fmt.Fprintf(&b, "%s\n", x.r.Body)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

type siblingsOut struct {
	Count      int       `json:"count"`
	Siblings   []taskRef `json:"siblings"`
	NextOffset int       `json:"next_offset,omitempty"`
	Zen        bool      `json:"zen,omitempty"`
}

type siblingsArgs struct {
	IncludeBody bool `json:"include_body,omitempty"`
	PageArgs
}

func listSiblings(ctx context.Context, c tool.Call, in siblingsArgs) (string, any, error) {
	p, err := c.Focus.Siblings(ctx, c.Agent, focus.SiblingsQuery{WithBody: in.IncludeBody, Page: page.Page(in.PageArgs)})
	if err != nil || p.Zen {
		if err != nil {
			return "", nil, err
		}
		return zen()
	}
	out := siblingsOut{Count: p.Total, Siblings: []taskRef{}, NextOffset: p.NextOffset}
	for _, s := range p.Left {
		out.Siblings = append(out.Siblings, ref(s, 0, in.IncludeBody))
	}
	return out.text(p), out, nil
}

// text is a page of the siblings to the left, with their bodies if they
// were asked for. Its first line says how many there are, which of them the
// page shows (positions from the leftmost) and which offset shows the ones
// before these.
func (o siblingsOut) text(p focus.Siblings) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d to the left of the current task", o.Count)
	switch {
	case len(o.Siblings) == 0 && o.Count > 0:
		fmt.Fprintf(&b, "; none at offset %d (offset 0 shows the nearest)", p.Offset)
	case len(o.Siblings) < o.Count:
		from := p.From()
		fmt.Fprintf(&b, "; showing %d-%d from the leftmost", from, from+len(o.Siblings)-1)
		if o.NextOffset != 0 {
			fmt.Fprintf(&b, "; next offset %d shows %d-%d", o.NextOffset, max(1, from-len(o.Siblings)), from-1)
		}
	}
	if len(o.Siblings) > 0 {
		b.WriteString(":")
	}
	for _, r := range o.Siblings {
		fmt.Fprintf(&b, "\n%s (%s)", r.label(), r.Status)
		if r.Body != "" {
			fmt.Fprintf(&b, "\n%s", r.Body)
		}
		if r.Clipped {
			fmt.Fprintf(&b, "\n(body clipped at %d bytes; get_task %s shows it whole)", tool.BodyPreview, r.TaskID)
		}
	}
	return b.String()
}

type switchOut struct {
	Success    bool            `json:"success"`
	TaskID     string          `json:"task_id"`
	Status     string          `json:"status"`
	PreviousID string          `json:"previous_task_id,omitempty"`
	FocusPath  []string        `json:"focus_path"`
	WaitsOn    []tool.TaskLink `json:"waits_on,omitempty"` // open dependencies
	Held       *tool.ClaimView `json:"held_by,omitempty"`  // another agent's live claim
	Message    string          `json:"message"`
}

// waitsShown is how many open dependencies switch_focus names.
const waitsShown = 5

func switchFocus(ctx context.Context, c tool.Call, in TaskIDArgs) (string, any, error) {
	s, err := c.Focus.SwitchFocus(ctx, c.Agent, string(in.TaskID))
	if err != nil {
		return "", nil, err
	}
	out := switchOut{Success: true, TaskID: s.Task.ID.String(), Status: string(s.Task.Status)}
	for _, a := range s.Path {
		out.FocusPath = append(out.FocusPath, a.Title)
	}
	out.FocusPath = append(out.FocusPath, s.Task.Title)
	if s.Previous != 0 {
		out.PreviousID = s.Previous.String()
	}
	status := string(s.Task.Status)
	if s.Started {
		status = "now " + status
	}
	out.Message = fmt.Sprintf("Focus is on %s (%s). Path: %s.", tool.TaskLabel(s.Task), status, strings.Join(out.FocusPath, " > "))
	if len(s.Waits) > 0 {
		names := make([]string, 0, waitsShown+1)
		for i, w := range s.Waits {
			if i < waitsShown {
				out.WaitsOn = append(out.WaitsOn, tool.TaskLinkOf(w))
				names = append(names, fmt.Sprintf("%s (%s)", tool.TaskLabel(w), w.Status))
			}
		}
		if n := len(s.Waits) - len(out.WaitsOn); n > 0 {
			names = append(names, fmt.Sprintf("%d more", n))
		}
		out.Message += " It waits on " + strings.Join(names, ", ") + ": complete_current_task refuses it until they are done."
	}
	if out.Held = tool.ClaimViewOf(s.Held, false); out.Held != nil {
		out.Message += " It is " + heldText(out.Held) + "."
	}
	return out.Message, out, nil
}

type removeOut struct {
	TaskID       string `json:"task_id"`
	Removed      int    `json:"removed"`
	ArchivedKept int    `json:"archived_kept"`
	Message      string `json:"message"`
	CurrentID    string `json:"current_task_id,omitempty"`
	Zen          bool   `json:"zen,omitempty"`
}

func removeTask(ctx context.Context, c tool.Call, in removeArgs) (string, any, error) {
	r, err := c.Focus.RemoveTask(ctx, c.Agent, string(in.TaskID), in.Force)
	if err != nil {
		return "", nil, err
	}
	out := removeOut{TaskID: r.Task.ID.String(), Removed: r.Count, ArchivedKept: r.Archived}
	msg := fmt.Sprintf("Removed %s", tool.TaskLabel(r.Task))
	if r.Count > 1 {
		msg += " and " + words.Count(r.Count-1, "subtask")
	}
	msg += " from the outline; " + words.Plural(r.Archived, "completed task stays", "completed stay") + " in the archive."
	if r.Next.ID == 0 {
		out.Zen = true
		if r.MovedOn {
			msg += " " + zenText(r.Zen)
		}
	} else {
		out.CurrentID = r.Next.ID.String()
		if r.MovedOn {
			msg += fmt.Sprintf(" Focus moved to %s.", tool.TaskLabel(r.Next))
		}
	}
	out.Message = msg
	return msg, out, nil
}
