package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func servedTools(t *testing.T, s *cairntest.Server) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := s.Session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// TestProjectConfig: .cairn/config.toml sets the toolsets, the knowledge
// folder and the bootstrap budget of a server started with no flags;
// get_config names the file and line of each; a flag still wins.
func TestProjectConfig(t *testing.T) {
	dir := cairntest.Project(t)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	writeFile(t, filepath.Join(dir, ".cairn", "config.toml"), "# team settings\n[server]\ntoolsets = \"focus,plan,loops,context\"\n\n[knowledge]\nknowledge = \"docs/kb\"\n\n[budgets]\nbootstrap_tokens = 600\n")
	writeFile(t, filepath.Join(dir, "docs", "kb", "wal.md"), "---\ntitle: WAL checkpoints\ncategory: storage\n---\nCheckpoint when idle.\n")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Env: env})
	names := servedTools(t, s)
	if !slices.Contains(names, "loop_start") || !slices.Contains(names, "get_config") || slices.Contains(names, "memory_search") {
		t.Fatalf("tools from [server] toolsets: %v", names)
	}
	cfg := s.OK("get_config", args{}).Text
	for _, want := range []string{"server.toolsets: focus,plan,loops,context  [.cairn/config.toml:3]", "knowledge.knowledge: docs/kb  [.cairn/config.toml:6]",
		"budgets.bootstrap_tokens: 600  [.cairn/config.toml:9]", "knowledge.skills: skills  [default]"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("get_config lacks %q:\n%s", want, cfg)
		}
	}
	if kb := s.OK("query_tkb", args{}).Text; !strings.Contains(kb, "docs/kb/wal.md") {
		t.Errorf("query_tkb does not read [knowledge] knowledge: %s", kb)
	}
	if b := s.OK("bootstrap", args{}).Text; !strings.Contains(b, "of 600 tokens") {
		t.Errorf("bootstrap does not take [budgets] bootstrap_tokens:\n%s", b)
	}
	// The flag wins over the file.
	f := cairntest.Start(t, cairntest.Options{Dir: dir, Env: env, Args: []string{"--toolsets", "memory,context"}})
	if names := servedTools(t, f); slices.Contains(names, "loop_start") || !slices.Contains(names, "memory_search") {
		t.Fatalf("--toolsets under a config file: %v", names)
	}
	if cfg := f.OK("get_config", args{}).Text; !strings.Contains(cfg, "server.toolsets: memory,context  [flag --toolsets]") {
		t.Errorf("get_config with the flag:\n%s", cfg)
	}
}

// TestMalformedConfig: a project file that does not parse is refused as
// file:line: problem; the server starts anyway with the defaults for it,
// and its instructions, get_config and bootstrap say so. The user's file
// still counts.
func TestMalformedConfig(t *testing.T) {
	dir := cairntest.Project(t)
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "cairn", "config.toml"), "[budgets]\nbootstrap_tokens = 700\n")
	writeFile(t, filepath.Join(dir, ".cairn", "config.toml"), "[server]\ntoolsets = \"focus,loops\n")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Env: []string{"XDG_CONFIG_HOME=" + home}, Args: []string{"--toolsets", "all"}})
	where := filepath.Join(dir, ".cairn", "config.toml") + ":2:"
	if ins := s.Session.InitializeResult().Instructions; !strings.Contains(ins, "Configuration refused: "+where) {
		t.Errorf("instructions do not say the file was refused:\n%s", ins)
	}
	s.OK("create_task", args{"title": "still works"})
	cfg := s.OK("get_config", args{}).Text
	if !strings.Contains(cfg, "configuration refused: "+where) || !strings.Contains(cfg, "budgets.bootstrap_tokens: 700  ["+filepath.Join(home, "cairn", "config.toml")+":2]") {
		t.Errorf("get_config:\n%s", cfg)
	}
	if b := s.OK("bootstrap", args{}).Text; !strings.Contains(b, "Configuration refused: "+where) || !strings.Contains(b, "of 700 tokens") {
		t.Errorf("bootstrap:\n%s", b)
	}
	// Without flags, the default toolsets stand in for the refused file's.
	d := cairntest.Start(t, cairntest.Options{Dir: dir, Env: []string{"XDG_CONFIG_HOME=" + home}})
	if names := servedTools(t, d); slices.Contains(names, "loop_start") || !slices.Contains(names, "get_current_task") {
		t.Errorf("tools with a refused file: %v", names)
	}
}

// TestProjectConfigOverHTTP: `cairn serve --http` takes [server] toolsets
// and read_only from the default project's config file as stdio does, and
// the flag still wins.
func TestProjectConfigOverHTTP(t *testing.T) {
	dir := cairntest.Project(t)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	writeFile(t, filepath.Join(dir, ".cairn", "config.toml"), "[server]\ntoolsets = \"focus,loops\"\nread_only = true\n")
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Env: env})
	names := servedTools(t, h.Connect(cairntest.Client{}))
	if !slices.Contains(names, "loop_status") || slices.Contains(names, "loop_start") || slices.Contains(names, "memory_search") {
		t.Fatalf("tools over HTTP under [server] toolsets = focus,loops and read_only: %v", names)
	}
	f := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Env: env, Args: []string{"--toolsets", "memory", "--read-only=false"}})
	if names := servedTools(t, f.Connect(cairntest.Client{})); slices.Contains(names, "loop_status") || !slices.Contains(names, "memory_add_decision") {
		t.Fatalf("--toolsets and --read-only over HTTP under a config file: %v", names)
	}
}
