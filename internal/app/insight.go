package app

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/service/evolution"
	"github.com/cairn-dev/cairn/internal/service/insight"
)

// EnvInsight turns usage recording off when it is "off" (or "false", "0"),
// whatever the project's configuration says.
const EnvInsight = "CAIRN_INSIGHT"

// insightOptions reads the [insight] table of the project's configuration
// (.cairn/config.toml):
//
//	[insight]
//	enabled = true        # record usage (false: record nothing)
//	retention_days = 30   # raw events older than this roll up into days
//	min_sample = 10       # sessions a measure needs to be compared
//	[insight.health_weights]
//	tests = 3             # project_health's components by name
func insightOptions(root string) (insight.Options, []brief.Setting, error) {
	var o insight.Options
	cfg, err := project.ReadConfig(root)
	if err != nil {
		return o, nil, err
	}
	src := "default"
	if cfg.Table("insight") != nil {
		src = cfg.Path
	}
	enabled, set, err := cfg.Bool("insight", "enabled")
	if err != nil {
		return o, nil, err
	}
	o.Recorder.Off = set && !enabled
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvInsight))) {
	case "off", "false", "0", "no":
		o.Recorder.Off, src = true, "env "+EnvInsight
	}
	if d, ok, err := cfg.Float("insight", "retention_days"); err != nil {
		return o, nil, err
	} else if ok {
		if d < 1 {
			return o, nil, fmt.Errorf("%s: [insight] retention_days = %v: keep at least 1 day", cfg.Path, d)
		}
		o.Recorder.Retention = time.Duration(d * float64(24*time.Hour))
	}
	if n, ok, err := cfg.Float("insight", "min_sample"); err != nil {
		return o, nil, err
	} else if ok {
		o.MinSample = max(2, int(n))
	}
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
	return o, []brief.Setting{{Name: "insight", Value: value, Source: src}, evSet}, nil
}
