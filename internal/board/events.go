package board

import (
	"fmt"
	"net/http"
	"time"
)

// keepAlive is how often an idle event stream sends a comment, so proxies
// and the browser keep it open.
const keepAlive = 20 * time.Second

// events streams the project's changes as Server-Sent Events: one "change"
// event carrying the store's version after every committed change, by this
// process or another (the services' change feed). The first event is the
// current version, so a page that reconnects after a drop compares it with
// the last one it saw and catches up.
func (b *Board) events(w http.ResponseWriter, r *http.Request) {
	set, err := b.services(r)
	if err != nil {
		b.fail(w, r, err)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	_, _ = fmt.Fprint(w, "retry: 1000\n\n")
	if err := rc.Flush(); err != nil {
		return
	}
	ctx := r.Context()
	changes := set.Changes(ctx)
	t := time.NewTicker(keepAlive)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.opts.Context.Done():
			return
		case <-t.C:
			_, err = fmt.Fprint(w, ": keep-alive\n\n")
		case v, ok := <-changes:
			if !ok {
				return
			}
			_, err = fmt.Fprintf(w, "event: change\nid: %d\ndata: %d\n\n", v, v)
		}
		if err == nil {
			err = rc.Flush()
		}
		if err != nil {
			return
		}
	}
}
