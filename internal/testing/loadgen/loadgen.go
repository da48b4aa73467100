// Package loadgen drives a Cairn server over Streamable HTTP with many
// concurrent agents and measures what they see: calls per second and the
// latency distribution per tool. Every simulated agent is its own MCP
// session through the official Go SDK client, with its own agent id, running
// closed-loop (its next call starts when its last one is answered).
package loadgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AgentHeader carries the agent id; the server gives each agent its own focus.
const AgentHeader = "X-Cairn-Agent"

// Target is the server under load.
type Target struct {
	URL   string // the MCP endpoint, e.g. http://127.0.0.1:8080/mcp
	Token string // bearer token; empty sends none
	// HTTP carries every session's requests; nil means a transport that
	// keeps enough idle connections for every client.
	HTTP http.RoundTripper
	// NoSSE skips the standalone SSE stream each session otherwise opens
	// for server-initiated messages, as editors do.
	NoSSE bool
}

// NewTransport returns an HTTP transport that keeps a connection per session
// alive, so a level measures calls, not connection setup.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 0
	t.MaxIdleConnsPerHost = 1024
	return t
}

// agentRoundTripper names the agent and presents the token on every request.
type agentRoundTripper struct {
	base         http.RoundTripper
	agent, token string
}

func (a agentRoundTripper) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context()) // a RoundTripper must not change the caller's request
	r.Header.Set(AgentHeader, a.agent)
	if a.token != "" {
		r.Header.Set("Authorization", "Bearer "+a.token)
	}
	return a.base.RoundTrip(r)
}

// Connect opens an MCP session to the target as agent.
func (t Target) Connect(ctx context.Context, agent string) (*mcp.ClientSession, error) {
	base := t.HTTP
	if base == nil {
		base = NewTransport()
	}
	tr := &mcp.StreamableClientTransport{
		Endpoint:             t.URL,
		HTTPClient:           &http.Client{Transport: agentRoundTripper{base: base, agent: agent, token: t.Token}},
		DisableStandaloneSSE: t.NoSSE,
		MaxRetries:           -1, // a failure is a measured error, not hidden by a retry
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "cairn-load", Version: "1"}, nil)
	cs, err := c.Connect(ctx, tr, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to %s as %s: %w", t.URL, agent, err)
	}
	return cs, nil
}

// WaitReady connects until the server answers or ctx ends, so a script can
// start the server and the generator together.
func (t Target) WaitReady(ctx context.Context, every time.Duration) error {
	for {
		cs, err := t.Connect(ctx, "cairn-load-probe")
		if err == nil {
			return cs.Close()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("server not ready: %w (last: %v)", ctx.Err(), err)
		case <-time.After(every):
		}
	}
}

// ToolError is a tool call that the server answered with isError.
type ToolError struct{ Text string }

func (e *ToolError) Error() string { return e.Text }

// call makes one tool call and decodes its structured result into out (if
// not nil). A result with isError is an error.
func call(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any, out any) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return &ToolError{Text: b.String()}
	}
	if out == nil {
		return nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return fmt.Errorf("%s: re-encode result: %w", tool, err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s: decode result: %w", tool, err)
	}
	return nil
}

// Plan is the seeded plan the workload reads and writes.
type Plan struct {
	All  []string // every seeded task id
	Open []string // the seeded tasks still open, which update_task changes
}

var priorities = []string{"critical", "high", "medium", "medium", "low"}

// Seed creates n plan tasks through create_task, as an agent breaking down a
// project would: 30% done, 10% in progress, the rest pending, each open one
// depending on up to two of the 50 tasks before it.
func Seed(ctx context.Context, t Target, n int, seed uint64) (*Plan, error) {
	cs, err := t.Connect(ctx, "cairn-load-seed")
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	r := rand.New(rand.NewPCG(seed, 1))
	p := &Plan{}
	for i := range n {
		status := "pending"
		switch x := r.IntN(100); {
		case x < 30:
			status = "done"
		case x < 40:
			status = "in-progress"
		}
		args := map[string]any{
			"title":       fmt.Sprintf("Load plan task %d: build and test a slice", i+1),
			"description": "Seeded by cairn-load. Acceptance: tests pass, docs updated.",
			"priority":    priorities[r.IntN(len(priorities))],
			"status":      status,
		}
		if status != "done" && len(p.All) > 0 {
			var deps []string
			for range r.IntN(3) {
				lo := max(0, len(p.All)-50)
				d := p.All[lo+r.IntN(len(p.All)-lo)]
				if !slices.Contains(deps, d) {
					deps = append(deps, d)
				}
			}
			if len(deps) > 0 {
				args["dependencies"] = deps
			}
		}
		var out struct {
			ID string `json:"id"`
		}
		if err := call(ctx, cs, "create_task", args, &out); err != nil {
			return nil, fmt.Errorf("seed task %d: %w", i+1, err)
		}
		if out.ID == "" {
			return nil, fmt.Errorf("seed task %d: create_task answered without an id", i+1)
		}
		p.All = append(p.All, out.ID)
		if status != "done" {
			p.Open = append(p.Open, out.ID)
		}
	}
	return p, nil
}

// Config is one load level.
type Config struct {
	Target
	Clients  int
	Warmup   time.Duration // calls made first and not recorded
	Duration time.Duration // the measured time
	Mix      Mix
	Plan     *Plan
	// RunID tells this run's agents from other runs' on the same server.
	RunID     string
	Seed      uint64 // of the clients' random choices
	ServerPID int    // when set, the server's CPU time and memory are read from /proc
	Log       *slog.Logger
	// MaxCalls, when above zero, stops each client after that many calls
	// (warmup included), even before Duration ends. With a fixed Seed each
	// client then makes the same calls every run.
	MaxCalls int
	// CallTimeout bounds one call; default 30s.
	CallTimeout time.Duration
}

// Run runs one level: Clients agents, each connected and set up (its own
// task under a container task for the level), then all calling for
// Warmup+Duration. Setup failures end the run; call failures are counted.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Clients < 1 {
		return Result{}, fmt.Errorf("clients is %d; use 1 or more", cfg.Clients)
	}
	if cfg.Duration <= 0 {
		return Result{}, fmt.Errorf("duration is %v; use a positive duration such as 10s", cfg.Duration)
	}
	if cfg.Plan == nil || len(cfg.Plan.All) == 0 {
		if cfg.Mix.Has(OpGetTask) || cfg.Mix.Has(OpUpdateTask) || cfg.Mix.Has(OpCreateTask) {
			return Result{}, errors.New("the mix reads or changes plan tasks, but no plan is seeded; seed one (-seed 1000) or drop get_task, update_task and create_task from -mix")
		}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = 30 * time.Second
	}
	if cfg.HTTP == nil {
		tr := NewTransport()
		defer tr.CloseIdleConnections()
		cfg.HTTP = tr
	}

	// The level's container task: every agent works under it, so no agent's
	// focus wanders onto another's work.
	setup, err := cfg.Connect(ctx, "cairn-load-setup")
	if err != nil {
		return Result{}, err
	}
	var box struct {
		ID string `json:"id"`
	}
	err = call(ctx, setup, "create_task", map[string]any{
		"title":       fmt.Sprintf("Load run %s: %d clients", cfg.RunID, cfg.Clients),
		"description": "Every simulated agent of this level works under this task.",
	}, &box)
	setup.Close()
	if err != nil {
		return Result{}, fmt.Errorf("create the level's container task: %w", err)
	}

	clients := make([]*client, cfg.Clients)
	defer func() {
		for _, c := range clients {
			if c != nil {
				c.cs.Close()
			}
		}
	}()
	{
		var wg sync.WaitGroup
		errs := make([]error, cfg.Clients)
		for i := range clients {
			wg.Go(func() {
				clients[i], errs[i] = newClient(ctx, cfg, i, box.ID)
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return Result{}, fmt.Errorf("set up clients: %w", err)
		}
	}

	start := time.Now()
	measure := start.Add(cfg.Warmup)
	end := measure.Add(cfg.Duration)
	recs := make([]*samples, cfg.Clients)
	lasts := make([]time.Time, cfg.Clients)
	var wg sync.WaitGroup
	for i, c := range clients {
		recs[i] = newSamples()
		wg.Go(func() { lasts[i] = c.run(ctx, measure, end, recs[i]) })
	}
	var cpuBefore time.Duration
	if cfg.ServerPID > 0 {
		// Read at the end of warmup, while the clients call.
		select {
		case <-time.After(time.Until(measure)):
		case <-ctx.Done():
		}
		cpuBefore, err = procCPU(cfg.ServerPID)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	last := measure
	for _, l := range lasts {
		if l.After(last) {
			last = l
		}
	}
	elapsed := last.Sub(measure)
	res := Result{Clients: cfg.Clients, Elapsed: elapsed, HostLoad: loadAverage(), CPUs: runtime.NumCPU()}
	res.Overall, res.PerTool, res.ErrorMsg = merge(recs, elapsed)
	for _, c := range clients {
		res.WarmupErrors += c.warmupErrors
	}
	if cfg.ServerPID > 0 {
		cpu, err1 := procCPU(cfg.ServerPID)
		rss, peak, err2 := procMem(cfg.ServerPID)
		if err := errors.Join(err, err1, err2); err != nil {
			cfg.Log.Warn("read server stats", "pid", cfg.ServerPID, "error", err)
		} else {
			res.Server = &ProcStats{CPU: cpu - cpuBefore, RSS: rss, PeakRSS: peak}
		}
	}
	return res, nil
}

// focus states of an agent's workflow: it works in batches of steps under
// its own task, each step created (deeper) and completed, and each batch
// completed when it holds batchSteps done steps.
type focusState int

const (
	atBatch    focusState = iota // current: a batch with room; next: create a step
	atStep                       // current: a step; next: complete it
	atFull                       // current: a full batch; next: complete it
	atAgent                      // current: the agent's own task; next: create a batch
	batchSteps = 16
)

type client struct {
	cfg          Config
	cs           *mcp.ClientSession
	name         string
	r            *rand.Rand
	state        focusState
	steps        int // done steps in the current batch
	n            int // calls made, for unique titles
	warmupErrors int
}

// AgentName is the agent id of client i of a level of clients clients.
func AgentName(runID string, clients, i int) string {
	return fmt.Sprintf("load-%s-c%d-%03d", runID, clients, i)
}

// newClient connects agent i and puts its focus on a new batch under its own
// task, under the level's container.
func newClient(ctx context.Context, cfg Config, i int, box string) (*client, error) {
	name := AgentName(cfg.RunID, cfg.Clients, i)
	cs, err := cfg.Connect(ctx, name)
	if err != nil {
		return nil, err
	}
	c := &client{cfg: cfg, cs: cs, name: name, r: rand.New(rand.NewPCG(cfg.Seed, uint64(i)+1))}
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"switch_focus", map[string]any{"task_id": box}},
		{"create_new_task", map[string]any{"title": "Agent " + name, "body": "One simulated agent's work."}},
		{"create_new_task", map[string]any{"title": "Batch 1", "body": "A batch of steps."}},
	} {
		if err := call(ctx, cs, step.tool, step.args, nil); err != nil {
			cs.Close()
			return nil, fmt.Errorf("set up agent %s: %s: %w", name, step.tool, err)
		}
	}
	return c, nil
}

// run calls until end, recording the calls that start at or after measure,
// and returns when its last recorded call was answered.
func (c *client) run(ctx context.Context, measure, end time.Time, rec *samples) (last time.Time) {
	for ctx.Err() == nil {
		t0 := time.Now()
		if !t0.Before(end) || (c.cfg.MaxCalls > 0 && c.n >= c.cfg.MaxCalls) {
			break
		}
		tool, err := c.step(ctx)
		t1 := time.Now()
		if ctx.Err() != nil {
			break // cancelled: not a server error
		}
		if t0.Before(measure) {
			if err != nil {
				c.warmupErrors++
				if c.warmupErrors == 1 {
					c.cfg.Log.Warn("call failed in warmup", "agent", c.name, "tool", tool, "error", err)
				}
			}
			continue
		}
		rec.add(tool, t1.Sub(t0), err)
		last = t1
	}
	return last
}

// step makes the next call of the mix and returns the tool it called.
func (c *client) step(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.CallTimeout)
	defer cancel()
	c.n++
	op := c.cfg.Mix.Pick(c.r)
	switch op {
	case OpFocusCycle:
		return c.focusStep(ctx)
	case OpPing:
		return op, c.cs.Ping(ctx, nil)
	case OpGetTask:
		return op, call(ctx, c.cs, op, map[string]any{"id": c.pick(c.cfg.Plan.All)}, nil)
	case OpGetTasks:
		return op, call(ctx, c.cs, op, map[string]any{"status": "pending", "limit": 20}, nil)
	case OpGetBigPicture:
		return op, call(ctx, c.cs, op, map[string]any{"limit": 20}, nil)
	case OpCreateTask:
		return op, call(ctx, c.cs, op, map[string]any{
			"title":        fmt.Sprintf("Follow-up %d from %s", c.n, c.name),
			"description":  "Found while working; needs its own task.",
			"priority":     priorities[c.r.IntN(len(priorities))],
			"dependencies": []string{c.pick(c.cfg.Plan.All)},
		}, nil)
	case OpUpdateTask:
		status := "pending"
		if c.r.IntN(2) == 0 {
			status = "in-progress"
		}
		return op, call(ctx, c.cs, op, map[string]any{
			"id":          c.pick(c.cfg.Plan.Open),
			"status":      status,
			"priority":    priorities[c.r.IntN(len(priorities))],
			"description": fmt.Sprintf("Notes from %s, call %d: approach agreed, tests next.", c.name, c.n),
		}, nil)
	case OpUpdateCurrentTask:
		return op, call(ctx, c.cs, op, map[string]any{
			"body": fmt.Sprintf("Progress (call %d): tried the simple way, it works; edge cases next.", c.n),
		}, nil)
	default: // reads without arguments
		return op, call(ctx, c.cs, op, map[string]any{}, nil)
	}
}

func (c *client) pick(ids []string) string { return ids[c.r.IntN(len(ids))] }

// focusStep makes the agent's next focus call. The state advances only on
// success, so a failed call is retried by the next pick.
func (c *client) focusStep(ctx context.Context) (string, error) {
	var tool string
	var args map[string]any
	switch c.state {
	case atBatch:
		tool, args = "create_new_task", map[string]any{"title": fmt.Sprintf("Step %d", c.steps+1), "body": "Do one thing."}
	case atStep, atFull:
		tool, args = "complete_current_task", map[string]any{}
	case atAgent:
		tool, args = "create_new_task", map[string]any{"title": fmt.Sprintf("Batch at call %d", c.n), "body": "A batch of steps."}
	}
	if err := call(ctx, c.cs, tool, args, nil); err != nil {
		return tool, err
	}
	switch c.state {
	case atBatch:
		c.state = atStep
	case atStep:
		c.steps++
		c.state = atBatch
		if c.steps == batchSteps {
			c.state = atFull
		}
	case atFull:
		c.state = atAgent
	case atAgent:
		c.state, c.steps = atBatch, 0
	}
	return tool, nil
}
