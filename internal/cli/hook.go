package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/proc"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/setup"
	"github.com/cairn-dev/cairn/internal/usage"
)

// The hook events `cairn hook` answers, named as Claude Code's events are,
// in kebab case. Gemini CLI's are the same with other names: BeforeAgent is
// user-prompt-submit, AfterTool post-tool-use, PreCompress pre-compact,
// AfterAgent stop.
var hookEvents = []string{"session-start", "user-prompt-submit", "post-tool-use", "pre-compact", "stop", "session-end"}

// The clients whose hooks `cairn hook` answers. Claude Code adds what a hook
// prints to the model's context; Gemini CLI wants JSON, with the context in
// hookSpecificOutput.additionalContext (plain text is shown to the user
// only).
const (
	clientClaude = "claude-code"
	clientGemini = "gemini"
)

// hookAgent is the agent the hooks speak for by default: Claude Code's
// client name, which cairn serve takes as the agent of its stdio session.
// For Gemini CLI it is the agent its server is started with
// (setup.GeminiAgent).
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
	clientInput
}

func hookCmd() *cobra.Command {
	var (
		agent, client string
		budget        int
		deadline      time.Duration
	)
	cmd := &cobra.Command{
		Use:   "hook EVENT",
		Short: "Answer an agent client's hook (Claude Code, Gemini CLI, Codex CLI, Cursor, VS Code): " + strings.Join(hookEvents, ", "),
		Long: `Reads the hook's JSON on stdin and answers as the event expects:
  session-start       opens (or, for source resume|compact, carries on) the session and prints the bootstrap
  user-prompt-submit  prints a few lines of memory that match the prompt well, or nothing
  post-tool-use       records files modified, tests run and failed commands (also for PostToolUseFailure)
  pre-compact, stop   nothing to do: every event is recorded as it happens
  session-end         ends the session: its outcome from its record, folded into its branch
A hook never fails the agent: any problem is one line on stderr and exit status 0.
` + "`cairn init --hooks`" + ` wires these into .claude/settings.json; for Gemini CLI
(--client gemini: BeforeAgent, AfterTool, PreCompress, AfterAgent are the events'
names there) into .gemini/settings.json; for Codex CLI (--client codex) into
.codex/hooks.json; for Cursor (--client cursor: sessionStart, postToolUse,
postToolUseFailure, preCompact, stop, sessionEnd) into .cursor/hooks.json; for VS
Code (--client vscode) into .github/hooks/cairn.json. Without --client, the
payload says whose it is (VS Code also runs the hooks of .claude/settings.json).`,
		Args:               cobra.ArbitraryArgs,
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			if client = strings.ToLower(strings.TrimSpace(client)); client == "claude" {
				client = clientClaude
			}
			if !slices.Contains(hookClients, client) {
				fmt.Fprintf(cmd.ErrOrStderr(), "cairn hook: --client %q: use one of %s\n", client, strings.Join(hookClients, ", "))
				return nil
			}
			h := hookRequest{client: client, detect: !cmd.Flags().Changed("client"), agent: agent,
				agentSet: cmd.Flags().Changed("agent") || os.Getenv("CAIRN_AGENT") != ""}
			stop := guardHook(cmd.ErrOrStderr(), args, deadline)
			defer stop()
			// The guard, not the context, answers SIGTERM and SIGINT: with
			// the context cancelled too, a write in flight could fail first
			// and the hook end saying "context canceled" instead of why.
			cmd.SetContext(context.WithoutCancel(cmd.Context()))
			if err := runHook(cmd, args, h, budget); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "cairn hook %s: %s\n", strings.Join(args, " "), oneLineErr(err))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&agent, "agent", app.EnvDefault("CAIRN_AGENT", hookAgent),
		"agent name (env CAIRN_AGENT); default "+hookAgent+", the name Claude Code gives cairn serve, so the hooks and the tools share YOU ARE HERE")
	cmd.Flags().IntVar(&budget, "budget", brief.DefaultBootstrapBudget, "session-start: the bootstrap's budget in tokens")
	cmd.Flags().DurationVar(&deadline, "deadline", hookDeadline, "the most a hook may take, whatever it waits for; past it, it exits 0 (clients time hooks out at 10 s)")
	cmd.Flags().StringVar(&client, "client", clientClaude, "whose hook this is: "+strings.Join(hookClients, ", ")+"; its agent is then the one cairn init starts its server with (gemini-cli, codex, cursor, vscode); unset, the payload says")
	return cmd
}

// hookDeadline is the most a hook takes: under the 10 s that cairn init
// gives Claude Code's and Gemini CLI's hooks, so the client never has to
// kill one.
const hookDeadline = 8 * time.Second

// guardHook ends the process, with exit status 0 and a line on stderr,
// when the hook outlives its deadline or is asked to stop (SIGTERM,
// SIGINT): a wait on another process's lock or a CPU-bound step does not
// look at a context. Exiting mid-write is safe: a write is one
// transaction, kept whole or not at all. The returned func disarms it.
func guardHook(stderr io.Writer, args []string, deadline time.Duration) func() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	t := time.NewTimer(deadline)
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case s := <-sig:
			fmt.Fprintf(stderr, "cairn hook %s: stopped by %v; what was committed stays, the rest is not recorded\n", strings.Join(args, " "), s)
		case <-t.C:
			fmt.Fprintf(stderr, "cairn hook %s: took over %v (is another process holding the store?); what was committed stays, the rest is not recorded\n", strings.Join(args, " "), deadline)
		}
		os.Exit(0)
	}()
	return func() {
		signal.Stop(sig)
		t.Stop()
		close(done)
	}
}

func oneLineErr(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// hookRequest says whose hook runs: the client (--client), whether to
// read it from the payload instead, and the agent it speaks for.
type hookRequest struct {
	client, agent    string
	detect, agentSet bool
}

func runHook(cmd *cobra.Command, args []string, h hookRequest, budget int) (err error) {
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
	client, agent := h.client, h.agent
	if h.detect {
		client = detectClient(in)
	}
	if !h.agentSet {
		agent = clientAgents[client]
	}
	w := cmd.OutOrStdout()
	if event == "stop" && in.StopHookActive {
		return writeNothing(w, client)
	}
	dir := in.projectDir()
	for _, env := range []string{"CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"} {
		if dir == "" {
			dir = os.Getenv(env)
		}
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
	// after a killed process; the store itself checkpoints the WAL after
	// any commit that leaves it past its bound (1 MiB), so only one hook in
	// a few dozen pays those fsyncs. A PostgreSQL store is closed properly.
	if os.Getenv(app.EnvDatabaseURL) != "" {
		defer s.Close()
	}
	start := time.Now()
	defer func() {
		recordHook(ctx, s, event, hookClient(client, in).Name, agent, in.Model, time.Since(start), err)
	}()
	// addContext gives the model text, as the client wants it.
	addContext := func(text string) error {
		return writeContext(w, client, in.eventName(client, event), text)
	}
	nothing := func(err error) error {
		if err != nil {
			return err
		}
		return writeNothing(w, client)
	}
	switch event {
	case "session-start":
		res, err := s.Brief.StartHook(ctx, brief.HookStart{Agent: agent, Client: hookClient(client, in), Source: in.Source,
			AI: memory.Provider{Provider: providerOf(in.Model), Model: in.Model, Client: client},
			Boot: brief.BootstrapRequest{BudgetTokens: hookBudget(cmd, budget, s.Root), MaxBytes: hookMaxBytes, Hint: render.BootstrapHint,
				// A hook is a new process: building the o200k encoder would
				// be most of its time (about 20 ms of CPU of 30).
				Estimate: true}})
		if err != nil {
			return err
		}
		return addContext(res.Bootstrap.Text + render.Announcement(s.Evolution.Announcements("hook")))
	case "user-prompt-submit":
		hits, err := s.Memory.Recall(ctx, in.Prompt)
		if err != nil || len(hits) == 0 {
			return nothing(err)
		}
		var out strings.Builder
		out.WriteString("Cairn memory that matches this prompt (memory_get ids for the full entries):\n")
		for _, h := range hits {
			out.WriteString("- " + string(h.Type) + " " + memories.IndexLine(h) + "\n")
		}
		return addContext(out.String())
	case "post-tool-use":
		u := toolUse(agent, in)
		if client == clientCodex || client == clientCursor || client == clientVSCode {
			u = clientToolUse(agent, client, in)
		}
		u.Client = hookClient(client, in)
		_, err := s.Memory.RecordToolUse(ctx, u)
		return nothing(err)
	case "pre-compact", "stop":
		// Nothing to fold: every event is in the store as it happens, and
		// the session's record is read from there.
		return nothing(nil)
	case "session-end":
		if _, err := s.Memory.EndClient(ctx, agent, hookClient(client, in)); err != nil {
			return nothing(err)
		}
		// After a session, the evolution engine looks for patterns
		// ([evolution] analyze_on_session_end); what it finds is in
		// evolution_status, and a failure here is not the hook's.
		_, _ = s.Evolution.AfterSession(ctx)
		return nothing(nil)
	}
	return errors.New("unreachable")
}

// recordHook hands the hook's measure to the insight recorder and writes
// it before the process ends (a hook is a process of its own).
func recordHook(ctx context.Context, s *app.Services, event, client, agent, model string, d time.Duration, err error) {
	if !s.Insight.Enabled() {
		return
	}
	e := usage.Event{Kind: usage.KindHook, Name: event, Agent: agent, Client: client, Model: model, Duration: d, Outcome: usage.OK}
	if err != nil {
		e.Outcome = problem.KindOf(err).String()
	}
	s.Insight.Record(e)
	_ = s.Insight.Flush(ctx)
}

// hookClient is the client a hook is from: its name, its own session id
// and its process (the nearest ancestor of this one that is not a shell:
// its MCP servers descend from it too, which links them to the session).
func hookClient(client string, in hookInput) memory.Client {
	c := memory.Client{Name: client, SessionID: in.sessionID(client)}
	if c.Name == clientGemini {
		c.Name = setup.GeminiAgent
	}
	if p, ok := proc.Client(); ok {
		c.Proc = p
	}
	return c
}

// toolUse reads what a tool call did from its hook input: the files an
// edit wrote, the command a shell ran, what it printed and whether it
// failed.
func toolUse(agent string, in hookInput) memories.ToolUse {
	u := memories.ToolUse{Agent: agent, Tool: in.ToolName}
	type edit struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	}
	var ti struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Command      string `json:"command"`
		edit
		Edits []edit `json:"edits"` // MultiEdit
	}
	_ = json.Unmarshal(in.ToolInput, &ti)
	switch in.ToolName {
	case "Edit", "Write", "MultiEdit", "NotebookEdit", // Claude Code
		"write_file", "replace": // Gemini CLI
		for _, f := range []string{ti.FilePath, ti.NotebookPath} {
			if f != "" {
				u.Files = append(u.Files, f)
			}
		}
		// The text an edit replaced and put in: an edit that puts back
		// what an earlier one replaced undoes it.
		if ti.FilePath != "" && in.HookEventName != "PostToolUseFailure" {
			for _, e := range append([]edit{ti.edit}, ti.Edits...) {
				if e.OldString != "" && e.OldString != e.NewString {
					u.Edits = append(u.Edits, memories.Edit{Path: ti.FilePath, Old: e.OldString, New: e.NewString})
				}
			}
		}
	case "Bash":
		u.Command = ti.Command
	case "run_shell_command":
		u.Command = ti.Command
		u.Failed, u.Error = geminiShellFailure(in.ToolResponse)
		return u
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
		Stdout    string `json:"stdout"`
		Stderr    string `json:"stderr"`
	}
	_ = json.Unmarshal(in.ToolResponse, &tr)
	u.Output = strings.TrimSpace(tr.Stdout + "\n" + tr.Stderr)
	for _, c := range []*int{tr.ExitCode, tr.ExitCode2} {
		if c != nil && *c != 0 {
			u.Failed, u.Error = true, fmt.Sprintf("exit status %d\n%s", *c, tr.Stderr)
		}
	}
	return u
}

// geminiShellFailure reads whether Gemini CLI's shell tool failed from its
// result, and what it printed: the result the model reads is
// "Output: ..." and then, one a line, "Error: ...", "Exit Code: N" (when
// not 0), "Signal: ..." and the process ids.
func geminiShellFailure(resp json.RawMessage) (bool, string) {
	var tr struct {
		LLMContent json.RawMessage `json:"llmContent"`
		Error      *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(resp, &tr) != nil {
		return false, ""
	}
	var text string
	if json.Unmarshal(tr.LLMContent, &text) != nil {
		// Parts rather than a string: their texts.
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(tr.LLMContent, &parts)
		for _, p := range parts {
			text += p.Text
		}
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var status, errLine string
	for len(lines) > 1 {
		last := lines[len(lines)-1]
		key, val, _ := strings.Cut(last, ": ")
		switch key {
		case "Exit Code":
			status = "exit status " + val
		case "Error":
			errLine = val
		case "Signal":
			status = "signal " + val
		case "Background PIDs", "Process Group PGID":
		default:
			key = ""
		}
		if key == "" {
			break
		}
		lines = lines[:len(lines)-1]
	}
	if tr.Error != nil && tr.Error.Message != "" {
		errLine = tr.Error.Message
	}
	if status == "" && errLine == "" {
		return false, ""
	}
	output := strings.TrimPrefix(strings.Join(lines, "\n"), "Output: ")
	if output == "(empty)" {
		output = ""
	}
	var parts []string
	for _, p := range []string{status, errLine, strings.TrimSpace(output)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return true, strings.Join(parts, "\n")
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
