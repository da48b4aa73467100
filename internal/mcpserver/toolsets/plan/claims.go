package plan

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// Claims, in the plan toolset: when several agents share one plan, each
// claims what it works on for a lease.

type claimArgs struct {
	ID           tool.IDArg `json:"id,omitempty" jsonschema:"default: best free ready task"`
	LeaseSeconds int        `json:"lease_seconds,omitempty" jsonschema:"default 900"`
}

type renewArgs struct {
	ID           tool.IDArg `json:"id"`
	LeaseSeconds int        `json:"lease_seconds,omitempty" jsonschema:"default 900"`
}

type releaseArgs struct {
	ID     tool.IDArg `json:"id"`
	Status string     `json:"status,omitempty" jsonschema:"e.g. done"`
	Force  bool       `json:"force,omitempty" jsonschema:"done despite open dependencies"`
}

func claimTools() []tool.Tool {
	const ts = "plan"
	lease := tool.Bounds("lease_seconds", 1, float64(task.MaxLease/time.Second))
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "claim_task",
			Description: "Lease a task so other agents skip it; done or cancelled ends it."},
			claimTask, lease),
		tool.Declare(ts, mcp.Tool{Name: "renew_claim",
			Description: "Extend your claim's lease from now."},
			renewClaim, lease),
		tool.Declare(ts, mcp.Tool{Name: "release_task",
			Description: "End your claim."},
			releaseTask),
	}
}

type claimResultOut struct {
	Task    *planTask       `json:"task,omitempty"`
	Claim   *tool.ClaimView `json:"claim,omitempty"`
	Expired *tool.ClaimView `json:"replacedExpired,omitempty"`
	Renewed bool            `json:"renewed,omitempty"`
	Skipped int             `json:"skipped,omitempty"`
	Message string          `json:"message"`
}

func claimResult(verb string, r plan.ClaimResult) (string, any, error) {
	out := claimResultOut{Renewed: r.Renewed, Skipped: r.Skipped}
	if r.Task.ID == 0 {
		out.Message = r.Message
		return out.Message, out, nil
	}
	p := item(r.Task, nil)
	out.Task = &p
	out.Claim = tool.ClaimViewOf(&r.Claim, false)
	out.Message = fmt.Sprintf("%s task %s %q until %s.", verb, r.Task.ID, r.Task.Title, tool.Timestamp(r.Claim.ExpiresAt))
	if r.Renewed && verb == "Claimed" {
		out.Message = fmt.Sprintf("Renewed your claim on task %s %q until %s.", r.Task.ID, r.Task.Title, tool.Timestamp(r.Claim.ExpiresAt))
	}
	if r.Expired != nil {
		out.Expired = tool.ClaimViewOf(r.Expired, true)
		out.Message += fmt.Sprintf(" It took over %s's claim, which expired %s.", r.Expired.Agent, tool.Timestamp(r.Expired.ExpiresAt))
	}
	if r.Skipped > 0 {
		out.Message += " Skipped " + words.Plural(r.Skipped, "ready task", "ready tasks") + " other agents hold."
	}
	out.Message += " renew_claim before then; release_task when done."
	return out.Message + "\n" + line(p), out, nil
}

func claimTask(ctx context.Context, c tool.Call, in claimArgs) (string, any, error) {
	r, err := c.Plan.Claim(ctx, plan.ClaimRequest{Agent: c.Agent, Ref: strings.TrimSpace(string(in.ID)), LeaseSeconds: in.LeaseSeconds})
	if err != nil {
		return "", nil, err
	}
	return claimResult("Claimed", r)
}

func renewClaim(ctx context.Context, c tool.Call, in renewArgs) (string, any, error) {
	if strings.TrimSpace(string(in.ID)) == "" {
		return "", nil, &problem.FieldError{Field: "id", Problem: "is missing", Fix: "pass the task whose claim to renew"}
	}
	r, err := c.Plan.Renew(ctx, plan.ClaimRequest{Agent: c.Agent, Ref: string(in.ID), LeaseSeconds: in.LeaseSeconds})
	if err != nil {
		return "", nil, err
	}
	return claimResult("Renewed your claim on", r)
}

type releaseOut struct {
	Task    planTask `json:"task"`
	Message string   `json:"message"`
}

func releaseTask(ctx context.Context, c tool.Call, in releaseArgs) (string, any, error) {
	if strings.TrimSpace(string(in.ID)) == "" {
		return "", nil, &problem.FieldError{Field: "id", Problem: "is missing", Fix: "pass the task whose claim to release"}
	}
	r, err := c.Plan.Release(ctx, plan.ReleaseRequest{Agent: c.Agent, Ref: string(in.ID), Status: in.Status, Force: in.Force})
	if err != nil {
		return "", nil, err
	}
	p := item(r.Task, nil)
	msg := fmt.Sprintf("Released task %s %q (%s); any agent may claim it.", r.Task.ID, r.Task.Title, r.Task.Status)
	if !r.Task.Status.Open() {
		msg = fmt.Sprintf("Released task %s %q, now %s.", r.Task.ID, r.Task.Title, r.Task.Status)
	}
	return msg, releaseOut{Task: p, Message: msg}, nil
}
