package hands

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/check/report"
	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/gates"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/migrate"
	"github.com/cairn-dev/cairn/internal/service/page"
)

// The hands' second part: dependency versions, commit messages and CI
// reports. None runs a command of the project; git is read.

type verifyVersionArgs struct {
	Name     string `json:"name" jsonschema:"as the manifest spells it"`
	Believed string `json:"believed,omitempty" jsonschema:"version you think it is"`
	Path     string `json:"path,omitempty" jsonschema:"manifest dir; default root"`
}

type commitMessageArgs struct {
	Message string   `json:"message,omitempty" jsonschema:"check this message instead"`
	Diff    string   `json:"diff,omitempty" jsonschema:"unified diff; default staged"`
	Range   string   `json:"range,omitempty" jsonschema:"A..B, A...B or a commit"`
	Refs    []string `json:"refs,omitempty" jsonschema:"Refs footer; default tasks done this session"`
}

type ciArgs struct {
	Base   string `json:"base,omitempty" jsonschema:"branch to diff against via merge base"`
	Diff   string `json:"diff,omitempty" jsonschema:"unified diff instead of base"`
	Only   string `json:"only,omitempty" jsonschema:"checks, comma-separated"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

type ciReportArgs struct {
	ciArgs
	Lines  bool   `json:"lines,omitempty" jsonschema:"only findings on changed lines"`
	Format string `json:"format,omitempty"`
}

type ciDiffArgs struct {
	ciArgs
	AllLines bool `json:"all_lines,omitempty" jsonschema:"keep findings off changed lines"`
}

func ciTools() []tool.Tool {
	const ts = "hands"
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "verify_version", Annotations: tool.ReadOnly,
			Description: "A dependency's declared, locked and installed versions, offline; whether they and your belief agree."},
			verifyVersion),
		tool.Declare(ts, mcp.Tool{Name: "generate_commit_message", Annotations: tool.ReadOnly,
			Description: "Conventional Commits message from staged changes, a range or a diff (breaking Go API flagged); or checks message."},
			generateCommitMessage),
		tool.Declare(ts, mcp.Tool{Name: "ci_report", Annotations: tool.ReadOnly,
			Description: "Every check and version drift over the tree or changes since base, as text, markdown, github or sarif."},
			ciReport, append(tool.PageShape(hands.Page), tool.Enum("format", "text", "markdown", "github", "sarif"))...),
		tool.Declare(ts, mcp.Tool{Name: "ci_diff_check", Annotations: tool.ReadOnly,
			Description: "Checks only the files and lines changed since base (merge base) or in diff."},
			ciDiffCheck, tool.PageShape(hands.Page)...),
	}
}

func verifyVersion(ctx context.Context, c tool.Call, in verifyVersionArgs) (string, any, error) {
	r, err := c.Hands.VerifyVersion(ctx, hands.VersionRequest{Name: in.Name, Believed: in.Believed, Dir: in.Path})
	if err != nil {
		return "", nil, err
	}
	return render.VersionText(r), r, nil
}

func generateCommitMessage(ctx context.Context, c tool.Call, in commitMessageArgs) (string, any, error) {
	req := hands.CommitRequest{Message: in.Message, Diff: in.Diff, Range: in.Range, Refs: in.Refs}
	if in.Message == "" && in.Refs == nil && c.Memory != nil {
		// The tasks this agent completed in its open session.
		if s, ok, err := c.Memory.OpenSession(ctx, c.Agent, memory.Client{}); err == nil && ok {
			for _, e := range s.Record.Of(memory.EventTask) {
				req.Refs = append(req.Refs, e.Key)
			}
		}
	}
	r, err := c.Hands.CommitMessage(ctx, req)
	if err != nil {
		return "", nil, err
	}
	return render.CommitText(r), render.CommitViewOf(r), nil
}

func ciRequest(a ciArgs) hands.CIRequest {
	return hands.CIRequest{Base: a.Base, Diff: a.Diff, Checks: splitOnly(a.Only), Page: page.Page{Offset: a.Offset, Limit: a.Limit}}
}

func splitOnly(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func ciReport(ctx context.Context, c tool.Call, in ciReportArgs) (string, any, error) {
	req := ciRequest(in.ciArgs)
	req.Lines = in.Lines
	r, err := c.Hands.CI(ctx, req)
	if err != nil {
		return "", nil, err
	}
	view := render.CIViewOf(r)
	if in.Format == "" || in.Format == "text" {
		return render.CIText(r, render.CheckTool), view, nil
	}
	var b bytes.Buffer
	switch in.Format {
	case "markdown":
		err = report.Markdown(&b, r.Findings, report.MarkdownOptions{})
	case "github":
		err = report.GitHub(&b, r.Findings)
	case "sarif":
		err = report.SARIF(&b, report.Tool{Name: "cairn", Version: c.Host.Version(), InformationURI: "https://github.com/cairn-dev/cairn"}, c.Hands.Rules(), r.Findings)
	default:
		return "", nil, &problem.FieldError{Field: "format", Problem: problem.Quote(in.Format) + " is not a format", Fix: "use text, markdown, github or sarif"}
	}
	if err != nil {
		return "", nil, err
	}
	head := fmt.Sprintf("Scope: %s. Findings %d-%d of %d (%s).", r.Scope, r.Offset+min(1, len(r.Findings)), r.Offset+len(r.Findings), r.Total, in.Format)
	if r.NextOffset > 0 {
		head += fmt.Sprintf(" Next page: offset %d.", r.NextOffset)
	}
	return head + "\n" + b.String(), view, nil
}

func ciDiffCheck(ctx context.Context, c tool.Call, in ciDiffArgs) (string, any, error) {
	if in.Base == "" && in.Diff == "" {
		return "", nil, &problem.FieldError{Field: "base", Problem: "is missing, and so is diff", Fix: "pass base (origin/main) or a unified diff; ci_report checks the whole tree"}
	}
	req := ciRequest(in.ciArgs)
	req.Lines = !in.AllLines
	r, err := c.Hands.CI(ctx, req)
	if err != nil {
		return "", nil, err
	}
	return render.CIText(r, render.CheckTool), render.CIViewOf(r), nil
}

type complianceArgs struct {
	Path string `json:"path,omitempty" jsonschema:"file or dir; default all"`
	ciArgs
	Lines bool `json:"lines,omitempty" jsonschema:"with base/diff: changed lines only"`
}

type explainArgs struct {
	Rule string `json:"rule" jsonschema:"rule id, e.g. sql/update-without-where"`
}

func ruleTools() []tool.Tool {
	const ts = "hands"
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "check_compliance", Annotations: tool.ReadOnly,
			Description: "Project rules (.cairn/rules, rules/) and every check over paths or a change; findings and a compliance score."},
			checkCompliance, tool.PageShape(hands.Page)...),
		tool.Declare(ts, mcp.Tool{Name: "explain_violation", Annotations: tool.ReadOnly,
			Description: "Why a rule exists, bad and good example, fix, and what project memory says about it."},
			explainViolation),
	}
}

func checkCompliance(ctx context.Context, c tool.Call, in complianceArgs) (string, any, error) {
	req := ciRequest(in.ciArgs)
	req.Lines = in.Lines
	if in.Path != "" {
		req.Paths = []string{in.Path}
	}
	r, err := c.Hands.CI(ctx, req)
	if err != nil {
		return "", nil, err
	}
	return render.ComplianceText(r, render.CheckTool), render.ComplianceViewOf(r), nil
}

// explainMemory is how many memory entries an explanation lists.
const explainMemory = 3

func explainViolation(ctx context.Context, c tool.Call, in explainArgs) (string, any, error) {
	e, err := c.Hands.Explain(in.Rule)
	if err != nil {
		return "", nil, err
	}
	var mem []render.MemoryRef
	if c.Memory != nil {
		q := memories.SearchQuery{Text: e.Words + " " + strings.Join(e.Globs, " "), Page: page.Page{Limit: explainMemory},
			Types: []string{string(memory.Decision), string(memory.Convention), string(memory.Mistake), string(memory.Pattern)}}
		res, err := c.Memory.Search(ctx, q)
		if err != nil {
			return "", nil, err
		}
		for _, h := range res.Hits {
			mem = append(mem, render.MemoryRef{ID: h.ID.String(), Type: string(h.Type), Title: h.Title, Snippet: h.Snippet})
		}
	}
	v := render.ExplainViewOf(e, mem)
	return render.ExplainText(v), v, nil
}

type gatesArgs struct {
	Lifecycle string   `json:"lifecycle,omitempty" jsonschema:"lifecycle id; default asdd's gates"`
	Coverage  string   `json:"coverage,omitempty" jsonschema:"coverage report path"`
	Threshold *float64 `json:"threshold,omitempty" jsonschema:"min coverage %"`
}

func gateTools() []tool.Tool {
	return []tool.Tool{
		tool.Declare("hands", mcp.Tool{Name: "check_quality_gates", Annotations: tool.ReadOnly,
			Description: "Lifecycle quality gates from recorded evidence: test runs, check findings, coverage, failures; runs nothing."},
			checkQualityGates, tool.Bounds("threshold", 0, 100)),
	}
}

func checkQualityGates(ctx context.Context, c tool.Call, in gatesArgs) (string, any, error) {
	req := gates.Request{Agent: c.Agent, Lifecycle: in.Lifecycle, Coverage: in.Coverage}
	if in.Threshold != nil {
		req.Threshold = *in.Threshold
	}
	r, err := gates.New(c.Hands, c.Memory, c.Lifecycles).Evaluate(ctx, req)
	if err != nil {
		return "", nil, err
	}
	return render.GatesText(r), render.GatesViewOf(r), nil
}

type migrationArgs struct {
	Name   string `json:"name" jsonschema:"dependency, as its manifest spells it"`
	To     string `json:"to" jsonschema:"target version"`
	Path   string `json:"path,omitempty" jsonschema:"manifest dir; default root"`
	Create bool   `json:"create,omitempty" jsonschema:"make the tasks (default: dry run)"`
}

func migrationTools() []tool.Tool {
	return []tool.Tool{
		tool.Declare("hands", mcp.Tool{Name: "plan_migration",
			Description: "Upgrade plan as tasks with dependencies: guardrails, verified steps, cleanup; known breaking changes. Dry run unless create."},
			planMigration),
	}
}

func planMigration(ctx context.Context, c tool.Call, in migrationArgs) (string, any, error) {
	m := migrate.New(c.Hands, c.Knowledge, c.Plan)
	p, err := m.Plan(ctx, migrate.Request{Name: in.Name, To: in.To, Dir: in.Path})
	if err != nil {
		return "", nil, err
	}
	if !in.Create {
		return render.MigrationText(p, nil), render.MigrationViewOf(p, nil), nil
	}
	created, err := m.Create(ctx, p)
	if err != nil {
		return "", nil, err
	}
	return render.MigrationText(p, &created), render.MigrationViewOf(p, &created), nil
}
