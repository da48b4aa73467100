package httpserver

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
)

// pipeNet is an in-memory network for a server under test in a synctest
// bubble: each connection is a net.Pipe pair, whose reads block durably
// and whose deadlines run on the bubble's clock, so read timeouts, idle
// sessions and SSE streams are driven by the bubble's time, not the wall's.
type pipeNet struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeNet() *pipeNet {
	return &pipeNet{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept implements net.Listener: the server end of the next Dial.
func (p *pipeNet) Accept() (net.Conn, error) {
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.done:
		return nil, net.ErrClosed
	}
}

func (p *pipeNet) Close() error {
	p.once.Do(func() { close(p.done) })
	return nil
}

func (p *pipeNet) Addr() net.Addr { return pipeAddr{} }

// Dial returns the client end of a new connection.
func (p *pipeNet) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case p.conns <- server:
		return client, nil
	case <-p.done:
		return nil, net.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "127.0.0.1:80" }

// servePipes runs s.Serve on a pipe network until the test ends and returns
// the server's URL and a client that reaches it.
func servePipes(t *testing.T, s *Server) (string, *http.Client) {
	t.Helper()
	p := newPipeNet()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, p); close(done) }()
	tr := &http.Transport{DialContext: p.Dial}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		cancel()
		<-done
		p.Close()
	})
	return "http://127.0.0.1", &http.Client{Transport: tr}
}
