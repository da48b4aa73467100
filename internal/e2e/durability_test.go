package e2e

// Fault tests: the real binary killed with SIGKILL in the middle of writes and
// in the middle of creating a new store, and several servers writing to one
// project at once. What a client was told is done must be there afterwards,
// and the store must always open and work.
//
// Randomness only decides where a kill lands; the workloads themselves are
// seeded and every possible outcome of a kill is checked. The kill seed is
// logged (and can be pinned with CAIRN_KILL_SEED) to replay a failure.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// ---------------------------------------------------------------------------
// Reading a store back through the tools.

// row is one task as get_stack_overview lists it.
type row struct {
	ID, Parent, Status, Title string
	Depth                     int
}

func str(v any) string { s, _ := v.(string); return s }

func num(v any) int { f, _ := v.(float64); return int(f) }

// outline pages through get_stack_overview and returns every visible task by
// id and the current task ("" in zen). It checks what a consistent store must
// show: ids unique, the count equal to the rows, every parent present one
// level up, and exactly the current task marked current.
func outline(t *testing.T, s *cairntest.Server) (map[string]row, string) {
	t.Helper()
	rows := map[string]row{}
	cur, total, offset := "", -1, 0
	for page := 0; ; page++ {
		r := s.OK("get_stack_overview", args{"offset": offset, "limit": 37})
		n := num(r.Structured["count"])
		c := str(r.Structured["current_task_id"])
		if page == 0 {
			total, cur = n, c
		} else if n != total || c != cur {
			t.Fatalf("overview changed between pages: count %d→%d, current %q→%q", total, n, cur, c)
		}
		tasks, _ := r.Structured["tasks"].([]any)
		for _, x := range tasks {
			m := x.(map[string]any)
			rw := row{ID: str(m["task_id"]), Parent: str(m["parent_id"]), Status: str(m["status"]),
				Title: str(m["title"]), Depth: num(m["depth"])}
			if _, dup := rows[rw.ID]; dup {
				t.Fatalf("task %s listed twice in the overview", rw.ID)
			}
			rows[rw.ID] = rw
		}
		next := num(r.Structured["next_offset"])
		if next == 0 {
			break
		}
		if next <= offset {
			t.Fatalf("overview paging does not advance: offset %d, next %d", offset, next)
		}
		offset = next
	}
	if len(rows) != total {
		t.Fatalf("overview count %d, but %d rows", total, len(rows))
	}
	marked := 0
	for _, rw := range rows {
		if rw.Parent == "" {
			if rw.Depth != 1 {
				t.Fatalf("root task %s at depth %d", rw.ID, rw.Depth)
			}
		} else if p, ok := rows[rw.Parent]; !ok {
			t.Fatalf("task %s has parent %s, which is not in the overview", rw.ID, rw.Parent)
		} else if rw.Depth != p.Depth+1 {
			t.Fatalf("task %s at depth %d under %s at depth %d", rw.ID, rw.Depth, p.ID, p.Depth)
		}
		if rw.Status == "current" {
			marked++
			if rw.ID != cur {
				t.Fatalf("task %s is marked current, but current_task_id is %q", rw.ID, cur)
			}
		}
	}
	if (cur != "") != (marked == 1) || marked > 1 {
		t.Fatalf("current_task_id %q, %d rows marked current", cur, marked)
	}
	// The focused view agrees with the overview.
	g := s.OK("get_current_task", args{})
	if cur == "" && g.Structured["zen"] != true || cur != "" && g.Str("task_id") != cur {
		t.Fatalf("get_current_task %v disagrees with the overview's current %q", g.Structured, cur)
	}
	return rows, cur
}

// archived is one entry of the completion archive as get_completed_tasks lists it.
type archived struct {
	ID, Title, Body string
	Clipped         bool
}

// archive pages through get_completed_tasks in chronological order.
func archive(t *testing.T, s *cairntest.Server) []archived {
	t.Helper()
	var out []archived
	total, offset := -1, 0
	for {
		r := s.OK("get_completed_tasks", args{"offset": offset, "limit": 23})
		if n := num(r.Structured["count"]); total < 0 {
			total = n
		} else if n != total {
			t.Fatalf("archive count changed between pages: %d→%d", total, n)
		}
		for _, x := range r.Structured["tasks"].([]any) {
			m := x.(map[string]any)
			out = append(out, archived{ID: str(m["task_id"]), Title: str(m["title"]), Body: str(m["body"]),
				Clipped: m["body_truncated"] == true})
		}
		next := num(r.Structured["next_offset"])
		if next == 0 {
			break
		}
		offset = next
	}
	if len(out) != total {
		t.Fatalf("archive count %d, but %d entries", total, len(out))
	}
	return out
}

// previewMatches says whether a body as get_completed_tasks shows it
// (clipped after 500 bytes) is body. The test bodies are ASCII, so the clip
// is at byte 500; a body is its tag repeated, so the first 500 bytes tell
// the bodies written apart.
func previewMatches(a archived, body string) bool {
	const n = 500
	if len(body) <= n {
		return !a.Clipped && a.Body == body
	}
	return a.Clipped && a.Body == body[:n]+"…"
}

// openBody switches s's focus to the open task id and returns its title and
// full body.
func openBody(t *testing.T, s *cairntest.Server, id string) (title, body string) {
	t.Helper()
	s.OK("switch_focus", args{"task_id": id})
	r := s.OK("get_current_task", args{})
	if r.Str("task_id") != id {
		t.Fatalf("after switch_focus %s, current task is %v", id, r.Structured["task_id"])
	}
	return r.Str("title"), r.Str("body")
}

// probeWritable shows a store takes a write and reads it back: a new task,
// its completion and the archive entry.
func probeWritable(t *testing.T, s *cairntest.Server, title string) {
	t.Helper()
	before, _ := outline(t, s)
	done := len(archive(t, s))
	s.OK("create_new_task", args{"title": title, "body": "probe body"})
	if r := s.OK("get_current_task", args{}); r.Str("title") != title || r.Str("body") != "probe body" {
		t.Fatalf("probe write not read back: %v", r.Structured)
	}
	s.OK("complete_current_task", args{})
	after, _ := outline(t, s)
	if len(after) != len(before)+1 {
		t.Fatalf("probe: %d tasks before, %d after", len(before), len(after))
	}
	a := archive(t, s)
	if len(a) != done+1 || a[len(a)-1].Title != title {
		t.Fatalf("probe completion not archived: %d entries before, %v now", done, a)
	}
}

// noErrors fails if a server logged an error (the store failed to open, a call
// failed inside) or SQLite reported a lock. Lazy opening retries on the next
// call, so a failed background open would otherwise go unseen.
func noErrors(t *testing.T, who, log string) {
	t.Helper()
	for _, bad := range []string{"level=ERROR", "database is locked", "SQLITE_BUSY", "SQLITE_LOCKED"} {
		if strings.Contains(log, bad) {
			t.Errorf("%s logged %q:\n%s", who, bad, log)
			return
		}
	}
}

// body makes a unique, self-describing body of roughly size bytes: tag, then
// tag repeated, so every byte of it can be checked.
func body(tag string, size int) string {
	if size <= len(tag) {
		return tag
	}
	b := strings.Repeat(tag+"|", size/(len(tag)+1)+1)
	return b[:size]
}

// bodySize draws a body size: mostly small, some over the 2000-byte list
// preview, some large enough that one commit spans many pages. A heavy
// workload's large bodies are larger still, so that the WAL often passes its
// 1000-page checkpoint threshold within a round and a kill can land in or
// after a checkpoint.
func bodySize(rng *rand.Rand, heavy bool) int {
	switch x := rng.IntN(20); {
	case x < 2:
		return 0
	case x < 13:
		return 20 + rng.IntN(1500)
	case x < 18:
		return 3000 + rng.IntN(30000)
	case heavy:
		return 300<<10 + rng.IntN(400<<10)
	default:
		return 64<<10 + rng.IntN(128<<10)
	}
}

// ---------------------------------------------------------------------------
// 1. SIGKILL during a stream of writes.

type opKind int

const (
	opCreate opKind = iota
	opExtend
	opUpdate
	opComplete
)

var opTool = [...]string{"create_new_task", "extend_current_task", "update_current_task", "complete_current_task"}

// op is one write call.
type op struct {
	kind        opKind
	title, body string
	before      string // the current task when it was sent; "" in zen
}

func (o op) args() args {
	switch o.kind {
	case opCreate, opExtend:
		return args{"title": o.title, "body": o.body}
	case opUpdate:
		return args{"body": o.body}
	}
	return args{}
}

type mtask struct {
	id, title, parent, body string
	done                    bool
	archived                string // the body at completion
}

// model is what one agent's acknowledged writes say the store holds. A single
// agent's writes are sequential and every response says where focus went, so
// the model is exact up to the one call in flight when the kill lands.
type model struct {
	tasks     map[string]*mtask
	order     []string // creation order
	completed []string // completion order
	current   string   // "" in zen, which for one agent means nothing is open
}

func newModel() *model { return &model{tasks: map[string]*mtask{}} }

func (m *model) depth(id string) int {
	d := 0
	for ; id != ""; id = m.tasks[id].parent {
		d++
	}
	return d
}

func (m *model) hasOpenChildren(id string) bool {
	for _, x := range m.tasks {
		if x.parent == id && !x.done {
			return true
		}
	}
	return false
}

func (m *model) open() []string {
	var ids []string
	for _, id := range m.order {
		if !m.tasks[id].done {
			ids = append(ids, id)
		}
	}
	return ids
}

// next draws the next write from the seeded workload; every write it draws is
// valid in the model's state, so any tool error is a failure.
func (m *model) next(rng *rand.Rand, tag string, heavy bool) op {
	o := op{before: m.current, title: tag, body: body(tag, bodySize(rng, heavy))}
	if m.current == "" {
		o.kind = opCreate
		return o
	}
	switch x := rng.IntN(100); {
	case x < 28 && m.depth(m.current) < 5:
		o.kind = opCreate
	case x < 55:
		o.kind = opExtend
	case x < 75:
		o.kind = opUpdate
	case !m.hasOpenChildren(m.current):
		o.kind = opComplete
	default:
		o.kind = opUpdate
	}
	return o
}

// wantParent is where a create or extend sent now puts its task.
func (m *model) wantParent(o op) string {
	if o.kind == opCreate {
		return o.before
	}
	return m.tasks[o.before].parent
}

// ack applies an acknowledged write, checking the response against the model.
func (m *model) ack(t *testing.T, o op, r cairntest.Result) {
	t.Helper()
	if r.IsError {
		t.Fatalf("%s: unexpected tool error: %s", opTool[o.kind], r.Text)
	}
	switch o.kind {
	case opCreate, opExtend:
		id := r.Str("task_id")
		if _, dup := m.tasks[id]; id == "" || dup {
			t.Fatalf("%s returned task id %q, new expected: %v", opTool[o.kind], id, r.Structured)
		}
		if got, want := r.Str("parent_id"), m.wantParent(o); got != want {
			t.Fatalf("%s put %s under %q, want %q", opTool[o.kind], id, got, want)
		}
		m.tasks[id] = &mtask{id: id, title: o.title, parent: m.wantParent(o), body: o.body}
		m.order = append(m.order, id)
		m.current = id
	case opUpdate:
		if id := r.Str("task_id"); id != o.before {
			t.Fatalf("update_current_task updated %s, current was %s", id, o.before)
		}
		m.tasks[o.before].body = o.body
	case opComplete:
		if id := r.Str("task_id"); id != o.before {
			t.Fatalf("complete_current_task completed %s, current was %s", id, o.before)
		}
		x := m.tasks[o.before]
		x.done, x.archived = true, x.body
		m.completed = append(m.completed, x.id)
		m.current = r.Str("current_task_id")
		if (m.current == "") != (r.Structured["zen"] == true) {
			t.Fatalf("complete_current_task: current %q but zen=%v", m.current, r.Structured["zen"])
		}
		if m.current != "" && (m.tasks[m.current] == nil || m.tasks[m.current].done) {
			t.Fatalf("complete_current_task moved focus to %s, which is not an open task", m.current)
		}
		if m.current == "" && len(m.open()) > 0 {
			t.Fatalf("complete_current_task went to zen with open tasks %v", m.open())
		}
	}
}

// writeUntilKilled sends the workload's writes one after another and SIGKILLs
// the server after killAfter acknowledgements plus delay, wherever that finds
// the server: reading a request, inside a commit or a checkpoint, writing the
// response. It returns the call that was in flight, which may or may not have
// happened; every earlier call was acknowledged and is in the model.
func writeUntilKilled(t *testing.T, s *cairntest.Server, m *model, rng *rand.Rand, heavy bool, prefix string,
	killAfter int, delay time.Duration) (inDoubt op, acks int) {
	t.Helper()
	var killed atomic.Bool
	trigger, stop := make(chan struct{}), make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-trigger:
		case <-stop:
			return
		}
		if delay > 0 {
			time.Sleep(delay) // the moment of the kill is what the test varies
		}
		killed.Store(true)
		s.Kill()
	}()
	for i := 0; ; i++ {
		if i > killAfter+10000 {
			t.Fatalf("the server was not killed after %d calls", i)
		}
		o := m.next(rng, fmt.Sprintf("%s-op%d", prefix, i), heavy)
		r, err := s.CallErr(opTool[o.kind], o.args())
		if err != nil {
			if !killed.Load() {
				t.Fatalf("%s before the kill: %v\nstderr: %s", opTool[o.kind], err, s.Log())
			}
			return o, acks
		}
		m.ack(t, o, r)
		if acks++; acks == killAfter {
			close(trigger)
		}
	}
}

// verifyAfterKill checks a restarted server against the model and the one
// write in doubt: every acknowledged write is there, the write in doubt
// happened entirely or not at all, nothing else appeared, focus is valid. It
// then folds the write in doubt into the model, as the store decided it, and
// leaves s focused where the model says.
func verifyAfterKill(t *testing.T, s *cairntest.Server, m *model, o op) (landed bool) {
	t.Helper()
	rows, cur := outline(t, s)

	// Tasks: every acknowledged one with its title and parent; at most one
	// more, and only if the write in doubt was a create or extend.
	var extra []row
	for id, rw := range rows {
		if m.tasks[id] == nil {
			extra = append(extra, rw)
		}
	}
	for _, id := range m.order {
		x := m.tasks[id]
		rw, ok := rows[id]
		if !ok {
			t.Fatalf("LOST acknowledged task %s %q (%d tasks acknowledged, %d in the store)", id, x.title, len(m.order), len(rows))
		}
		if rw.Title != x.title || rw.Parent != x.parent {
			t.Fatalf("task %s is %q under %q, acknowledged as %q under %q", id, rw.Title, rw.Parent, x.title, x.parent)
		}
		closed := rw.Status == "completed"
		switch {
		case x.done && !closed:
			t.Fatalf("LOST acknowledged completion of %s: status %s", id, rw.Status)
		case !x.done && closed:
			if o.kind != opComplete || o.before != id {
				t.Fatalf("task %s completed, but no completion of it was sent", id)
			}
			landed = true
		}
	}
	if len(extra) > 0 {
		if len(extra) > 1 || (o.kind != opCreate && o.kind != opExtend) {
			t.Fatalf("unexpected tasks after the kill: %v (write in doubt: %s)", extra, opTool[o.kind])
		}
		e := extra[0]
		if e.Title != o.title || e.Parent != m.wantParent(o) || e.Status == "completed" {
			t.Fatalf("the write in doubt landed wrong: %+v, sent %q under %q", e, o.title, m.wantParent(o))
		}
		landed = true
	}

	// Focus: where the last acknowledged write left it, or where the write in
	// doubt moved it.
	switch {
	case !landed || o.kind == opUpdate:
		if cur != m.current {
			t.Fatalf("current task %q after restart, acknowledged %q", cur, m.current)
		}
	case o.kind == opCreate || o.kind == opExtend:
		if cur != extra[0].ID {
			t.Fatalf("the create in doubt landed as %s but current is %q", extra[0].ID, cur)
		}
	case o.kind == opComplete:
		open := 0
		for _, rw := range rows {
			if rw.Status != "completed" {
				open++
			}
		}
		if (cur == "") != (open == 0) {
			t.Fatalf("after the completion in doubt: current %q with %d open tasks", cur, open)
		}
	}

	// The archive: every acknowledged completion in order with the body it
	// had, then the one in doubt if it landed.
	a := archive(t, s)
	want := slices.Clone(m.completed)
	if landed && o.kind == opComplete {
		want = append(want, o.before)
	}
	if len(a) != len(want) {
		t.Fatalf("archive has %d entries, want %d (%d acknowledged)", len(a), len(want), len(m.completed))
	}
	for i, id := range want {
		x := m.tasks[id]
		b := x.archived
		if !x.done {
			b = x.body
		}
		if a[i].ID != id || a[i].Title != x.title || !previewMatches(a[i], b) {
			t.Fatalf("archive entry %d is %s %q (body %.40q…), want %s %q (body %.40q…)", i, a[i].ID, a[i].Title, a[i].Body, id, x.title, b)
		}
	}

	// Bodies of open tasks, in full.
	updated := false
	for _, id := range m.order {
		x := m.tasks[id]
		if x.done || rows[id].Status == "completed" {
			continue
		}
		title, b := openBody(t, s, id)
		switch {
		case title != x.title:
			t.Fatalf("task %s title %q, want %q", id, title, x.title)
		case b == x.body:
		case o.kind == opUpdate && o.before == id && b == o.body:
			updated = true
		default:
			t.Fatalf("task %s body is %d bytes %.40q…, acknowledged %d bytes %.40q…", id, len(b), b, len(x.body), x.body)
		}
	}
	if len(extra) == 1 {
		if _, b := openBody(t, s, extra[0].ID); b != o.body {
			t.Fatalf("the create in doubt landed with body %.40q…, sent %.40q…", b, o.body)
		}
	}
	landed = landed || updated

	// Fold the outcome into the model.
	if landed {
		switch o.kind {
		case opCreate, opExtend:
			id := extra[0].ID
			m.tasks[id] = &mtask{id: id, title: o.title, parent: m.wantParent(o), body: o.body}
			m.order = append(m.order, id)
			m.current = id
		case opUpdate:
			m.tasks[o.before].body = o.body
		case opComplete:
			x := m.tasks[o.before]
			x.done, x.archived = true, x.body
			m.completed = append(m.completed, x.id)
			m.current = cur
		}
	}
	if m.current != "" {
		s.OK("switch_focus", args{"task_id": m.current})
	}
	return landed
}

// TestKillDuringWrites SIGKILLs `cairn serve` at a random point of a stream of
// writes, restarts it on the same project and checks every acknowledged write
// is there; twice per project, the second time on the recovered store.
func TestKillDuringWrites(t *testing.T) {
	t.Parallel()
	seed := cairntest.KillSeed(t)
	const rounds, cycles = 6, 2
	for round := range rounds {
		syncMode := []string{"normal", "full"}[round%2]
		heavy := round == 0
		t.Run(fmt.Sprintf("round%d-sync-%s-heavy-%v", round, syncMode, heavy), func(t *testing.T) {
			t.Parallel()
			work := rand.New(rand.NewPCG(uint64(round), 1)) // the workload: fixed
			kill := rand.New(rand.NewPCG(seed, uint64(round)))
			dir := cairntest.Project(t)
			opts := cairntest.Options{Dir: dir, Args: []string{"--sync", syncMode}}
			m := newModel()
			s := cairntest.Start(t, opts)
			for c := range cycles {
				killAfter := 1 + kill.IntN(30)
				delay := time.Duration(kill.IntN(1500)) * time.Microsecond
				o, acks := writeUntilKilled(t, s, m, work, heavy, fmt.Sprintf("r%dc%d", round, c), killAfter, delay)
				s.Close()
				state := cairntest.DBState(dir)
				s = cairntest.Start(t, opts)
				landed := verifyAfterKill(t, s, m, o)
				t.Logf("cycle %d: killed %v after ack %d during %s: landed=%v; %d tasks, %d completed, %d open; left %s",
					c, delay, acks, opTool[o.kind], landed, len(m.order), len(m.completed), len(m.open()), state)
			}
			probeWritable(t, s, "after the kills")
			noErrors(t, "the restarted server", s.Log())
		})
	}
}

// ---------------------------------------------------------------------------
// 2. SIGKILL during the first open of a new store.

// TestKillDuringFirstOpen kills `cairn serve` 0–50 ms after it starts on a
// project with no store yet, when it is creating the store in the background:
// before the file exists, while it enters WAL mode and migrates, or after.
// Whatever was left, the next server opens the store and works.
func TestKillDuringFirstOpen(t *testing.T) {
	t.Parallel()
	seed := cairntest.KillSeed(t)
	kill := rand.New(rand.NewPCG(seed, 2))
	const points = 18
	for i := range points {
		// Spread over 0–50 ms, jittered so repeated runs probe other instants.
		delay := time.Duration(i)*50*time.Millisecond/(points-1) + time.Duration(kill.IntN(1000))*time.Microsecond
		again := time.Duration(kill.IntN(30)) * time.Millisecond
		t.Run(fmt.Sprintf("at-%v", delay.Round(100*time.Microsecond)), func(t *testing.T) {
			var dir string
			switch i % 3 {
			case 0: // a git checkout: .cairn itself is created by the server
				dir = t.TempDir()
				if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
					t.Fatal(err)
				}
			default:
				dir = cairntest.Project(t)
			}
			p := cairntest.Spawn(t, cairntest.Options{Dir: dir})
			time.Sleep(delay) // the moment of the kill, in the start, is what the test varies
			p.Kill()
			state := cairntest.DBState(dir)
			if i%3 == 2 { // and kill the next open too, while it recovers what was left
				p2 := cairntest.Spawn(t, cairntest.Options{Dir: dir})
				time.Sleep(again) // as above, in the recovery
				p2.Kill()
				state += fmt.Sprintf("; killed again at %v: %s", again, cairntest.DBState(dir))
			}
			t.Logf("killed at %v: %s", delay, state)

			s := cairntest.Start(t, cairntest.Options{Dir: dir})
			if rows, cur := outline(t, s); len(rows) != 0 || cur != "" {
				t.Fatalf("a new store has tasks: %v", rows)
			}
			probeWritable(t, s, "first task")
			noErrors(t, "the server after the kill", s.Log())
		})
	}
}

// TestKillDuringFirstWrite kills a server on a new project while its first
// write is in flight, racing the store's creation: an acknowledged write must
// be there, one in doubt whole or not at all.
func TestKillDuringFirstWrite(t *testing.T) {
	t.Parallel()
	seed := cairntest.KillSeed(t)
	kill := rand.New(rand.NewPCG(seed, 3))
	for i := range 10 {
		delay := time.Duration(kill.IntN(6000)) * time.Microsecond
		size := []int{10, 5000, 400 << 10}[i%3]
		t.Run(fmt.Sprintf("%d-at-%v", i, delay), func(t *testing.T) {
			t.Parallel()
			dir := cairntest.Project(t)
			s := cairntest.Start(t, cairntest.Options{Dir: dir})
			o := op{kind: opCreate, title: fmt.Sprintf("first write %d", i), body: body(fmt.Sprintf("first%d", i), size)}
			type result struct {
				r   cairntest.Result
				err error
			}
			done := make(chan result, 1)
			go func() {
				r, err := s.CallErr(opTool[o.kind], o.args())
				done <- result{r, err}
			}()
			time.Sleep(delay) // the moment of the kill, in the call, is what the test varies
			s.Kill()
			res := <-done
			s.Close()

			m := newModel()
			if res.err == nil {
				m.ack(t, o, res.r)
			}
			s = cairntest.Start(t, cairntest.Options{Dir: dir})
			landed := verifyAfterKill(t, s, m, o)
			t.Logf("killed at %v: acknowledged=%v, in store=%v (%s)", delay, res.err == nil, landed || res.err == nil, cairntest.DBState(dir))
			probeWritable(t, s, "after the kill")
			noErrors(t, "the restarted server", s.Log())
		})
	}
}

// ---------------------------------------------------------------------------
// 3. Several servers on one project at once.

// tally is what one client was told by its server.
type tally struct {
	creates   map[string]mtask    // id → title and body as created
	updates   map[string][]string // id → bodies written by acknowledged updates
	completes []string
	refused   map[string]int // tool errors the concurrency explains: zen, open_children
	failures  []string       // everything else: protocol errors, busy, internal
}

// hammer sends n writes through s as fast as it answers. Another server may
// move the shared focus (or complete the task this agent's focus points at),
// so a zen or open_children refusal is a legitimate answer; anything else is
// a failure.
func hammer(s *cairntest.Server, name string, n int, seed uint64) *tally {
	rng := rand.New(rand.NewPCG(seed, 4))
	tl := &tally{creates: map[string]mtask{}, updates: map[string][]string{}, refused: map[string]int{}}
	for i := range n {
		tag := fmt.Sprintf("%s-w%d", name, i)
		o := op{title: tag, body: body(tag, min(bodySize(rng, false), 40<<10))}
		switch x := rng.IntN(100); {
		case x < 35 || i == 0:
			o.kind = opCreate
		case x < 60:
			o.kind = opExtend
		case x < 80:
			o.kind = opUpdate
		default:
			o.kind = opComplete
		}
		r, err := s.CallErr(opTool[o.kind], o.args())
		if err != nil {
			tl.failures = append(tl.failures, fmt.Sprintf("%s %s: %v", tag, opTool[o.kind], err))
			continue
		}
		if r.IsError {
			switch reason := str(r.Structured["reason"]); reason {
			case "zen", "open_children":
				tl.refused[reason]++
			default:
				tl.failures = append(tl.failures, fmt.Sprintf("%s %s: %s", tag, opTool[o.kind], r.Text))
			}
			continue
		}
		id := r.Str("task_id")
		switch o.kind {
		case opCreate, opExtend:
			tl.creates[id] = mtask{id: id, title: o.title, body: o.body}
		case opUpdate:
			tl.updates[id] = append(tl.updates[id], o.body)
		case opComplete:
			tl.completes = append(tl.completes, id)
		}
	}
	return tl
}

// runConcurrently starts len(agents) servers on dir at once (an empty agent
// means the default one) and has each send n writes at once, then checks the
// store: every acknowledged create exactly once, ids unique, counts equal to
// what was acknowledged, the archive exactly the acknowledged completions,
// every body one that was written to that task, and no call or open failed.
func runConcurrently(t *testing.T, dir string, agents []string, n int, seed uint64) {
	t.Helper()
	cairntest.Binary(t) // build before the race, in this goroutine
	servers := make([]*cairntest.Server, len(agents))
	tallies := make([]*tally, len(agents))
	startErrs := make([]error, len(agents))
	var ready, wg sync.WaitGroup
	gate := make(chan struct{})
	ready.Add(len(agents))
	for i, agent := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := cairntest.Options{Dir: dir}
			if agent != "" {
				o.Args = []string{"--agent", agent}
			}
			ready.Done()
			<-gate // spawn together: on a new project, they race to create the store
			s, err := cairntest.StartErr(t.Context(), t, o)
			if err != nil {
				startErrs[i] = err
				return
			}
			servers[i] = s
			tallies[i] = hammer(s, fmt.Sprintf("s%d", i), n, seed+uint64(i))
		}()
	}
	ready.Wait()
	close(gate)
	wg.Wait()
	for i, s := range servers {
		if s != nil {
			s.Close()
			noErrors(t, fmt.Sprintf("server %d", i), s.Log())
		}
	}
	for i, err := range startErrs {
		if err != nil {
			t.Fatalf("server %d did not start: %v", i, err)
		}
	}

	all := &tally{creates: map[string]mtask{}, updates: map[string][]string{}, refused: map[string]int{}}
	for i, tl := range tallies {
		for _, f := range tl.failures {
			t.Errorf("server %d: a call failed: %s", i, f)
		}
		for id, c := range tl.creates {
			if _, dup := all.creates[id]; dup {
				t.Fatalf("task id %s was acknowledged to two creates", id)
			}
			all.creates[id] = c
		}
		for id, bs := range tl.updates {
			all.updates[id] = append(all.updates[id], bs...)
		}
		all.completes = append(all.completes, tl.completes...)
		for k, v := range tl.refused {
			all.refused[k] += v
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	v := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--agent", "verifier"}})
	rows, _ := outline(t, v)
	if len(rows) != len(all.creates) {
		t.Fatalf("the store has %d tasks, %d creates were acknowledged", len(rows), len(all.creates))
	}
	seen := map[string]bool{}
	for id, c := range all.creates {
		rw, ok := rows[id]
		if !ok {
			t.Fatalf("LOST acknowledged task %s %q", id, c.title)
		}
		if rw.Title != c.title {
			t.Fatalf("task %s is %q, acknowledged as %q", id, rw.Title, c.title)
		}
		if seen[rw.Title] {
			t.Fatalf("title %q appears twice", rw.Title)
		}
		seen[rw.Title] = true
	}
	for id := range all.updates {
		if _, ok := all.creates[id]; !ok {
			t.Fatalf("an update was acknowledged on task %s, which no create returned", id)
		}
	}
	allowed := func(id string) []string { return append([]string{all.creates[id].body}, all.updates[id]...) }

	a := archive(t, v)
	if len(a) != len(all.completes) {
		t.Fatalf("the archive has %d entries, %d completions were acknowledged", len(a), len(all.completes))
	}
	inArchive := map[string]bool{}
	for _, e := range a {
		if inArchive[e.ID] {
			t.Fatalf("task %s archived twice", e.ID)
		}
		inArchive[e.ID] = true
		c, ok := all.creates[e.ID]
		if !ok || e.Title != c.title || rows[e.ID].Status != "completed" {
			t.Fatalf("archive entry %+v does not match an acknowledged task (%+v, status %s)", e, c, rows[e.ID].Status)
		}
		if !slices.ContainsFunc(allowed(e.ID), func(b string) bool { return previewMatches(e, b) }) {
			t.Fatalf("task %s archived with a body never written to it: %.40q…", e.ID, e.Body)
		}
	}
	for _, id := range all.completes {
		if !inArchive[id] {
			t.Fatalf("LOST acknowledged completion of %s", id)
		}
	}
	for id, rw := range rows {
		if rw.Status == "completed" && !inArchive[id] {
			t.Fatalf("task %s is completed but not archived", id)
		}
		if rw.Status == "completed" {
			continue
		}
		if _, b := openBody(t, v, id); !slices.Contains(allowed(id), b) {
			t.Fatalf("task %s has a body never written to it: %.40q…", id, b)
		}
	}
	probeWritable(t, v, "after the race")
	noErrors(t, "the verifying server", v.Log())
	t.Logf("%d servers: %d tasks, %d completed, %d bodies updated, refusals %v", len(agents), len(rows), len(a), len(all.updates), all.refused)
}

// TestConcurrentServers runs four servers on one existing project, each
// writing at once, with four agents and with one shared default agent.
func TestConcurrentServers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		agents []string
	}{
		{"four-agents", []string{"a1", "a2", "a3", "a4"}},
		{"one-default-agent", []string{"", "", "", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := cairntest.Project(t)
			s := cairntest.Start(t, cairntest.Options{Dir: dir}) // the store exists before the race
			s.OK("get_stack_overview", args{})
			s.Close()
			runConcurrently(t, dir, c.agents, 40, 100)
		})
	}
}

// TestConcurrentFirstOpen starts four servers at once on a project with no
// store, so they race to create it and apply the migrations, and has each
// write at once.
func TestConcurrentFirstOpen(t *testing.T) {
	t.Parallel()
	for i := range 6 {
		agents := []string{"a1", "a2", "a3", "a4"}
		if i%2 == 1 {
			agents = []string{"", "", "", ""}
		}
		t.Run(fmt.Sprintf("%d", i), func(t *testing.T) {
			t.Parallel()
			dir := cairntest.Project(t)
			runConcurrently(t, dir, agents, 12, uint64(200+10*i))
		})
	}
}
