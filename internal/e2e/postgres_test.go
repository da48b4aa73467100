package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

var allToolsets = []string{"--toolsets", "all"}

// pgInstance is one Cairn instance on the shared project: its own pool, as
// a separate process would have, and the services over it.
type pgInstance struct {
	store *postgres.Store
	svc   service.Set
}

func openPG(t *testing.T, url, project string) pgInstance {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.Options{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return pgInstance{store: s, svc: *service.New(s, service.Options{})}
}

// TestPostgresNoLostWrites: two instances on one PostgreSQL project, eight
// concurrent writers each, going through the services as the tools do:
// each writer, as its own agent, creates tasks (which take its focus) and
// records an iteration of one shared loop per task. Every acknowledged
// write is there afterwards, ids are unique, each agent's focus is its last
// task, and the loop counted every recorded iteration (its state is a
// read-modify-write, so a lost update would show as a lower count).
func TestPostgresNoLostWrites(t *testing.T) {
	url := pgtest.URL(t)
	project := pgtest.Project(t)
	instances := []pgInstance{openPG(t, url, project), openPG(t, url, project)}
	ctx := context.Background()
	lp, err := instances[0].svc.Loops.Start(ctx, loops.Start{Objective: "shared loop", Criteria: "every writer recorded", MaxIterations: 10000})
	if err != nil {
		t.Fatal(err)
	}
	ref := lp.ID.String()

	const writers, rounds = 8, 6
	type ack struct {
		agent string
		id    task.ID
		title string
	}
	var (
		mu      sync.Mutex
		acks    []ack
		records int
		errs    []error
		wg      sync.WaitGroup
	)
	for i, in := range instances {
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				agent := fmt.Sprintf("agent-%d-%d", i, w)
				for r := range rounds {
					title := fmt.Sprintf("%s task %d", agent, r)
					var (
						created task.Task
						err     error
					)
					if r%2 == 0 {
						created, err = in.svc.Focus.CreateNewTask(ctx, agent, title, "")
					} else {
						created, err = in.svc.Focus.ExtendCurrentTask(ctx, agent, title, "")
					}
					mu.Lock()
					if err != nil {
						errs = append(errs, fmt.Errorf("%s: %w", title, err))
					} else {
						acks = append(acks, ack{agent, created.ID, title})
					}
					mu.Unlock()
					_, err = in.svc.Loops.Record(ctx, ref, loops.Record{LastAction: title})
					mu.Lock()
					if err != nil {
						errs = append(errs, fmt.Errorf("record %s: %w", title, err))
					} else {
						records++
					}
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d writes failed; first: %v", len(errs), errs[0])
	}

	// Check through each instance: both must see the same, complete state.
	for n, in := range instances {
		err := in.store.View(ctx, func(tx store.Tx) error {
			all, err := store.Tasks(ctx, tx)
			if err != nil {
				return err
			}
			byID := map[task.ID]task.Task{}
			for _, x := range all {
				if _, dup := byID[x.ID]; dup {
					t.Errorf("instance %d: id %v appears twice", n, x.ID)
				}
				byID[x.ID] = x
			}
			if want := len(acks) + 1; len(all) != want { // + the loop's task
				t.Errorf("instance %d: %d tasks stored, want %d", n, len(all), want)
			}
			last := map[string]task.ID{}
			for _, a := range acks {
				if got, ok := byID[a.id]; !ok || got.Title != a.title {
					t.Errorf("instance %d: acknowledged task %v %q is %+v", n, a.id, a.title, got)
				}
				last[a.agent] = a.id
			}
			for agent, want := range last {
				if fs, err := tx.Focuses(ctx); err != nil || fs[agent] != want {
					t.Errorf("instance %d: %s's focus is %v (%v), want its last task %v", n, agent, fs[agent], err, want)
				}
			}
			// Siblings under each parent have distinct positions.
			type slot struct {
				parent task.ID
				pos    int
			}
			seen := map[slot]task.ID{}
			for _, x := range all {
				k := slot{x.ParentID, x.Position}
				if other, dup := seen[k]; dup {
					t.Errorf("instance %d: tasks %v and %v share position %d under %v", n, other, x.ID, x.Position, x.ParentID)
				}
				seen[k] = x.ID
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := in.svc.Loops.Get(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		if got.State.Iteration != records || records != 2*writers*rounds {
			t.Errorf("instance %d: the loop counted %d iterations; %d were acknowledged (of %d)", n, got.State.Iteration, records, 2*writers*rounds)
		}
		_, h, err := in.svc.Loops.Status(ctx, lp.ID.String(), loops.StatusQuery{History: true, Page: page.Page{Limit: 1}})
		total := h.Total
		if err != nil || total != records+1 { // + its start
			t.Errorf("instance %d: loop history has %d events (%v), want %d", n, total, err, records+1)
		}
	}
}

// TestPostgresTwoServeProcesses: two real `cairn serve` processes with
// CAIRN_DATABASE_URL on one project, eight concurrent tool callers each.
// What one process acknowledges, the other serves; nothing is lost. A
// memory entry recorded through one is found by a search through the other.
func TestPostgresTwoServeProcesses(t *testing.T) {
	url := pgtest.URL(t)
	project := pgtest.Project(t)
	env := []string{"CAIRN_DATABASE_URL=" + url, "CAIRN_PROJECT=" + project}
	procs := []*cairntest.Server{
		cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: allToolsets, Env: env}),
		cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: allToolsets, Env: env}),
	}
	lp := procs[0].OK("loop_start", args{"objective": "shared", "completion_criteria": "all recorded", "max_iterations": 10000})
	id := lp.Str("id")

	const writers, rounds = 8, 4
	var (
		mu     sync.Mutex
		titles = map[string]bool{}
		errs   []error
		wg     sync.WaitGroup
	)
	for p, s := range procs {
		for w := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range rounds {
					title := fmt.Sprintf("p%d w%d r%d", p, w, r)
					res, err := s.CallErr("create_task", args{"title": title})
					if err == nil && res.IsError {
						err = fmt.Errorf("tool error: %s", res.Text)
					}
					if err == nil {
						res, err = s.CallErr("loop_record", args{"id": id, "last_action": title})
						if err == nil && res.IsError {
							err = fmt.Errorf("tool error: %s", res.Text)
						}
					}
					mu.Lock()
					if err != nil {
						errs = append(errs, fmt.Errorf("%s: %w", title, err))
					} else {
						titles[title] = true
					}
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d calls failed; first: %v", len(errs), errs[0])
	}
	d := procs[0].OK("memory_add_decision", args{"title": "Team mode keeps memory in PostgreSQL", "rationale": "every process sees one memory"})
	hits, _ := procs[1].OK("memory_search", args{"query": "postgresql memory"}).Structured["hits"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["id"] != d.Str("id") {
		t.Errorf("search through the other process = %v; want the decision %s", hits, d.Str("id"))
	}
	for n, s := range procs {
		st := s.OK("loop_status", args{"id": id})
		if st.Structured["iteration"] != float64(len(titles)) {
			t.Errorf("process %d: loop iteration %v, want %d", n, st.Structured["iteration"], len(titles))
		}
		var ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
		err := func() error {
			defer cancel()
			got := map[string]bool{}
			for offset := 0; ; {
				page := s.OK("get_tasks", args{"offset": offset, "limit": 50})
				tasks, _ := page.Structured["tasks"].([]any)
				for _, x := range tasks {
					m, _ := x.(map[string]any)
					title, _ := m["title"].(string)
					got[title] = true
				}
				offset += len(tasks)
				if len(tasks) == 0 || ctx.Err() != nil {
					break
				}
			}
			for title := range titles {
				if !got[title] {
					return fmt.Errorf("process %d does not list acknowledged task %q", n, title)
				}
			}
			return nil
		}()
		if err != nil {
			t.Error(err)
		}
	}
}

// TestHooksOnPostgres: the hooks serve a team project on PostgreSQL as they
// serve a SQLite one: session-start reads the shared plan and memory,
// user-prompt-submit finds a decision another process recorded, a failed
// command becomes a mistake candidate the server finds, and session-end
// ends the session the tools see (partial: a command failed).
func TestHooksOnPostgres(t *testing.T) {
	env := []string{"CAIRN_DATABASE_URL=" + pgtest.URL(t), "CAIRN_PROJECT=" + pgtest.Project(t)}
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--agent", "claude-code"}, Env: env})
	s.OK("memory_add_decision", args{"title": "The ledger database runs SQLite in WAL mode",
		"rationale": "readers never block the writer; journal settings are in store.Open"})
	s.OK("create_task", args{"title": "Post ledger entries in batches"})
	hook := func(event, fixture string) hookRun {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", "hooks", fixture+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return runHookEnv(t, dir, env, bytes.ReplaceAll(b, []byte("{{CWD}}"), []byte(dir)), event)
	}

	r := hook("session-start", "session-start-startup")
	if r.stderr != "" || !strings.Contains(r.stdout, "Post ledger entries in batches") || !strings.Contains(r.stdout, "- s1 open since") {
		t.Fatalf("session-start on PostgreSQL, stderr %q:\n%s", r.stderr, r.stdout)
	}
	if r := hook("user-prompt-submit", "user-prompt-submit-match"); !strings.Contains(r.stdout, "The ledger database runs SQLite in WAL mode") {
		t.Errorf("user-prompt-submit on PostgreSQL: %q (stderr %q)", r.stdout, r.stderr)
	}
	if r := hook("post-tool-use", "post-tool-use-failure-bash"); r.stdout != "" || r.stderr != "" {
		t.Errorf("post-tool-use printed %q, stderr %q", r.stdout, r.stderr)
	}
	if cand := s.OK("memory_search", args{"tag": "mistake-candidate"}); !strings.Contains(cand.Text, "Failed: ") || strings.Contains(cand.Text, "hunter2") {
		t.Errorf("the server does not see the hook's mistake candidate: %s", cand.Text)
	}
	hook("session-end", "session-end-prompt_input_exit")
	if sess := s.OK("session", args{"action": "get", "session_id": "s1"}); !strings.Contains(sess.Text, "s1 failed") || !strings.Contains(sess.Text, "\nended ") {
		t.Errorf("session after session-end on PostgreSQL: %s", sess.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, ".cairn", "cairn.db")); err == nil {
		t.Error("the hooks opened a SQLite store beside the PostgreSQL one")
	}
}
