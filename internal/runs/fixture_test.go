package runs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fixture is a command run saved in testdata: the command, its exit
// status and its output (stdout and stderr together).
type fixture struct {
	name    string
	command string
	exit    int
	output  string
}

// hookOutput is the output as a Claude Code hook gets it: a failure's
// text starts with "Exit code N".
func (f fixture) hookOutput() string {
	if f.exit == 0 {
		return f.output
	}
	return "Exit code " + strconv.Itoa(f.exit) + "\n" + f.output
}

func loadFixtures(t testing.TB, dir string) []fixture {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.txt"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	var out []fixture
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		head, output, _ := strings.Cut(string(b), "\n\n")
		f := fixture{name: strings.TrimSuffix(filepath.Base(p), ".txt"), output: output}
		for _, l := range strings.Split(head, "\n") {
			k, v, _ := strings.Cut(l, ": ")
			switch k {
			case "cmd":
				f.command = v
			case "exit":
				f.exit, _ = strconv.Atoi(v)
			}
		}
		out = append(out, f)
	}
	return out
}

func TestDump(t *testing.T) {
	if os.Getenv("RUNS_DUMP") == "" {
		t.Skip()
	}
	for _, f := range loadFixtures(t, os.Getenv("RUNS_DUMP")) {
		r, ok := Test(f.command)
		res := ParseTest(r, f.hookOutput(), f.exit == 0)
		fl := Failure(f.command, f.hookOutput())
		if os.Getenv("RUNS_FAILURE") != "" {
			t.Logf("%-24s kind=%q line=%q", f.name, fl.Kind, fl.Line)
			continue
		}
		t.Logf("%-24s test=%v %-12q %+v", f.name, ok, r, res)
	}
}
