package hands

import (
	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/project"
)

// ScoreDefinition says what the compliance score counts, as every answer
// that shows it says it.
const ScoreDefinition = "100 × units without an error or warning ÷ units; units are the files checked plus each project-wide finding; info and suppressed findings do not count"

// Score is a compliance score over one run.
type Score struct {
	Value   float64
	Units   int
	Failing int
}

// scoreOf scores a run that checked files and found findings (after
// suppressions).
func scoreOf(files int, findings []check.Finding) Score {
	failing := map[string]bool{}
	project := 0
	for _, f := range findings {
		if !f.Severity.AtLeast(check.Warning) {
			continue
		}
		if f.File == "" {
			project++
			continue
		}
		failing[f.File] = true
	}
	units := max(files, len(failing)) + project
	sc := Score{Units: units, Failing: len(failing) + project, Value: 100}
	if units > 0 {
		sc.Value = float64(int(1000*float64(units-sc.Failing)/float64(units)+0.5)) / 10
	}
	return sc
}

// ProjectParam is a check's default param from .cairn/config.toml ("" when
// it is not set).
func (s *Service) ProjectParam(checkName, key string) (string, error) {
	if s.root == "" {
		return "", nil
	}
	cfg, err := project.ReadConfig(s.root)
	if err != nil {
		return "", err
	}
	v, ok := cfg.Checks.Params[checkName][key]
	if !ok {
		return "", nil
	}
	return project.ParamString(v), nil
}

// IsFile reports whether rel (relative to the root) is a regular file of
// the project.
func (s *Service) IsFile(rel string) bool { return s.root != "" && s.isFile(rel) }
