package insight

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/service/insight"
)

type feedbackArgs struct {
	Rating    string `json:"rating"`
	SessionID string `json:"session_id,omitempty" jsonschema:"default: this agent's open session"`
	Tool      string `json:"tool,omitempty" jsonschema:"rate this tool's answer; default: the session"`
	Note      string `json:"note,omitempty"`
	By        string `json:"by,omitempty" jsonschema:"default agent; person when relaying the user's"`
}

// feedbackOut is what the feedback tool stored.
type feedbackOut struct {
	Session  string `json:"session"`
	Rating   string `json:"rating"`
	Target   string `json:"target"`
	By       string `json:"by"`
	Note     string `json:"note,omitempty"`
	Count    int    `json:"count"`
	Redacted int    `json:"redacted,omitempty"`
}

func feedbackTool() tool.Tool {
	return tool.Declare("insight", mcp.Tool{Name: "feedback",
		Description: "Rate a session, or one tool's answer in it, good or bad, with an optional note; counted in model_performance and project_health."},
		giveFeedback, tool.Enum("rating", tool.EnumValues(insight.Ratings)...), tool.Enum("by", tool.EnumValues(insight.Givers)...))
}

func giveFeedback(ctx context.Context, c tool.Call, in feedbackArgs) (string, any, error) {
	if in.By == "" {
		in.By = insight.ByAgent
	}
	r, err := c.Insight.Give(ctx, c.Agent, insight.Feedback{Session: in.SessionID, Rating: in.Rating, Tool: in.Tool, Note: in.Note, By: in.By})
	if err != nil {
		return "", nil, err
	}
	out := feedbackOut{Session: r.Session.String(), Rating: r.Rating, Target: r.Target, By: r.By, Note: r.Note, Count: r.Count, Redacted: r.Redacted}
	text := fmt.Sprintf("Recorded: %s rated %s by %s in %s", r.Target, r.Rating, r.By, r.Session)
	if r.Count > 1 {
		text += fmt.Sprintf(" (given %d times)", r.Count)
	}
	if r.Redacted > 0 {
		text += fmt.Sprintf("; %d secrets redacted from the note", r.Redacted)
	}
	return text + ".", out, nil
}
