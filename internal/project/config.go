package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/bmatcuk/doublestar/v4"

	"github.com/cairn-dev/cairn/internal/problem"
)

// ConfigName is the project's configuration file, in its .cairn directory.
const ConfigName = "config.toml"

// ConfigFile is the configuration file relative to the project root, as
// messages name it: committed with the project, so every clone and every
// agent reads the same.
const ConfigFile = DirName + "/" + ConfigName

// maxConfig caps what is read of the config file.
const maxConfig = 1 << 20

// Config is the project's .cairn/config.toml, read as TOML (BurntSushi's
// parser). Each feature reads its own table: the settings tables of
// scalars through Table, Bool and Float ([insight], [insight.health_weights]),
// the hands' suppressions and params as Checks. A table this build does not
// know is left alone (a newer Cairn wrote it), but a misspelt key inside
// [checks] is refused, so a suppression never silently fails to apply.
type Config struct {
	Path   string
	tables map[string]map[string]string // table → key → the value's text (strings unquoted)
	// Checks is the [checks] table.
	Checks Checks
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

// ReadConfig reads the configuration of the project at root; a project
// without the file has an empty one. A file that does not parse, or a
// [checks] entry that breaks a rule, is a Malformed refusal naming the file
// (and the line, or the entry) and the fix.
func ReadConfig(root string) (Config, error) {
	return readConfigFile(filepath.Join(root, DirName, ConfigName), ConfigFile)
}

// readConfigFile reads a configuration file at path, named in messages as
// name.
func readConfigFile(path, name string) (Config, error) {
	c := Config{Path: path, tables: map[string]map[string]string{}}
	fi, err := os.Stat(c.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, fmt.Errorf("read %s: %w", c.Path, err)
	case !fi.Mode().IsRegular():
		return c, configError(name+" is not a regular file", "make it a file, or remove it")
	case fi.Size() > maxConfig:
		return c, configError(fmt.Sprintf("%s is %d bytes, over %d", name, fi.Size(), maxConfig), "keep it small")
	}
	b, err := os.ReadFile(c.Path)
	if err != nil {
		return c, fmt.Errorf("read %s: %w", c.Path, err)
	}
	var raw map[string]any
	if _, err := toml.Decode(string(b), &raw); err != nil {
		if pe, ok := errors.AsType[toml.ParseError](err); ok {
			return c, configError(fmt.Sprintf("%s:%d: %s", c.Path, pe.Position.Line, pe.Message), "fix the TOML")
		}
		return c, configError(c.Path+": "+err.Error(), "fix the TOML")
	}
	flatten(raw, "", c.tables)
	var v struct {
		Checks Checks `toml:"checks"`
	}
	md, err := toml.Decode(string(b), &v)
	if err != nil {
		return c, configError(name+" [checks]: "+err.Error(), "fix the value's type")
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "checks" && (len(k) < 2 || k[1] != "params") {
			return c, configError(name+" has an unknown key "+problem.Quote(k.String()), "use checks.ignore (rule, path, reason) or checks.params.<check>")
		}
	}
	for i, ig := range v.Checks.Ignore {
		at := fmt.Sprintf("%s checks.ignore[%d]", name, i+1)
		switch {
		case strings.TrimSpace(ig.Rule) == "":
			return c, configError(at+" has no rule", `name the rule it suppresses: rule = "secrets/generic-secret" (or "secrets/*")`)
		case strings.TrimSpace(ig.Reason) == "":
			return c, configError(at+" ("+ig.Rule+") gives no reason", `say why: reason = "test fixtures with fake keys"`)
		case !doublestar.ValidatePattern(ig.Path):
			return c, configError(at+" path "+problem.Quote(ig.Path)+" is not a valid glob", `use a glob such as "testdata/**" or "**/*.pem"`)
		}
	}
	c.Checks = v.Checks
	return c, nil
}

// flatten keeps each table's scalar values as text under the table's
// dotted name ("insight.health_weights"); arrays of tables are left to
// the features that decode them.
func flatten(m map[string]any, prefix string, out map[string]map[string]string) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			name := k
			if prefix != "" {
				name = prefix + "." + k
			}
			if out[name] == nil {
				out[name] = map[string]string{}
			}
			flatten(sub, name, out)
			continue
		}
		if _, ok := v.([]map[string]any); ok {
			continue
		}
		if out[prefix] == nil {
			out[prefix] = map[string]string{}
		}
		out[prefix][k] = ParamString(v)
	}
}

func configError(problemText, fix string) error {
	return &problem.Error{Kind: problem.Malformed, Problem: problemText, Fix: fix}
}

// Table returns a table's keys and values as written (strings unquoted).
func (c Config) Table(name string) map[string]string { return c.tables[name] }

// Bool reads a boolean; ok is false when the key is absent.
func (c Config) Bool(table, key string) (v, ok bool, err error) {
	s, ok := c.tables[table][key]
	if !ok {
		return false, false, nil
	}
	v, err = strconv.ParseBool(s)
	if err != nil {
		return false, true, fmt.Errorf("%s: [%s] %s = %s: write true or false", c.Path, table, key, s)
	}
	return v, true, nil
}

// Float reads a number; ok is false when the key is absent.
func (c Config) Float(table, key string) (v float64, ok bool, err error) {
	s, ok := c.tables[table][key]
	if !ok {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, true, fmt.Errorf("%s: [%s] %s = %s: write a number", c.Path, table, key, s)
	}
	return v, true, nil
}

// ParamString is a config value as text: strings as they are, numbers and
// booleans as written, lists joined with commas.
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
