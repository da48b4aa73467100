package evolution

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/store"
)

// Where the engine keeps its files, relative to the root.
const (
	LogFile      = ".cairn/evolution/log.jsonl"
	PendingFile  = ".cairn/evolution/pending.json"
	DraftsDir    = ".cairn/drafts"
	ManifestFile = ".cairn/drafts/manifest.json"
)

// Options configure the service.
type Options struct {
	Insight *insight.Service
	// Docs lists the project's knowledge documents; Routing names its
	// routing file ("" when it has none).
	Docs    func() []projectinfo.Doc
	Routing func() string
	Now     func() time.Time
}

// Service finds candidates in a project's history and applies, drafts,
// approves and reverts the changes they lead to.
type Service struct {
	root    string
	st      store.Store
	insight *insight.Service
	docs    func() []projectinfo.Doc
	routing func() string
	now     func() time.Time
	mu      sync.Mutex // one change at a time: the log and the manifest
}

// New returns the engine of the project at root over st.
func New(root string, st store.Store, o Options) *Service {
	if o.Now == nil {
		o.Now = func() time.Time { return time.Now().UTC() }
	}
	return &Service{root: root, st: st, insight: o.Insight, docs: o.Docs, routing: o.Routing, now: o.Now}
}

// Settings reads the [evolution] table now, so an edit of the config
// applies to the next analysis.
func (s *Service) Settings() (Settings, error) {
	if s.root == "" {
		return DefaultSettings(), nil
	}
	cfg, err := project.ReadConfig(s.root)
	if err != nil {
		return DefaultSettings(), err
	}
	return ReadSettings(cfg)
}

func (s *Service) needRoot() error {
	if s.root == "" {
		return problem.New(problem.NoProject, "the evolution engine writes into the project, and this server has no project root", problem.NoAction)
	}
	return nil
}

// Query selects what Analyze does.
type Query struct {
	// DryRun reports the candidates and what would happen, changing
	// nothing.
	DryRun bool
	Kind   string // only candidates of this kind
}

// Analysis is evolution_analyze's answer.
type Analysis struct {
	Sessions int
	Settings Settings
	// Learning: fewer sessions than the learning period; Off: the kill
	// switch. Either way nothing is applied or drafted.
	Learning, Off bool
	Candidates    []Candidate
	// Handled counts the patterns found again that were already drafted,
	// applied, reverted or rejected (not proposed again).
	Handled int
	Applied []Entry
	Drafted []Draft
	// Failed says which changes could not be made, and why.
	Failed []string
	DryRun bool
}

// Analyze finds the candidates in the history and, unless q.DryRun,
// applies, drafts or keeps each pending as its confidence says.
func (s *Service) Analyze(ctx context.Context, q Query) (Analysis, error) {
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		return Analysis{}, &problem.FieldError{Field: "kind", Problem: "is " + problem.Quote(q.Kind), Fix: "use " + strings.Join(Kinds, ", ")}
	}
	if err := s.needRoot(); err != nil {
		return Analysis{}, err
	}
	st, err := s.Settings()
	if err != nil {
		return Analysis{}, err
	}
	h, err := s.readHistory(ctx, st.WindowDays)
	if err != nil {
		return Analysis{}, fmt.Errorf("evolution: read the history: %w", err)
	}
	cs, err := s.candidates(ctx, h, st.WindowDays)
	if err != nil {
		return Analysis{}, fmt.Errorf("evolution: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	handled, err := s.handledKeys()
	if err != nil {
		return Analysis{}, err
	}
	out := Analysis{Sessions: len(h.sessions), Settings: st, Off: !st.Enabled, Learning: len(h.sessions) < st.LearningSessions, DryRun: q.DryRun}
	for _, c := range cs {
		if q.Kind != "" && c.Kind != q.Kind {
			continue
		}
		if handled[c.Key] {
			out.Handled++
			continue
		}
		st.decide(&c)
		if c.Action != ActionPending {
			switch {
			case out.Off:
				c.Action, c.Why = ActionPending, "the engine is switched off ([evolution] enabled = false); would be "+c.Action+": "+c.Why
			case out.Learning:
				c.Action, c.Why = ActionPending, fmt.Sprintf("learning period: %d of %d sessions seen; would be %s: %s", len(h.sessions), st.LearningSessions, c.Action, c.Why)
			}
		}
		out.Candidates = append(out.Candidates, c)
	}
	if q.DryRun {
		return out, nil
	}
	var pending []Candidate
	for _, c := range out.Candidates {
		switch c.Action {
		case ActionAuto:
			e, err := s.apply(c, "auto", "")
			if err != nil {
				out.Failed = append(out.Failed, c.Key+": "+err.Error())
				continue
			}
			out.Applied = append(out.Applied, e)
		case ActionDraft:
			d, err := s.draftFrom(c)
			if err != nil {
				out.Failed = append(out.Failed, c.Key+": "+err.Error())
				continue
			}
			out.Drafted = append(out.Drafted, d)
		default:
			pending = append(pending, c)
		}
	}
	if err := s.writePending(pending); err != nil {
		return out, err
	}
	return out, nil
}

// handledKeys are the candidates' keys a draft or a logged change holds.
func (s *Service) handledKeys() (map[string]bool, error) {
	out := map[string]bool{}
	m, err := s.manifest()
	if err != nil {
		return nil, err
	}
	for _, d := range m.Drafts {
		if d.Source != "" {
			out[d.Source] = true
		}
	}
	es, err := s.Log()
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if e.Key != "" {
			out[e.Key] = true
		}
	}
	return out, nil
}

// Pending is a candidate kept for later, and why.
type Pending struct {
	Key        string    `json:"key"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Confidence float64   `json:"confidence"`
	Sessions   int       `json:"sessions"`
	Why        string    `json:"why"`
	Seen       time.Time `json:"seen"`
}

func (s *Service) writePending(cs []Candidate) error {
	ps := make([]Pending, 0, len(cs))
	for _, c := range cs {
		ps = append(ps, Pending{Key: c.Key, Kind: c.Kind, Title: c.Title, Confidence: round(c.Confidence), Sessions: c.Sessions(), Why: c.Why, Seen: s.now()})
	}
	b, err := json.MarshalIndent(ps, "", "  ")
	if err != nil {
		return err
	}
	_, err = write(s.root, PendingFile, snap(true, append(b, '\n')))
	return err
}

func (s *Service) pending() ([]Pending, error) {
	sn, err := read(s.root, PendingFile)
	if err != nil || !sn.Exists {
		return nil, err
	}
	var ps []Pending
	if err := json.Unmarshal(sn.Data, &ps); err != nil {
		return nil, &problem.Error{Kind: problem.Malformed, Problem: PendingFile + " does not parse: " + err.Error(), Fix: "remove it; the next analysis writes it again"}
	}
	return ps, nil
}

func round(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

// Entry is one line of the log: a change applied, approved or reverted,
// with the file before and after.
type Entry struct {
	Seq        int       `json:"seq"`
	At         time.Time `json:"at"`
	Action     string    `json:"action"` // apply, approve, revert
	Mode       string    `json:"mode,omitempty"`
	Key        string    `json:"key,omitempty"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Path       string    `json:"path"`
	Confidence float64   `json:"confidence,omitempty"`
	Method     string    `json:"method,omitempty"`
	Evidence   *Evidence `json:"evidence,omitempty"`
	Draft      string    `json:"draft,omitempty"`
	Reverts    int       `json:"reverts,omitempty"`
	Before     Snapshot  `json:"before"`
	After      Snapshot  `json:"after"`
	Dirs       []string  `json:"dirs,omitempty"` // the folders the change created
}

// Log reads the log, oldest first.
func (s *Service) Log() ([]Entry, error) {
	if err := s.needRoot(); err != nil {
		return nil, err
	}
	sn, err := read(s.root, LogFile)
	if err != nil || !sn.Exists {
		return nil, err
	}
	var out []Entry
	for i, l := range strings.Split(strings.TrimSuffix(string(sn.Data), "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var e Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			return nil, &problem.Error{Kind: problem.Malformed, Problem: fmt.Sprintf("%s:%d does not parse: %v", LogFile, i+1, err), Fix: "restore the line from git; the log is append-only"}
		}
		out = append(out, e)
	}
	return out, nil
}

// appendLog adds e as the log's next line.
func (s *Service) appendLog(e *Entry) error {
	es, err := s.Log()
	if err != nil {
		return err
	}
	e.Seq = 1
	if len(es) > 0 {
		e.Seq = es[len(es)-1].Seq + 1
	}
	e.At = s.now()
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	p, err := resolve(s.root, LogFile)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// apply writes c's change, refusing when the file changed since c was
// made, and logs it.
func (s *Service) apply(c Candidate, mode, draft string) (Entry, error) {
	if c.Change.After == nil {
		return Entry{}, &problem.Error{Kind: problem.Invalid, Problem: "the change to " + c.Change.Path + " could not be made: " + c.Change.Diff, Fix: "make it by hand"}
	}
	now, err := read(s.root, c.Change.Path)
	if err != nil {
		return Entry{}, err
	}
	if now.Exists != c.Change.Before.Exists || now.SHA != c.Change.Before.SHA {
		return Entry{}, conflict(c.Change.Path, "the change was computed")
	}
	after := snap(true, c.Change.After)
	dirs, err := write(s.root, c.Change.Path, after)
	if err != nil {
		return Entry{}, err
	}
	ev := c.Evidence
	e := Entry{Action: "apply", Mode: mode, Key: c.Key, Kind: c.Kind, Title: c.Title, Path: c.Change.Path, Confidence: round(c.Confidence), Method: c.Method,
		Evidence: &ev, Draft: draft, Before: now, After: after, Dirs: dirs}
	if draft != "" {
		e.Action = "approve"
	}
	if err := s.appendLog(&e); err != nil {
		// Undo the write: a change the log does not hold is not made.
		_, _ = write(s.root, c.Change.Path, now)
		removeDirs(s.root, dirs)
		return Entry{}, err
	}
	return e, nil
}

// Review is a logged change, before and after.
type Review struct {
	Entry    Entry
	Diff     string
	Reverted int // the seq of the entry that reverted it; 0: in force
	// Current says whether the file is still as the change left it.
	Current bool
}

// Review shows the change logged at seq (0: the newest).
func (s *Service) Review(seq int) (Review, error) {
	es, err := s.Log()
	if err != nil {
		return Review{}, err
	}
	if len(es) == 0 {
		return Review{}, problem.New(problem.NotFound, "the evolution log is empty: nothing was applied yet", problem.NoAction)
	}
	e, ok := es[len(es)-1], true
	if seq != 0 {
		i := slices.IndexFunc(es, func(x Entry) bool { return x.Seq == seq })
		ok = i >= 0
		if ok {
			e = es[i]
		}
	}
	if !ok {
		return Review{}, &problem.FieldError{Field: "seq", Problem: "no change " + strconv.Itoa(seq) + " in " + LogFile, Fix: fmt.Sprintf("use 1 to %d", es[len(es)-1].Seq), Hint: problem.ListChanges}
	}
	r := Review{Entry: e, Diff: diff(e.Path, e.Before.Data, e.After.Data)}
	for _, x := range es {
		if x.Action == "revert" && x.Reverts == e.Seq {
			r.Reverted = x.Seq
		}
	}
	cur, err := read(s.root, e.Path)
	if err == nil {
		r.Current = cur.Exists == e.After.Exists && cur.SHA == e.After.SHA
	}
	return r, nil
}

// Revert restores the snapshot the change at seq replaced, exactly, and
// logs that; it refuses when the file changed since the change.
func (s *Service) Revert(seq int) (Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, err := s.Review(seq)
	if err != nil {
		return Entry{}, err
	}
	e := r.Entry
	switch {
	case seq == 0:
		return Entry{}, &problem.FieldError{Field: "seq", Problem: "is missing", Fix: "name the change to revert", Hint: problem.ListChanges}
	case e.Action == "revert":
		return Entry{}, &problem.FieldError{Field: "seq", Problem: fmt.Sprintf("change %d is itself a revert", seq), Fix: "name the change it reverted, or apply that again by hand"}
	case r.Reverted != 0:
		return Entry{}, problem.New(problem.Transition, fmt.Sprintf("change %d was already reverted by change %d", seq, r.Reverted), problem.NoAction)
	case !r.Current:
		return Entry{}, conflict(e.Path, fmt.Sprintf("change %d wrote it", seq))
	}
	if _, err := write(s.root, e.Path, e.Before); err != nil {
		return Entry{}, err
	}
	removeDirs(s.root, e.Dirs)
	out := Entry{Action: "revert", Key: e.Key, Kind: e.Kind, Title: e.Title, Path: e.Path, Draft: e.Draft, Reverts: seq, Before: e.After, After: e.Before}
	if err := s.appendLog(&out); err != nil {
		_, _ = write(s.root, e.Path, e.After)
		return Entry{}, err
	}
	if e.Draft != "" {
		_ = s.setDraftStatus(e.Draft, StatusReverted, "change "+strconv.Itoa(seq)+" reverted")
	}
	return out, nil
}

// Status is evolution_status's answer.
type Status struct {
	Settings Settings
	Sessions int
	Learning bool
	Off      bool
	// Learned are the changes in force (applied or approved, not
	// reverted), newest first.
	Learned []Entry
	Pending []Pending
	Drafts  map[string]int // by status
	Log     int            // entries in the log
	// SettingsError says why the config could not be read (defaults used).
	SettingsError string
}

// Status says what was learned, what is pending and why, and whether the
// engine is learning or switched off.
func (s *Service) Status(ctx context.Context) (Status, error) {
	if err := s.needRoot(); err != nil {
		return Status{}, err
	}
	st, err := s.Settings()
	out := Status{Settings: st, Off: !st.Enabled, Drafts: map[string]int{}}
	if err != nil {
		out.SettingsError = err.Error()
	}
	err = s.st.View(ctx, func(tx store.Tx) error {
		_, n, err := tx.Sessions(ctx, store.SessionQuery{Limit: 1})
		out.Sessions = n
		return err
	})
	if err != nil {
		return out, err
	}
	out.Learning = out.Sessions < st.LearningSessions
	es, err := s.Log()
	if err != nil {
		return out, err
	}
	out.Log = len(es)
	reverted := map[int]bool{}
	for _, e := range es {
		if e.Action == "revert" {
			reverted[e.Reverts] = true
		}
	}
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Action != "revert" && !reverted[es[i].Seq] {
			out.Learned = append(out.Learned, es[i])
		}
	}
	if out.Pending, err = s.pending(); err != nil {
		return out, err
	}
	m, err := s.manifest()
	if err != nil {
		return out, err
	}
	for _, d := range m.Drafts {
		out.Drafts[d.Status]++
	}
	return out, nil
}

// AfterSession runs an analysis when a session ends, if the settings
// want it (analyze_on_session_end, the engine on; in the learning period
// the analysis only keeps its candidates pending); it reports whether it
// ran.
func (s *Service) AfterSession(ctx context.Context) (bool, error) {
	if s == nil || s.root == "" {
		return false, nil
	}
	st, err := s.Settings()
	if err != nil || !st.Enabled || !st.OnSessionEnd {
		return false, err
	}
	_, err = s.Analyze(ctx, Query{})
	return err == nil, err
}

// Announcements are the changes applied on their own since the last call
// for the same surface ("bootstrap", "hook"), and not reverted; reading
// them marks them told.
func (s *Service) Announcements(surface string) ([]Entry, error) {
	if s == nil || s.root == "" {
		return nil, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	es, err := s.Log()
	if err != nil || len(es) == 0 {
		return nil, err
	}
	marker := ".cairn/evolution/.told-" + surface
	told := 0
	if sn, err := read(s.root, marker); err == nil && sn.Exists {
		told, _ = strconv.Atoi(strings.TrimSpace(string(sn.Data)))
	}
	reverted := map[int]bool{}
	for _, e := range es {
		if e.Action == "revert" {
			reverted[e.Reverts] = true
		}
	}
	var out []Entry
	for _, e := range es {
		if e.Seq > told && e.Action == "apply" && e.Mode == "auto" && !reverted[e.Seq] {
			out = append(out, e)
		}
	}
	last := es[len(es)-1].Seq
	if last > told {
		if _, err := write(s.root, marker, snap(true, []byte(strconv.Itoa(last)+"\n"))); err != nil && !errors.Is(err, fs.ErrPermission) {
			return out, err
		}
	}
	return out, nil
}
