package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeConfig(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestResolveOrder: flag > env > project file > user file > default, each
// value's source named down to the file's line.
func TestResolveOrder(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("CAIRN_TOOLSETS", "")
	t.Setenv("CAIRN_INSIGHT", "")
	writeConfig(t, filepath.Join(root, DirName, ConfigName), "# the team's\n[server]\ntoolsets = \"focus,loops\"\n\n[knowledge]\nskills = \"docs/skills\"\n")
	writeConfig(t, filepath.Join(home, "cairn", ConfigName), "[server]\ntoolsets = \"all\"\nread_only = true\n[budgets]\nbootstrap_tokens = 900\n")
	get := func(flags map[string]string, id string) Resolved {
		t.Helper()
		rs, _, problems := Settings(root, flags)
		if len(problems) > 0 {
			t.Fatal(problems)
		}
		r, ok := Lookup(rs, id)
		if !ok {
			t.Fatalf("no %s", id)
		}
		return r
	}
	user := filepath.Join(home, "cairn", ConfigName)
	for _, c := range []struct {
		flags      map[string]string
		env        string
		id         string
		value, src string
	}{
		{nil, "", "server.toolsets", "focus,loops", ".cairn/config.toml:3"},
		{nil, "memory", "server.toolsets", "memory", "env CAIRN_TOOLSETS"},
		{map[string]string{"toolsets": "plan"}, "memory", "server.toolsets", "plan", "flag --toolsets"},
		{nil, "", "server.read_only", "true", user + ":3"},
		{nil, "", "budgets.bootstrap_tokens", "900", user + ":5"},
		{nil, "", "knowledge.skills", "docs/skills", ".cairn/config.toml:6"},
		{nil, "", "knowledge.agents", ".claude/agents", "default"},
	} {
		t.Setenv("CAIRN_TOOLSETS", c.env)
		if r := get(c.flags, c.id); r.Value != c.value || r.Source != c.src {
			t.Errorf("%s (flags %v, env %q) = %q from %q, want %q from %q", c.id, c.flags, c.env, r.Value, r.Source, c.value, c.src)
		}
	}
}

// TestMalformedLayer: a file that does not parse, or holds a value that
// cannot be used, is refused as file:line: problem; its settings fall back
// to the next layer, the other file still counts.
func TestMalformedLayer(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("CAIRN_TOOLSETS", "")
	proj := filepath.Join(root, DirName, ConfigName)
	writeConfig(t, filepath.Join(home, "cairn", ConfigName), "[server]\ntoolsets = \"all\"\n")
	for _, c := range []struct{ text, want string }{
		{"[server]\ntoolsets = \"focus\n", proj + ":2: "},
		{"[server]\ntoolsets = \"focus\"\n[budgets]\nbootstrap_tokens = 5\n", proj + ":4: [budgets] bootstrap_tokens = \"5\": write a number from 300 to 20000"},
		{"[knowledge]\n\nskills = \"../elsewhere\"\n", proj + ":3: [knowledge] skills"},
	} {
		writeConfig(t, proj, c.text)
		rs, _, problems := Settings(root, nil)
		if len(problems) != 1 || !strings.Contains(problems[0], c.want) {
			t.Errorf("%q: problems %q, want one containing %q", c.text, problems, c.want)
			continue
		}
		if r, _ := Lookup(rs, "server.toolsets"); r.Value != "all" || !strings.HasSuffix(r.Source, filepath.Join("cairn", ConfigName)+":2") {
			t.Errorf("%q: toolsets %q from %q, want the user file's", c.text, r.Value, r.Source)
		}
	}
	// A valid file again: no problem, its value in force.
	writeConfig(t, proj, "[server]\ntoolsets = \"focus\"\n")
	rs, _, problems := Settings(root, nil)
	if r, _ := Lookup(rs, "server.toolsets"); len(problems) != 0 || r.Value != "focus" {
		t.Errorf("valid file: %v %q", problems, r.Value)
	}
}

func TestRegisterKeys(t *testing.T) {
	RegisterKeys(Key{Table: "evolution_test", Name: "auto_apply", Default: "false", Check: checkBool})
	RegisterKeys(Key{Table: "evolution_test", Name: "auto_apply", Default: "true"}) // the first declaration stays
	root := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	rs, _, _ := Settings(root, nil)
	if r, ok := Lookup(rs, "evolution_test.auto_apply"); !ok || r.Value != "false" || r.Source != "default" {
		t.Fatalf("registered key: %+v %v", r, ok)
	}
	writeConfig(t, filepath.Join(root, DirName, ConfigName), "[evolution_test]\nauto_apply = \"sometimes\"\n")
	if _, _, problems := Settings(root, nil); len(problems) != 1 || !strings.Contains(problems[0], ":2: [evolution_test] auto_apply") {
		t.Fatalf("a registered key's check: %v", problems)
	}
}
