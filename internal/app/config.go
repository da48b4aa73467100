package app

import (
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/brief"
)

// configSettings are the resolved settings as get_config shows them: each
// key, its value and where it came from; first, any file refused.
func configSettings(rs []project.Resolved, proj project.Layer, problems []string) []brief.Setting {
	var out []brief.Setting
	for _, p := range problems {
		out = append(out, brief.Setting{Name: "configuration refused", Value: p, Source: "file"})
	}
	for _, r := range rs {
		out = append(out, brief.Setting{Name: r.ID(), Value: r.Value, Source: r.Source})
	}
	if n := len(proj.Config.Checks.Ignore); n > 0 {
		out = append(out, brief.Setting{Name: "checks.ignore", Value: strconv.Itoa(n) + " suppressions", Source: proj.Name})
	}
	return out
}

// intSetting is a numeric setting, 0 if absent (the caller's default).
func intSetting(rs []project.Resolved, id string) int {
	r, ok := project.Lookup(rs, id)
	if !ok {
		return 0
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(r.Value), 64)
	if err != nil {
		return 0
	}
	return int(f)
}

// boolSetting is a boolean setting; ok is false if it is absent or not a
// boolean.
func boolSetting(rs []project.Resolved, id string) (v, ok bool) {
	r, found := project.Lookup(rs, id)
	if !found {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(r.Value)) {
	case "off", "false", "0", "no":
		return false, true
	case "on", "true", "1", "yes":
		return true, true
	}
	return false, false
}

// KnowledgePaths are the [knowledge] folders, nil when all are defaults.
func KnowledgePaths(rs []project.Resolved) *projectinfo.Paths {
	p := projectinfo.KnowledgePaths
	changed := false
	for _, f := range []struct {
		id  string
		dst *string
	}{{"knowledge.knowledge", &p.Knowledge}, {"knowledge.skills", &p.Skills}, {"knowledge.agents", &p.Agents},
		{"knowledge.workflows", &p.Workflows}, {"knowledge.templates", &p.Templates}} {
		if r, ok := project.Lookup(rs, f.id); ok && r.Source != "default" {
			*f.dst, changed = strings.Trim(r.Value, "/"), true
		}
	}
	if !changed {
		return nil
	}
	return &p
}
