// Package evolution turns patterns across a project's sessions into
// changes to its guidance: a recurring mistake becomes a draft rule, a
// recurring sequence of tools a workflow, a model measurably better at a
// kind of work a routing line, a check whose violations are always fixed
// at once a higher severity, a knowledge entry whose sessions fail less a
// promotion. Each candidate carries its evidence and a confidence that
// says how it was computed; the confidence decides whether the change is
// applied (and announced), written as a draft for a person, or kept
// pending. Every applied change is appended to .cairn/evolution/log.jsonl
// with a snapshot of what it replaced, so that it can be reverted exactly.
package evolution

import (
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn/internal/project"
)

// Settings are the [evolution] table of .cairn/config.toml:
//
//	[evolution]
//	enabled = true            # the kill switch: false applies and drafts nothing
//	auto_confidence = 0.9     # above it, with auto_min_sessions, a change is applied
//	draft_confidence = 0.7    # at or above it, with draft_min_sessions, a draft is written
//	auto_min_sessions = 10
//	draft_min_sessions = 5
//	learning_sessions = 10    # the first sessions only collect data
//	window_days = 90          # the history read, back from now
//	analyze_on_session_end = true  # the session-end hook runs an analysis
type Settings struct {
	Enabled          bool
	AutoConfidence   float64
	DraftConfidence  float64
	AutoMinSessions  int
	DraftMinSessions int
	LearningSessions int
	WindowDays       int
	OnSessionEnd     bool
	// Source is where the settings came from: "default" or the file.
	Source string
}

// DefaultSettings are the seed's thresholds.
func DefaultSettings() Settings {
	return Settings{Enabled: true, AutoConfidence: 0.9, DraftConfidence: 0.7, AutoMinSessions: 10, DraftMinSessions: 5, LearningSessions: 10, WindowDays: 90, OnSessionEnd: true, Source: "default"}
}

// ReadSettings reads the [evolution] table of the project's config; a
// value out of range is refused with the key named.
func ReadSettings(cfg project.Config) (Settings, error) {
	s := DefaultSettings()
	if cfg.Table("evolution") == nil {
		return s, nil
	}
	s.Source = cfg.Path
	if v, ok, err := cfg.Bool("evolution", "enabled"); err != nil {
		return s, err
	} else if ok {
		s.Enabled = v
	}
	if v, ok, err := cfg.Bool("evolution", "analyze_on_session_end"); err != nil {
		return s, err
	} else if ok {
		s.OnSessionEnd = v
	}
	frac := func(key string, into *float64) error {
		v, ok, err := cfg.Float("evolution", key)
		if err != nil || !ok {
			return err
		}
		if v < 0 || v > 1 {
			return fmt.Errorf("%s: [evolution] %s = %v: write a share from 0 to 1", cfg.Path, key, v)
		}
		*into = v
		return nil
	}
	count := func(key string, into *int) error {
		v, ok, err := cfg.Float("evolution", key)
		if err != nil || !ok {
			return err
		}
		if v < 0 || v != float64(int(v)) {
			return fmt.Errorf("%s: [evolution] %s = %v: write a whole number, 0 or more", cfg.Path, key, v)
		}
		*into = int(v)
		return nil
	}
	for _, err := range []error{
		frac("auto_confidence", &s.AutoConfidence), frac("draft_confidence", &s.DraftConfidence),
		count("auto_min_sessions", &s.AutoMinSessions), count("draft_min_sessions", &s.DraftMinSessions),
		count("learning_sessions", &s.LearningSessions), count("window_days", &s.WindowDays),
	} {
		if err != nil {
			return s, err
		}
	}
	if s.WindowDays < 1 || s.WindowDays > 3650 {
		return s, fmt.Errorf("%s: [evolution] window_days = %d: write 1 to 3650", cfg.Path, s.WindowDays)
	}
	if s.DraftConfidence > s.AutoConfidence {
		return s, fmt.Errorf("%s: [evolution] draft_confidence %v is above auto_confidence %v: keep draft ≤ auto", cfg.Path, s.DraftConfidence, s.AutoConfidence)
	}
	return s, nil
}

// String is the settings in a line, as get_config shows them.
func (s Settings) String() string {
	if !s.Enabled {
		return "off (kill switch): nothing applied or drafted"
	}
	return "auto > " + pct(s.AutoConfidence) + " with ≥ " + strconv.Itoa(s.AutoMinSessions) + " sessions; draft ≥ " + pct(s.DraftConfidence) +
		" with ≥ " + strconv.Itoa(s.DraftMinSessions) + "; else pending; learning period " + strconv.Itoa(s.LearningSessions) + " sessions; last " +
		strconv.Itoa(s.WindowDays) + " days"
}

func pct(f float64) string { return strconv.FormatFloat(100*f, 'f', -1, 64) + "%" }
