package claims

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// Claims when many agents share one plan: eight agents, each its own
// `cairn serve` process, over stdio and over HTTP, on SQLite and on
// PostgreSQL, each call claim_task without an id 100 times on a plan of
// 500 ready tasks. Every task is claimed at most once and no call fails.
// Then short leases expire and are taken over, and a renewed claim holds.

const (
	raceAgents = 8
	raceCalls  = 100
	raceTasks  = 500
)

// claimBackend says where the agents' servers keep the plan.
type claimBackend struct {
	name string
	env  func(t *testing.T) []string // extra environment; nil: SQLite
}

var claimBackends = []claimBackend{
	{"sqlite", nil},
	{"postgres", func(t *testing.T) []string {
		return []string{"CAIRN_DATABASE_URL=" + pgtest.URL(t), "CAIRN_PROJECT=" + pgtest.Project(t)}
	}},
}

// agentServers starts one server process per agent on one project and
// returns a connected session for each, agent i named "agent-i".
func agentServers(t *testing.T, transport string, env []string, n int) []*cairntest.Server {
	dir := cairntest.Project(t)
	out := make([]*cairntest.Server, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := fmt.Sprintf("agent-%d", i)
			if transport == "stdio" {
				out[i] = cairntest.Start(t, cairntest.Options{Dir: dir, Env: env, Args: []string{"--agent", agent}})
				return
			}
			h := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Env: env})
			out[i] = h.Connect(cairntest.Client{Header: http.Header{"X-Cairn-Agent": {agent}}})
		}()
	}
	wg.Wait()
	return out
}

func TestClaimRace(t *testing.T) {
	for _, b := range claimBackends {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(b.name+"/"+transport, func(t *testing.T) {
				var env []string
				if b.env != nil {
					env = b.env(t)
				}
				testClaimRace(t, agentServers(t, transport, env, raceAgents))
			})
		}
	}
}

func testClaimRace(t *testing.T, agents []*cairntest.Server) {
	for i := range raceTasks {
		agents[i%len(agents)].OK("create_task", args{"title": fmt.Sprintf("ready task %d", i)})
	}
	var (
		mu      sync.Mutex
		claimed = map[string][]string{} // task id → agents that got it
		nothing int
		errs    []string
		wg      sync.WaitGroup
	)
	start := time.Now()
	for i, s := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			agent := fmt.Sprintf("agent-%d", i)
			for range raceCalls {
				r, err := s.CallErr("claim_task", args{})
				mu.Lock()
				switch {
				case err != nil:
					errs = append(errs, fmt.Sprintf("%s: %v", agent, err))
				case r.IsError:
					errs = append(errs, fmt.Sprintf("%s: %s", agent, r.Text))
				case r.Structured["task"] == nil:
					nothing++
				default:
					id := r.Structured["task"].(map[string]any)["id"].(string)
					claimed[id] = append(claimed[id], agent)
					if c := r.Structured["claim"].(map[string]any); c["agent"] != agent {
						errs = append(errs, fmt.Sprintf("%s got task %s with a claim for %v", agent, id, c["agent"]))
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(errs) > 0 {
		t.Fatalf("%d of %d calls failed; first: %s", len(errs), raceAgents*raceCalls, errs[0])
	}
	for id, who := range claimed {
		if len(who) > 1 {
			t.Errorf("task %s claimed %d times: %v", id, len(who), who)
		}
	}
	if len(claimed) != raceTasks || nothing != raceAgents*raceCalls-raceTasks {
		t.Errorf("%d tasks claimed and %d calls found nothing; want %d and %d", len(claimed), nothing, raceTasks, raceAgents*raceCalls-raceTasks)
	}
	t.Logf("%d claim_task calls by %d agents in %v (%.0f calls/s)", raceAgents*raceCalls, raceAgents, elapsed.Round(time.Millisecond),
		float64(raceAgents*raceCalls)/elapsed.Seconds())

	// Everything is held: an agent's next task is one of its own, past the
	// better ones others hold, which it counts.
	next := agents[0].OK("get_next_task", args{})
	nt, _ := next.Structured["task"].(map[string]any)
	if c, _ := nt["claim"].(map[string]any); c["agent"] != "agent-0" {
		t.Errorf("get_next_task gave a task another agent holds: %s", next.Text)
	}
	if sk, _ := next.Structured["skippedClaimed"].(float64); sk > 0 && !strings.Contains(next.Text, fmt.Sprintf("Skipped %d that other agents hold", int(sk))) {
		t.Errorf("get_next_task does not say what it skipped: %s", next.Text)
	}
	if r := agents[1].OK("claim_task", args{}); r.Structured["task"] != nil || !strings.Contains(r.Text, "No ready task is free") {
		t.Errorf("claim_task with every task held: %s", r.Text)
	}

	// Leases: agent 0 takes a task for 2 seconds, agent 1 another and renews
	// it for a minute. Agent 1 is refused agent 0's task, told until when.
	a, b := agents[0], agents[1]
	x := a.OK("create_task", args{"title": "short lease"}).Str("id")
	y := a.OK("create_task", args{"title": "renewed lease"}).Str("id")
	held := a.OK("claim_task", args{"id": x, "lease_seconds": 2})
	until := held.Structured["claim"].(map[string]any)["until"].(string)
	b.OK("claim_task", args{"id": y, "lease_seconds": 2})
	e := b.Err("claim_task", args{"id": x})
	if e.Str("reason") != "claimed" || !strings.Contains(e.Str("message"), "task "+x+" is claimed by agent-0 until "+until) {
		t.Errorf("claim of a held task: %s", e.Text)
	}
	if g := b.OK("get_task", args{"id": x}); !strings.Contains(g.Text, "[claimed by agent-0 until "+until+"]") {
		t.Errorf("get_task does not show the holder: %s", g.Text)
	}
	if r := b.OK("renew_claim", args{"id": y, "lease_seconds": 60}); r.Structured["renewed"] != true {
		t.Errorf("renew: %s", r.Text)
	}
	// Wait out agent 0's lease: a real lease, in the server process, runs
	// out on its clock; poll it, the server decides.
	var took cairntest.Result
	wait.Until(t, 20*time.Second, "agent 0's 2s lease to run out", func() bool {
		took = b.Call("claim_task", args{"id": x})
		if took.IsError && took.Str("reason") != "claimed" {
			t.Fatalf("claim after the lease: %s", took.Text)
		}
		return !took.IsError
	})
	if ex, _ := took.Structured["replacedExpired"].(map[string]any); ex["agent"] != "agent-0" || ex["until"] != until ||
		!strings.Contains(took.Text, "took over agent-0's claim, which expired "+until) {
		t.Errorf("the answer does not say whose claim expired and when: %s", took.Text)
	}
	// The renewed claim still holds, well past its first lease.
	if e := a.Err("claim_task", args{"id": y}); !strings.Contains(e.Str("message"), "claimed by agent-1") {
		t.Errorf("a renewed claim was taken: %s", e.Text)
	}
	// Done ends the claim.
	if r := b.OK("release_task", args{"id": x, "status": "done"}); r.Structured["task"].(map[string]any)["status"] != "done" {
		t.Errorf("release with status done: %s", r.Text)
	}
	if g := a.OK("get_task", args{"id": x}); strings.Contains(g.Text, "claim") {
		t.Errorf("a done task still shows a claim: %s", g.Text)
	}
	b.OK("update_task", args{"id": y, "status": "cancelled"})
	if e := b.Err("release_task", args{"id": y}); !strings.Contains(e.Str("message"), "nobody has claimed") {
		t.Errorf("cancelling did not end the claim: %s", e.Text)
	}
}
