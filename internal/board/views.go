package board

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// outlineLine is one line of the outline with the agents whose focus is on
// it.
type outlineLine struct {
	task.Entry
	Agents []string
}

type outlineData struct {
	Lines      []outlineLine
	Agents     []focus.AgentFocus
	Total      int
	Offset     int
	NextOffset int
	PrevOffset int
}

func (b *Board) outline(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	agents, err := set.Focus.Agents(r.Context())
	if err != nil {
		b.fail(w, r, err)
		return
	}
	pic, err := set.Focus.BigPicture(r.Context(), "", page.Page{Offset: offset(r, "offset")})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	at := map[task.ID][]string{}
	for _, a := range agents {
		at[a.Task.ID] = append(at[a.Task.ID], a.Agent)
	}
	d := outlineData{Agents: agents, Total: pic.Total, Offset: pic.Offset, NextOffset: pic.NextOffset,
		PrevOffset: max(0, pic.Offset-page.Outline.Default)}
	for _, e := range pic.Outline {
		d.Lines = append(d.Lines, outlineLine{Entry: e, Agents: at[e.ID]})
	}
	b.render(w, r, http.StatusOK, "outline", "Outline", d)
}

// card is a task on the plan: its dependencies and what it blocks.
type card struct {
	plan.Item
	Waiting []task.ID // dependencies not yet done
	Blocks  []task.ID // tasks waiting on this one
	Agents  []string
}

type column struct {
	Status     task.Status
	Cards      []card
	Total      int
	Offset     int
	NextOffset int
}

type planData struct {
	Columns    []column
	Single     bool // one status, paged
	Statuses   []task.Status
	Priorities []task.Priority
}

// columnPage is how many cards a column shows at a time.
const columnPage = 25

func (b *Board) plan(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	ctx := r.Context()
	statuses := task.Statuses
	single := false
	if s := task.Status(r.URL.Query().Get("status")); s != "" && s.Valid() {
		statuses, single = []task.Status{s}, true
	}
	board, err := set.Plan.Board(ctx)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	agents, err := set.Focus.Agents(ctx)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	at := map[task.ID][]string{}
	for _, a := range agents {
		at[a.Task.ID] = append(at[a.Task.ID], a.Agent)
	}
	d := planData{Single: single, Statuses: task.Statuses, Priorities: task.Priorities}
	limit := columnPage
	if single {
		limit = page.Plan.Max
	}
	for _, s := range statuses {
		off := 0
		if single {
			off = offset(r, "offset")
		}
		pg, err := set.Plan.List(ctx, plan.TaskQuery{Statuses: []string{string(s)}, Sort: "priority", Page: page.Page{Offset: off, Limit: limit}})
		if err != nil {
			b.fail(w, r, err)
			return
		}
		c := column{Status: s, Total: pg.Total, Offset: pg.Offset, NextOffset: pg.NextOffset}
		for _, it := range pg.Items {
			cd := card{Item: it, Agents: at[it.ID]}
			if s.Open() {
				cd.Waiting = board.Waiting(it.ID)
				cd.Blocks = board.Unblocks(it.ID)
			}
			c.Cards = append(c.Cards, cd)
		}
		d.Columns = append(d.Columns, c)
	}
	b.render(w, r, http.StatusOK, "plan", "Plan", d)
}

type taskData struct {
	plan.Detail
	Parent     *task.Task
	DepsOfDeps map[task.ID][]task.Task // the second ring: what each dependency waits on
	Agents     []string
	Statuses   []task.Status
	Priorities []task.Priority
}

func (b *Board) taskPage(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	ctx := r.Context()
	d, err := set.Plan.Get(ctx, r.PathValue("id"))
	if err != nil {
		b.fail(w, r, err)
		return
	}
	td := taskData{Detail: d, Statuses: task.Statuses, Priorities: task.Priorities, DepsOfDeps: map[task.ID][]task.Task{}}
	if d.ParentID != 0 {
		if p, err := set.Plan.Get(ctx, d.ParentID.String()); err == nil {
			td.Parent = &p.Task
		}
	}
	for i, dep := range d.Deps {
		if i >= 12 {
			break
		}
		if dd, err := set.Plan.Get(ctx, dep.ID.String()); err == nil && len(dd.Deps) > 0 {
			td.DepsOfDeps[dep.ID] = dd.Deps
		}
	}
	agents, err := set.Focus.Agents(ctx)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	for _, a := range agents {
		if a.Task.ID == d.ID {
			td.Agents = append(td.Agents, a.Agent)
		}
	}
	b.render(w, r, http.StatusOK, "task", "Task "+d.ID.String(), td)
}

func (b *Board) newTask(_ http.ResponseWriter, r *http.Request, set *service.Set) (string, error) {
	in := plan.NewTask{
		Title:       r.PostFormValue("title"),
		Description: r.PostFormValue("description"),
		Priority:    task.Priority(strings.ToLower(r.PostFormValue("priority"))),
	}
	if deps := splitRefs(r.PostFormValue("deps")); len(deps) > 0 {
		in.Deps = deps
	}
	if parent := strings.TrimSpace(r.PostFormValue("parent")); parent != "" {
		sub, _, err := set.Plan.AddSubtask(r.Context(), parent, in)
		if err != nil {
			return "", err
		}
		return "task/" + sub.ID.String(), nil
	}
	d, err := set.Plan.Create(r.Context(), in)
	if err != nil {
		return "", err
	}
	return "task/" + d.ID.String(), nil
}

func (b *Board) addSubtask(_ http.ResponseWriter, r *http.Request, set *service.Set) (string, error) {
	in := plan.NewTask{Title: r.PostFormValue("title"), Priority: task.Priority(strings.ToLower(r.PostFormValue("priority")))}
	sub, _, err := set.Plan.AddSubtask(r.Context(), r.PathValue("id"), in)
	if err != nil {
		return "", err
	}
	return "task/" + sub.ID.String(), nil
}

// updateTask applies the fields the form sent, as update_task would: a
// field left out stays.
func (b *Board) updateTask(_ http.ResponseWriter, r *http.Request, set *service.Set) (string, error) {
	var c plan.Change
	if v, ok := r.PostForm["title"]; ok {
		c.Title = &v[0]
	}
	if v, ok := r.PostForm["description"]; ok {
		s := strings.ReplaceAll(v[0], "\r\n", "\n")
		c.Description = &s
	}
	if v, ok := r.PostForm["status"]; ok {
		s := task.Status(strings.ToLower(v[0]))
		c.Status = &s
	}
	if v, ok := r.PostForm["priority"]; ok {
		p := task.Priority(strings.ToLower(v[0]))
		c.Priority = &p
	}
	d, err := set.Plan.Update(r.Context(), r.PathValue("id"), c)
	if err != nil {
		return "", err
	}
	return backOr(r, "task/"+d.ID.String()), nil
}

// changeDeps adds (add=REF) or removes (remove=REF) one dependency, by
// giving update_task's rule the whole new list.
func (b *Board) changeDeps(_ http.ResponseWriter, r *http.Request, set *service.Set) (string, error) {
	ctx := r.Context()
	d, err := set.Plan.Get(ctx, r.PathValue("id"))
	if err != nil {
		return "", err
	}
	deps := make([]string, 0, len(d.Deps)+1)
	for _, x := range d.Deps {
		deps = append(deps, x.ID.String())
	}
	if add := strings.TrimPrefix(strings.TrimSpace(r.PostFormValue("add")), "#"); add != "" {
		deps = append(deps, add)
	}
	if rm := strings.TrimPrefix(strings.TrimSpace(r.PostFormValue("remove")), "#"); rm != "" {
		deps = slices.DeleteFunc(deps, func(s string) bool { return s == rm })
	}
	if _, err := set.Plan.Update(ctx, d.ID.String(), plan.Change{Deps: &deps}); err != nil {
		return "", err
	}
	return "task/" + d.ID.String(), nil
}

func splitRefs(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		out = append(out, strings.TrimPrefix(f, "#"))
	}
	return out
}

func backOr(r *http.Request, def string) string {
	if b := r.PostFormValue("back"); b != "" {
		return safeBack(b)
	}
	return def
}

type loopsData struct {
	Loops      []loops.Loop
	Total      int
	Offset     int
	NextOffset int
	PrevOffset int
}

func (b *Board) loops(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	pg, err := set.Loops.List(r.Context(), loops.LoopQuery{All: true, Page: page.Page{Offset: offset(r, "offset")}})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	// Newest first: the loops people watch are the ones running now.
	slices.Reverse(pg.Loops)
	b.render(w, r, http.StatusOK, "loops", "Loops", loopsData{Loops: pg.Loops, Total: pg.Total, Offset: pg.Offset,
		NextOffset: pg.NextOffset, PrevOffset: max(0, pg.Offset-page.Plan.Default)})
}

type loopData struct {
	loops.Loop
	History     loops.History
	Checkpoints []loops.Checkpoint // the newest, PlanPage.Max of them
	// CheckpointsTotal counts them all.
	CheckpointsTotal int
}

func (b *Board) loopPage(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	lp, h, err := set.Loops.Status(r.Context(), r.PathValue("id"), loops.StatusQuery{History: true,
		Page: page.Page{Offset: offset(r, "offset"), Limit: page.Plan.Max}})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	_, cps, err := set.Loops.Checkpoints(r.Context(), lp.ID.String(), page.Page{Limit: page.Plan.Max})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	if lp.State.Finished() {
		lp.State.NextSteps = nil // a finished loop has no next step, whenever it was stored
	}
	b.render(w, r, http.StatusOK, "loop", "Loop "+lp.ID.String(), loopData{Loop: lp, History: h, Checkpoints: cps.Checkpoints, CheckpointsTotal: cps.Total})
}

func (b *Board) controlLoop(_ http.ResponseWriter, r *http.Request, set *service.Set) (string, error) {
	ref := r.PathValue("id")
	var err error
	switch r.PathValue("op") {
	case "pause":
		_, err = set.Loops.Pause(r.Context(), ref)
	case "resume":
		_, err = set.Loops.Resume(r.Context(), ref, 0, 0)
	case "cancel":
		_, err = set.Loops.Cancel(r.Context(), ref)
	default:
		return "", &opError{r.PathValue("op")}
	}
	if err != nil {
		return "", err
	}
	return backOr(r, "loop/"+ref), nil
}

type opError struct{ op string }

func (e *opError) Error() string { return "no loop operation " + strconv.Quote(e.op) }

type memoryData struct {
	Query   string
	Type    string
	Types   []string
	Result  memories.SearchResult
	Entries []memory.Entry // the page's entries in full, in rank order
	All     bool           // superseded entries listed too
	Now     time.Time      // to mark expired observations
}

func (b *Board) memory(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	d := memoryData{Query: q.Get("q"), Type: q.Get("type"), Types: memory.TypeNames(), All: q.Get("all") == "1", Now: time.Now()}
	sq := memories.SearchQuery{Text: d.Query, IncludeSuperseded: d.All, Page: page.Page{Offset: offset(r, "offset"), Limit: 20}}
	if d.Type != "" {
		sq.Types = []string{d.Type}
	}
	if d.Result, err = set.Memory.Search(r.Context(), sq); err != nil {
		b.fail(w, r, err)
		return
	}
	refs := make([]string, len(d.Result.Hits))
	for i, h := range d.Result.Hits {
		refs[i] = h.ID.String()
	}
	if len(refs) > 0 {
		es, _, err := set.Memory.Get(r.Context(), refs)
		if err != nil {
			b.fail(w, r, err)
			return
		}
		byID := map[memory.ID]memory.Entry{}
		for _, e := range es {
			byID[e.ID] = e
		}
		for _, h := range d.Result.Hits {
			if e, ok := byID[h.ID]; ok {
				d.Entries = append(d.Entries, e)
			}
		}
	}
	b.render(w, r, http.StatusOK, "memory", "Memory", d)
}

type sessionsData struct {
	List     memories.SessionList
	Rows     []render.SessionBrief
	Branches []memory.BranchContext
}

func (b *Board) sessions(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	var d sessionsData
	if d.List, err = set.Memory.Sessions(r.Context(), memories.SessionQuery{Page: page.Page{Offset: offset(r, "offset")}}); err != nil {
		b.fail(w, r, err)
		return
	}
	for _, s := range d.List.Sessions {
		d.Rows = append(d.Rows, render.BriefOf(s))
	}
	if d.Branches, err = set.Memory.Branches(r.Context()); err != nil {
		b.fail(w, r, err)
		return
	}
	b.render(w, r, http.StatusOK, "sessions", "Sessions", d)
}

// sessionPage shows one session and its record, as session get and cairn
// session ID show it.
func (b *Board) sessionPage(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	s, err := set.Memory.Session(r.Context(), "", r.PathValue("id"), page.Page{Limit: page.Record.Max})
	if err != nil {
		b.fail(w, r, err)
		return
	}
	b.render(w, r, http.StatusOK, "session", "Session "+s.ID.String(), render.SessionViewOf(s))
}

// loopActions are the controls a loop in status s offers.
func loopActions(st loop.State) []string {
	var out []string
	for _, op := range st.Legal() {
		if op == loop.OpPause || op == loop.OpResume || op == loop.OpCancel {
			out = append(out, string(op))
		}
	}
	return out
}
