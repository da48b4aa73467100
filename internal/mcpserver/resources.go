package mcpserver

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	focustools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/focus"
	insighttools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/insight"
	lifecycletools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/lifecycle"
	memorytools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/memory"
	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	projecttools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/project"
	sessiontools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/session"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/task"
)

// Resources: what an agent or a person may attach to a conversation, each
// read through the tool that shows the same thing (its handler, so its
// text: one rendering, not two). Concrete resources are listed; templates
// take an id or a name, which completion/complete offers. A resource that
// lives in the store ("live") can be subscribed to: the change feed that
// wakes the loop watcher wakes the resource watcher too, which re-reads
// each subscribed resource and sends resources/updated when its text
// changed, whichever process made the change.

// resourceDef is one resource or resource template.
type resourceDef struct {
	uri         string // the URI, or the template with one {arg}
	name, title string
	description string
	// live: the resource reads the store, so it changes with it and may be
	// subscribed to; the others read files or settings.
	live bool
	// read renders the resource through a tool's handler; arg is the
	// template's argument ("" for a concrete resource).
	read func(ctx context.Context, c tool.Call, arg string) (string, error)
	// complete offers values of the template's argument that start with
	// prefix; nil for a concrete resource.
	complete func(ctx context.Context, c tool.Call, prefix string) ([]string, error)
}

func (d resourceDef) template() bool { return strings.Contains(d.uri, "{") }

// prefix is what a URI of the template starts with, before its argument.
func (d resourceDef) prefix() string { p, _, _ := strings.Cut(d.uri, "{"); return p }

// argName is the template's argument, as completion/complete names it.
func (d resourceDef) argName() string {
	_, a, _ := strings.Cut(d.uri, "{")
	return strings.TrimPrefix(strings.TrimSuffix(a, "}"), "+")
}

// text adapts a tool handler to a resource: the handler's text, its
// structured answer dropped.
func text[In any](h tool.HandlerFunc[In], in func(arg string) In) func(ctx context.Context, c tool.Call, arg string) (string, error) {
	return func(ctx context.Context, c tool.Call, arg string) (string, error) {
		t, _, err := h(ctx, c, in(arg))
		return t, err
	}
}

func fixed[In any](v In) func(string) In { return func(string) In { return v } }

// resourceDefs is every resource Cairn serves, concrete ones first.
func resourceDefs() []resourceDef {
	return []resourceDef{
		{uri: "cairn://big-picture", name: "big-picture", title: "Big picture", live: true,
			description: "The whole plan as an outline, YOU ARE HERE marked.",
			read:        text(focustools.GetBigPicture, fixed(focustools.BigPictureArgs{}))},
		{uri: "cairn://current", name: "current", title: "YOU ARE HERE", live: true,
			description: "The current task with its context (the reading agent's focus).",
			read:        text(focustools.GetCurrentTask, fixed(tool.NoArgs{}))},
		{uri: "cairn://plan", name: "plan", title: "Plan", live: true,
			description: "The task board's first page: status, priority, dependencies.",
			read:        text(plantools.GetTasks, fixed(plantools.GetTasksArgs{}))},
		{uri: "cairn://next", name: "next", title: "Next task", live: true,
			description: "The task to work on next, and why.",
			read:        text(plantools.GetNextTask, fixed(plantools.NextTaskArgs{}))},
		{uri: "cairn://sessions", name: "sessions", title: "Recent sessions", live: true,
			description: "The newest working sessions.",
			read:        text(sessiontools.SessionList, fixed(sessiontools.SessionArgs{Action: "list"}))},
		{uri: "cairn://branches", name: "branches", title: "Branch contexts", live: true,
			description: "Every saved branch context; the current branch marked.",
			read:        text(sessiontools.BranchList, fixed(sessiontools.BranchArgs{Action: "list"}))},
		{uri: "cairn://lifecycles", name: "lifecycles", title: "Open lifecycles", live: true,
			description: "The lifecycles in progress and their phases.",
			read:        text(lifecycletools.LifecycleList, fixed(lifecycletools.LifecycleListArgs{Status: "open"}))},
		{uri: "cairn://health", name: "health", title: "Project health",
			description: "The health score from measured use, with its parts.",
			read:        text(insighttools.HealthTool, fixed(insighttools.WindowArgs{}))},
		{uri: "cairn://project", name: "project", title: "Project",
			description: "The detected stack: languages, frameworks, build and test commands.",
			read:        text(projecttools.DetectProjectTool, fixed(projecttools.DetectProjectArgs{}))},
		{uri: "cairn://config", name: "config", title: "Configuration",
			description: "The settings in force and where each came from.",
			read:        text(projecttools.GetConfigTool, fixed(projecttools.GetConfigArgs{}))},
		{uri: "cairn://knowledge", name: "knowledge", title: "Knowledge base",
			description: "The knowledge base's entries, a line each.",
			read:        text(projecttools.QueryTKBTool, fixed(projecttools.QueryTKBArgs{}))},
		{uri: "cairn://agents", name: "agents", title: "Skills and agents",
			description: "Every skill and agent with the expertise it declares.",
			read:        text(projecttools.CompetencyTool, fixed(tool.NoArgs{}))},

		{uri: "cairn://tasks/{id}", name: "task", title: "Task", live: true,
			description: "One task: description, dependencies, dependents, subtasks.",
			read:        text(plantools.GetTask, func(a string) plantools.IDArgs { return plantools.IDArgs{ID: tool.IDArg(a)} }),
			complete:    completeTasks},
		{uri: "cairn://memory/{id}", name: "memory-entry", title: "Memory entry", live: true,
			description: "One memory entry in full (decision, mistake, convention, observation).",
			read:        text(memorytools.MemoryGet, func(a string) memorytools.MemoryGetArgs { return memorytools.MemoryGetArgs{IDs: tool.IDList{a}} }),
			complete:    completeMemory},
		{uri: "cairn://sessions/{id}", name: "session", title: "Session", live: true,
			description: "One working session and its record.",
			read:        text(sessiontools.SessionGet, func(a string) sessiontools.SessionArgs { return sessiontools.SessionArgs{Action: "get", SessionID: a} }),
			complete:    completeSessions},
		{uri: "cairn://branches/{+name}", name: "branch", title: "Branch context", live: true,
			description: "A git branch's context: feature, phase, decisions, files.",
			read:        text(sessiontools.BranchGet, func(a string) sessiontools.BranchArgs { return sessiontools.BranchArgs{Action: "get", Branch: a} }),
			complete:    completeBranches},
		{uri: "cairn://lifecycles/{id}", name: "lifecycle", title: "Lifecycle", live: true,
			description: "A lifecycle's phase, exit criteria and history.",
			read: text(lifecycletools.LifecycleStatus, func(a string) lifecycletools.LifecycleIDArgs {
				return lifecycletools.LifecycleIDArgs{ID: tool.IDArg(a)}
			}),
			complete: completeLifecycles},
		{uri: "cairn://knowledge/{+entry}", name: "knowledge-entry", title: "Knowledge entry",
			description: "One knowledge base entry in full.",
			read:        text(projecttools.TKBEntryTool, func(a string) projecttools.TKBEntryArgs { return projecttools.TKBEntryArgs{Entry: a} }),
			complete:    completeKnowledge},
		{uri: "cairn://agents/{name}", name: "agent", title: "Skill or agent",
			description: "A skill or agent's front matter and instructions.",
			read:        text(projecttools.AgentTool, func(a string) projecttools.AgentArgs { return projecttools.AgentArgs{Name: a} }),
			complete:    completeAgents},
	}
}

// resourceMIME is every resource's type: the tools' compact text.
const resourceMIME = "text/plain"

// addResources registers every resource and template with srv.
func (s *server) addResources(srv *mcp.Server) {
	s.resources = resourceDefs()
	for _, d := range s.resources {
		h := s.resourceHandler(d)
		if d.template() {
			srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: d.uri, Name: d.name, Title: d.title,
				Description: d.description, MIMEType: resourceMIME}, h)
			continue
		}
		srv.AddResource(&mcp.Resource{URI: d.uri, Name: d.name, Title: d.title,
			Description: d.description, MIMEType: resourceMIME}, h)
	}
}

// resourceOf finds the definition a URI is read through, and its argument.
func (s *server) resourceOf(uri string) (resourceDef, string, bool) {
	for _, d := range s.resources {
		if !d.template() {
			if d.uri == uri {
				return d, "", true
			}
			continue
		}
		if arg, ok := strings.CutPrefix(uri, d.prefix()); ok && arg != "" {
			if d.argName() != "name" && d.argName() != "entry" && strings.Contains(arg, "/") {
				continue
			}
			return d, arg, true
		}
	}
	return resourceDef{}, "", false
}

// readResource renders uri for agent: its text, or a not-found error for
// an id that names nothing.
func (s *server) readResource(ctx context.Context, svc *service.Set, agent, uri string) (string, error) {
	d, arg, ok := s.resourceOf(uri)
	if !ok {
		return "", mcp.ResourceNotFoundError(uri)
	}
	text, err := d.read(ctx, tool.Call{Set: svc, Agent: agent, Host: s}, arg)
	if err != nil {
		var fe *problem.FieldError
		if k := problem.Of(err).Kind; k == problem.NotFound || (d.template() && errors.As(err, &fe)) {
			return "", mcp.ResourceNotFoundError(uri)
		}
		return "", promptError(ctx, s, "resources/read", err)
	}
	return text, nil
}

func (s *server) resourceHandler(d resourceDef) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		svc, err := s.opts.Services(ctx)
		if err != nil {
			return nil, promptError(ctx, s, "resources/read", err)
		}
		ctx, agent := s.attach(ctx, svc, s.agent(req), true)
		uri := req.Params.URI
		text, err := s.readResource(ctx, svc, agent, uri)
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: resourceMIME, Text: text}}}, nil
	}
}

// canSubscribe admits a subscription to a loop that exists, or to a live
// resource that reads; it remembers the agent the session reads as, so
// that the watcher sees what the session would.
func (s *server) canSubscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	svc, err := s.opts.Services(ctx)
	if err != nil {
		return promptError(ctx, s, "resources/subscribe", err)
	}
	if ref, ok := strings.CutPrefix(uri, "cairn://loops/"); ok {
		if s.loops.Load() == nil || ref == "" {
			return mcp.ResourceNotFoundError(uri)
		}
		if _, err := svc.Loops.Get(ctx, ref); err != nil {
			return mcp.ResourceNotFoundError(uri)
		}
		return nil
	}
	d, _, ok := s.resourceOf(uri)
	if !ok || !d.live {
		return mcp.ResourceNotFoundError(uri)
	}
	ctx, agent := s.attach(ctx, svc, s.agent(req), true)
	text, err := s.readResource(ctx, svc, agent, uri)
	if err != nil {
		return err
	}
	s.watch.agentOf(req.Session, agent)
	s.watch.baseline(uri, agent, text)
	s.watch.start.Do(func() {
		ctx := s.opts.Context
		if ctx == nil {
			ctx = context.Background()
		}
		go s.watch.run(ctx)
	})
	s.watch.changed()
	return nil
}

// resourceWatch notifies the subscribers of live resources (all but the
// loops, which loopWatch keeps) when what they read changes.
type resourceWatch struct {
	s    *server
	srv  *mcp.Server
	kick chan struct{}
	// start starts run at the first subscription: a server nobody
	// subscribes to watches nothing.
	start sync.Once

	mu     sync.Mutex
	agents map[*mcp.ServerSession]string
	prints map[[2]string][32]byte // (uri, agent) → the text's hash when last read
}

func newResourceWatch(s *server, srv *mcp.Server) *resourceWatch {
	return &resourceWatch{s: s, srv: srv, kick: make(chan struct{}, 1),
		agents: map[*mcp.ServerSession]string{}, prints: map[[2]string][32]byte{}}
}

func (w *resourceWatch) agentOf(ss *mcp.ServerSession, agent string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.agents[ss]; !ok && ss != nil {
		go func() { // forget the session with it
			ss.Wait()
			w.mu.Lock()
			delete(w.agents, ss)
			w.mu.Unlock()
		}()
	}
	w.agents[ss] = agent
}

// maxPrints bounds the hashes kept; past it, those of resources no longer
// subscribed to are forgotten.
const maxPrints = 4096

// baseline records what a new subscriber read, so that the first change
// after it is told.
func (w *resourceWatch) baseline(uri, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.prints[[2]string{uri, agent}] = sha256.Sum256([]byte(text))
}

// changed asks for a check now; it never blocks.
func (w *resourceWatch) changed() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// watched is each subscribed (uri, agent) pair but the loops'.
func (w *resourceWatch) watched() [][2]string {
	subs := &w.s.subs
	subs.mu.Lock()
	defer subs.mu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	var out [][2]string
	for ss, uris := range subs.by {
		for uri := range uris {
			if strings.HasPrefix(uri, "cairn://loops/") {
				continue
			}
			p := [2]string{uri, w.agents[ss]}
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// check re-reads each subscribed resource and notifies those whose text
// changed since the last look.
func (w *resourceWatch) check(ctx context.Context) error {
	pairs := w.watched()
	if len(pairs) == 0 {
		return nil
	}
	svc, err := w.s.opts.Services(ctx)
	if err != nil {
		return err
	}
	now := map[[2]string][32]byte{}
	var updated []string
	for _, p := range pairs {
		text, err := w.s.readResource(ctx, svc, p[1], p[0])
		if err != nil {
			text = "error: " + err.Error() // a deleted task is a change too
		}
		h := sha256.Sum256([]byte(text))
		now[p] = h
		w.mu.Lock()
		last, seen := w.prints[p]
		w.mu.Unlock()
		if seen && last != h && !slices.Contains(updated, p[0]) {
			updated = append(updated, p[0])
		}
	}
	w.mu.Lock()
	if len(w.prints) > maxPrints { // forget unsubscribed resources
		clear(w.prints)
	}
	maps.Copy(w.prints, now)
	w.mu.Unlock()
	for _, uri := range updated {
		if err := w.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
			w.s.log.Debug("notify resources/updated", "uri", uri, "error", err)
		}
	}
	return nil
}

// run checks on every change to the store, by any process (the change
// feed the loop watcher reads), and when kicked.
func (w *resourceWatch) run(ctx context.Context) {
	watchChanges(ctx, w.s, w.kick, "resource watch", w.check)
}

// completeResource offers values for a template's argument.
func (s *server) completeResource(ctx context.Context, uriTemplate, arg, prefix string) (mcp.CompletionResultDetails, error) {
	empty := mcp.CompletionResultDetails{Values: []string{}}
	if uriTemplate == loopURITemplate && arg == "id" {
		svc, err := s.opts.Services(ctx)
		if err != nil {
			return empty, err
		}
		return completeLoops(ctx, tool.Call{Set: svc, Host: s}, prefix)
	}
	for _, d := range s.resources {
		if d.uri != uriTemplate || d.complete == nil || d.argName() != arg {
			continue
		}
		svc, err := s.opts.Services(ctx)
		if err != nil {
			return empty, err
		}
		vs, err := d.complete(ctx, tool.Call{Set: svc, Host: s}, prefix)
		if err != nil {
			return empty, err
		}
		return completed(vs), nil
	}
	return empty, nil
}

// maxCompletions is the protocol's limit of values per answer.
const maxCompletions = 100

// completed is values as a completion answer, at most maxCompletions.
func completed(vs []string) mcp.CompletionResultDetails {
	out := mcp.CompletionResultDetails{Values: []string{}, Total: len(vs), HasMore: len(vs) > maxCompletions}
	out.Values = append(out.Values, vs[:min(len(vs), maxCompletions)]...)
	return out
}

// startsWith keeps the values that start with prefix, case aside, in order
// and once each.
func startsWith(vs []string, prefix string) []string {
	p := strings.ToLower(strings.TrimSpace(prefix))
	var out []string
	for _, v := range vs {
		if v != "" && strings.HasPrefix(strings.ToLower(v), p) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// taskIDs are the ids that start with prefix, open tasks first.
func taskIDs(ctx context.Context, svc *service.Set, prefix string) ([]string, error) {
	b, err := svc.Plan.Board(ctx)
	if err != nil {
		return nil, err
	}
	prefix = strings.TrimPrefix(strings.TrimSpace(prefix), "#")
	var open, closed []task.ID
	for id, t := range b.Tasks.All() {
		if strings.HasPrefix(id.String(), prefix) {
			if t.Status.Open() {
				open = append(open, id)
			} else {
				closed = append(closed, id)
			}
		}
	}
	task.SortIDs(open)
	task.SortIDs(closed)
	out := make([]string, 0, len(open)+len(closed))
	for _, id := range append(open, closed...) {
		out = append(out, id.String())
	}
	return out, nil
}

func completeTasks(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	return taskIDs(ctx, c.Set, prefix)
}

// completeMemory offers the newest entries' ids.
func completeMemory(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	res, err := c.Memory.Search(ctx, memories.SearchQuery{Page: page.Page{Limit: page.Memory.Max}})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID.String())
	}
	return startsWith(ids, prefix), nil
}

// completeMistakes offers the titles of recorded mistakes.
func completeMistakes(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	res, err := c.Memory.Search(ctx, memories.SearchQuery{Types: []string{"mistake"}, Page: page.Page{Limit: page.Memory.Max}})
	if err != nil {
		return nil, err
	}
	var ts []string
	for _, h := range res.Hits {
		ts = append(ts, h.Title)
	}
	return startsWith(ts, prefix), nil
}

func completeSessions(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	l, err := c.Memory.Sessions(ctx, memories.SessionQuery{Page: page.Page{Limit: page.Session.Max}})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, s := range l.Sessions {
		ids = append(ids, s.ID.String())
	}
	return startsWith(ids, prefix), nil
}

func completeBranches(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	bs, err := c.Memory.Branches(ctx)
	if err != nil {
		return nil, err
	}
	names := []string{c.Memory.Branch()}
	for _, b := range bs {
		names = append(names, b.Branch)
	}
	return startsWith(names, prefix), nil
}

func completeLifecycles(ctx context.Context, c tool.Call, prefix string) ([]string, error) {
	l, err := lifecycletools.RequireLifecycles(c)
	if err != nil {
		return nil, err
	}
	p, err := l.List(ctx, lifecycles.LifecycleList{Page: page.Page{Limit: page.Lifecycle.Max}})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, it := range p.Items {
		ids = append(ids, fmt.Sprint(it.ID))
	}
	return startsWith(ids, prefix), nil
}

func completeKnowledge(_ context.Context, c tool.Call, prefix string) ([]string, error) {
	var paths []string
	for off := 0; ; {
		p, err := c.Knowledge.QueryTKB(knowledgeQuery(off))
		if err != nil {
			return nil, err
		}
		for _, d := range p.Entries {
			paths = append(paths, d.Path)
		}
		if p.NextOffset == 0 || len(paths) >= maxCompletions {
			break
		}
		off = p.NextOffset
	}
	return startsWith(paths, prefix), nil
}

func knowledgeQuery(offset int) knowledge.TKBQuery {
	return knowledge.TKBQuery{Page: page.Page{Offset: offset, Limit: knowledge.KnowledgePage.Max}}
}

func completeAgents(_ context.Context, c tool.Call, prefix string) ([]string, error) {
	var names []string
	for _, d := range c.Knowledge.Agents() {
		names = append(names, cmp.Or(d.Name, d.Path))
	}
	return startsWith(names, prefix), nil
}

func completeLoops(ctx context.Context, c tool.Call, prefix string) (mcp.CompletionResultDetails, error) {
	ls, err := c.Loops.All(ctx)
	if err != nil {
		return mcp.CompletionResultDetails{}, err
	}
	var open, done []string
	for _, lp := range ls {
		if lp.State.Finished() {
			done = append(done, lp.ID.String())
		} else {
			open = append(open, lp.ID.String())
		}
	}
	return completed(startsWith(append(open, done...), prefix)), nil
}
