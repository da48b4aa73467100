package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// brokenSession reports a session whose requests fail at the transport.
type brokenSession struct {
	cs    *mcp.ClientSession
	cause error
}

// call runs f on the remote session and sorts its failure: the remote's own
// JSON-RPC errors pass through as they are; a session the remote no longer
// knows (it restarted, or expired it) is re-established and f is sent once
// more, which is safe because the remote refused it before handling it; any
// other failure means the remote is unreachable, and is answered with
// *unavailableError while the bridge reconnects.
func call[T any](ctx context.Context, b *Bridge, f func(*mcp.ClientSession) (T, error)) (T, error) {
	var zero T
	cs, err := b.session(ctx)
	if err != nil {
		return zero, err
	}
	res, err := f(cs)
	if err == nil {
		return res, nil
	}
	if errors.Is(err, mcp.ErrSessionMissing) {
		b.log.Info("the remote no longer knows this session; reconnecting", "error", err)
		n := b.reportBroken(cs, errors.New("the remote ended the session"))
		cs2, err2 := b.sessionAfter(ctx, n)
		if err2 != nil {
			return zero, err2
		}
		if res, err = f(cs2); err == nil {
			return res, nil
		}
		cs = cs2
	}
	return zero, b.classify(cs, err)
}

// classify turns a failed remote request into what the local client gets.
func (b *Bridge) classify(cs *mcp.ClientSession, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if je := remoteError(err); je != nil {
		return je
	}
	b.reportBroken(cs, err)
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.unavailableLocked()
}

// rejectedByTransport is the SDK's wording for a request its transport
// could not deliver (the remote is unreachable). The SDK reports it as a
// JSON-RPC error with code -32005, which in Cairn means "task closed": it
// must never reach the local client as if the remote had said it.
const rejectedByTransport = "rejected by transport"

// remoteError is err when it is the remote's own JSON-RPC answer, to be
// passed to the local client; nil for a transport failure.
func remoteError(err error) *jsonrpc.Error {
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		return nil
	}
	if je.Code == -32005 && je.Message == rejectedByTransport {
		return nil
	}
	return je
}

// isRemoteError reports whether err is the remote's own answer, to be
// passed to the local client (rather than a transport failure).
func isRemoteError(err error) bool { return remoteError(err) != nil }

// wireError is err as the local client sees it.
func wireError(err error) error {
	var u *unavailableError
	if errors.As(err, &u) {
		return u.wire()
	}
	return err
}

// current is the live remote session, or nil.
func (b *Bridge) current() *mcp.ClientSession {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sess
}

// session returns the live remote session. A request that arrives during
// the first connection attempt waits for it. A request while the remote is
// down asks for an attempt at once (rather than at the next backoff tick)
// and waits for it, up to kickWait: an unreachable remote refuses at once
// on loopback, so the request is answered with *unavailableError without
// delay, and the first request after the remote is back goes through.
func (b *Bridge) session(ctx context.Context) (*mcp.ClientSession, error) {
	select {
	case <-b.attempted:
	default:
		t := time.NewTimer(b.opts.ConnectTimeout)
		select {
		case <-b.attempted:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		}
		t.Stop()
	}
	b.mu.Lock()
	if b.sess != nil {
		defer b.mu.Unlock()
		return b.sess, nil
	}
	target := b.begun + 1 // an attempt that starts after this request
	b.mu.Unlock()
	select {
	case b.kick <- struct{}{}:
	default:
	}
	return b.awaitAttempt(ctx, target, min(b.opts.ConnectTimeout, kickWait))
}

// kickWait bounds how long a request waits for the connection attempt it
// asked for.
const kickWait = 3 * time.Second

// awaitAttempt waits until attempt number target is over (or a session is
// up), at most wait, and returns the session or *unavailableError.
func (b *Bridge) awaitAttempt(ctx context.Context, target int, wait time.Duration) (*mcp.ClientSession, error) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		if b.sess != nil {
			defer b.mu.Unlock()
			return b.sess, nil
		}
		if b.attempts >= target {
			defer b.mu.Unlock()
			return nil, b.unavailableLocked()
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.sess != nil {
				return b.sess, nil
			}
			return nil, b.unavailableLocked()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// sessionAfter waits for the connection attempt that follows attempt n and
// returns its session.
func (b *Bridge) sessionAfter(ctx context.Context, n int) (*mcp.ClientSession, error) {
	deadline := time.NewTimer(b.opts.ConnectTimeout)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		if b.attempts > n {
			defer b.mu.Unlock()
			if b.sess != nil {
				return b.sess, nil
			}
			return nil, b.unavailableLocked()
		}
		ch := b.changed
		b.mu.Unlock()
		select {
		case <-ch:
		case <-deadline.C:
			b.mu.Lock()
			defer b.mu.Unlock()
			return nil, b.unavailableLocked()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// reportBroken takes cs out of service and asks the supervisor to
// reconnect at once; it returns the attempt count at the time.
func (b *Bridge) reportBroken(cs *mcp.ClientSession, cause error) int {
	b.mu.Lock()
	n := b.attempts
	if b.sess == cs {
		b.goneLocked(cause)
	}
	b.mu.Unlock()
	// Keep the newest report: a stale one (for an older session) left in
	// the buffer must not hide it.
	for {
		select {
		case b.broken <- brokenSession{cs, cause}:
			return n
		default:
			select {
			case <-b.broken:
			default:
			}
		}
	}
}

// goneLocked records that the remote is unreachable; b.mu is held.
func (b *Bridge) goneLocked(cause error) {
	b.sess = nil
	if b.downSince.IsZero() {
		b.downSince = time.Now()
	}
	b.cause = errors.New(b.scrub(shortCause(cause).Error()))
	b.notifyLocked()
}

func (b *Bridge) notifyLocked() {
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *Bridge) askRefresh() {
	select {
	case b.refresh <- struct{}{}:
	default:
	}
}

// supervise keeps one session with the remote: it connects, reconnects when
// the session ends or breaks (at once, then with exponential backoff, capped
// and jittered), and re-discovers the lists when the remote says they
// changed.
func (b *Bridge) supervise(ctx context.Context) {
	first := true
	endFirst := func() {
		if first {
			close(b.attempted)
			first = false
		}
	}
	delay := b.opts.RetryMin
	for ctx.Err() == nil {
		b.mu.Lock()
		b.begun++
		b.mu.Unlock()
		cs, snap, err := b.connect(ctx)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			b.mu.Lock()
			wasUp := b.downSince.IsZero()
			b.goneLocked(err)
			b.retry = delay
			b.attempts++
			cause := b.cause
			b.mu.Unlock()
			endFirst()
			if wasUp {
				b.log.Warn("remote unreachable; serving the last known lists and retrying", "url", b.safeURL, "cause", cause, "retry", delay)
			} else {
				b.log.Debug("remote still unreachable", "cause", cause, "retry", delay)
			}
			t := time.NewTimer(jitter(delay))
			select {
			case <-ctx.Done():
			case <-t.C:
			case <-b.kick:
			}
			t.Stop()
			delay = min(delay*2, b.opts.RetryMax)
			continue
		}
		b.online(ctx, cs, snap)
		endFirst()
		delay = b.opts.RetryMin
		cause := b.watch(ctx, cs)
		b.mu.Lock()
		if b.sess == cs {
			b.goneLocked(cause)
		}
		b.mu.Unlock()
		go cs.Close() // best effort (a DELETE); do not hold up the reconnect
		if ctx.Err() == nil {
			b.log.Warn("lost the remote; reconnecting", "url", b.safeURL, "cause", cause)
		}
	}
	endFirst()
}

func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// connect makes one attempt: connect, initialize, and discover the lists.
func (b *Bridge) connect(ctx context.Context) (*mcp.ClientSession, *snapshot, error) {
	ctx, cancel := context.WithTimeout(ctx, b.opts.ConnectTimeout)
	defer cancel()
	t := &mcp.StreamableClientTransport{Endpoint: b.opts.URL, HTTPClient: b.httpc, MaxRetries: 1}
	cs, err := b.client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: remoteProtocolVersion})
	if err != nil {
		return nil, nil, err
	}
	snap, err := b.discover(ctx, cs)
	if err != nil {
		cs.Close()
		return nil, nil, err
	}
	return cs, snap, nil
}

// discover reads every list the remote offers, all pages, within the caps.
func (b *Bridge) discover(ctx context.Context, cs *mcp.ClientSession) (*snapshot, error) {
	ir := cs.InitializeResult()
	s := &snapshot{URL: b.safeURL, ServerInfo: ir.ServerInfo, Instructions: ir.Instructions,
		Tools: []*mcp.Tool{}, Prompts: []*mcp.Prompt{}, Resources: []*mcp.Resource{}, ResourceTemplates: []*mcp.ResourceTemplate{}}
	caps := ir.Capabilities
	if caps == nil {
		caps = &mcp.ServerCapabilities{}
	}
	var err error
	if caps.Tools != nil {
		if s.Tools, err = collect(b, "tools/list", func(c string) ([]*mcp.Tool, string, error) {
			r, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: c})
			if err != nil {
				return nil, "", err
			}
			return r.Tools, r.NextCursor, nil
		}); err != nil {
			return nil, err
		}
	}
	if caps.Prompts != nil {
		if s.Prompts, err = collect(b, "prompts/list", func(c string) ([]*mcp.Prompt, string, error) {
			r, err := cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: c})
			if err != nil {
				return nil, "", err
			}
			return r.Prompts, r.NextCursor, nil
		}); err != nil {
			return nil, err
		}
	}
	if caps.Resources != nil {
		if s.Resources, err = collect(b, "resources/list", func(c string) ([]*mcp.Resource, string, error) {
			r, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: c})
			if err != nil {
				return nil, "", err
			}
			return r.Resources, r.NextCursor, nil
		}); err != nil {
			return nil, err
		}
		if s.ResourceTemplates, err = collect(b, "resources/templates/list", func(c string) ([]*mcp.ResourceTemplate, string, error) {
			r, err := cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: c})
			if err != nil {
				return nil, "", err
			}
			return r.ResourceTemplates, r.NextCursor, nil
		}); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ErrListCap is wrapped by the error of a remote list over one of the
// bridge's caps.
var ErrListCap = errors.New("over the bridge's cap")

// collect reads a list page by page, refusing it (and keeping nothing of
// it) once it goes over the caps on pages, items or bytes.
func collect[T any](b *Bridge, method string, page func(cursor string) ([]*T, string, error)) ([]*T, error) {
	out := []*T{}
	size := 0
	cursor := ""
	for pages := 1; ; pages++ {
		if pages > b.opts.MaxListPages {
			return nil, fmt.Errorf("the remote's %s goes on past %d pages, %w of %d pages (raise it with --max-list-pages); nothing of it is kept", method, b.opts.MaxListPages, ErrListCap, b.opts.MaxListPages)
		}
		items, next, err := page(cursor)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if len(out) >= b.opts.MaxListItems {
				return nil, fmt.Errorf("the remote's %s has more than %d items, %w of %d items (raise it with --max-list-items); nothing of it is kept", method, b.opts.MaxListItems, ErrListCap, b.opts.MaxListItems)
			}
			j, err := json.Marshal(it)
			if err != nil {
				return nil, fmt.Errorf("the remote's %s: %w", method, err)
			}
			if size += len(j); size > b.opts.MaxListBytes {
				return nil, fmt.Errorf("the remote's %s is larger than %d bytes, %w of %d bytes (raise it with --max-list-bytes); nothing of it is kept", method, b.opts.MaxListBytes, ErrListCap, b.opts.MaxListBytes)
			}
			out = append(out, it)
		}
		if next == "" {
			return out, nil
		}
		cursor = next
	}
}

// online puts a new session in service: it replays the local client's
// subscriptions and log level, and brings the lists up to date.
func (b *Bridge) online(ctx context.Context, cs *mcp.ClientSession, snap *snapshot) {
	b.mu.Lock()
	b.sess = cs
	b.downSince, b.cause, b.retry = time.Time{}, nil, b.opts.RetryMin
	b.attempts++
	subs := make([]string, 0, len(b.subs))
	for uri := range b.subs {
		subs = append(subs, uri)
	}
	b.notifyLocked()
	b.mu.Unlock()
	slices.Sort(subs)
	for _, uri := range subs {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			b.log.Warn("re-subscribe on the remote", "uri", uri, "error", err)
		}
	}
	b.updateLists(snap)
	b.log.Info("connected to the remote", "url", b.safeURL, "session", cs.ID(), "tools", len(snap.Tools),
		"prompts", len(snap.Prompts), "resources", len(snap.Resources), "templates", len(snap.ResourceTemplates))
}

// updateLists makes snap the known lists: the local server's lists follow
// (announcing a change with list_changed), and the cache is rewritten if
// they changed.
func (b *Bridge) updateLists(snap *snapshot) {
	b.mu.Lock()
	old := b.snap
	b.snap, b.fromCache, b.builtin = snap, false, false
	b.mu.Unlock()
	b.regMu.Lock()
	b.apply(snap)
	b.regMu.Unlock()
	if b.cachePath != "" && !sameLists(old, snap) {
		snap.SavedAt = time.Now().UTC()
		if err := saveSnapshot(b.cachePath, snap); err != nil {
			b.log.Warn("cache the remote's lists", "error", err)
		}
	}
}

// watch serves a session until it ends, breaks or ctx ends; it returns why.
func (b *Bridge) watch(ctx context.Context, cs *mcp.ClientSession) error {
	done := make(chan error, 1)
	go func() { done <- cs.Wait() }()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case err := <-done:
			if err == nil {
				err = errors.New("the remote closed the session")
			}
			return err
		case br := <-b.broken:
			if br.cs == cs {
				return br.cause
			}
		case <-b.refresh:
			snap, err := b.discover(ctx, cs)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				if isRemoteError(err) {
					b.log.Warn("re-discover the remote's lists", "error", err)
					continue
				}
				return err
			}
			b.updateLists(snap)
		}
	}
}

// shortCause drops the SDK's layers of context from a transport error,
// keeping what a person can act on ("dial tcp ...: connection refused").
func shortCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}
