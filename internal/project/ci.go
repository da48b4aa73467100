package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// CICommand is one command `cairn ci` runs, from .cairn/config.toml:
//
//	[[ci.commands]]
//	name = "test"
//	run = "go test ./..."
//	timeout = "10m"
type CICommand struct {
	Name    string        `toml:"name"`
	Run     string        `toml:"run"`
	Timeout time.Duration `toml:"-"`
}

// DefaultCITimeout is a command's time limit when it names none.
const DefaultCITimeout = 10 * time.Minute

// ReadCICommands reads the [[ci.commands]] of the project at root (none
// when the file or the table is absent). An entry without name or run, or
// with a timeout that is not a duration, is refused as Malformed.
func ReadCICommands(root string) ([]CICommand, error) {
	path := filepath.Join(root, DirName, ConfigName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > maxConfig {
		return nil, configError(fmt.Sprintf("%s is %d bytes, over %d", ConfigFile, len(b), maxConfig), "keep it small")
	}
	var v struct {
		CI struct {
			Commands []struct {
				Name    string `toml:"name"`
				Run     string `toml:"run"`
				Timeout string `toml:"timeout"`
			} `toml:"commands"`
		} `toml:"ci"`
	}
	md, err := toml.Decode(string(b), &v)
	if err != nil {
		if pe, ok := errors.AsType[toml.ParseError](err); ok {
			return nil, configError(fmt.Sprintf("%s:%d: %s", path, pe.Position.Line, pe.Message), "fix the TOML")
		}
		return nil, configError(ConfigFile+" [ci]: "+err.Error(), "write [[ci.commands]] entries with name, run and timeout strings")
	}
	for _, k := range md.Undecoded() {
		if len(k) > 0 && k[0] == "ci" {
			return nil, configError(ConfigFile+" has an unknown key "+k.String(), "use [[ci.commands]] with name, run and timeout")
		}
	}
	var out []CICommand
	for i, c := range v.CI.Commands {
		at := fmt.Sprintf("%s ci.commands[%d]", ConfigFile, i+1)
		cmd := CICommand{Name: strings.TrimSpace(c.Name), Run: strings.TrimSpace(c.Run), Timeout: DefaultCITimeout}
		switch {
		case cmd.Name == "":
			return nil, configError(at+" has no name", `name it: name = "test"`)
		case cmd.Run == "":
			return nil, configError(at+" ("+cmd.Name+") has no run", `give the shell command: run = "go test ./..."`)
		}
		if c.Timeout != "" {
			d, err := time.ParseDuration(c.Timeout)
			if err != nil || d <= 0 {
				return nil, configError(at+" ("+cmd.Name+") timeout "+fmt.Sprintf("%q", c.Timeout)+" is not a duration", `write timeout = "10m"`)
			}
			cmd.Timeout = d
		}
		out = append(out, cmd)
	}
	return out, nil
}
