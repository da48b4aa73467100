package runs

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Limits on the commands read.
const (
	maxCommand  = 16 << 10 // longer command lines are cut
	maxCommands = 64       // simple commands looked at in one line
	maxDepth    = 3        // nested bash -c levels
)

// Test reports whether a shell command runs tests, and with which runner:
// the first simple command of the line that does. See the package doc for
// what is recognised.
func Test(command string) (Runner, bool) {
	return testIn(command, 0)
}

func testIn(command string, depth int) (Runner, bool) {
	if len(command) > maxCommand {
		command = command[:maxCommand]
	}
	for _, argv := range simpleCommands(command) {
		if r, ok := classify(argv, depth); ok {
			return r, true
		}
	}
	return "", false
}

// simpleCommands are the simple commands of a shell command line, each as
// its words with quotes removed (an expansion stays as written, $NAME).
func simpleCommands(src string) [][]string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return splitCommands(src)
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		if len(out) >= maxCommands {
			return false
		}
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			argv := make([]string, 0, len(c.Args))
			for _, w := range c.Args {
				argv = append(argv, wordText(w))
			}
			out = append(out, argv)
		}
		return true
	})
	return out
}

// wordText is a shell word as the command would see it, as far as that
// is known without running anything.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	partsText(&b, w.Parts)
	return b.String()
}

func partsText(b *strings.Builder, parts []syntax.WordPart) {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			partsText(b, p.Parts)
		case *syntax.ParamExp:
			if p.Param != nil {
				b.WriteString("$" + p.Param.Value)
			}
		default:
			b.WriteString("$?")
		}
	}
}

// splitCommands is the fallback for a line the shell parser refuses (cut
// short, or not shell): split at the list and pipe operators, then at
// spaces, with quotes dropped.
func splitCommands(src string) [][]string {
	var out [][]string
	cmds := strings.FieldsFunc(src, func(r rune) bool {
		return r == '&' || r == '|' || r == ';' || r == '\n' || r == '(' || r == ')' || r == '`'
	})
	for _, c := range cmds {
		if len(out) >= maxCommands {
			break
		}
		var argv []string
		for _, f := range strings.Fields(c) {
			argv = append(argv, strings.Trim(f, `"'`))
		}
		if len(argv) > 0 {
			out = append(out, argv)
		}
	}
	return out
}

// classify says whether one simple command runs tests.
func classify(argv []string, depth int) (Runner, bool) {
	argv = unwrap(argv)
	if len(argv) == 0 {
		return "", false
	}
	name, args := program(argv[0]), argv[1:]
	if isShell(name) {
		return shellRun(argv[0], args, depth)
	}
	if helpAsked(args) {
		return "", false
	}
	if rule, ok := programs[name]; ok {
		return rule(args)
	}
	if r, ok := pythonLike(name, args); ok {
		return r, true
	}
	return scriptRun(argv[0])
}

// program is the name a command is known by: its base name, lower case,
// without a Windows .exe or .cmd.
func program(word string) string {
	name := strings.ToLower(path.Base(strings.ReplaceAll(word, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

func isShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash":
		return true
	}
	return false
}

// shellRun reads bash -c 'script' and bash script.sh.
func shellRun(shell string, args []string, depth int) (Runner, bool) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return scriptRun(a)
		}
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") && i+1 < len(args) {
			if depth >= maxDepth {
				return "", false
			}
			return testIn(args[i+1], depth+1)
		}
	}
	return "", false
}

// helpAsked reports a run that only prints help or a version.
func helpAsked(args []string) bool {
	for _, a := range args {
		switch a {
		case "--help", "--version", "-help":
			return true
		}
	}
	return false
}

// testScripts are the names of scripts that run a project's tests.
var testScripts = map[string]bool{
	"test": true, "tests": true, "test.sh": true, "tests.sh": true, "run_tests.sh": true, "run-tests.sh": true,
	"runtests.sh": true, "run_tests": true, "run-tests": true, "runtests": true, "run_tests.py": true,
	"runtests.py": true, "unittest.sh": true, "test-all.sh": true, "test_all.sh": true, "ci-test.sh": true,
}

// scriptRun recognises a test script run by its path (./test.sh,
// scripts/test): the bare name test is the shell's builtin.
func scriptRun(word string) (Runner, bool) {
	if strings.Contains(word, "/") && testScripts[program(word)] {
		return Script, true
	}
	if strings.HasSuffix(word, ".sh") && testScripts[program(word)] {
		return Script, true
	}
	return "", false
}
