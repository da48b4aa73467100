package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
)

// The hook events `cairn hook` answers, named as Claude Code's events are,
// in kebab case.
var hookEvents = []string{"session-start", "user-prompt-submit", "post-tool-use", "pre-compact", "stop", "session-end"}

// hookAgent is the agent the hooks speak for by default: Claude Code's
// client name, which cairn serve takes as the agent of its stdio session.
const hookAgent = "claude-code"

// Hook limits. Claude Code replaces added context over 10,000 characters
// with a short preview; the session start stays well under that.
const (
	hookMaxBytes = 9500
	hookMaxInput = 16 << 20
	hookTimeout  = 5 * time.Second
)

// hookInput is the JSON a Claude Code hook receives on stdin: the fields
// every event has and those of the events Cairn answers.
type hookInput struct {
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	Source         string          `json:"source"` // SessionStart: startup, resume, clear, compact
	Model          string          `json:"model"`
	Prompt         string          `json:"prompt"` // UserPromptSubmit
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	Error          string          `json:"error"` // PostToolUseFailure
	IsInterrupt    bool            `json:"is_interrupt"`
	Trigger        string          `json:"trigger"` // PreCompact: manual, auto
	Reason         string          `json:"reason"`  // SessionEnd
	StopHookActive bool            `json:"stop_hook_active"`
}

func hookCmd() *cobra.Command {
	var (
		agent  string
		budget int
	)
	cmd := &cobra.Command{
		Use:   "hook EVENT",
		Short: "Answer an agent client's hook (Claude Code): " + strings.Join(hookEvents, ", "),
		Long: `Reads the hook's JSON on stdin and answers as the event expects:
  session-start       opens (or, for source resume|compact, carries on) the session and prints the bootstrap
  user-prompt-submit  prints a few lines of memory that match the prompt well, or nothing
  post-tool-use       records files modified, tests run and failed commands (also for PostToolUseFailure)
  pre-compact, stop   folds the session's record into its branch's context
  session-end         folds it and ends the session
A hook never fails the agent: any problem is one line on stderr and exit status 0.
` + "`cairn init --hooks`" + ` wires these into .claude/settings.json.`,
		Args:               cobra.ArbitraryArgs,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := runHook(cmd, args, agent, budget); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "cairn hook %s: %s\n", strings.Join(args, " "), oneLineErr(err))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&agent, "agent", envDefault("CAIRN_AGENT", hookAgent),
		"agent name (env CAIRN_AGENT); default "+hookAgent+", the name Claude Code gives cairn serve, so the hooks and the tools share YOU ARE HERE")
	cmd.Flags().IntVar(&budget, "budget", service.DefaultBootstrapBudget, "session-start: the bootstrap's budget in tokens")
	return cmd
}

func oneLineErr(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

func runHook(cmd *cobra.Command, args []string, agent string, budget int) error {
	if len(args) != 1 || !slices.Contains(hookEvents, args[0]) {
		return fmt.Errorf("name one event: %s", strings.Join(hookEvents, ", "))
	}
	event := args[0]
	raw, err := io.ReadAll(io.LimitReader(cmd.InOrStdin(), hookMaxInput+1))
	if err != nil {
		return fmt.Errorf("read stdin: %w", err)
	}
	if len(raw) > hookMaxInput {
		return fmt.Errorf("the hook input is over %d MiB; nothing recorded", hookMaxInput>>20)
	}
	var in hookInput
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &in); err != nil {
			return fmt.Errorf("the hook input is not the JSON object a hook gets: %v", err)
		}
	}
	if event == "stop" && in.StopHookActive {
		return nil
	}
	dir := in.Cwd
	if dir == "" {
		dir = os.Getenv("CLAUDE_PROJECT_DIR")
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), hookTimeout)
	defer cancel()
	s, err := app.Open(ctx, app.Config{Dir: dir})
	if err != nil {
		return err
	}
	// The embedded store is left open: the process ends right after, and
	// closing would checkpoint the WAL with fsyncs that cost a hook more
	// than its work (about 10-20 ms). What was committed is in the WAL, as
	// after a killed process, and the next process to open the store
	// checkpoints it. A PostgreSQL store is closed properly.
	if os.Getenv(app.EnvDatabaseURL) != "" {
		defer s.Close()
	}
	w := cmd.OutOrStdout()
	b := s.Brain
	switch event {
	case "session-start":
		res, err := b.StartHook(ctx, service.HookStart{Agent: agent, Source: in.Source,
			AI: memory.Provider{Provider: providerOf(in.Model), Model: in.Model, Client: "claude-code"},
			Boot: service.BootstrapRequest{BudgetTokens: budget, MaxBytes: hookMaxBytes, Hint: mcpserver.ContextHint,
				// A hook is a new process: building the o200k encoder would
				// be most of its time (about 20 ms of CPU of 30).
				Estimate: true}})
		if err != nil {
			return err
		}
		_, err = io.WriteString(w, res.Bootstrap.Text)
		return err
	case "user-prompt-submit":
		hits, err := b.Recall(ctx, in.Prompt)
		if err != nil || len(hits) == 0 {
			return err
		}
		var out strings.Builder
		out.WriteString("Cairn memory that matches this prompt (memory_get ids for the full entries):\n")
		for _, h := range hits {
			out.WriteString("- " + string(h.Type) + " " + service.IndexLine(h) + "\n")
		}
		_, err = io.WriteString(w, out.String())
		return err
	case "post-tool-use":
		_, err := b.RecordToolUse(ctx, toolUse(agent, in))
		return err
	case "pre-compact", "stop":
		_, err := b.FoldHook(ctx, agent, false)
		return err
	case "session-end":
		_, err := b.FoldHook(ctx, agent, true)
		return err
	}
	return errors.New("unreachable")
}

// toolUse reads what a tool call did from its hook input: the files an
// edit wrote, the command a shell ran and whether it failed.
func toolUse(agent string, in hookInput) service.ToolUse {
	u := service.ToolUse{Agent: agent, Tool: in.ToolName}
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Command      string `json:"command"`
	}
	_ = json.Unmarshal(in.ToolInput, &ti)
	switch in.ToolName {
	case "Edit", "Write", "MultiEdit", "NotebookEdit":
		for _, f := range []string{ti.FilePath, ti.NotebookPath} {
			if f != "" {
				u.Files = append(u.Files, f)
			}
		}
	case "Bash":
		u.Command = ti.Command
	}
	if u.Command == "" {
		return u
	}
	if in.HookEventName == "PostToolUseFailure" {
		u.Failed, u.Error = !in.IsInterrupt, in.Error
		return u
	}
	// Clients that report a shell's exit code on success events.
	var tr struct {
		ExitCode  *int   `json:"exit_code"`
		ExitCode2 *int   `json:"exitCode"`
		Stderr    string `json:"stderr"`
	}
	_ = json.Unmarshal(in.ToolResponse, &tr)
	for _, c := range []*int{tr.ExitCode, tr.ExitCode2} {
		if c != nil && *c != 0 {
			u.Failed, u.Error = true, fmt.Sprintf("exit status %d\n%s", *c, tr.Stderr)
		}
	}
	return u
}

func providerOf(model string) string {
	switch m := strings.ToLower(model); {
	case m == "":
		return ""
	case strings.Contains(m, "claude"), strings.Contains(m, "opus"), strings.Contains(m, "sonnet"), strings.Contains(m, "haiku"):
		return "anthropic"
	case strings.HasPrefix(m, "gpt"), strings.HasPrefix(m, "o1"), strings.HasPrefix(m, "o3"), strings.HasPrefix(m, "o4"):
		return "openai"
	case strings.Contains(m, "gemini"):
		return "google"
	}
	return ""
}
