package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadConfig(t *testing.T) {
	root := t.TempDir()
	if c, err := ReadConfig(root); err != nil || c.Table("insight") != nil {
		t.Fatalf("no file: %v, %v; want an empty config", c, err)
	}
	os.MkdirAll(filepath.Join(root, DirName), 0o755)
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, DirName, ConfigName), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# settings\n[insight]\nenabled = false # off\nretention_days = 14\nname = \"a # b\"\n\n[insight.health_weights]\ntests = 2.5\n")
	c, err := ReadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := c.Bool("insight", "enabled"); v || !ok || err != nil {
		t.Errorf("enabled = %v %v %v", v, ok, err)
	}
	if v, ok, _ := c.Float("insight", "retention_days"); v != 14 || !ok {
		t.Errorf("retention_days = %v %v", v, ok)
	}
	if v := c.Table("insight")["name"]; v != "a # b" {
		t.Errorf("name = %q", v)
	}
	if v, _, _ := c.Float("insight.health_weights", "tests"); v != 2.5 {
		t.Errorf("tests weight = %v", v)
	}
	if _, _, err := c.Float("insight", "name"); err == nil {
		t.Error("a string read as a number")
	}
	write("[insight]\nenabled\n")
	if _, err := ReadConfig(root); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("a key without value: %v, want an error naming line 2", err)
	}
}
