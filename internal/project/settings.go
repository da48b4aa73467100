package project

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Settings: every value Cairn reads from flags or the environment may also
// be written in a configuration file, the project's (.cairn/config.toml,
// committed) or the person's (os.UserConfigDir()/cairn/config.toml). A
// value is taken from the first of: the command's flag, the environment,
// the project file, the user file, the built-in default; Resolve says which
// for each, down to the file and line.
//
// A feature declares its keys with RegisterKeys, in a table of its own:
//
//	func init() {
//		project.RegisterKeys(project.Key{Table: "evolution", Name: "auto_apply", Default: "false", Help: "..."})
//	}

// A Key is one setting a configuration file may hold.
type Key struct {
	Table, Name string
	// Env and Flag name the environment variable and the flag that set it
	// too; empty when there is none.
	Env, Flag string
	Default   string
	Help      string
	// Check refuses a value that cannot be used; nil takes any.
	Check func(v string) error
}

// ID is the key as files and get_config name it: "table.name".
func (k Key) ID() string { return k.Table + "." + k.Name }

var (
	keysMu sync.Mutex
	keys   []Key
)

// RegisterKeys adds keys to those Resolve knows; a key registered twice
// keeps its first declaration.
func RegisterKeys(ks ...Key) {
	keysMu.Lock()
	defer keysMu.Unlock()
	for _, k := range ks {
		if !slices.ContainsFunc(keys, func(x Key) bool { return x.ID() == k.ID() }) {
			keys = append(keys, k)
		}
	}
}

// Keys returns every registered key, in registration order.
func Keys() []Key {
	keysMu.Lock()
	defer keysMu.Unlock()
	return slices.Clone(keys)
}

// The keys of this package's features.
func init() {
	RegisterKeys(
		Key{Table: "server", Name: "toolsets", Env: "CAIRN_TOOLSETS", Flag: "toolsets", Default: "default", Help: "toolsets served, comma-separated"},
		Key{Table: "server", Name: "read_only", Env: "CAIRN_READ_ONLY", Flag: "read-only", Default: "false", Help: "serve only the tools that do not write", Check: checkBool},
		Key{Table: "budgets", Name: "bootstrap_tokens", Default: "1500", Help: "bootstrap's token budget when a call names none", Check: checkRange(300, 20000)},
		Key{Table: "hooks", Name: "session_start_tokens", Flag: "budget", Default: "1500", Help: "the session-start hook's bootstrap budget", Check: checkRange(300, 20000)},
		Key{Table: "knowledge", Name: "knowledge", Default: "knowledge", Help: "folder of knowledge entries (query_tkb)", Check: checkRel},
		Key{Table: "knowledge", Name: "skills", Default: "skills", Help: "folder of skills (*/SKILL.md)", Check: checkRel},
		Key{Table: "knowledge", Name: "agents", Default: ".claude/agents", Help: "folder of agents (*.md)", Check: checkRel},
		Key{Table: "knowledge", Name: "workflows", Default: "workflows", Help: "folder of workflows (*.md)", Check: checkRel},
		Key{Table: "knowledge", Name: "templates", Default: "templates", Help: "folder of templates (*.md)", Check: checkRel},
		Key{Table: "branches", Name: "files", Default: "true", Help: "write each branch context to .cairn/branches/<branch>.json", Check: checkBool},
		Key{Table: "insight", Name: "enabled", Env: "CAIRN_INSIGHT", Default: "true", Help: "record tool use locally for the insight tools", Check: checkBool},
		Key{Table: "insight", Name: "retention_days", Default: "30", Help: "days of raw events kept before they roll up", Check: checkRange(1, 3650)},
		Key{Table: "insight", Name: "min_sample", Default: "10", Help: "sessions a measure needs to be compared", Check: checkRange(2, 10000)},
	)
}

func checkBool(v string) error {
	if _, err := strconv.ParseBool(v); err != nil {
		return fmt.Errorf("write true or false")
	}
	return nil
}

func checkRange(lo, hi int) func(string) error {
	return func(v string) error {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n < float64(lo) || n > float64(hi) {
			return fmt.Errorf("write a number from %d to %d", lo, hi)
		}
		return nil
	}
}

// checkRel takes a folder inside the project: relative, not climbing out.
func checkRel(v string) error {
	c := filepath.ToSlash(filepath.Clean(v))
	if v == "" || filepath.IsAbs(v) || c == ".." || strings.HasPrefix(c, "../") {
		return fmt.Errorf("write a folder inside the project, relative to its root")
	}
	return nil
}

// A Layer is one configuration file as read: its values and the line each
// is on, or why it was refused (then it holds nothing: its values are the
// defaults').
type Layer struct {
	// Path is the file; Name is how messages show it (".cairn/config.toml",
	// or the user file's path).
	Path, Name string
	Config     Config
	// Err is the refusal of a malformed file, "file:line: problem".
	Err   error
	lines map[string]int // "table.key" → its line
}

// Line is the line a key is written on, or 0.
func (l Layer) Line(id string) int { return l.lines[id] }

// UserConfigPath is the person's configuration file, under
// os.UserConfigDir (XDG_CONFIG_HOME on Linux); "" when there is none.
func UserConfigPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "cairn", ConfigName)
}

// ReadLayers reads the project's configuration file at root and the user's.
// A malformed file does not stop Cairn: its Layer carries the refusal and
// no values.
func ReadLayers(root string) (proj, user Layer) {
	proj = Layer{Path: filepath.Join(root, DirName, ConfigName), Name: ConfigFile}
	if root == "" {
		proj = Layer{}
	} else {
		proj.Config, proj.Err = ReadConfig(root)
		proj.finish()
	}
	if p := UserConfigPath(); p != "" {
		user = Layer{Path: p, Name: p}
		user.Config, user.Err = readConfigFile(p, p)
		user.finish()
	}
	return proj, user
}

// finish drops a refused file's values, checks each known key's value,
// and finds the line of each.
func (l *Layer) finish() {
	if l.Err != nil {
		l.Config = Config{Path: l.Path, tables: map[string]map[string]string{}}
		return
	}
	l.lines = keyLines(l.Path)
	for _, k := range Keys() {
		v, ok := l.Config.tables[k.Table][k.Name]
		if !ok || k.Check == nil {
			continue
		}
		if err := k.Check(v); err != nil {
			l.Err = configError(fmt.Sprintf("%s:%d: [%s] %s = %s: %v", l.Path, l.lines[k.ID()], k.Table, k.Name, problemValue(v), err), "fix the value")
			l.Config = Config{Path: l.Path, tables: map[string]map[string]string{}}
			return
		}
	}
}

func problemValue(v string) string {
	if len(v) > 60 {
		v = v[:60] + "…"
	}
	return strconv.Quote(v)
}

// keyLines finds the line of each "table.key" in a TOML file: the tables'
// headers and the keys under them (dotted keys too). It reads only what
// the parser accepted, so a plain scan is enough.
func keyLines(path string) map[string]int {
	out := map[string]int{}
	f, err := os.Open(path)
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	table, n := "", 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#':
		case strings.HasPrefix(line, "[["):
			table = "" // arrays of tables are the features' own
		case line[0] == '[':
			table = strings.TrimSpace(strings.Trim(strings.SplitN(line, "#", 2)[0], "[] \t"))
		default:
			name, _, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			name = strings.Trim(strings.TrimSpace(name), `"'`)
			id := name
			if table != "" {
				id = table + "." + name
			}
			if _, seen := out[id]; !seen {
				out[id] = n
			}
		}
	}
	return out
}

// Resolved is a setting's value in force and where it came from.
type Resolved struct {
	Key
	Value  string
	Source string // "flag --x", "env X", "file:line", "default"
}

// Resolve takes each registered key's value from, in order: flags (the
// flags a command was given, by flag name), the environment, the project
// file, the user file, the default.
func Resolve(flags map[string]string, proj, user Layer) []Resolved {
	var out []Resolved
	for _, k := range Keys() {
		out = append(out, resolve(k, flags, proj, user))
	}
	return out
}

func resolve(k Key, flags map[string]string, proj, user Layer) Resolved {
	if v, ok := flags[k.Flag]; ok && k.Flag != "" {
		return Resolved{k, v, "flag --" + k.Flag}
	}
	if k.Env != "" {
		if v := os.Getenv(k.Env); v != "" {
			return Resolved{k, v, "env " + k.Env}
		}
	}
	for _, l := range []Layer{proj, user} {
		if v, ok := l.Config.tables[k.Table][k.Name]; ok {
			return Resolved{k, v, fmt.Sprintf("%s:%d", l.Name, l.Line(k.ID()))}
		}
	}
	return Resolved{k, k.Default, "default"}
}

// Lookup is one resolved key by id, with ok false if no key has it.
func Lookup(rs []Resolved, id string) (Resolved, bool) {
	i := slices.IndexFunc(rs, func(r Resolved) bool { return r.ID() == id })
	if i < 0 {
		return Resolved{}, false
	}
	return rs[i], true
}

// Settings are the project's configuration at root resolved for a command
// that was given flags; problems are the refusals of malformed files.
func Settings(root string, flags map[string]string) (rs []Resolved, proj Layer, problems []string) {
	proj, user := ReadLayers(root)
	for _, l := range []Layer{proj, user} {
		if l.Err != nil {
			problems = append(problems, ConfigProblem(l.Err))
		}
	}
	return Resolve(flags, proj, user), proj, problems
}

// ConfigProblem words a malformed file's refusal for people and agents:
// where, what, and that its defaults stand in.
func ConfigProblem(err error) string {
	return err.Error() + " (this file is ignored, its settings take their defaults, until it is fixed)"
}
