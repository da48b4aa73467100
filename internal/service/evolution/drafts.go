package evolution

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Draft statuses.
const (
	StatusDraft    = "draft"
	StatusApproved = "approved"
	StatusRejected = "rejected"
	StatusReverted = "reverted"
)

// DraftStatuses lists every status of a draft.
var DraftStatuses = []string{StatusDraft, StatusApproved, StatusRejected, StatusReverted}

// Draft is a change written for a person to review: its proposed file
// under .cairn/drafts/<folder>/, and its line of the manifest.
type Draft struct {
	ID         string    `json:"id"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Status     string    `json:"status"`
	Confidence float64   `json:"confidence"`
	Method     string    `json:"method,omitempty"`
	Evidence   Evidence  `json:"evidence"`
	Created    time.Time `json:"created"`
	// Source is the candidate's key it came from; "" when made by hand.
	Source string `json:"source,omitempty"`
	// File is the draft's file (the whole target as it would be after
	// approval), Target the file approval writes, Base the target's hash
	// when the draft was made ("" when it did not exist).
	File    string    `json:"file"`
	Target  string    `json:"target"`
	Base    string    `json:"base,omitempty"`
	Decided time.Time `json:"decided,omitzero"`
	Reason  string    `json:"reason,omitempty"`
	// Change is the log entry approval made.
	Change int `json:"change,omitempty"`
}

type manifest struct {
	Drafts []Draft `json:"drafts"`
}

// folderOf is the drafts folder of a kind.
func folderOf(kind string) string {
	switch kind {
	case KindRule, KindSeverity:
		return "rules"
	case KindKnowledge:
		return "knowledge"
	case KindSkill, KindRouting:
		return "skills"
	}
	return "workflows"
}

func (s *Service) manifest() (manifest, error) {
	var m manifest
	sn, err := read(s.root, ManifestFile)
	if err != nil || !sn.Exists {
		return m, err
	}
	if err := json.Unmarshal(sn.Data, &m); err != nil {
		return m, &problem.Error{Kind: problem.Malformed, Problem: ManifestFile + " does not parse: " + err.Error(), Fix: "restore it from git"}
	}
	return m, nil
}

func (s *Service) saveManifest(m manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, err = write(s.root, ManifestFile, snap(true, append(b, '\n')))
	return err
}

// draftFrom writes c as a draft.
func (s *Service) draftFrom(c Candidate) (Draft, error) {
	if c.Change.After == nil {
		return Draft{}, &problem.Error{Kind: problem.Invalid, Problem: "the change to " + c.Change.Path + " could not be made: " + c.Change.Diff, Fix: "make it by hand"}
	}
	d := Draft{Kind: c.Kind, Title: c.Title, Status: StatusDraft, Confidence: round(c.Confidence), Method: c.Method, Evidence: c.Evidence,
		Source: c.Key, Target: c.Change.Path, Base: c.Change.Before.SHA}
	return s.saveDraft(d, c.Change.After)
}

func (s *Service) saveDraft(d Draft, content []byte) (Draft, error) {
	m, err := s.manifest()
	if err != nil {
		return Draft{}, err
	}
	base := slugOf(d.Title)
	if !strings.HasPrefix(base, d.Kind+"-") {
		base = d.Kind + "-" + base
	}
	d.ID = base
	for i := 2; slices.ContainsFunc(m.Drafts, func(x Draft) bool { return x.ID == d.ID }); i++ {
		d.ID = fmt.Sprintf("%s-%d", base, i)
	}
	ext := path.Ext(d.Target)
	if ext == "" {
		ext = ".md"
	}
	d.File = DraftsDir + "/" + folderOf(d.Kind) + "/" + d.ID + ext
	d.Created = s.now()
	if _, err := write(s.root, d.File, snap(true, content)); err != nil {
		return Draft{}, err
	}
	m.Drafts = append(m.Drafts, d)
	if err := s.saveManifest(m); err != nil {
		return Draft{}, err
	}
	return d, nil
}

// NewDraft is a draft made by hand (draft_create without a candidate).
type NewDraft struct {
	Kind  string
	Title string
	// Content is the new file (rule, knowledge, skill, workflow), the
	// routing line (routing) or the check name (severity).
	Content string
	// Candidate makes the draft from the candidate of this key instead.
	Candidate string
}

// CreateDraft writes a draft by hand, or from a candidate of the current
// analysis.
func (s *Service) CreateDraft(ctxAnalyze func() (Analysis, error), n NewDraft) (Draft, error) {
	if err := s.needRoot(); err != nil {
		return Draft{}, err
	}
	if n.Candidate != "" {
		a, err := ctxAnalyze()
		if err != nil {
			return Draft{}, err
		}
		i := slices.IndexFunc(a.Candidates, func(c Candidate) bool { return c.Key == n.Candidate })
		if i < 0 {
			return Draft{}, &problem.FieldError{Field: "candidate", Problem: "no open candidate " + problem.Quote(n.Candidate), Fix: "use the key of an open candidate (one already drafted, applied or rejected is not open)", Hint: problem.ListCandidates}
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.draftFrom(a.Candidates[i])
	}
	if !slices.Contains(Kinds, n.Kind) {
		return Draft{}, &problem.FieldError{Field: "kind", Problem: "is " + problem.Quote(n.Kind), Fix: "use " + strings.Join(Kinds, ", ")}
	}
	n.Title = strings.TrimSpace(n.Title)
	if n.Title == "" {
		return Draft{}, &problem.FieldError{Field: "title", Problem: "is missing", Fix: "say in a line what the draft changes"}
	}
	if strings.TrimSpace(n.Content) == "" {
		return Draft{}, &problem.FieldError{Field: "content", Problem: "is missing", Fix: "give the file's text (the routing line, or the check's name for a severity)"}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var ch Change
	slug := slugOf(n.Title)
	switch n.Kind {
	case KindRouting:
		ch = s.routingLine(slug, "- "+oneLine(n.Content))
	case KindSeverity:
		ch = s.tomlLine(project_config, "evolution.severity", strings.TrimSpace(n.Content), "error")
	default:
		rel := map[string]string{KindRule: "knowledge/rules/" + slug + ".md", KindKnowledge: "knowledge/" + slug + ".md",
			KindSkill: "skills/" + slug + "/SKILL.md", KindWorkflow: "workflows/" + slug + ".md"}[n.Kind]
		before, err := read(s.root, rel)
		if err != nil {
			return Draft{}, err
		}
		if before.Exists {
			return Draft{}, &problem.FieldError{Field: "title", Problem: rel + " exists already", Fix: "give another title, or edit the file by hand"}
		}
		text := n.Content
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		ch = s.edit(rel, before, []byte(text))
	}
	if ch.After == nil {
		return Draft{}, &problem.Error{Kind: problem.Invalid, Problem: ch.Diff, Fix: "make the change by hand"}
	}
	return s.saveDraft(Draft{Kind: n.Kind, Title: n.Title, Status: StatusDraft, Confidence: 1, Method: "made by hand",
		Target: ch.Path, Base: ch.Before.SHA}, ch.After)
}

// DraftQuery filters draft_list.
type DraftQuery struct {
	Status        string // empty: every status
	Kind          string
	MinConfidence float64
}

// Drafts lists the drafts, most confident first.
func (s *Service) Drafts(q DraftQuery) ([]Draft, error) {
	if err := s.needRoot(); err != nil {
		return nil, err
	}
	if q.Status != "" && !slices.Contains([]string{StatusDraft, StatusApproved, StatusRejected, StatusReverted}, q.Status) {
		return nil, &problem.FieldError{Field: "status", Problem: "is " + problem.Quote(q.Status), Fix: "use draft, approved, rejected or reverted"}
	}
	if q.Kind != "" && !slices.Contains(Kinds, q.Kind) {
		return nil, &problem.FieldError{Field: "kind", Problem: "is " + problem.Quote(q.Kind), Fix: "use " + strings.Join(Kinds, ", ")}
	}
	m, err := s.manifest()
	if err != nil {
		return nil, err
	}
	var out []Draft
	for _, d := range m.Drafts {
		if (q.Status == "" || d.Status == q.Status) && (q.Kind == "" || d.Kind == q.Kind) && d.Confidence >= q.MinConfidence {
			out = append(out, d)
		}
	}
	slices.SortStableFunc(out, func(a, b Draft) int {
		return cmp.Or(cmp.Compare(b.Confidence, a.Confidence), b.Created.Compare(a.Created))
	})
	return out, nil
}

// Draft returns one draft and its file's text.
func (s *Service) Draft(id string) (Draft, string, error) {
	if err := s.needRoot(); err != nil {
		return Draft{}, "", err
	}
	m, err := s.manifest()
	if err != nil {
		return Draft{}, "", err
	}
	i := slices.IndexFunc(m.Drafts, func(d Draft) bool { return d.ID == id })
	if i < 0 {
		return Draft{}, "", &problem.FieldError{Field: "id", Problem: "no draft " + problem.Quote(id), Fix: "use the id of a draft", Hint: problem.ListDrafts}
	}
	d := m.Drafts[i]
	sn, err := read(s.root, d.File)
	if err != nil {
		return d, "", err
	}
	if !sn.Exists {
		return d, "", &problem.Error{Kind: problem.NotFound, Problem: "the draft's file " + d.File + " is missing", Fix: "restore it from git, or reject the draft"}
	}
	return d, string(sn.Data), nil
}

// Approve promotes a draft into the project: it writes the draft's file
// over its target, refusing when the target changed since the draft was
// made (the conflict named), and logs the change.
func (s *Service) Approve(id string) (Draft, Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, content, err := s.Draft(id)
	if err != nil {
		return Draft{}, Entry{}, err
	}
	if d.Status != StatusDraft {
		return d, Entry{}, problem.New(problem.Transition, "draft "+id+" is "+d.Status+", not awaiting a decision", problem.NoAction)
	}
	before, err := read(s.root, d.Target)
	if err != nil {
		return d, Entry{}, err
	}
	if before.SHA != d.Base {
		return d, Entry{}, conflict(d.Target, "draft "+id+" was made from it")
	}
	c := Candidate{Key: d.Source, Kind: d.Kind, Title: d.Title, Evidence: d.Evidence, Confidence: d.Confidence, Method: d.Method,
		Change: Change{Path: d.Target, Before: before, After: []byte(content)}}
	e, err := s.apply(c, "approved", d.ID)
	if err != nil {
		return d, Entry{}, err
	}
	d.Change = e.Seq
	if err := s.setDraftStatus(id, StatusApproved, "approved: change "+fmt.Sprint(e.Seq)); err != nil {
		return d, e, err
	}
	d.Status = StatusApproved
	return d, e, nil
}

// Reject marks a draft rejected: its pattern is not proposed again.
func (s *Service) Reject(id, reason string) (Draft, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, _, err := s.Draft(id)
	if err != nil {
		return Draft{}, err
	}
	if d.Status != StatusDraft {
		return d, problem.New(problem.Transition, "draft "+id+" is "+d.Status+", not awaiting a decision", problem.NoAction)
	}
	if err := s.setDraftStatus(id, StatusRejected, cmp.Or(strings.TrimSpace(reason), "rejected")); err != nil {
		return d, err
	}
	d.Status = StatusRejected
	return d, nil
}

func (s *Service) setDraftStatus(id, status, reason string) error {
	m, err := s.manifest()
	if err != nil {
		return err
	}
	for i := range m.Drafts {
		if m.Drafts[i].ID == id {
			m.Drafts[i].Status, m.Drafts[i].Reason, m.Drafts[i].Decided = status, reason, s.now()
			if status == StatusApproved {
				fmt.Sscanf(strings.TrimPrefix(reason, "approved: change "), "%d", &m.Drafts[i].Change)
			}
		}
	}
	return s.saveManifest(m)
}
