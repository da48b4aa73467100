// Package evolution declares the evolution toolset: patterns across
// sessions become drafts and changes, reviewed and reverted.
package evolution

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/evolution"
)

// The evolution toolset: patterns across sessions become changes, applied
// or drafted by confidence, logged and revertible.

type analyzeArgs struct {
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"report only"`
	Kind   string `json:"kind,omitempty"`
	Diff   bool   `json:"diff,omitempty" jsonschema:"show each diff"`
}

type seqArgs struct {
	Seq int `json:"seq,omitempty" jsonschema:"log entry; review default newest"`
}

type draftCreateArgs struct {
	Candidate string `json:"candidate,omitempty" jsonschema:"key from evolution_analyze"`
	Kind      string `json:"kind,omitempty"`
	Title     string `json:"title,omitempty"`
	Content   string `json:"content,omitempty"`
}

type draftListArgs struct {
	Status        string  `json:"status,omitempty"`
	Kind          string  `json:"kind,omitempty"`
	MinConfidence float64 `json:"min_confidence,omitempty"`
}

type draftIDArgs struct {
	ID     string `json:"id"`
	Reason string `json:"reason,omitempty" jsonschema:"reject only"`
}

func Tools() []tool.Tool {
	const ts = "evolution"
	kinds := tool.Enum("kind", tool.EnumValues(evolution.Kinds)...)
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "evolution_analyze",
			Description: "Find patterns in the session history (recurring mistakes, tool sequences, better models, checks fixed at once, helpful knowledge), each with evidence and confidence; applies, drafts or keeps pending by the thresholds."},
			analyzeTool, kinds),
		tool.Declare(ts, mcp.Tool{Name: "evolution_status", Annotations: tool.ReadOnly,
			Description: "What evolution learned, what is pending and why, drafts, thresholds, learning period or kill switch."},
			evolutionStatusTool),
		tool.Declare(ts, mcp.Tool{Name: "evolution_review", Annotations: tool.ReadOnly,
			Description: "One logged change before and after, with its evidence."},
			evolutionReviewTool),
		tool.Declare(ts, mcp.Tool{Name: "evolution_revert",
			Description: "Restore exactly what a logged change replaced, and log it; refused if the file changed since."},
			evolutionRevertTool),
		tool.Declare(ts, mcp.Tool{Name: "draft_create",
			Description: "Write a draft for review under .cairn/drafts: from a candidate key, or by hand (kind, title, content)."},
			draftCreateTool, kinds),
		tool.Declare(ts, mcp.Tool{Name: "draft_list", Annotations: tool.ReadOnly,
			Description: "Drafts with confidence and evidence, most confident first; filter by status, kind, confidence."},
			draftListTool, kinds, tool.Enum("status", tool.EnumValues(evolution.DraftStatuses)...)),
		tool.Declare(ts, mcp.Tool{Name: "draft_approve",
			Description: "Promote a draft into the project (knowledge, workflows, routing, config), logged; refused if the target changed since."},
			draftApproveTool),
		tool.Declare(ts, mcp.Tool{Name: "draft_reject",
			Description: "Reject a draft: its pattern is not proposed again."},
			draftRejectTool),
	}
}

func analyzeTool(ctx context.Context, c tool.Call, in analyzeArgs) (string, any, error) {
	a, err := c.Evolution.Analyze(ctx, evolution.Query{DryRun: in.DryRun, Kind: in.Kind})
	if err != nil {
		return "", nil, err
	}
	text, out := render.Analysis(a, in.Diff)
	return text, out, nil
}

func evolutionStatusTool(ctx context.Context, c tool.Call, _ struct{}) (string, any, error) {
	s, err := c.Evolution.Status(ctx)
	if err != nil {
		return "", nil, err
	}
	text, out := render.EvolutionStatus(s)
	return text, out, nil
}

func evolutionReviewTool(_ context.Context, c tool.Call, in seqArgs) (string, any, error) {
	r, err := c.Evolution.Review(in.Seq)
	if err != nil {
		return "", nil, err
	}
	text, out := render.EvolutionReview(r)
	return text, out, nil
}

func evolutionRevertTool(_ context.Context, c tool.Call, in seqArgs) (string, any, error) {
	e, err := c.Evolution.Revert(in.Seq)
	if err != nil {
		return "", nil, err
	}
	text, out := render.EntryText(e)
	return text, out, nil
}

func draftCreateTool(ctx context.Context, c tool.Call, in draftCreateArgs) (string, any, error) {
	d, err := c.Evolution.CreateDraft(func() (evolution.Analysis, error) {
		return c.Evolution.Analyze(ctx, evolution.Query{DryRun: true})
	}, evolution.NewDraft{Kind: in.Kind, Title: in.Title, Content: in.Content, Candidate: in.Candidate})
	if err != nil {
		return "", nil, err
	}
	return "Drafted " + d.ID + ": " + d.File + " (approval writes " + d.Target + ").", render.DraftViewOf(d), nil
}

func draftListTool(_ context.Context, c tool.Call, in draftListArgs) (string, any, error) {
	ds, err := c.Evolution.Drafts(evolution.DraftQuery{Status: in.Status, Kind: in.Kind, MinConfidence: in.MinConfidence})
	if err != nil {
		return "", nil, err
	}
	text, out := render.DraftsText(ds)
	return text, map[string]any{"drafts": out}, nil
}

func draftApproveTool(_ context.Context, c tool.Call, in draftIDArgs) (string, any, error) {
	d, e, err := c.Evolution.Approve(in.ID)
	if err != nil {
		return "", nil, err
	}
	text, ev := render.EntryText(e)
	return "Approved " + d.ID + ". " + text, map[string]any{"draft": render.DraftViewOf(d), "change": ev}, nil
}

func draftRejectTool(_ context.Context, c tool.Call, in draftIDArgs) (string, any, error) {
	d, err := c.Evolution.Reject(in.ID, in.Reason)
	if err != nil {
		return "", nil, err
	}
	return "Rejected " + d.ID + ": not proposed again.", render.DraftViewOf(d), nil
}
