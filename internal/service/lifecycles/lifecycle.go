package lifecycles

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// Lifecycles walks tasks through the phases of a lifecycle definition: the
// built-ins, or a project's own from .cairn/lifecycles/*.yaml.
type Lifecycles struct {
	store store.Store
	dir   string // where the project's definitions are; "" for none
	now   func() time.Time

	mu     sync.Mutex
	parsed map[string]parsedFile // by file path: each file parsed once until it changes
}

// parsedFile is one definition file as last parsed, with what identified
// that version of it.
type parsedFile struct {
	size int64
	mod  time.Time
	def  lifecycle.Definition
	err  error
}

// Bounds on a project's definitions: every lifecycle call reads them, and
// 300 files of 250 KB made each call take 12 to 30 s and 724 MB.
const (
	maxDefinitionFiles = 64
	maxDefinitionBytes = 2 << 20 // all files together
)

// NewLifecycles returns the lifecycle service over s, reading custom
// definitions from dir (read on every call, so edits apply at once).
// now is the clock; nil is time.Now in UTC (a test fixes it).
func NewLifecycles(s store.Store, dir string, now func() time.Time) *Lifecycles {
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	return &Lifecycles{store: s, dir: dir, now: now}
}

// LifecycleDir is where a project keeps its lifecycle definitions.
func LifecycleDir(root string) string { return filepath.Join(root, ".cairn", "lifecycles") }

// Definitions are the definitions a project can use, and the files that
// could not be read.
type Definitions struct {
	List     []lifecycle.Definition // built-ins first, then the project's by name
	Problems []error                // lifecycle.Malformed refusals, one a file
}

// Definitions reads the built-in and project definitions.
func (l *Lifecycles) Definitions() (Definitions, error) {
	out := Definitions{List: lifecycle.Builtins()}
	if l.dir == "" {
		return out, nil
	}
	if fi, err := os.Lstat(l.dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		// Nothing follows a symlink out of the project: a committed link
		// would show an outside file's text to every client.
		out.Problems = append(out.Problems, lifecycle.Malformed(filepath.Join(".cairn", "lifecycles"), 0, "is a symbolic link, not read; make it a directory of the project"))
		return out, nil
	}
	files, err := filepath.Glob(filepath.Join(l.dir, "*.yaml"))
	if err != nil {
		return out, err
	}
	more, _ := filepath.Glob(filepath.Join(l.dir, "*.yml"))
	files = append(files, more...)
	sort.Strings(files)
	if len(files) > maxDefinitionFiles {
		out.Problems = append(out.Problems, lifecycle.Malformed(filepath.Join(".cairn", "lifecycles"), 0,
			fmt.Sprintf("holds %d definition files; the first %d by name are read", len(files), maxDefinitionFiles)))
		files = files[:maxDefinitionFiles]
	}
	var custom []lifecycle.Definition
	var total int64
	for _, f := range files {
		rel := filepath.Join(".cairn", "lifecycles", filepath.Base(f))
		fi, err := os.Lstat(f)
		if err != nil || !fi.Mode().IsRegular() {
			// Nothing follows a symlink out of the project.
			out.Problems = append(out.Problems, lifecycle.Malformed(rel, 0, "is not a regular file"))
			continue
		}
		if fi.Size() > lifecycle.MaxFileSize {
			out.Problems = append(out.Problems, lifecycle.Malformed(rel, 0, fmt.Sprintf("is %d bytes, over the limit of %d", fi.Size(), lifecycle.MaxFileSize)))
			continue
		}
		if total += fi.Size(); total > maxDefinitionBytes {
			out.Problems = append(out.Problems, lifecycle.Malformed(rel, 0, fmt.Sprintf("not read: the definitions before it hold %d bytes of the %d all may hold", total-fi.Size(), maxDefinitionBytes)))
			continue
		}
		d, err := l.parse(f, rel, fi)
		if err != nil {
			if _, ok := lifecycle.FileProblemOf(err); !ok {
				return out, err
			}
			out.Problems = append(out.Problems, err)
			continue
		}
		if out.find(d.Name) != nil || findDef(custom, d.Name) != nil {
			out.Problems = append(out.Problems, lifecycle.Malformed(rel, 1, fmt.Sprintf("name %s is already defined; choose another", d.Name)))
			continue
		}
		custom = append(custom, d)
	}
	sort.Slice(custom, func(i, j int) bool { return custom[i].Name < custom[j].Name })
	out.List = append(out.List, custom...)
	return out, nil
}

// parse returns the definition in file f (fi its Lstat), parsed once for
// each size and modification time it has had; a read failure is returned
// as is, a parse failure as the file's Malformed refusal.
func (l *Lifecycles) parse(f, rel string, fi os.FileInfo) (lifecycle.Definition, error) {
	l.mu.Lock()
	p, ok := l.parsed[f]
	l.mu.Unlock()
	if ok && p.size == fi.Size() && p.mod.Equal(fi.ModTime()) {
		return p.def, p.err
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return lifecycle.Definition{}, fmt.Errorf("read %s: %w", rel, err)
	}
	d, err := lifecycle.Parse(rel, b)
	l.mu.Lock()
	if l.parsed == nil {
		l.parsed = map[string]parsedFile{}
	}
	l.parsed[f] = parsedFile{size: fi.Size(), mod: fi.ModTime(), def: d, err: err}
	l.mu.Unlock()
	return d, err
}

func findDef(ds []lifecycle.Definition, name string) *lifecycle.Definition {
	for i := range ds {
		if ds[i].Name == name {
			return &ds[i]
		}
	}
	return nil
}

func (d Definitions) find(name string) *lifecycle.Definition { return findDef(d.List, name) }

// Definition returns the named definition (the default when name is
// empty). A name that matches a malformed file is refused with that file's
// lifecycle.Malformed refusal.
func (l *Lifecycles) Definition(name string) (lifecycle.Definition, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = lifecycle.DefaultName
	}
	ds, err := l.Definitions()
	if err != nil {
		return lifecycle.Definition{}, err
	}
	if d := ds.find(name); d != nil {
		return *d, nil
	}
	for _, p := range ds.Problems {
		if fp, ok := lifecycle.FileProblemOf(p); ok && strings.TrimSuffix(strings.TrimSuffix(filepath.Base(fp.File), ".yaml"), ".yml") == name {
			return lifecycle.Definition{}, p
		}
	}
	names := make([]string, len(ds.List))
	for i, d := range ds.List {
		names[i] = d.Name
	}
	fix := "use " + strings.Join(names, ", ") + ", or add .cairn/lifecycles/" + problem.Clip(name, 40) + ".yaml"
	if len(ds.Problems) > 0 {
		fix += fmt.Sprintf(" (%s malformed: %s)", words.Plural(len(ds.Problems), "definition file is", "definition files are"), problem.Clip(lifecycle.Where(ds.Problems[0]), 200))
	}
	return lifecycle.Definition{}, &problem.FieldError{Field: "definition", Problem: fmt.Sprintf("is %q, which is not defined", problem.Clip(name, 40)), Fix: fix}
}

// LifecycleView is one lifecycle as status shows it.
type LifecycleView struct {
	ID          int64
	Task        task.Task
	Definition  string
	Phase       string // "" once done
	PhaseNum    int    // 1-based; 0 once done
	Phases      int
	Status      string
	StartedAt   time.Time
	PhaseSince  time.Time
	TimeInPhase time.Duration
	Goal        string
	Met         []MetCriterion
	Missing     []MissingCriterion
	History     []lifecycle.Transition
	Durations   map[string]time.Duration
}

// MissingCriterion is an exit criterion without evidence that meets it,
// and the evidence it has if any: a gate's words, or a command that failed.
type MissingCriterion struct {
	lifecycle.Criterion
	Short *lifecycle.Evidence
}

// MetCriterion is an exit criterion with its evidence.
type MetCriterion struct {
	lifecycle.Criterion
	Evidence lifecycle.Evidence
}

func decodeState(l store.Lifecycle) (lifecycle.State, error) {
	var st lifecycle.State
	if len(l.State) > 0 {
		if err := json.Unmarshal(l.State, &st); err != nil {
			return lifecycle.State{}, fmt.Errorf("lifecycle %d: corrupt state: %w", l.ID, err)
		}
	}
	return st, nil
}

func (l *Lifecycles) view(ctx context.Context, tx store.Tx, r store.Lifecycle, now time.Time) (LifecycleView, error) {
	st, err := decodeState(r)
	if err != nil {
		return LifecycleView{}, err
	}
	t, err := store.Task(ctx, tx, r.TaskID)
	if err != nil {
		return LifecycleView{}, err
	}
	t.Body = ""
	v := LifecycleView{ID: r.ID, Task: t, Definition: r.Definition, Phase: r.Phase, Status: r.Status,
		StartedAt: r.StartedAt, PhaseSince: r.PhaseSince, History: st.History, Durations: lifecycle.Durations(st.History)}
	if r.Status != store.LifecycleOpen {
		v.Phase = ""
		return v, nil
	}
	v.TimeInPhase = now.Sub(r.PhaseSince)
	d, err := l.Definition(r.Definition)
	if err != nil {
		return v, nil // the definition went away: show what is stored
	}
	v.Phases = len(d.Phases)
	if i := d.Index(r.Phase); i >= 0 {
		p := d.Phases[i]
		v.PhaseNum, v.Goal = i+1, p.Goal
		ev := st.Evidence[p.Name]
		for _, c := range p.Exit {
			switch e, ok := ev[c.ID]; {
			case ok && e.Met(c):
				v.Met = append(v.Met, MetCriterion{Criterion: c, Evidence: e})
			case ok:
				v.Missing = append(v.Missing, MissingCriterion{Criterion: c, Short: &e})
			default:
				v.Missing = append(v.Missing, MissingCriterion{Criterion: c})
			}
		}
	}
	return v, nil
}

// parseLifecycleID reads a lifecycle id as a caller spells it ("3", "#3").
func parseLifecycleID(ref string) (int64, error) {
	id, err := strconv.ParseInt(strings.TrimPrefix(strings.TrimSpace(ref), "#"), 10, 64)
	if err != nil || id <= 0 {
		return 0, &problem.FieldError{Field: "id", Problem: "is " + problem.Quote(ref) + ", not a lifecycle id", Fix: "pass a lifecycle's number", Hint: problem.ListLifecycles}
	}
	return id, nil
}

func (l *Lifecycles) load(ctx context.Context, tx store.Tx, ref string) (store.Lifecycle, error) {
	id, err := parseLifecycleID(ref)
	if err != nil {
		return store.Lifecycle{}, err
	}
	r, ok, err := store.LifecycleByID(ctx, tx, id)
	if err != nil {
		return store.Lifecycle{}, err
	}
	if !ok {
		return store.Lifecycle{}, lifecycle.NotFound(id)
	}
	if _, err := store.Task(ctx, tx, r.TaskID); tasks.IsNotFound(err) {
		return store.Lifecycle{}, lifecycle.NotFound(id)
	}
	return r, nil
}

// LifecycleInit is what lifecycle_init takes.
type LifecycleInit struct {
	Task       string // the task (a story), "12" or "12.3"
	Definition string // empty: the default
}

// Init starts a lifecycle on the task r names, in its definition's first
// phase. A task has at most one open lifecycle.
func (l *Lifecycles) Init(ctx context.Context, r LifecycleInit) (LifecycleView, error) {
	ref, definition := r.Task, r.Definition
	if strings.TrimSpace(ref) == "" {
		return LifecycleView{}, &problem.FieldError{Field: "task_id", Problem: "is missing", Fix: "pass the task (a story) the lifecycle is for"}
	}
	d, err := l.Definition(definition)
	if err != nil {
		return LifecycleView{}, err
	}
	var v LifecycleView
	err = l.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, ref, "task_id")
		if err != nil {
			return err
		}
		if !t.Status.Open() {
			return &problem.Error{Kind: problem.Closed, Problem: fmt.Sprintf("task %s is %s", t.ID, t.Status), Fix: "use an open task"}
		}
		if m, err := tasks.LifecycleMarks(ctx, tx, []task.ID{t.ID}); err != nil {
			return err
		} else if open, ok := m[t.ID]; ok {
			return &problem.FieldError{Field: "task_id", Problem: fmt.Sprintf("names task %s, which has open lifecycle %d (%s, in %s)", t.ID, open.ID, open.Definition, open.Phase),
				Fix: "pass another task", Hint: problem.AdvanceOpen}
		}
		now := l.now()
		r := store.Lifecycle{TaskID: t.ID, Definition: d.Name, Phase: d.Phases[0].Name, Status: store.LifecycleOpen,
			StartedAt: now, PhaseSince: now, UpdatedAt: now, State: []byte(`{}`)}
		if r.ID, err = tx.PutLifecycle(ctx, r); err != nil {
			return err
		}
		v, err = l.view(ctx, tx, r, now)
		return err
	})
	if err != nil {
		return LifecycleView{}, fmt.Errorf("lifecycle init: %w", err)
	}
	return v, nil
}

// AdvanceRequest is what lifecycle_advance takes.
type AdvanceRequest struct {
	ID       string // the lifecycle, "3"
	Evidence map[string]string
	Checks   map[string]lifecycle.Check
	To       string
	Reason   string
	Hold     bool
}

// AdvanceResult is a phase change (or, with Hold, recorded evidence).
type AdvanceResult struct {
	From string
	// Stayed says an advance was asked for but criteria still lack
	// evidence: the evidence given is recorded, the phase is the same,
	// and Missing names what is left.
	Stayed bool
	LifecycleView
}

// MaxEvidence bounds how many entries one advance may carry.
const MaxEvidence = 50

// Advance moves a lifecycle by r (see lifecycle.Apply): on to the next phase
// when every exit criterion of the current one has evidence, back to an
// earlier one with a reason, or nowhere with Hold. A refused advance changes
// nothing and says what is missing.
func (l *Lifecycles) Advance(ctx context.Context, r AdvanceRequest) (AdvanceResult, error) {
	redact.Scrub(&r)
	if len(r.Evidence) > MaxEvidence || len(r.Checks) > MaxEvidence {
		return AdvanceResult{}, &problem.FieldError{Field: "evidence", Problem: fmt.Sprintf("has over %d entries", MaxEvidence), Fix: "give one entry per exit criterion"}
	}
	var res AdvanceResult
	err := l.store.Update(ctx, func(tx store.Tx) error {
		rec, err := l.load(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		if rec.Status != store.LifecycleOpen {
			return &problem.Error{Kind: problem.Closed, Problem: fmt.Sprintf("lifecycle %d is %s", rec.ID, rec.Status), Hint: problem.StartLifecycle}
		}
		d, err := l.Definition(rec.Definition)
		if err != nil {
			return err
		}
		st, err := decodeState(rec)
		if err != nil {
			return err
		}
		now := l.now()
		phase, next, err := lifecycle.Apply(d, rec.Phase, rec.PhaseSince, st, lifecycle.Step{Evidence: r.Evidence, Checks: r.Checks,
			To: strings.TrimSpace(r.To), Reason: r.Reason, Hold: r.Hold}, now)
		if err != nil {
			return err
		}
		b, err := json.Marshal(next)
		if err != nil {
			return err
		}
		res.From = rec.Phase
		if phase != rec.Phase || len(next.History) != len(st.History) {
			rec.PhaseSince = now
		} else if !r.Hold {
			res.Stayed = true
		}
		if phase == "" {
			rec.Status = store.LifecycleDone
		} else {
			rec.Phase = phase
		}
		rec.State, rec.UpdatedAt = b, now
		if _, err := tx.PutLifecycle(ctx, rec); err != nil {
			return err
		}
		if res.From != phase {
			to := phase
			if to == "" {
				to = "done"
			}
			id := strconv.FormatInt(rec.ID, 10)
			if err := tasks.Note(ctx, tx, memory.Event{Kind: memory.EventLifecycle, Key: id + ":" + res.From + ">" + to, Subject: "lifecycle " + id,
				Detail: res.From + " → " + to, At: now}); err != nil {
				return err
			}
		}
		res.LifecycleView, err = l.view(ctx, tx, rec, now)
		return err
	})
	if err != nil {
		return AdvanceResult{}, fmt.Errorf("lifecycle advance: %w", err)
	}
	return res, nil
}

// Status returns the lifecycle id names.
func (l *Lifecycles) Status(ctx context.Context, id string) (LifecycleView, error) {
	var v LifecycleView
	err := l.store.View(ctx, func(tx store.Tx) error {
		r, err := l.load(ctx, tx, id)
		if err != nil {
			return err
		}
		v, err = l.view(ctx, tx, r, l.now())
		return err
	})
	if err != nil {
		return LifecycleView{}, fmt.Errorf("lifecycle status: %w", err)
	}
	return v, nil
}

// LifecycleList is what lifecycle_list takes.
type LifecycleList struct {
	Status    string // open, done; empty: any
	Phase     string
	page.Page // page.Lifecycle's rule
}

// LifecyclesPage is a page of lifecycles: how many match in all and where
// the next page starts (zero: this is the last).
type LifecyclesPage struct {
	Items      []LifecycleItem
	Total      int
	Offset     int
	NextOffset int
}

// LifecycleItem is one line of lifecycle_list.
type LifecycleItem struct {
	ID         int64
	Task       task.Task
	Definition string
	Phase      string
	Status     string
	PhaseSince time.Time
	Loops      int // loop-backs so far
}

// LifecycleStatuses are the statuses a lifecycle can have.
var LifecycleStatuses = []string{store.LifecycleOpen, store.LifecycleDone}

// List returns a page of lifecycles, by id.
func (l *Lifecycles) List(ctx context.Context, q LifecycleList) (LifecyclesPage, error) {
	q.Status = strings.ToLower(strings.TrimSpace(q.Status))
	if q.Status != "" && !slices.Contains(LifecycleStatuses, q.Status) {
		return LifecyclesPage{}, &problem.FieldError{Field: "status", Problem: "is " + problem.Quote(q.Status), Fix: "use " + page.OneOf(LifecycleStatuses)}
	}
	pg, err := page.Lifecycle.Apply(q.Page)
	if err != nil {
		return LifecyclesPage{}, err
	}
	if len(q.Phase) > 40 {
		return LifecyclesPage{}, &problem.FieldError{Field: "phase", Problem: "is over 40 characters", Fix: "pass a phase name, e.g. TEST"}
	}
	out := LifecyclesPage{Offset: pg.Offset}
	err = l.store.View(ctx, func(tx store.Tx) error {
		rs, n, err := tx.Lifecycles(ctx, store.LifecycleQuery{Status: q.Status, Phase: strings.TrimSpace(q.Phase), Offset: pg.Offset, Limit: pg.Limit})
		if err != nil {
			return err
		}
		out.Total = n
		for _, r := range rs {
			t, err := store.Task(ctx, tx, r.TaskID)
			if err != nil {
				return err
			}
			t.Body = ""
			st, err := decodeState(r)
			if err != nil {
				return err
			}
			it := LifecycleItem{ID: r.ID, Task: t, Definition: r.Definition, Phase: r.Phase, Status: r.Status, PhaseSince: r.PhaseSince}
			for _, h := range st.History {
				if h.Back {
					it.Loops++
				}
			}
			out.Items = append(out.Items, it)
		}
		out.NextOffset = page.NextOffset(pg.Offset, len(out.Items), out.Total)
		return nil
	})
	if err != nil {
		return LifecyclesPage{}, fmt.Errorf("lifecycle list: %w", err)
	}
	return out, nil
}

// Marks returns every open lifecycle by task, for the big picture.
func (l *Lifecycles) Marks(ctx context.Context) (map[task.ID]tasks.LifecycleMark, error) {
	var m map[task.ID]tasks.LifecycleMark
	err := l.store.View(ctx, func(tx store.Tx) (err error) {
		m, err = tasks.LifecycleMarks(ctx, tx, nil)
		return err
	})
	return m, err
}
