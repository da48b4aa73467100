// Package plan declares the plan toolset: the task board with its
// dependencies, next task, queries, stats, subtasks and claims.
package plan

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// The plan toolset: the task board of the plan specification, with its tool
// and parameter names, on the same task tree as the focus stack.

type FilterArgs struct {
	Status        tool.StringList `json:"status,omitempty" jsonschema:"pending, in-progress, blocked, done, deferred, cancelled"`
	Priority      tool.StringList `json:"priority,omitempty" jsonschema:"critical, high, medium, low"`
	CreatedAfter  string          `json:"createdAfter,omitempty" jsonschema:"ISO 8601"`
	CreatedBefore string          `json:"createdBefore,omitempty"`
	UpdatedAfter  string          `json:"updatedAfter,omitempty"`
	UpdatedBefore string          `json:"updatedBefore,omitempty"`
}

type GetTasksArgs struct {
	FilterArgs
	Offset int `json:"offset,omitempty"`
	Limit  int `json:"limit,omitempty" `
}

type IDArgs struct {
	ID tool.IDArg `json:"id" jsonschema:"id or parentId.N"`
}

type CreateTaskArgs struct {
	Title        string      `json:"title"`
	ParentID     tool.IDArg  `json:"parentId,omitempty" jsonschema:"makes it a subtask"`
	Description  string      `json:"description,omitempty"`
	Priority     string      `json:"priority,omitempty"`
	Dependencies tool.IDList `json:"dependencies,omitempty" jsonschema:"ids to finish first"`
	Status       string      `json:"status,omitempty"`
	Force        bool        `json:"force,omitempty" jsonschema:"done despite open dependencies"`
}

type updateTaskArgs struct {
	ID           tool.IDArg   `json:"id"`
	Title        *string      `json:"title,omitempty"`
	Description  *string      `json:"description,omitempty"`
	Status       *string      `json:"status,omitempty"`
	Priority     *string      `json:"priority,omitempty"`
	Dependencies *tool.IDList `json:"dependencies,omitempty" jsonschema:"replaces the list"`
	Force        bool         `json:"force,omitempty"`
}

type deleteArgs struct {
	ID    tool.IDArg `json:"id" jsonschema:"id or parentId.N"`
	Force bool       `json:"force,omitempty"`
}

type NextTaskArgs struct {
	Status   tool.StringList `json:"status,omitempty" jsonschema:"default pending, in-progress"`
	Priority tool.StringList `json:"priority,omitempty"`
}

type sortArgs struct {
	Field string `json:"field,omitempty"`
	Order string `json:"order,omitempty" jsonschema:"priority desc is most important first"`
}

// EnumAlias takes the sort field "id", the default order, which the
// schema leaves out and the plan service reads.
func (sortArgs) EnumAlias(name, value string) bool {
	return name == "field" && strings.EqualFold(value, "id")
}

type QueryTasksArgs struct {
	Filters FilterArgs      `json:"filters,omitempty"`
	Sort    sortArgs        `json:"sort,omitempty"`
	Fields  tool.StringList `json:"fields,omitempty" jsonschema:"default id, title, status, priority"`
	Offset  int             `json:"offset,omitempty"`
	Limit   int             `json:"limit,omitempty" `
}

type addSubtaskArgs struct {
	ParentID    tool.IDArg `json:"parentId"`
	Title       string     `json:"title"`
	Description string     `json:"description,omitempty"`
}

type updateSubtaskArgs struct {
	SubtaskID   tool.IDArg `json:"subtaskId" jsonschema:"parentId.N"`
	Status      *string    `json:"status,omitempty"`
	Title       *string    `json:"title,omitempty"`
	Description *string    `json:"description,omitempty"`
	Force       bool       `json:"force,omitempty"`
}

type subtaskIDArgs struct {
	SubtaskID tool.IDArg `json:"subtaskId" jsonschema:"parentId.N"`
	Force     bool       `json:"force,omitempty"`
}

var (
	statusEnum = tool.EnumValues(task.Statuses)
	fieldNames = []string{"id", "ref", "title", "description", "status", "priority", "dependencies", "parentId", "createdAt", "updatedAt", "completedAt"}
)

// Tools are the plan toolset's tools: the board's, then the claims'.
func Tools() []tool.Tool { return slices.Concat(boardTools(), claimTools()) }

func boardTools() []tool.Tool {
	const ts = "plan"
	page := tool.PageShape(page.Plan)
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "get_tasks", Annotations: tool.ReadOnly,
			Description: "Tasks with status, priority and dependencies, 20 a page. Filter any field: query_tasks."},
			GetTasks, page...),
		tool.Declare(ts, mcp.Tool{Name: "get_task", Annotations: tool.ReadOnly,
			Description: "One task in full: description, dependencies, dependents, subtasks."},
			GetTask),
		tool.Declare(ts, mcp.Tool{Name: "create_task",
			Description: "Add a task (with dependencies, under parentId if given) to the plan; focus stays. A step under the current task: create_new_task."},
			createTask, tool.Enum("priority", tool.PriorityEnum...), tool.Enum("status", statusEnum...)),
		tool.Declare(ts, mcp.Tool{Name: "update_task",
			Description: "Change a task; done is permanent and needs subtasks closed."},
			updateTask, tool.Enum("priority", tool.PriorityEnum...), tool.Enum("status", statusEnum...)),
		tool.Declare(ts, mcp.Tool{Name: "delete_task",
			Description: "Delete a task and its subtasks; dependents drop the link. remove_task also moves focus."},
			deleteTask),
		tool.Declare(ts, mcp.Tool{Name: "get_next_task", Annotations: tool.ReadOnly,
			Description: "Best ready task by priority, and why; skips tasks others claimed."},
			GetNextTask),
		tool.Declare(ts, mcp.Tool{Name: "query_tasks", Annotations: tool.ReadOnly,
			Description: "Tasks filtered by any field, sorted, with chosen fields only."},
			queryTasks, append(page, func(s *jsonschema.Schema) {
				s.Properties["filters"] = &jsonschema.Schema{Type: "object",
					Description: "as in get_tasks"}
				sp := s.Properties["sort"]
				sp.Properties["field"].Enum = []any{"priority", "created", "updated", "status"}
				sp.Properties["order"].Enum = []any{"asc", "desc"}
			})...),
		tool.Declare(ts, mcp.Tool{Name: "get_task_stats", Annotations: tool.ReadOnly,
			Description: "Counts by status and priority, blocked tasks, completion time, dependency depth."},
			getTaskStats),
		tool.Declare(ts, mcp.Tool{Name: "add_subtask",
			Description: "Add a subtask (parentId.N) under a task."},
			addSubtask),
		tool.Declare(ts, mcp.Tool{Name: "update_subtask",
			Description: "Change a subtask."},
			updateSubtask, tool.Enum("status", statusEnum...)),
		tool.Declare(ts, mcp.Tool{Name: "delete_subtask",
			Description: "Delete a subtask and its own subtasks."},
			deleteSubtask),
	}
}

// planTask is a task as the plan's results show it. Lists leave out the
// description and times; get_task fills them in.
type planTask struct {
	ID           string          `json:"id"`
	Ref          string          `json:"ref,omitempty"` // parentId.N, for a subtask
	Title        string          `json:"title"`
	Status       string          `json:"status"`
	Priority     string          `json:"priority"`
	Dependencies []string        `json:"dependencies,omitempty"`
	Description  string          `json:"description,omitempty"`
	Clipped      bool            `json:"descriptionTruncated,omitempty"`
	ParentID     string          `json:"parentId,omitempty"`
	CreatedAt    string          `json:"createdAt,omitempty"`
	UpdatedAt    string          `json:"updatedAt,omitempty"`
	CompletedAt  string          `json:"completedAt,omitempty"`
	DependsOn    []tool.TaskLink `json:"dependsOn,omitempty"`
	Dependents   []tool.TaskLink `json:"dependents,omitempty"`
	Subtasks     []tool.TaskLink `json:"subtasks,omitempty"`
	// SubtasksMore, DependentsMore and DependsOnMore count those not
	// listed: a task with hundreds of subtasks, dependents or dependencies
	// lists linksShown of each (dependencies has every id).
	SubtasksMore   int             `json:"subtasksMore,omitempty"`
	DependentsMore int             `json:"dependentsMore,omitempty"`
	DependsOnMore  int             `json:"dependsOnMore,omitempty"`
	ImportedFrom   []string        `json:"importedFrom,omitempty"` // e.g. "imported from tasks.json (taskmaster:master) task 3"
	Claim          *tool.ClaimView `json:"claim,omitempty"`
	Lifecycle      *phaseOut       `json:"lifecycle,omitempty"`

	// How many of the subtasks and dependents not listed are open (for
	// the text).
	subtasksMoreOpen, dependentsMoreOpen, dependsOnMoreOpen int
}

// phaseOut is a task's open lifecycle as results show it.
type phaseOut struct {
	ID    int64  `json:"id"`
	Phase string `json:"phase"`
}

func phaseOf(m *plan.LifecycleMark) *phaseOut {
	if m == nil {
		return nil
	}
	return &phaseOut{ID: m.ID, Phase: m.Phase}
}

func idStrings(ids []task.ID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

func item(t task.Task, deps []task.ID) planTask {
	p := planTask{ID: t.ID.String(), Title: t.Title, Status: string(t.Status), Priority: string(t.Priority), Dependencies: idStrings(deps)}
	if t.ParentID != 0 {
		p.Ref = task.RefString(t)
	}
	return p
}

func full(d plan.Detail) planTask {
	ids := make([]task.ID, len(d.Deps))
	for i, x := range d.Deps {
		ids[i] = x.ID
	}
	p := item(d.Task, ids)
	p.Description = d.Body
	if d.ParentID != 0 {
		p.ParentID = d.ParentID.String()
	}
	p.CreatedAt, p.UpdatedAt, p.CompletedAt = tool.Timestamp(d.CreatedAt), tool.Timestamp(d.UpdatedAt), tool.Timestamp(d.CompletedAt)
	dependsOn, more, moreOpen := task.Glance(d.Deps, LinksShown)
	p.DependsOnMore, p.dependsOnMoreOpen = more, moreOpen
	for _, x := range dependsOn {
		p.DependsOn = append(p.DependsOn, tool.TaskLinkOf(x))
	}
	dependents, more, moreOpen := task.Glance(d.Dependents, LinksShown)
	p.DependentsMore, p.dependentsMoreOpen = more, moreOpen
	for _, x := range dependents {
		p.Dependents = append(p.Dependents, tool.TaskLinkOf(x))
	}
	subtasks, more, moreOpen := task.Glance(d.Subtasks, LinksShown)
	p.SubtasksMore, p.subtasksMoreOpen = more, moreOpen
	for _, x := range subtasks {
		p.Subtasks = append(p.Subtasks, tool.TaskLinkOf(x))
	}
	for _, r := range d.Imports {
		p.ImportedFrom = append(p.ImportedFrom, r.String())
	}
	p.Claim, p.Lifecycle = tool.ClaimViewOf(d.Claim, false), phaseOf(d.Lifecycle)
	return p
}

// line renders a task in one line of text: id, status, priority, title, deps.
func line(p planTask) string {
	var b strings.Builder
	b.WriteString(p.ID)
	if p.Ref != "" {
		b.WriteString(" (" + p.Ref + ")")
	}
	fmt.Fprintf(&b, " %s %s: %s", p.Status, p.Priority, p.Title)
	if len(p.Dependencies) > 0 {
		b.WriteString(" [after " + strings.Join(p.Dependencies, ",") + "]")
	}
	if p.Lifecycle != nil {
		fmt.Fprintf(&b, " [phase %s, lifecycle %d]", p.Lifecycle.Phase, p.Lifecycle.ID)
	}
	b.WriteString(tool.ClaimText(p.Claim))
	return b.String()
}

// LinksShown is how many subtasks, and how many dependents, a task's answer
// lists at most (task.Glance picks them: the open ones first, then the
// latest closed); the rest are counted.
const LinksShown = 20

// OmittedLinks says what a list of a task's subtasks or dependents left out.
func OmittedLinks(more, open int) string {
	switch open {
	case 0:
		return fmt.Sprintf("%d more, all closed", more)
	case more:
		return fmt.Sprintf("%d more, all open", more)
	}
	return fmt.Sprintf("%d more, %d of them open", more, open)
}

// taskText is get_task's text: the task, then the tasks around it.
func taskText(p planTask) string {
	var b strings.Builder
	b.WriteString(line(p))
	if p.ParentID != "" {
		b.WriteString("\nparent: " + p.ParentID)
	}
	fmt.Fprintf(&b, "\ncreated %s, updated %s", p.CreatedAt, p.UpdatedAt)
	if p.CompletedAt != "" {
		b.WriteString(", done " + p.CompletedAt)
	}
	for _, f := range p.ImportedFrom {
		b.WriteString("\n" + f)
	}
	links := func(name string, ls []tool.TaskLink, more, moreOpen int) {
		if len(ls) == 0 {
			return
		}
		b.WriteString("\n" + name)
		if more > 0 {
			fmt.Fprintf(&b, " (%d of %d: %s)", len(ls), len(ls)+more, OmittedLinks(more, moreOpen))
		}
		b.WriteString(":")
		for _, l := range ls {
			id := l.ID
			if l.Ref != "" {
				id += " (" + l.Ref + ")"
			}
			fmt.Fprintf(&b, "\n- %s %s: %s", id, l.Status, l.Title)
		}
	}
	links("depends on", p.DependsOn, p.DependsOnMore, p.dependsOnMoreOpen)
	links("dependents", p.Dependents, p.DependentsMore, p.dependentsMoreOpen)
	links("subtasks", p.Subtasks, p.SubtasksMore, p.subtasksMoreOpen)
	if p.Description != "" {
		b.WriteString("\n\n" + p.Description)
	}
	return b.String()
}

// query is the service's request for these filters.
func (f FilterArgs) query() plan.TaskQuery {
	return plan.TaskQuery{Statuses: f.Status, Priorities: f.Priority, CreatedAfter: f.CreatedAfter,
		CreatedBefore: f.CreatedBefore, UpdatedAfter: f.UpdatedAfter, UpdatedBefore: f.UpdatedBefore}
}

// qualify renames the field of a refused argument to where this tool takes
// it (query_tasks nests its filters).
func qualify(err error, names map[string]string) error {
	if fe, ok := errors.AsType[*problem.FieldError](err); ok {
		if n, ok := names[fe.Field]; ok {
			c := *fe
			c.Field = n
			return &c
		}
	}
	return err
}

type tasksOut struct {
	Tasks      []planTask `json:"tasks"`
	Total      int        `json:"total"`
	Offset     int        `json:"offset"`
	NextOffset int        `json:"nextOffset,omitempty"`
}

// pageText is the header line of a page of tasks.
func pageText(n, offset, total, next int) string {
	if total == 0 {
		return "No tasks match."
	}
	s := fmt.Sprintf("Tasks %d-%d of %d", offset+1, offset+n, total)
	if n == 0 {
		s = fmt.Sprintf("No tasks at offset %d of %d", offset, total)
	}
	if next != 0 {
		s += fmt.Sprintf(" (next offset %d)", next)
	}
	return s + ":"
}

func GetTasks(ctx context.Context, c tool.Call, in GetTasksArgs) (string, any, error) {
	q := in.FilterArgs.query()
	q.Page = page.Page{Offset: in.Offset, Limit: in.Limit}
	page, err := c.Plan.List(ctx, q)
	if err != nil {
		return "", nil, err
	}
	return renderTasks(page)
}

// renderTasks is a page of tasks: a header line, then a line a task.
func renderTasks(page plan.TaskPage) (string, any, error) {
	out := tasksOut{Tasks: []planTask{}, Total: page.Total, Offset: page.Offset, NextOffset: page.NextOffset}
	lines := []string{pageText(len(page.Items), page.Offset, page.Total, page.NextOffset)}
	for _, it := range page.Items {
		p := item(it.Task, it.Deps)
		p.Claim, p.Lifecycle = tool.ClaimViewOf(it.Claim, false), phaseOf(it.Lifecycle)
		out.Tasks = append(out.Tasks, p)
		lines = append(lines, line(p))
	}
	return strings.Join(lines, "\n"), out, nil
}

func GetTask(ctx context.Context, c tool.Call, in IDArgs) (string, any, error) {
	d, err := c.Plan.Get(ctx, string(in.ID))
	if err != nil {
		return "", nil, err
	}
	p := full(d)
	return taskText(p), p, nil
}

type changedOut struct {
	planTask
	Message string `json:"message"`
}

func changed(verb string, d plan.Detail) (string, any, error) {
	p := full(d)
	p.Description, p.Clipped = tool.PreviewBody(p.Description) // the caller just sent it
	msg := verb + " task " + line(p)
	return msg, changedOut{planTask: p, Message: msg}, nil
}

func createTask(ctx context.Context, c tool.Call, in CreateTaskArgs) (string, any, error) {
	nt := plan.NewTask{Title: in.Title, Description: in.Description,
		Priority: task.Priority(strings.ToLower(in.Priority)), Status: task.Status(strings.ToLower(in.Status)), Deps: in.Dependencies, Force: in.Force}
	var d plan.Detail
	var err error
	if in.ParentID != "" {
		// The same checks as add_subtask, with dependencies too, in one write.
		d, _, err = c.Plan.AddSubtask(ctx, string(in.ParentID), nt)
	} else {
		d, err = c.Plan.Create(ctx, nt)
	}
	if err != nil {
		return "", nil, err
	}
	return changed("Created", d)
}

func change(title, description, status, priority *string, deps *tool.IDList, force bool) plan.Change {
	ch := plan.Change{Title: title, Description: description, Force: force}
	if status != nil {
		s := task.Status(strings.ToLower(*status))
		ch.Status = &s
	}
	if priority != nil {
		p := task.Priority(strings.ToLower(*priority))
		ch.Priority = &p
	}
	if deps != nil {
		ds := []string(*deps)
		if ds == nil {
			ds = []string{}
		}
		ch.Deps = &ds
	}
	return ch
}

func updateTask(ctx context.Context, c tool.Call, in updateTaskArgs) (string, any, error) {
	ch := change(in.Title, in.Description, in.Status, in.Priority, in.Dependencies, in.Force)
	ch.Agent = c.Agent
	d, err := c.Plan.Update(ctx, string(in.ID), ch)
	if err != nil {
		return "", nil, err
	}
	return changed("Updated", d)
}

type deletedOut struct {
	Success   bool            `json:"success"`
	DeletedID string          `json:"deletedId"`
	Removed   int             `json:"removed"`
	Released  []tool.TaskLink `json:"released,omitempty"` // tasks that depended on what was deleted
	Ready     []string        `json:"ready,omitempty"`    // of those, the ids now ready to work on
	// How many of each the answer leaves out (it lists linksShown of each).
	ReleasedMore int    `json:"releasedMore,omitempty"`
	ReadyMore    int    `json:"readyMore,omitempty"`
	Message      string `json:"message"`
}

func deleteTask(ctx context.Context, c tool.Call, in deleteArgs) (string, any, error) {
	r, err := c.Plan.Delete(ctx, string(in.ID), plan.Writer{Agent: c.Agent, Force: in.Force})
	if err != nil {
		return "", nil, err
	}
	msg := fmt.Sprintf("Deleted task %s %q", r.Task.ID, r.Task.Title)
	if r.Count > 1 {
		msg += " and " + words.Count(r.Count-1, "subtask")
	}
	out := deletedOut{Success: true, DeletedID: r.Task.ID.String(), Removed: r.Count}
	it := "it"
	if r.Count > 1 {
		it = "them"
	}
	if len(r.Released) == 0 {
		msg += "; no task depended on " + it + "."
	} else {
		// A task hundreds depended on answered with each of them, and each
		// id that became ready: a list of linksShown of each, and counts.
		released := r.Released[:min(len(r.Released), LinksShown)]
		out.ReleasedMore = len(r.Released) - len(released)
		names := make([]string, 0, len(released))
		for i, x := range released {
			out.Released = append(out.Released, tool.TaskLinkOf(x))
			if i < 10 {
				names = append(names, tool.TaskLabel(x))
			}
		}
		if n := len(r.Released) - len(names); n > 0 {
			names = append(names, fmt.Sprintf("and %d more", n))
		}
		msg += "; these no longer depend on " + it + ": " + strings.Join(names, ", ") + "."
		if len(r.Ready) > 0 {
			ready := make([]string, 0, 10)
			for i, id := range r.Ready {
				if i < LinksShown {
					out.Ready = append(out.Ready, id.String())
				}
				if i < 10 {
					ready = append(ready, "["+id.String()+"]")
				}
			}
			out.ReadyMore = len(r.Ready) - len(out.Ready)
			if n := len(r.Ready) - len(ready); n > 0 {
				ready = append(ready, fmt.Sprintf("and %d more (get_next_task picks among them)", n))
			}
			msg += " Now ready: " + strings.Join(ready, ", ") + "."
		}
	}
	out.Message = msg
	return msg, out, nil
}

type nextOut struct {
	Task      *planTask `json:"task"`
	Rationale string    `json:"rationale"`
	Unblocks  []string  `json:"unblocks,omitempty"`
	// UnblocksMore counts those Unblocks leaves out: it lists linksShown;
	// get_task shows the task's dependents.
	UnblocksMore int `json:"unblocksMore,omitempty"`
	Skipped      int `json:"skippedClaimed,omitempty"`
}

func GetNextTask(ctx context.Context, c tool.Call, in NextTaskArgs) (string, any, error) {
	r, err := c.Plan.Next(ctx, plan.NextQuery{Statuses: in.Status, Priorities: in.Priority, Agent: c.Agent})
	if err != nil {
		return "", nil, err
	}
	out := nextOut{Rationale: r.Rationale, Skipped: r.Skipped}
	if r.Task == nil {
		if r.Hint != problem.NoAction {
			out.Rationale += "; " + tool.ActionWords(r.Hint) + "."
		}
		return out.Rationale, out, nil
	}
	d, err := c.Plan.Get(ctx, r.Task.ID.String())
	if err != nil {
		return "", nil, err
	}
	p := full(d)
	p.Description, p.Clipped = tool.PreviewBody(p.Description)
	p.Dependents, p.DependsOn = nil, nil
	out.Task = &p
	for _, u := range r.Unblocks[:min(len(r.Unblocks), LinksShown)] {
		out.Unblocks = append(out.Unblocks, u.ID.String())
	}
	out.UnblocksMore = len(r.Unblocks) - len(out.Unblocks)
	text := r.Rationale + "\n" + line(p)
	if p.Description != "" {
		text += "\n\n" + p.Description
	}
	return text, out, nil
}

type queryOut struct {
	Tasks      []map[string]any `json:"tasks"`
	Total      int              `json:"total"`
	Offset     int              `json:"offset"`
	NextOffset int              `json:"nextOffset,omitempty"`
}

// queryNames are where query_tasks takes the service's fields.
var queryNames = map[string]string{"status": "filters.status", "priority": "filters.priority",
	"createdAfter": "filters.createdAfter", "createdBefore": "filters.createdBefore",
	"updatedAfter": "filters.updatedAfter", "updatedBefore": "filters.updatedBefore",
	"sort": "sort.field", "order": "sort.order"}

func queryTasks(ctx context.Context, c tool.Call, in QueryTasksArgs) (string, any, error) {
	q := in.Filters.query()
	q.Sort, q.Order, q.Page = in.Sort.Field, in.Sort.Order, page.Page{Offset: in.Offset, Limit: in.Limit}
	fields := []string(in.Fields)
	if len(fields) == 0 {
		fields = []string{"id", "title", "status", "priority"}
	}
	for _, f := range fields {
		if !slices.Contains(fieldNames, f) {
			return "", nil, &problem.FieldError{Field: "fields", Problem: fmt.Sprintf("has %s", problem.Quote(f)), Fix: "use any of " + strings.Join(fieldNames, ", ")}
		}
	}
	q.WithBody = slices.Contains(fields, "description")
	page, err := c.Plan.List(ctx, q)
	if err != nil {
		return "", nil, qualify(err, queryNames)
	}
	return renderProjection(page, fields)
}

// renderProjection is a page of tasks, each cut down to fields.
func renderProjection(page plan.TaskPage, fields []string) (string, any, error) {
	out := queryOut{Tasks: []map[string]any{}, Total: page.Total, Offset: page.Offset, NextOffset: page.NextOffset}
	lines := []string{pageText(len(page.Items), page.Offset, page.Total, page.NextOffset)}
	for _, it := range page.Items {
		row, cells := projectItem(it, fields)
		out.Tasks = append(out.Tasks, row)
		lines = append(lines, strings.Join(cells, " | "))
	}
	return strings.Join(lines, "\n"), out, nil
}

// project is one task's chosen fields: as a row, and as text cells ("-"
// for an empty one).
func projectItem(it plan.Item, fields []string) (map[string]any, []string) {
	p := item(it.Task, it.Deps)
	row := map[string]any{}
	var cells []string
	for _, f := range fields {
		v := fieldValue(it, p, f)
		if v == nil {
			cells = append(cells, "-")
			continue
		}
		row[f] = v
		cells = append(cells, fmt.Sprint(v))
	}
	return row, cells
}

func fieldValue(it plan.Item, p planTask, f string) any {
	switch f {
	case "id":
		return p.ID
	case "ref":
		return task.RefString(it.Task)
	case "title":
		return p.Title
	case "description":
		d, _ := tool.PreviewBody(it.Body)
		return d
	case "status":
		return p.Status
	case "priority":
		return p.Priority
	case "dependencies":
		if p.Dependencies == nil {
			return []string{}
		}
		return p.Dependencies
	case "parentId":
		if it.ParentID != 0 {
			return it.ParentID.String()
		}
	case "createdAt":
		return tool.Timestamp(it.CreatedAt)
	case "updatedAt":
		return tool.Timestamp(it.UpdatedAt)
	case "completedAt":
		if !it.CompletedAt.IsZero() {
			return tool.Timestamp(it.CompletedAt)
		}
	}
	return nil
}

type statsOut struct {
	Total             int            `json:"total"`
	ByStatus          map[string]int `json:"byStatus"`
	ByPriority        map[string]int `json:"byPriority"`
	BlockedCount      int            `json:"blockedCount"`
	AvgCompletionDays float64        `json:"avgCompletionDays"`
	DependencyStats   struct {
		MaxDepth           int     `json:"maxDepth"`
		AverageDepsPerTask float64 `json:"averageDepsPerTask"`
	} `json:"dependencyStats"`
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

func getTaskStats(ctx context.Context, c tool.Call, _ tool.NoArgs) (string, any, error) {
	s, err := c.Plan.Stats(ctx)
	if err != nil {
		return "", nil, err
	}
	out := statsOut{Total: s.Total, ByStatus: map[string]int{}, ByPriority: map[string]int{}, BlockedCount: s.BlockedCount,
		AvgCompletionDays: round1(s.AvgCompletionDays)}
	var st, pr []string
	for _, x := range task.Statuses {
		out.ByStatus[string(x)] = s.ByStatus[x]
		st = append(st, fmt.Sprintf("%s %d", x, s.ByStatus[x]))
	}
	for _, x := range task.Priorities {
		out.ByPriority[string(x)] = s.ByPriority[x]
		pr = append(pr, fmt.Sprintf("%s %d", x, s.ByPriority[x]))
	}
	out.DependencyStats.MaxDepth = s.MaxDepth
	out.DependencyStats.AverageDepsPerTask = math.Round(s.AvgDepsPerTask*100) / 100
	text := fmt.Sprintf("%s: %s.\nPriority: %s.\nBlocked or waiting: %d. Average completion: %.1f days. Dependency depth: %d, %.2f per task.",
		words.Count(s.Total, "task"), strings.Join(st, ", "), strings.Join(pr, ", "), s.BlockedCount, out.AvgCompletionDays, s.MaxDepth, s.AvgDepsPerTask)
	return text, out, nil
}

func addSubtask(ctx context.Context, c tool.Call, in addSubtaskArgs) (string, any, error) {
	sub, parent, err := c.Plan.AddSubtask(ctx, string(in.ParentID), plan.NewTask{Title: in.Title, Description: in.Description})
	if err != nil {
		return "", nil, err
	}
	return parentResult(fmt.Sprintf("Added subtask %s (id %s) %q.", task.RefString(sub.Task), sub.ID, sub.Title), parent)
}

type parentOut struct {
	Parent  planTask `json:"parent"`
	Message string   `json:"message"`
}

func parentResult(msg string, d plan.Detail) (string, any, error) {
	p := full(d)
	p.Description, p.Clipped = tool.PreviewBody(p.Description)
	return msg + "\n" + taskText(p), parentOut{Parent: p, Message: msg}, nil
}

func updateSubtask(ctx context.Context, c tool.Call, in updateSubtaskArgs) (string, any, error) {
	ch := change(in.Title, in.Description, in.Status, nil, nil, in.Force)
	ch.Agent = c.Agent
	d, err := c.Plan.UpdateSubtask(ctx, string(in.SubtaskID), ch)
	if err != nil {
		return "", nil, err
	}
	return parentResult(fmt.Sprintf("Updated subtask %s.", in.SubtaskID), d)
}

func deleteSubtask(ctx context.Context, c tool.Call, in subtaskIDArgs) (string, any, error) {
	d, err := c.Plan.DeleteSubtask(ctx, string(in.SubtaskID), plan.Writer{Agent: c.Agent, Force: in.Force})
	if err != nil {
		return "", nil, err
	}
	return parentResult(fmt.Sprintf("Deleted subtask %s.", in.SubtaskID), d)
}
