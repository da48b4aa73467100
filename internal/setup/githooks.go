package setup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Git hooks: a commit-msg hook that checks the message (cairn commit-msg
// --check) and a pre-commit hook that scans the staged files for secrets
// (cairn check --only secrets). A project that manages its hooks with a
// tool (core.hooksPath, husky, pre-commit, lefthook) gets the lines to add
// there instead, and a hook a person wrote is never overwritten.

// hookMarker marks the hooks Cairn wrote: only those are rewritten.
const hookMarker = "# cairn:managed"

// GitHook is one hook file Cairn would write, or keeps.
type GitHook struct {
	Name string // commit-msg, pre-commit
	Path string // its file
	// Content is what Cairn writes; Line is what to add to a hook of
	// someone else's.
	Content, Line string
	// State: "create", "update", "same" (Cairn's, unchanged), "kept" (a
	// person's hook: not touched).
	State string
}

// GitHooksPlan is what init --git-hooks does.
type GitHooksPlan struct {
	// Manager is the hook manager found ("" for none): core.hooksPath,
	// husky, pre-commit, lefthook. With one, nothing is written and
	// Advice says how to add the checks there.
	Manager string
	Advice  string
	Hooks   []GitHook
}

func hookLines(command string) (commitMsg, preCommit string) {
	q := shellQuote(command)
	commitMsg = q + ` commit-msg --check "$1"`
	preCommit = `git diff --cached --name-only -z --diff-filter=ACMR | xargs -0 -r ` + q + ` check --only secrets --`
	return
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// PlanGitHooks reads root's git setup and says what to do.
func PlanGitHooks(root, command string) (GitHooksPlan, error) {
	if command == "" {
		command = "cairn"
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s", strings.TrimSpace(cmp(errb.String(), err.Error())))
		}
		return strings.TrimSpace(out.String()), nil
	}
	hooksDir, err := git("rev-parse", "--git-path", "hooks")
	if err != nil {
		return GitHooksPlan{}, fmt.Errorf("git hooks need a git work tree: %w", err)
	}
	if !filepath.IsAbs(hooksDir) {
		hooksDir = filepath.Join(root, hooksDir)
	}
	cm, pc := hookLines(command)
	var plan GitHooksPlan
	exists := func(rel string) bool { _, err := os.Stat(filepath.Join(root, rel)); return err == nil }
	hooksPath, _ := git("config", "--get", "core.hooksPath")
	switch {
	case exists(".husky"):
		plan.Manager = "husky"
		plan.Advice = fmt.Sprintf("husky runs the hooks in .husky/. Add to .husky/commit-msg:\n  %s\nand to .husky/pre-commit:\n  %s", cm, pc)
	case exists("lefthook.yml") || exists("lefthook.yaml") || exists(".lefthook.yml") || exists(".lefthook.yaml"):
		plan.Manager = "lefthook"
		plan.Advice = fmt.Sprintf("lefthook runs the hooks its config names. Add to lefthook.yml:\n"+
			"  commit-msg:\n    commands:\n      cairn-commit-msg:\n        run: %s commit-msg --check {1}\n"+
			"  pre-commit:\n    commands:\n      cairn-secrets:\n        run: %s check --only secrets -- {staged_files}", shellQuote(command), shellQuote(command))
	case exists(".pre-commit-config.yaml") || exists(".pre-commit-config.yml"):
		plan.Manager = "pre-commit"
		plan.Advice = fmt.Sprintf("pre-commit runs the hooks its config names. Add to .pre-commit-config.yaml (and run pre-commit install --hook-type commit-msg):\n"+
			"  - repo: local\n    hooks:\n      - id: cairn-secrets\n        name: cairn secrets\n        entry: %s check --only secrets --\n        language: system\n"+
			"      - id: cairn-commit-msg\n        name: cairn commit message\n        entry: %s commit-msg --check\n        language: system\n        stages: [commit-msg]", shellQuote(command), shellQuote(command))
	case hooksPath != "":
		plan.Manager = "core.hooksPath"
		plan.Advice = fmt.Sprintf("git runs the hooks in %s (core.hooksPath). Add to its commit-msg:\n  %s\nand to its pre-commit:\n  %s", hooksPath, cm, pc)
	}
	if plan.Manager != "" {
		return plan, nil
	}
	for _, h := range []struct{ name, line string }{{"commit-msg", cm}, {"pre-commit", pc}} {
		p := filepath.Join(hooksDir, h.name)
		content := "#!/bin/sh\n" + hookMarker + " (cairn init --git-hooks; delete this file to stop it)\nset -e\n" + h.line + "\n"
		g := GitHook{Name: h.name, Path: p, Content: content, Line: h.line, State: "create"}
		switch b, err := os.ReadFile(p); {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return GitHooksPlan{}, err
		case !bytes.Contains(b, []byte(hookMarker)):
			g.State = "kept"
		case string(b) == content:
			g.State = "same"
		default:
			g.State = "update"
		}
		plan.Hooks = append(plan.Hooks, g)
	}
	return plan, nil
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ApplyGitHooks writes the plan's hooks to create or update; a person's
// hook is left as it is.
func ApplyGitHooks(plan GitHooksPlan) error {
	for _, h := range plan.Hooks {
		if h.State != "create" && h.State != "update" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(h.Path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(h.Path, []byte(h.Content), 0o755); err != nil {
			return err
		}
		if err := os.Chmod(h.Path, 0o755); err != nil {
			return err
		}
	}
	return nil
}
