// Package migrate plans a dependency or framework upgrade as Cairn tasks:
// from the version the project resolves (verify_version's reading) to a
// target, guardrails first (tests green, a branch, a snapshot of the lock
// file), then the steps, each with its verification, then cleanup. The
// breaking changes come from the project's knowledge entries that name the
// dependency; where none does, they are said to be unknown, not invented.
// Planning writes nothing; Create makes the tasks through the plan service.
package migrate

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/knowledge"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// Service plans migrations.
type Service struct {
	hands *hands.Service
	know  *knowledge.Service
	plan  *plan.Plan
}

// New returns the planner (know and pl may be nil: no knowledge is read,
// no task can be created).
func New(h *hands.Service, know *knowledge.Service, pl *plan.Plan) *Service {
	return &Service{hands: h, know: know, plan: pl}
}

// Request is what to upgrade.
type Request struct {
	Name string // the dependency, as its manifest spells it
	To   string // the target version
	Dir  string // the manifests' directory ("": the root)
}

// Step is one task of the plan.
type Step struct {
	Key    string // g1, s1, c1: guardrail, step, cleanup
	Kind   string // guardrail, step, cleanup
	Title  string
	Detail string
	Verify string
	After  []string // keys it depends on
}

// Breaking is a breaking change the project's knowledge records.
type Breaking struct {
	Entry string // the knowledge entry's path
	Title string
	Lines []string
}

// Plan is a migration plan.
type Plan struct {
	Name      string
	Ecosystem string
	From      string
	To        string
	Files     []string // manifest and lock files that hold it
	Breaking  []Breaking
	// BreakingKnown is false when no knowledge entry names the
	// dependency: its breaking changes are unknown here.
	BreakingKnown bool
	Steps         []Step
	Notes         []string
}

// Plan reads what the project has and writes the plan.
func (s *Service) Plan(ctx context.Context, req Request) (Plan, error) {
	to := strings.TrimSpace(req.To)
	if to == "" || len(to) > 100 || strings.ContainsAny(to, " \n\r\t\x00") {
		return Plan{}, &problem.FieldError{Field: "to", Problem: "is not a version", Fix: "give the target version: 2.0.0, v1.23.0"}
	}
	rep, err := s.hands.VerifyVersion(ctx, hands.VersionRequest{Name: req.Name, Dir: req.Dir})
	if err != nil {
		return Plan{}, err
	}
	if len(rep.Evidence) == 0 {
		return Plan{}, &problem.FieldError{Field: "name", Problem: problem.Quote(rep.Name) + " is not declared, locked or installed in this project",
			Fix: "check the spelling as the manifest has it (verify_version says where it looked), or pass path for a package of a monorepo"}
	}
	p := Plan{Name: rep.Name, To: to}
	for _, e := range rep.Evidence {
		p.Ecosystem = cmp.Or(p.Ecosystem, e.Ecosystem)
		if !path.IsAbs(e.File) && !slices.Contains(p.Files, e.File) && e.Kind != "installed" {
			p.Files = append(p.Files, e.File)
		}
	}
	p.From = rep.Resolved[p.Ecosystem]
	if p.From == "" {
		p.Notes = append(p.Notes, "no exact version resolved (no lock file or installed copy): the starting version is the manifest's constraint")
		for _, e := range rep.Evidence {
			if e.Kind == "declared" {
				p.From = e.Constraint
				break
			}
		}
	}
	if strings.TrimPrefix(p.From, "v") == strings.TrimPrefix(to, "v") {
		p.Notes = append(p.Notes, "the project already resolves "+to+": nothing to upgrade")
	}
	if !rep.Agree {
		p.Notes = append(p.Notes, "the manifest, lock and installed copy disagree already (verify_version): settle that first")
	}
	p.Breaking = s.breaking(p.Name)
	p.BreakingKnown = len(p.Breaking) > 0
	p.Steps = steps(p, s.testCommand(p.Ecosystem))
	return p, nil
}

// breaking reads the knowledge entries that name the dependency.
func (s *Service) breaking(name string) []Breaking {
	if s.know == nil {
		return nil
	}
	var out []Breaking
	short := strings.ToLower(path.Base(name))
	for _, d := range s.know.Knowledge().Docs {
		if d.Kind != projectinfo.DocKnowledge {
			continue
		}
		text := strings.ToLower(strings.Join(append([]string{d.Title, d.Description, d.Body}, d.Tags...), "\n"))
		if !strings.Contains(text, strings.ToLower(name)) && !(len(short) > 3 && strings.Contains(text, short)) {
			continue
		}
		b := Breaking{Entry: d.Path, Title: cmp.Or(d.Title, d.Name)}
		for l := range strings.SplitSeq(d.Body, "\n") {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "break") || strings.Contains(ll, "removed") || strings.Contains(ll, "renamed") || strings.Contains(ll, "deprecat") || strings.Contains(ll, "migrat") {
				b.Lines = append(b.Lines, strings.TrimSpace(strings.TrimLeft(l, "-*# ")))
				if len(b.Lines) == 5 {
					break
				}
			}
		}
		out = append(out, b)
		if len(out) == 5 {
			break
		}
	}
	return out
}

// testCommand is the project's configured test command, else the
// ecosystem's usual one.
func (s *Service) testCommand(eco string) string {
	if cmds, err := project.ReadCICommands(s.hands.Root()); err == nil {
		for _, c := range cmds {
			if strings.Contains(strings.ToLower(c.Name), "test") {
				return c.Run
			}
		}
		if len(cmds) > 0 {
			return cmds[0].Run
		}
	}
	switch eco {
	case "go":
		return "go test ./..."
	case "npm":
		return "npm test"
	case "python":
		return "pytest"
	case "cargo":
		return "cargo test"
	}
	return "the project's test command"
}

func bumpCommand(p Plan) string {
	v := strings.TrimPrefix(p.To, "v")
	switch p.Ecosystem {
	case "go":
		return fmt.Sprintf("go get %s@v%s && go mod tidy", p.Name, v)
	case "npm":
		return fmt.Sprintf("npm install %s@%s (or pnpm add / yarn add)", p.Name, v)
	case "python":
		return fmt.Sprintf("uv add '%s==%s' or poetry add %s@%s, or edit the requirement and reinstall", p.Name, v, p.Name, v)
	case "cargo":
		return fmt.Sprintf("set %s = \"%s\" in Cargo.toml, then cargo update -p %s", p.Name, v, p.Name)
	}
	return "upgrade with the package manager"
}

func steps(p Plan, test string) []Step {
	lock := "the lock file"
	for _, f := range p.Files {
		if b := strings.ToLower(path.Base(f)); strings.Contains(b, "lock") || b == "go.sum" {
			lock = f
			break
		}
	}
	branch := "upgrade/" + strings.ReplaceAll(path.Base(p.Name), "@", "") + "-" + strings.TrimPrefix(p.To, "v")
	out := []Step{
		{Key: "g1", Kind: "guardrail", Title: "Tests green before upgrading " + p.Name, Detail: "A failure after the upgrade must be the upgrade's.", Verify: test + " exits 0"},
		{Key: "g2", Kind: "guardrail", Title: "Work on a branch: " + branch, Verify: "git switch -c " + branch + "; git branch --show-current names it", After: []string{"g1"}},
		{Key: "g3", Kind: "guardrail", Title: "Snapshot " + lock, Detail: "Keep the lock as it was, to compare and to go back.", Verify: "git show HEAD:" + lock + " > /tmp/" + path.Base(lock) + ".before (or commit it first)", After: []string{"g2"}},
		{Key: "s1", Kind: "step", Title: fmt.Sprintf("Bump %s from %s to %s", p.Name, cmp.Or(p.From, "?"), p.To), Detail: bumpCommand(p),
			Verify: fmt.Sprintf("verify_version name=%s believed=%s agrees", p.Name, p.To), After: []string{"g3"}},
	}
	last := "s1"
	if len(p.Breaking) == 0 {
		out = append(out, Step{Key: "s2", Kind: "step", Title: "Find and fix what " + p.To + " breaks (unknown here)",
			Detail: fmt.Sprintf("No knowledge entry of this project names %s: its breaking changes from %s to %s are unknown. Read its changelog; record what you learn (memory_add_decision, or a knowledge entry).", p.Name, cmp.Or(p.From, "?"), p.To),
			Verify: "the build and " + test + " pass", After: []string{last}})
		last = "s2"
	}
	for i, b := range p.Breaking {
		key := "s" + strconv.Itoa(i+2)
		detail := "From " + b.Entry
		if len(b.Lines) > 0 {
			detail += ": " + strings.Join(b.Lines, "; ")
		}
		out = append(out, Step{Key: key, Kind: "step", Title: "Adapt to: " + b.Title, Detail: detail, Verify: "the code the entry names builds and its tests pass", After: []string{"s1"}})
	}
	after := []string{last}
	if len(p.Breaking) > 0 {
		after = nil
		for i := range p.Breaking {
			after = append(after, "s"+strconv.Itoa(i+2))
		}
	}
	last = "s" + strconv.Itoa(len(out)-2)
	out = append(out, Step{Key: last, Kind: "step", Title: "Full suite and checks on " + p.To, Verify: test + " exits 0; cairn ci --diff main has no error", After: after})
	out = append(out, Step{Key: "c1", Kind: "cleanup", Title: "Clean up and record the upgrade",
		Detail: "Drop the lock snapshot and workarounds; record the breaking changes met as a knowledge entry or decision.",
		Verify: "git status is clean; memory_search " + path.Base(p.Name) + " finds the record", After: []string{last}})
	return out
}

// Created is the tasks a plan became.
type Created struct {
	Parent task.ID
	Tasks  map[string]task.ID // by step key
}

// Create makes the plan's tasks: a parent task, and a child a step with
// its dependencies. agent is the writer.
func (s *Service) Create(ctx context.Context, p Plan) (Created, error) {
	if s.plan == nil {
		return Created{}, &problem.FieldError{Field: "create", Problem: "needs the plan, and this server has no store", Fix: "run Cairn with its store, or leave create out"}
	}
	desc := fmt.Sprintf("Upgrade %s from %s to %s.", p.Name, cmp.Or(p.From, "?"), p.To)
	if !p.BreakingKnown {
		desc += " Breaking changes: unknown (no knowledge entry names it)."
	}
	parent, err := s.plan.Create(ctx, plan.NewTask{Title: fmt.Sprintf("Migrate %s to %s", p.Name, p.To), Description: desc, Priority: task.PriorityHigh})
	if err != nil {
		return Created{}, err
	}
	out := Created{Parent: parent.ID, Tasks: map[string]task.ID{}}
	for _, st := range p.Steps {
		var deps []string
		for _, k := range st.After {
			if id, ok := out.Tasks[k]; ok {
				deps = append(deps, strconv.FormatInt(int64(id), 10))
			}
		}
		body := strings.TrimSpace(st.Detail + "\n\nVerify: " + st.Verify)
		d, err := s.plan.Create(ctx, plan.NewTask{Title: st.Title, Description: body, Parent: parent.ID, Deps: deps})
		if err != nil {
			return out, fmt.Errorf("step %s (tasks made so far are kept under %d): %w", st.Key, parent.ID, err)
		}
		out.Tasks[st.Key] = d.ID
	}
	return out, nil
}
