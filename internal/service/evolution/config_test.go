package evolution_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/evolution"
)

func TestReadSettings(t *testing.T) {
	for _, tc := range []struct{ toml, err string }{
		{"", ""},
		{"[evolution]\nenabled = false\nauto_confidence = 0.95\nlearning_sessions = 3\n", ""},
		{"[evolution]\nauto_confidence = 1.5\n", "auto_confidence = 1.5"},
		{"[evolution]\ndraft_confidence = 0.95\nauto_confidence = 0.9\n", "keep draft ≤ auto"},
		{"[evolution]\nlearning_sessions = -1\n", "learning_sessions"},
		{"[evolution]\nwindow_days = 0\n", "window_days"},
		{"[evolution]\nenabled = \"maybe\"\n", "true or false"},
	} {
		root := t.TempDir()
		if tc.toml != "" {
			os.MkdirAll(filepath.Join(root, ".cairn"), 0o755)
			os.WriteFile(filepath.Join(root, ".cairn", "config.toml"), []byte(tc.toml), 0o644)
		}
		cfg, err := project.ReadConfig(root)
		if err != nil {
			t.Fatal(err)
		}
		s, err := evolution.ReadSettings(cfg)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.toml, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: %v, want %q", tc.toml, err, tc.err)
		}
		if tc.err == "" && strings.Contains(tc.toml, "enabled = false") && (s.Enabled || s.AutoConfidence != 0.95 || s.LearningSessions != 3 || !strings.Contains(s.String(), "off")) {
			t.Errorf("read %+v", s)
		}
	}
}
