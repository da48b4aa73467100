package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"

	"github.com/cairn-dev/cairn/internal/problem"
)

// ConfigFile is the project's own configuration, relative to its root:
// committed with the project, so every clone and every agent reads the same.
const ConfigFile = DirName + "/config.toml"

// maxConfig caps what is read of the config file.
const maxConfig = 1 << 20

// Config is what .cairn/config.toml says. Each feature reads its own table;
// a table this build does not know is left alone (a newer Cairn wrote it),
// but a misspelt key inside a known one is refused, so a suppression never
// silently fails to apply.
type Config struct {
	Checks Checks `toml:"checks"`
}

// Checks is the [checks] table: the hands' project-level suppressions and
// each check's default params.
//
//	[[checks.ignore]]
//	rule = "secrets/*"
//	path = "internal/**/testdata/**"
//	reason = "test fixtures: fake keys"
//
//	[checks.params.sql]
//	dialect = "postgres"
type Checks struct {
	Ignore []CheckIgnore `toml:"ignore"`
	// Params are each check's default params by check name (a tool's or
	// a command's own arguments win over them).
	Params map[string]map[string]any `toml:"params"`
}

// CheckIgnore is one project-level suppression: findings of Rule (an id or
// a pattern, "sql/*") in files matching Path (a glob, "**" crosses
// directories; empty: every file) are not reported, only counted. Reason is
// required: a person reading the list must know why.
type CheckIgnore struct {
	Rule   string `toml:"rule"`
	Path   string `toml:"path"`
	Reason string `toml:"reason"`
}

// LoadConfig reads root's .cairn/config.toml; a project without one has the
// zero Config. A file that does not parse, or a [checks] entry that breaks
// a rule, is a Malformed refusal naming the file, the key and the fix.
func LoadConfig(root string) (Config, error) {
	var c Config
	p := filepath.Join(root, filepath.FromSlash(ConfigFile))
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, err
	case !fi.Mode().IsRegular():
		return c, configError("is not a regular file", "make it a file, or remove it")
	case fi.Size() > maxConfig:
		return c, configError(fmt.Sprintf("is %d bytes, over %d", fi.Size(), maxConfig), "keep it small")
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return c, err
	}
	md, err := toml.Decode(string(b), &c)
	if err != nil {
		if pe, ok := errors.AsType[toml.ParseError](err); ok {
			return Config{}, configError(fmt.Sprintf("line %d: %s", pe.Position.Line, pe.Message), "fix the TOML")
		}
		return Config{}, configError(err.Error(), "fix the value's type")
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "checks" && (len(k) < 2 || k[1] != "params") {
			return Config{}, configError("has an unknown key "+problem.Quote(k.String()), "use checks.ignore (rule, path, reason) or checks.params.<check>")
		}
	}
	for i, ig := range c.Checks.Ignore {
		at := fmt.Sprintf("checks.ignore[%d]", i+1)
		switch {
		case strings.TrimSpace(ig.Rule) == "":
			return Config{}, configError(at+" has no rule", `name the rule it suppresses: rule = "secrets/generic-secret" (or "secrets/*")`)
		case strings.TrimSpace(ig.Reason) == "":
			return Config{}, configError(at+" ("+ig.Rule+") gives no reason", `say why: reason = "test fixtures with fake keys"`)
		case !validGlob(ig.Path):
			return Config{}, configError(at+" path "+problem.Quote(ig.Path)+" is not a valid glob", `use a glob such as "testdata/**" or "**/*.pem"`)
		}
	}
	return c, nil
}

// validGlob reports whether p is a glob the suppressions can match.
func validGlob(p string) bool { return doublestar.ValidatePattern(p) }

func configError(problemText, fix string) error {
	return &problem.Error{Kind: problem.Malformed, Problem: ConfigFile + " " + problemText, Fix: fix}
}

// ParamString is a config param value as the checks read params: TOML
// strings as they are, numbers and booleans as written, lists joined with
// commas.
func ParamString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = ParamString(e)
		}
		return strings.Join(parts, ",")
	}
	return fmt.Sprint(v)
}
