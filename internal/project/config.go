package project

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ConfigName is the project's configuration file, in its .cairn directory.
const ConfigName = "config.toml"

// Config is the project's .cairn/config.toml: tables of keys and values.
// It reads the part of TOML a person writes by hand for settings: [table]
// and [table.sub] headers, key = value with a string, a number or a
// boolean, and # comments; anything else is an error that names its line.
type Config struct {
	Path   string
	tables map[string]map[string]string // table → key → the value's text (strings unquoted)
}

// ReadConfig reads the configuration of the project at root; a project
// without the file has an empty one.
func ReadConfig(root string) (Config, error) {
	c := Config{Path: filepath.Join(root, DirName, ConfigName), tables: map[string]map[string]string{}}
	f, err := os.Open(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read %s: %w", c.Path, err)
	}
	defer f.Close()
	table := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(stripComment(sc.Text()))
		switch {
		case line == "":
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			table = strings.TrimSpace(line[1 : len(line)-1])
			if table == "" || strings.ContainsAny(table, "[]\"' ") {
				return c, fmt.Errorf("%s:%d: table header %s: write [name] or [name.sub]", c.Path, n, line)
			}
		default:
			key, val, ok := strings.Cut(line, "=")
			key, val = strings.TrimSpace(key), strings.TrimSpace(val)
			if !ok || key == "" || val == "" {
				return c, fmt.Errorf("%s:%d: %q: write key = value", c.Path, n, line)
			}
			if strings.HasPrefix(val, `"`) {
				s, err := strconv.Unquote(val)
				if err != nil {
					return c, fmt.Errorf("%s:%d: %s: a string in double quotes", c.Path, n, key)
				}
				val = s
			}
			if c.tables[table] == nil {
				c.tables[table] = map[string]string{}
			}
			c.tables[table][key] = val
		}
	}
	return c, sc.Err()
}

// stripComment cuts a # comment that is not inside a string.
func stripComment(line string) string {
	in := false
	for i, r := range line {
		switch {
		case r == '"' && (i == 0 || line[i-1] != '\\'):
			in = !in
		case r == '#' && !in:
			return line[:i]
		}
	}
	return line
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
