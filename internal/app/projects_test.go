package app

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTeamModeProjectsDoNotShare: on PostgreSQL the default project's
// database name is its directory's; served from a directory named web next
// to --project web=..., both HTTP names would be one database project, and
// a token scoped to default would read web's data. That is refused, and
// CAIRN_PROJECT names the default's database project explicitly.
func TestTeamModeProjectsDoNotShare(t *testing.T) {
	t.Setenv(EnvDatabaseURL, "postgres://unused.invalid/cairn") // never dialled: projects open lazily
	t.Setenv(EnvProject, "")
	root := filepath.Join(t.TempDir(), "web")
	other := t.TempDir()
	for _, d := range []string{root, other} {
		if err := os.MkdirAll(filepath.Join(d, ".cairn"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, err := NewDirProjects(Config{Root: root}, map[string]string{"web": other})
	if err == nil || !strings.Contains(err.Error(), `default and web would both be project "web"`) || !strings.Contains(err.Error(), "CAIRN_PROJECT") {
		t.Fatalf("two HTTP names on one database project: %v", err)
	}
	t.Setenv(EnvProject, "main")
	p, err := NewDirProjects(Config{Root: root}, map[string]string{"web": other})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.DatabaseProjects(); got["default"] != "main" || got["web"] != "web" {
		t.Fatalf("database projects: %v", got)
	}
	// On the embedded store each project has its own file: nothing to check.
	t.Setenv(EnvDatabaseURL, "")
	t.Setenv(EnvProject, "")
	if _, err := NewDirProjects(Config{Root: root}, map[string]string{"web": other}); err != nil {
		t.Fatalf("embedded store: %v", err)
	}
}

// TestValidProjectNameIsTheExpression: the hand-written check accepts
// exactly what ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ does.
func TestValidProjectNameIsTheExpression(t *testing.T) {
	re := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)
	names := []string{"", "default", "a", "A9", "web-1", "api_v2.0", ".x", "-x", "_x", "x y", "x/y", "é", "x\n",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat("-", 63), "Z.", "0"}
	for c := 0; c < 256; c++ {
		names = append(names, string(rune(c)), "a"+string([]byte{byte(c)}))
	}
	for _, n := range names {
		if got, want := validProjectName(n), re.MatchString(n); got != want {
			t.Errorf("validProjectName(%q) = %v; the expression says %v", n, got, want)
		}
	}
}

// TestTeamModeLateDefaultRoot: a default project with no .git or .cairn at
// start passed the start's check; once it gains one, its database project
// may be a served project's (issue 34, attack 5). Opening it is refused
// then, and nothing is opened.
func TestTeamModeLateDefaultRoot(t *testing.T) {
	t.Setenv(EnvDatabaseURL, "postgres://unused.invalid/cairn") // never dialled: the check comes first
	t.Setenv(EnvProject, "")
	t.Setenv("CAIRN_PROJECT_ROOT", "")
	dir := filepath.Join(t.TempDir(), "web")
	other := t.TempDir()
	for _, d := range []string{dir, filepath.Join(other, ".cairn")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p, err := NewDirProjects(Config{Dir: dir}, map[string]string{"web": other})
	if err != nil {
		t.Fatalf("no root yet: %v", err)
	}
	defer p.Close()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Get(context.Background(), DefaultProject); err == nil || !strings.Contains(err.Error(), `default and web would both be project "web"`) {
		t.Fatalf("the default project gained a root named like web: %v", err)
	}
}
