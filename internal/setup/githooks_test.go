package setup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPlanGitHooksSeesEachHookManager(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, c := range []struct {
		manager string
		prep    func(dir string)
		advice  string
	}{
		{"husky", func(d string) { os.Mkdir(filepath.Join(d, ".husky"), 0o755) }, ".husky/commit-msg"},
		{"lefthook", func(d string) { os.WriteFile(filepath.Join(d, "lefthook.yml"), nil, 0o644) }, "{staged_files}"},
		{"pre-commit", func(d string) { os.WriteFile(filepath.Join(d, ".pre-commit-config.yaml"), nil, 0o644) }, "stages: [commit-msg]"},
		{"core.hooksPath", func(d string) {
			exec.Command("git", "-C", d, "config", "core.hooksPath", "tools/hooks").Run()
		}, "tools/hooks"},
		{"", func(string) {}, ""},
	} {
		dir := t.TempDir()
		if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		c.prep(dir)
		p, err := PlanGitHooks(dir, "/opt/my tools/cairn")
		if err != nil {
			t.Fatal(err)
		}
		if p.Manager != c.manager || !strings.Contains(p.Advice, c.advice) {
			t.Errorf("%q: manager %q, advice:\n%s", c.manager, p.Manager, p.Advice)
		}
		if c.manager != "" && len(p.Hooks) != 0 {
			t.Errorf("%s: hooks would be written: %+v", c.manager, p.Hooks)
		}
		if c.manager == "" {
			if len(p.Hooks) != 2 || p.Hooks[0].State != "create" || !strings.Contains(p.Hooks[0].Content, `'/opt/my tools/cairn' commit-msg --check "$1"`) {
				t.Errorf("no manager: %+v", p.Hooks)
			}
		}
	}
	// Outside a git work tree: refused.
	if _, err := PlanGitHooks(t.TempDir(), "cairn"); err == nil {
		t.Error("a directory without git was accepted")
	}
}
