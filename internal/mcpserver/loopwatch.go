package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	loopstools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/loops"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/task"
)

const loopURITemplate = "cairn://loops/{id}"

// readLoop serves cairn://loops/{id}: the loop's full state as JSON.
func (s *server) readLoop(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	ref, ok := strings.CutPrefix(uri, "cairn://loops/")
	if !ok || ref == "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	svc, err := s.opts.Services(ctx)
	if err != nil {
		return nil, promptError(ctx, s, "resources/read", err)
	}
	lp, err := svc.Loops.Get(ctx, ref)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	b, err := json.Marshal(loopstools.LoopViewOf(lp, true))
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// loopWatch notices loop changes, made by this process or any other on the
// same store, through the store's change feed (service.Set.Changes: one
// store.Watcher per open store, not a poll per server or session); it
// notifies subscribers with resources/updated and keeps resources/list to
// the loops not finished.
type loopWatch struct {
	s   *server
	srv *mcp.Server

	kick chan struct{}

	mu      sync.Mutex
	version uint64
	seen    map[task.ID]time.Time // each loop's state UpdatedAt
	listed  map[task.ID]bool
	primed  bool
}

// loopRetry is how often the watcher tries again to reach a project it
// could not open (stdio opens it lazily, and may find none yet).
const loopRetry = time.Second

// loopCheckGap is the least time between two looks at the loops: under a
// stream of writes, one look (every loop read) stands for all the changes
// that came in the meantime.
const loopCheckGap = 25 * time.Millisecond

func newLoopWatch(s *server, srv *mcp.Server) *loopWatch {
	return &loopWatch{s: s, srv: srv, kick: make(chan struct{}, 1), seen: map[task.ID]time.Time{}, listed: map[task.ID]bool{}}
}

func (w *loopWatch) run(ctx context.Context) { watchChanges(ctx, w.s, w.kick, "loop watch", w.check) }

// watchChanges calls check after every change to the project's store, by
// any process (its change feed), and whenever kick fires, at most once a
// loopCheckGap, until ctx ends; before the project opens it retries every
// loopRetry. The loop watcher and the resource watcher run on it.
func watchChanges(ctx context.Context, s *server, kick <-chan struct{}, name string, check func(context.Context) error) {
	for ctx.Err() == nil {
		svc, err := s.opts.Services(ctx)
		if err != nil {
			s.log.Debug(name+": no project yet", "error", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(loopRetry):
			case <-kick:
			}
			continue
		}
		changes := svc.Changes(ctx)
		for {
			select {
			case <-ctx.Done():
				return
			case _, ok := <-changes:
				if !ok {
					return
				}
			case <-kick:
			}
			if err := check(ctx); err != nil && ctx.Err() == nil {
				s.log.Debug(name, "error", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(loopCheckGap):
			}
		}
	}
}

// changed asks for a check now; it never blocks.
func (w *loopWatch) changed() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

func (w *loopWatch) check(ctx context.Context) error {
	svc, err := w.s.opts.Services(ctx)
	if err != nil {
		return err
	}
	v, err := svc.Loops.Version(ctx)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.primed && v == w.version {
		return nil
	}
	loops, err := svc.Loops.All(ctx)
	if err != nil {
		return err
	}
	present := map[task.ID]bool{}
	for _, lp := range loops {
		present[lp.ID] = true
		uri := loopstools.LoopURI(lp.ID)
		if last, ok := w.seen[lp.ID]; ok && !last.Equal(lp.State.UpdatedAt) {
			if err := w.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: uri}); err != nil {
				w.s.log.Debug("notify resources/updated", "uri", uri, "error", err)
			}
		}
		w.seen[lp.ID] = lp.State.UpdatedAt
		switch open := !lp.State.Finished(); {
		case open && !w.listed[lp.ID]:
			w.srv.AddResource(&mcp.Resource{URI: uri, Name: "loop-" + lp.ID.String(), Title: problem.Clip(lp.State.Objective, 100),
				MIMEType: "application/json"}, w.s.readLoop)
			w.listed[lp.ID] = true
		case !open && w.listed[lp.ID]:
			w.srv.RemoveResources(uri)
			delete(w.listed, lp.ID)
		}
	}
	for id := range w.listed { // deleted tasks
		if !present[id] {
			w.srv.RemoveResources(loopstools.LoopURI(id))
			delete(w.listed, id)
			delete(w.seen, id)
		}
	}
	w.version, w.primed = v, true
	return nil
}

// maxSubscriptions bounds one session's resource subscriptions.
const maxSubscriptions = 64

// subscriptions counts each session's subscriptions, as the SDK holds them.
type subscriptions struct {
	mu sync.Mutex
	by map[*mcp.ServerSession]map[string]bool
}

// subscribe admits a subscription to a loop that exists, or to a live
// resource (canSubscribe), up to maxSubscriptions a session.
func (s *server) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	if err := s.canSubscribe(ctx, req); err != nil {
		return err
	}
	subs := &s.subs
	subs.mu.Lock()
	defer subs.mu.Unlock()
	if subs.by == nil {
		subs.by = map[*mcp.ServerSession]map[string]bool{}
	}
	mine := subs.by[req.Session]
	if mine == nil {
		mine = map[string]bool{}
		subs.by[req.Session] = mine
		go func(ss *mcp.ServerSession) { // forget the session with it
			ss.Wait()
			subs.mu.Lock()
			delete(subs.by, ss)
			subs.mu.Unlock()
		}(req.Session)
	}
	if !mine[uri] && len(mine) >= maxSubscriptions {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("this session holds %d subscriptions, the most it may: unsubscribe from a loop it no longer watches", maxSubscriptions)}
	}
	mine[uri] = true
	return nil
}

func (s *server) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	s.subs.mu.Lock()
	defer s.subs.mu.Unlock()
	delete(s.subs.by[req.Session], req.Params.URI)
	return nil
}
