// Package setup wires a project into the agent clients people use: the MCP
// server in each client's project configuration (Claude Code, Cursor, VS
// Code, Codex, Gemini CLI), every client's hooks (clienthooks.go for Codex,
// Cursor and VS Code), and a short section in AGENTS.md. It merges into the files that are there, never dropping or
// rewriting what it did not write, and a second run changes nothing.
package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/cairn-dev/cairn/internal/projectinfo"
)

// Clients lists the clients init can wire, by the names --client takes.
var Clients = []string{"claude-code", "cursor", "vscode", "codex", "gemini"}

// clientDirs are the directories whose presence says a project uses a
// client already.
var clientDirs = map[string]string{"cursor": ".cursor", "vscode": ".vscode", "codex": ".codex", "gemini": ".gemini"}

// Options say what to wire.
type Options struct {
	Root string
	// Clients to wire; empty means Claude Code and every client whose
	// directory the project already has.
	Clients []string
	// Hooks adds each client's hooks (cairn hook EVENT), and names the agent
	// of the servers it adds (serve --agent) as the hooks do.
	Hooks bool
	// Command is how the clients run cairn; default "cairn".
	Command string
}

// Change is one file init would write.
type Change struct {
	Path   string // relative to the root, slash-separated
	Before []byte // nil: the file does not exist
	After  []byte
	What   string // what changes, for people
}

// Changed reports whether the file's content changes.
// A Change with no After writes nothing (a file init decided not to write).
func (c Change) Changed() bool {
	return c.After != nil && (c.Before == nil || !bytes.Equal(c.Before, c.After))
}

// ResolveClients turns --client values into client names.
func ResolveClients(root string, names []string) ([]string, error) {
	var out []string
	for _, n := range names {
		for _, n := range strings.Split(n, ",") {
			n = strings.ToLower(strings.TrimSpace(n))
			switch {
			case n == "":
			case n == "all":
				out = append(out, Clients...)
			case n == "claude":
				out = append(out, "claude-code")
			case n == "vs-code" || n == "code":
				out = append(out, "vscode")
			case slices.Contains(Clients, n):
				out = append(out, n)
			default:
				return nil, fmt.Errorf("--client %q: use %s or all", n, strings.Join(Clients, ", "))
			}
		}
	}
	if len(out) == 0 {
		out = []string{"claude-code"}
		for _, c := range Clients[1:] {
			if fi, err := os.Stat(filepath.Join(root, clientDirs[c])); err == nil && fi.IsDir() {
				out = append(out, c)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return slices.Index(Clients, a) - slices.Index(Clients, b) })
	return slices.Compact(out), nil
}

// Plan reads the files init touches and returns what it would write, one
// Change per file, in a fixed order. It writes nothing.
func Plan(o Options) ([]Change, error) {
	if o.Command == "" {
		o.Command = "cairn"
	}
	clients, err := ResolveClients(o.Root, o.Clients)
	if err != nil {
		return nil, err
	}
	serve := func(agent string) []string {
		if o.Hooks && agent != "" {
			// The hooks speak for this agent: so must the tools.
			return []string{"serve", "--agent", agent}
		}
		return []string{"serve"}
	}
	var claudeSettings []byte // .claude/settings.json as this init leaves it
	var out []Change
	var errs []error
	add := func(c Change, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Path, err))
			return
		}
		out = append(out, c)
	}
	for _, cl := range clients {
		switch cl {
		case "claude-code":
			// alwaysLoad: Claude Code loads every tool of the server at the
			// start of a session instead of deferring them behind its tool
			// search, so the agent sees YOU ARE HERE's tools from the first turn.
			add(mcpServer(o.Root, ".mcp.json", "mcpServers", obj{{"type", "stdio"}, {"command", o.Command}, {"args", []string{"serve"}}, {"alwaysLoad", true}}))
			if o.Hooks {
				c, err := claudeHooks(o.Root, o.Command)
				claudeSettings = c.After
				add(c, err)
			}
		case "cursor":
			c, err := mcpServer(o.Root, ".cursor/mcp.json", "mcpServers", obj{{"command", o.Command}, {"args", serve(CursorAgent)}})
			add(withAgentNote(c, o.Hooks, "mcpServers", CursorAgent), err)
			if o.Hooks {
				add(cursorHooks(o.Root, o.Command))
			}
		case "vscode":
			c, err := mcpServer(o.Root, ".vscode/mcp.json", "servers", obj{{"type", "stdio"}, {"command", o.Command}, {"args", serve(VSCodeAgent)}})
			add(withAgentNote(c, o.Hooks, "servers", VSCodeAgent), err)
			if o.Hooks {
				if claudeSettings == nil {
					claudeSettings, _ = read(o.Root, ".claude/settings.json")
				}
				add(vscodeHooks(o.Root, o.Command, claudeRunsCairn(claudeSettings)))
			}
		case "codex":
			add(codexConfig(o.Root, o.Command, serve(CodexAgent)))
			if o.Hooks {
				add(codexHooks(o.Root, o.Command))
			}
		case "gemini":
			// The agent is named, not taken from Gemini CLI's client name
			// (which has varied between versions), so that the hooks speak
			// for the same agent as the tools: one YOU ARE HERE.
			c, err := mcpServer(o.Root, ".gemini/settings.json", "mcpServers",
				obj{{"command", o.Command}, {"args", []string{"serve", "--agent", GeminiAgent}}})
			if err == nil && o.Hooks {
				c, err = geminiHooks(c, o.Command)
			}
			add(c, err)
		}
	}
	add(agentsSection(o.Root))
	return out, errors.Join(errs...)
}

func read(root, rel string) ([]byte, error) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file (a symlink or a directory): leave it, or replace it with a file")
	}
	if fi.Size() > maxConfigFile {
		return nil, fmt.Errorf("is %d KiB; cairn init edits files of up to %d KiB: add Cairn to it by hand", fi.Size()>>10, maxConfigFile>>10)
	}
	if err := noLinkedDirs(root, rel); err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// maxConfigFile bounds the files init reads and edits (a 40 MB .mcp.json
// cost 3.9 GB and two and a half minutes).
const maxConfigFile = 1 << 20

// noLinkedDirs refuses a symbolic link among the directories from root
// down to rel's: a committed .claude that links elsewhere would have init
// write hooks into the settings file it points to.
func noLinkedDirs(root, rel string) error {
	p := root
	parts := strings.Split(filepath.ToSlash(filepath.Dir(filepath.FromSlash(rel))), "/")
	for _, c := range parts {
		if c == "." || c == "" {
			continue
		}
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // created as a directory
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("lies under %s, a symbolic link: init writes only inside the project; replace the link with a directory", c)
		}
	}
	return nil
}

// mcpServer adds the cairn server under key in a JSON config.
func mcpServer(root, rel, key string, entry obj) (Change, error) {
	c := Change{Path: rel}
	before, err := read(root, rel)
	if err != nil {
		return c, err
	}
	c.Before = before
	doc, servers, err := ensurePath(before, key)
	if err != nil {
		return c, fmt.Errorf("cannot merge into it (%v): fix the file, or move it aside and run init again", err)
	}
	if servers.get("cairn") != nil {
		c.After, c.What = before, "cairn is configured already (left as it is)"
		return c, nil
	}
	c.After = ensureNewline(insert(doc, servers, "cairn", entry))
	c.What = "adds the cairn MCP server"
	if slices.Contains(entry, field{"alwaysLoad", true}) {
		c.What += " (always loaded)"
	}
	return c, nil
}

func ensureNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b, '\n')
	}
	return b
}

// hookEvents are Claude Code's events and the cairn hook that answers
// each; matcher narrows tool events to the tools that change files or run
// commands.
var hookEvents = []hookSpec{
	{"SessionStart", "session-start", "startup|resume|clear|compact"},
	{"UserPromptSubmit", "user-prompt-submit", ""},
	{"PostToolUse", "post-tool-use", "Edit|Write|MultiEdit|NotebookEdit|Bash"},
	{"PostToolUseFailure", "post-tool-use", "Bash"},
	{"PreCompact", "pre-compact", ""},
	{"Stop", "stop", ""},
	{"SessionEnd", "session-end", ""},
}

// claudeHooks adds a cairn hook to every event in .claude/settings.json
// that does not run one yet.
func claudeHooks(root, command string) (Change, error) {
	const rel = ".claude/settings.json"
	c := Change{Path: rel}
	before, err := read(root, rel)
	if err != nil {
		return c, err
	}
	c.Before = before
	doc, added, err := addHooks(before, hookEvents, grouped, func(hook string) (string, obj) {
		return " hook " + hook, obj{{"type", "command"}, {"command", command + " hook " + hook}, {"timeout", 10}}
	})
	if err != nil {
		return c, err
	}
	c.After = ensureNewline(doc)
	if len(added) == 0 {
		c.After, c.What = before, "every event runs a cairn hook already"
	} else {
		c.What = "adds hooks: " + strings.Join(added, ", ")
	}
	return c, nil
}

// GeminiAgent is the agent Gemini CLI's server and hooks speak for.
const GeminiAgent = "gemini-cli"

// geminiHookEvents are Gemini CLI's events and the cairn hook that answers
// each (its names for Claude Code's); tool events are narrowed to the tools
// that write files or run commands. Lifecycle matchers are exact strings
// in Gemini CLI, so SessionStart has none: every source.
var geminiHookEvents = []hookSpec{
	{"SessionStart", "session-start", ""},
	{"BeforeAgent", "user-prompt-submit", ""},
	{"AfterTool", "post-tool-use", "write_file|replace|run_shell_command"},
	{"PreCompress", "pre-compact", ""},
	{"AfterAgent", "stop", ""},
	{"SessionEnd", "session-end", ""},
}

// geminiHooks adds a cairn hook to every Gemini CLI event in
// .gemini/settings.json (c, the server already merged in) that does not run
// one yet. Gemini CLI wants each hook named, and its timeout in
// milliseconds; it runs a project's hooks only in a folder the user trusts.
func geminiHooks(c Change, command string) (Change, error) {
	doc, added, err := addHooks(c.After, geminiHookEvents, grouped, func(hook string) (string, obj) {
		cmd := command + " hook --client gemini " + hook
		return " hook --client gemini " + hook, obj{{"name", "cairn-" + hook}, {"type", "command"}, {"command", cmd}, {"timeout", 10000}}
	})
	if err != nil {
		return c, err
	}
	var what []string
	if c.What != "" && (len(added) == 0 || !strings.HasPrefix(c.What, "cairn is configured already")) {
		what = append(what, c.What)
	}
	if len(added) > 0 {
		c.After = ensureNewline(doc)
		what = append(what, "adds hooks: "+strings.Join(added, ", "))
	}
	// What would keep the hooks from working as meant, said, not changed.
	var cfg struct {
		MCPServers map[string]struct {
			Args []string `json:"args"`
		} `json:"mcpServers"`
		HooksConfig struct {
			Enabled *bool `json:"enabled"`
		} `json:"hooksConfig"`
	}
	if json.Unmarshal(plain(c.After), &cfg) == nil {
		if args := cfg.MCPServers["cairn"].Args; !slices.Contains(args, GeminiAgent) {
			what = append(what, "note: its cairn server runs without --agent "+GeminiAgent+"; add it to args so the hooks and the tools share YOU ARE HERE")
		}
		if e := cfg.HooksConfig.Enabled; e != nil && !*e {
			what = append(what, "note: hooksConfig.enabled is false, so Gemini CLI runs no hooks")
		}
	}
	c.What = strings.Join(what, "; ")
	return c, nil
}

// hookShape is how a client's settings list the hooks of an event.
type hookShape bool

const (
	// grouped: an event lists groups, each with an optional matcher and
	// its hooks (Claude Code, Gemini CLI, Codex).
	grouped hookShape = true
	// flat: an event lists the hooks themselves, a matcher beside the
	// command (Cursor, VS Code).
	flat hookShape = false
)

// addHooks adds a cairn hook to each event of doc's "hooks" object that
// does not run that hook yet, in the file's shape: hook gives, for a cairn
// hook name, the command's suffix that says it runs already and the hook's
// entry. It returns the document and the events it added to.
func addHooks(doc []byte, events []hookSpec, shape hookShape, hook func(string) (string, obj)) ([]byte, []string, error) {
	var added []string
	for _, h := range events {
		var hooks *node
		var err error
		if doc, hooks, err = ensurePath(doc, "hooks"); err != nil {
			return nil, nil, fmt.Errorf("cannot merge into it (%v): fix the file, or move it aside and run init again", err)
		}
		suffix, entry := hook(h.hook)
		var item obj
		switch {
		case shape == flat:
			item = entry
			if h.matcher != "" {
				item = append(item, field{"matcher", h.matcher})
			}
		case h.matcher != "":
			item = obj{{"matcher", h.matcher}, {"hooks", []any{entry}}}
		default:
			item = obj{{"hooks", []any{entry}}}
		}
		list := hooks.get(h.event)
		switch {
		case list == nil:
			doc = insert(doc, hooks, h.event, []any{item})
		case list.kind != '[':
			return nil, nil, fmt.Errorf("hooks.%s is not a list: fix the file, or move it aside and run init again", h.event)
		case runsHook(plain(doc)[list.start:list.end], suffix):
			continue
		default:
			doc = insert(doc, list, "", item)
		}
		added = append(added, h.event)
	}
	return doc, added, nil
}

// runsHook reports whether a hook list already runs a cairn hook command,
// listed flat or in groups.
func runsHook(list []byte, hook string) bool {
	var entries []struct {
		Command string `json:"command"`
		Hooks   []struct {
			Command string `json:"command"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(list, &entries); err != nil {
		return false
	}
	runs := func(command string) bool {
		return strings.Contains(command, "cairn") && strings.HasSuffix(strings.TrimSpace(command), strings.TrimSpace(hook))
	}
	for _, e := range entries {
		if runs(e.Command) {
			return true
		}
		for _, h := range e.Hooks {
			if runs(h.Command) {
				return true
			}
		}
	}
	return false
}

// codexTable is compiled on first use, not at every process start.
var codexTable = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*\[\s*mcp_servers\s*\.\s*("cairn"|'cairn'|cairn)\s*\]`)
})

// codexHeader finds a table header of mcp_servers or one of its servers.
var codexHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*\[\s*mcp_servers\s*[.\]]`)
})

// codexConfig adds the cairn server to .codex/config.toml.
func codexConfig(root, command string, args []string) (Change, error) {
	const rel = ".codex/config.toml"
	c := Change{Path: rel}
	before, err := read(root, rel)
	if err != nil {
		return c, err
	}
	c.Before = before
	// Parsed before it is edited: an edit of text that is not TOML, or
	// whose mcp_servers is an inline table, would leave a file the client
	// cannot read while init said it succeeded.
	var doc map[string]any
	if _, err := toml.Decode(string(before), &doc); err != nil {
		return c, fmt.Errorf("is not valid TOML (%s); fix it, then run cairn init again", oneLine(err))
	}
	if servers, ok := doc["mcp_servers"].(map[string]any); ok && servers["cairn"] != nil || codexTable().Match(before) {
		c.After, c.What = before, "cairn is configured already (left as it is)"
		if len(args) == 3 {
			var have []string
			if s, ok := servers["cairn"].(map[string]any); ok {
				if list, ok := s["args"].([]any); ok {
					for _, a := range list {
						if a, ok := a.(string); ok {
							have = append(have, a)
						}
					}
				}
			}
			if !containsPair(have, args[1], args[2]) {
				c.What += "; note: its cairn server runs without --agent " + args[2] + "; add it to args so the hooks and the tools share YOU ARE HERE"
			}
		}
		return c, nil
	}
	if _, ok := doc["mcp_servers"]; ok && !codexHeader().Match(before) {
		// Written inline (mcp_servers = { … }) or with dotted keys: a
		// [mcp_servers.cairn] table may not add to it, and BurntSushi's
		// parser lets it through where Codex's does not.
		return c, fmt.Errorf("writes mcp_servers without a [mcp_servers.…] table header, which a [mcp_servers.cairn] table may not add to; add Cairn by hand:\n[mcp_servers.cairn]\ncommand = %q\nargs = [\"serve\"]", command)
	}
	var b bytes.Buffer
	b.Write(before)
	if len(before) > 0 {
		if before[len(before)-1] != '\n' {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	snippet := fmt.Sprintf("[mcp_servers.cairn]\ncommand = %q\nargs = [%s]\n", command, strings.Join(quoted, ", "))
	b.WriteString(snippet)
	if _, err := toml.Decode(b.String(), &doc); err != nil {
		return c, fmt.Errorf("cannot take a [mcp_servers.cairn] table as it is written (%s); add Cairn by hand:\n%s", oneLine(err), snippet)
	}
	c.After, c.What = b.Bytes(), "adds the cairn MCP server"
	return c, nil
}

func oneLine(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// AgentsSection is the change that writes Cairn's section of AGENTS.md
// (scaffold adds it where it is absent).
func AgentsSection(root string) (Change, error) { return agentsSection(root) }

// agentsSection writes Cairn's section of AGENTS.md between markers: added
// at the end if absent, rewritten if init's own text changed.
func agentsSection(root string) (Change, error) {
	const rel = "AGENTS.md"
	c := Change{Path: rel}
	before, err := read(root, rel)
	if err != nil {
		return c, err
	}
	c.Before = before
	section := projectinfo.CairnBegin + "\n" + agentsText + projectinfo.CairnEnd + "\n"
	text := string(before)
	i := strings.Index(text, projectinfo.CairnBegin)
	j := strings.Index(text, projectinfo.CairnEnd)
	switch {
	case i >= 0 && j > i:
		end := j + len(projectinfo.CairnEnd)
		if end < len(text) && text[end] == '\n' {
			end++
		}
		c.After = []byte(text[:i] + section + text[end:])
		c.What = "rewrites Cairn's section"
	case len(text) == 0:
		c.After = []byte("# AGENTS.md\n\n" + section)
		c.What = "adds a section on using Cairn"
	default:
		sep := "\n"
		if !strings.HasSuffix(text, "\n") {
			sep = "\n\n"
		} else if strings.HasSuffix(text, "\n\n") {
			sep = ""
		}
		c.After = []byte(text + sep + section)
		c.What = "adds a section on using Cairn"
	}
	if bytes.Equal(c.After, before) {
		c.What = "Cairn's section is up to date"
	}
	return c, nil
}

// agentsText tells agents how to work with Cairn, whichever client runs
// them.
const agentsText = `## Working memory: Cairn

This project keeps its plan and memory in Cairn (the ` + "`cairn`" + ` MCP server).

- Start where you are: the session-start hook gives you Cairn's bootstrap (YOU ARE HERE, the next task, recent decisions and mistakes); without it, call ` + "`get_current_task`" + ` and ` + "`get_next_task`" + `.
- Break work down with ` + "`create_new_task`" + ` (a deeper step) and ` + "`extend_current_task`" + ` (the next step); finish with ` + "`complete_current_task`" + `.
- Before changing something with history, ` + "`memory_search`" + ` it; fetch entries with ` + "`memory_get`" + `.
- Record what the next session needs: ` + "`memory_add_decision`" + ` (with the why), ` + "`memory_add_mistake`" + ` (root cause, fix, prevention), ` + "`memory_add_convention`" + `.
`

// Apply writes the changes that change something, creating directories.
func Apply(root string, changes []Change) error {
	for _, c := range changes {
		if !c.Changed() {
			continue
		}
		p := filepath.Join(root, filepath.FromSlash(c.Path))
		if err := noLinkedDirs(root, c.Path); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("create %s: %w", filepath.Dir(c.Path), err)
		}
		mode := os.FileMode(0o644)
		if fi, err := os.Lstat(p); err == nil {
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("write %s: is not a regular file (a symlink or a directory); leave it, or replace it with a file", c.Path)
			}
			mode = fi.Mode().Perm()
		}
		if err := writeNew(p, c.After, mode); err != nil {
			return fmt.Errorf("write %s: %w", c.Path, err)
		}
	}
	return nil
}

// writeNew replaces the file at p with b through a temporary file of a
// random name, created exclusively beside it: no predictable name a
// committed symlink could stand in for, and no two inits writing one
// temporary file.
func writeNew(p string, b []byte, mode os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".cairn-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// obj is a JSON object that keeps its keys in the order written.
type obj []field

type field struct {
	K string
	V any
}

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.K)
		v, err := json.Marshal(f.V)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
