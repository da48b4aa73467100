package app

import (
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/service/evolution"
	"github.com/cairn-dev/cairn/internal/service/insight"
)

// EnvInsight turns usage recording off when it is "off" (or "false", "0"),
// whatever the project's configuration says.
const EnvInsight = "CAIRN_INSIGHT"

// insightOptions reads the [insight] settings (resolved from the
// environment and the configuration files) and the project file's
// [insight.health_weights] table:
//
//	[insight]
//	enabled = true        # record usage (false: record nothing)
//	retention_days = 30   # raw events older than this roll up into days
//	min_sample = 10       # sessions a measure needs to be compared
//	[insight.health_weights]
//	tests = 3             # project_health's components by name
func insightOptions(rs []project.Resolved, proj project.Layer) (insight.Options, []brief.Setting, error) {
	var o insight.Options
	en, _ := project.Lookup(rs, "insight.enabled")
	if on, ok := boolSetting(rs, "insight.enabled"); ok && !on {
		o.Recorder.Off = true
	}
	if r, ok := project.Lookup(rs, "insight.retention_days"); ok && r.Source != "default" {
		o.Recorder.Retention = time.Duration(float64(intSetting(rs, r.ID())) * float64(24*time.Hour))
	}
	if r, ok := project.Lookup(rs, "insight.min_sample"); ok && r.Source != "default" {
		o.MinSample = max(2, intSetting(rs, r.ID()))
	}
	cfg := proj.Config
	if ws := cfg.Table("insight.health_weights"); ws != nil {
		o.Weights = map[string]float64{}
		for name := range ws {
			w, _, err := cfg.Float("insight.health_weights", name)
			if err != nil {
				return o, nil, err
			}
			if w < 0 {
				return o, nil, fmt.Errorf("%s: [insight.health_weights] %s = %v: a weight is 0 or more", cfg.Path, name, w)
			}
			o.Weights[name] = w
		}
	}
	ev, err := evolution.ReadSettings(cfg)
	if err != nil {
		return o, nil, err
	}
	evSet := brief.Setting{Name: "evolution", Value: ev.String(), Source: ev.Source}
	value := "on: tool calls, hooks, reads and checks recorded locally"
	if o.Recorder.Off {
		value = "off: nothing recorded"
	}
	return o, []brief.Setting{{Name: "insight", Value: value, Source: en.Source}, evSet}, nil
}
