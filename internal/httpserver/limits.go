package httpserver

import (
	"crypto/sha256"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Defaults of the resource bounds.
const (
	DefaultMaxSessions         = 1000
	DefaultMaxSessionsPerToken = 100
	DefaultReadTimeout         = 30 * time.Second
	DefaultIdleTimeout         = 60 * time.Second
	DefaultReadHeaderTimeout   = 10 * time.Second
	DefaultMaxConns            = 2048
	// DefaultMaxStreamsPerToken bounds one token's open board event
	// streams (a tab each); all tokens' together take at most a quarter of
	// MaxConns, so probes and MCP clients keep the rest.
	DefaultMaxStreamsPerToken = 32

	// EvictRefuse and EvictIdlest are the policies at a session cap:
	// refuse the new session, or close the idlest one to make room.
	EvictRefuse = "refuse"
	EvictIdlest = "idlest"
)

// sessionEntry is what the server knows of one live MCP session.
type sessionEntry struct {
	owner string // the token's name; "" without tokens
	key   handlerKey
	last  time.Time
}

// sessions counts the live MCP sessions, globally and per token, so that
// neither an attacker with a token (read-only included) nor a leaky client
// can hold unbounded memory. The SDK owns the sessions; this table follows
// it: entries are added when a session is created, touched on use, removed
// on DELETE, and reconciled with the SDK's own list (which drops sessions
// that timed out) whenever a cap is reached.
type sessions struct {
	mu      sync.Mutex
	entries map[string]*sessionEntry
	pending map[string]int // admitted, not yet registered, by owner
	total   int            // pending, all owners
}

func newSessions() *sessions {
	return &sessions{entries: map[string]*sessionEntry{}, pending: map[string]int{}}
}

// admit reserves room for a new session of owner, or says why there is
// none. The reservation ends with release (always) after register (if the
// session was made).
func (s *Server) admit(owner string) *answer {
	t := s.sess
	t.mu.Lock()
	defer t.mu.Unlock()
	for pass := 0; ; pass++ {
		all, mine := len(t.entries)+t.total, t.pending[owner]
		for _, e := range t.entries {
			if e.owner == owner {
				mine++
			}
		}
		perToken := s.AuthRequired() && mine >= s.cfg.MaxSessionsPerToken
		global := all >= s.cfg.MaxSessions
		if !perToken && !global {
			t.pending[owner]++
			t.total++
			return nil
		}
		switch pass {
		case 0:
			// The table may hold sessions the SDK has closed (timed out).
			s.reconcileLocked()
			continue
		case 1:
			if s.cfg.SessionEvict == EvictIdlest {
				scope := ""
				if perToken {
					scope = owner
				}
				if s.evictIdlestLocked(perToken, scope) {
					continue
				}
			}
		}
		if perToken {
			return answerFor("too_many_sessions", &problem.Error{Kind: problem.TooMany,
				Problem: fmt.Sprintf("this token already has %d live sessions, the limit per token", s.cfg.MaxSessionsPerToken),
				Fix:     "reuse a session, end idle ones (DELETE with Mcp-Session-Id), or ask the operator to raise --max-sessions-per-token"})
		}
		return answerFor("too_many_sessions", &problem.Error{Kind: problem.Unavailable,
			Problem: fmt.Sprintf("the server has %d live sessions, its limit", s.cfg.MaxSessions),
			Fix:     "retry later, or ask the operator to raise --max-sessions or to set --session-evict idlest"})
	}
}

// release ends a reservation made by admit.
func (s *Server) release(owner string) {
	t := s.sess
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.pending[owner]--; t.pending[owner] <= 0 {
		delete(t.pending, owner)
	}
	t.total--
}

// register turns owner's reservation into the entry of session id.
func (s *Server) register(id, owner string, key handlerKey) {
	t := s.sess
	t.mu.Lock()
	defer t.mu.Unlock()
	t.entries[id] = &sessionEntry{owner: owner, key: key, last: time.Now()}
	if t.pending[owner]--; t.pending[owner] <= 0 {
		delete(t.pending, owner)
	}
	t.total--
}

func (s *Server) touch(id string) {
	t := s.sess
	t.mu.Lock()
	defer t.mu.Unlock()
	if e := t.entries[id]; e != nil {
		e.last = time.Now()
	}
}

func (s *Server) forget(id string) {
	t := s.sess
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, id)
}

// liveSessions is the number of sessions in the table.
func (s *Server) liveSessions() int {
	s.sess.mu.Lock()
	defer s.sess.mu.Unlock()
	return len(s.sess.entries)
}

// reconcileLocked drops the entries whose session the SDK no longer has.
func (s *Server) reconcileLocked() {
	live := map[string]bool{}
	for _, srv := range s.serverList() {
		for ss := range srv.Sessions() {
			live[ss.ID()] = true
		}
	}
	for id := range s.sess.entries {
		if !live[id] {
			delete(s.sess.entries, id)
		}
	}
}

// evictIdlestLocked closes the least recently used session (of owner, if
// onlyOwner), and reports whether there was one.
func (s *Server) evictIdlestLocked(onlyOwner bool, owner string) bool {
	var (
		victim string
		ve     *sessionEntry
	)
	for id, e := range s.sess.entries {
		if onlyOwner && e.owner != owner {
			continue
		}
		if ve == nil || e.last.Before(ve.last) {
			victim, ve = id, e
		}
	}
	if ve == nil {
		return false
	}
	delete(s.sess.entries, victim)
	if srv := s.serverFor(ve.key); srv != nil {
		for ss := range srv.Sessions() {
			if ss.ID() == victim {
				_ = ss.Close()
				break
			}
		}
	}
	s.log.Info("session limit: closed the idlest session", "owner", ve.owner, "idle", time.Since(ve.last).Round(time.Second))
	return true
}

func (s *Server) serverList() []*mcp.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*mcp.Server, 0, len(s.servers))
	for _, srv := range s.servers {
		out = append(out, srv)
	}
	return out
}

func (s *Server) serverFor(k handlerKey) *mcp.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.servers[k]
}

// limitListener bounds the open connections: over the limit, a new
// connection is answered 503 (the JSON refusal shape) and closed at once,
// rather than queued behind the ones that hold the slots.
type limitListener struct {
	net.Listener
	slots chan struct{}
	full  []byte
}

func newLimitListener(ln net.Listener, n int) *limitListener {
	p := *answerFor("too_many_connections", &problem.Error{Kind: problem.Unavailable,
		Problem: fmt.Sprintf("the server has %d open connections, its limit", n),
		Fix:     "retry later, reuse a keep-alive connection, or ask the operator to raise --max-conns"})
	body := p.body()
	resp := fmt.Appendf(nil, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nCache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), full: resp}
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			go func() {
				_ = c.SetWriteDeadline(time.Now().Add(time.Second))
				_, _ = c.Write(l.full)
				_ = c.Close()
			}()
		}
	}
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// badTokenLog rate-limits the warning for an unknown bearer token: each
// distinct wrong secret is logged once a minute at most, with how many
// times it was seen; the table is bounded and starts over when full.
type badTokenLog struct {
	mu   sync.Mutex
	seen map[[32]byte]*badToken
}

type badToken struct {
	n    int
	last time.Time
}

const (
	badTokenEvery = time.Minute
	badTokenMax   = 4096
)

func (l *badTokenLog) note(secret string) (int, bool) {
	d := sha256.Sum256([]byte(secret))
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil || len(l.seen) >= badTokenMax {
		l.seen = map[[32]byte]*badToken{}
	}
	b := l.seen[d]
	if b == nil {
		b = &badToken{}
		l.seen[d] = b
	}
	b.n++
	if time.Since(b.last) < badTokenEvery {
		return b.n, false
	}
	b.last = time.Now()
	return b.n, true
}

// streams counts the open board event streams, globally and per token.
type streams struct {
	mu    sync.Mutex
	by    map[string]int
	total int
}

// admitStream reserves a board event stream for tok (nil without tokens),
// or says why there is none: any token, read-only too, could otherwise
// hold every connection slot with /events and leave /healthz and every
// MCP client a 503. The returned func gives the slot back.
func (s *Server) admitStream(tok *Token) (func(), *answer) {
	owner := ""
	if tok != nil {
		owner = tok.Name
	}
	st := &s.streams
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.by == nil {
		st.by = map[string]int{}
	}
	if st.by[owner] >= DefaultMaxStreamsPerToken || st.total >= max(1, s.cfg.MaxConns/4) {
		return nil, answerFor("too_many_streams", &problem.Error{Kind: problem.TooMany,
			Problem: fmt.Sprintf("%d board tabs are open with this token (%d on the server), the most it serves", st.by[owner], st.total),
			Fix:     "close a board tab, then reload"})
	}
	st.by[owner]++
	st.total++
	return func() {
		st.mu.Lock()
		st.by[owner]--
		st.total--
		st.mu.Unlock()
	}, nil
}
