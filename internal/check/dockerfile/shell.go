package dockerfile

import (
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	"mvdan.cc/sh/v3/syntax"
)

// maxScript bounds the RUN scripts parsed as shell: past it the shell
// checks are skipped (a RUN that long is generated, not written).
const maxScript = 256 << 10

// maxPipes bounds the pipes of one script that are judged.
const maxPipes = 32

// script is the shell script a RUN runs, and the way back from its
// offsets to the file.
type script struct {
	text   string
	pieces []piece // by off
	line   int     // the instruction's line, for offsets no piece maps
	col    int
}

// piece is a part of the script that maps to the file through tm.
type piece struct {
	off int
	tm  textMap
}

func (s *script) pos(off int) (line, col int) {
	i := sort.Search(len(s.pieces), func(i int) bool { return s.pieces[i].off > off }) - 1
	if i >= 0 && len(s.pieces[i].tm.segs) > 0 {
		return s.pieces[i].tm.pos(off - s.pieces[i].off)
	}
	return s.line, s.col
}

// posixShells are the shells whose scripts are checked.
var posixShells = []string{"sh", "bash", "ash", "dash", "zsh", "ksh", "busybox"}

// isPosixShell reports whether a SHELL (nil for the default /bin/sh -c)
// runs POSIX shell scripts.
func isPosixShell(sh []string) bool {
	return len(sh) == 0 || slices.Contains(posixShells, path.Base(strings.ToLower(sh[0])))
}

// runScript returns the shell script of a RUN, nil when it runs no shell
// script this checker reads (exec form of another program, a heredoc with
// another interpreter's shebang, a Windows or non-POSIX SHELL).
func (f *file) runScript(st *stage, c *command, run *instructions.RunCommand) *script {
	line, col := f.start(c.node)
	s := &script{line: line, col: col}
	if !run.PrependShell {
		args := run.CmdLine
		if len(args) >= 3 && slices.Contains(posixShells, path.Base(args[0])) && strings.HasPrefix(args[1], "-") && strings.HasSuffix(args[1], "c") {
			s.text = args[2] // positions are the instruction's
			return s
		}
		return nil
	}
	if st.windows || !isPosixShell(st.shell) || len(run.CmdLine) == 0 {
		return nil
	}
	tm, _ := f.textOf(c)
	docs := heredocMaps(c.node, f.lastLine(c))
	if len(run.Files) > 0 && parser.MustParseHeredoc(run.CmdLine[0]) != nil {
		data := run.Files[0].Data
		if strings.HasPrefix(data, "#!") {
			first, _, _ := strings.Cut(data, "\n")
			if !shebangIsShell(first) {
				return nil
			}
		}
		s.text = data
		if len(docs) > 0 {
			s.pieces = append(s.pieces, piece{0, docs[0]})
		}
		return s
	}
	cmd := run.CmdLine[0]
	orig := c.node.Original
	off := len(strings.TrimRight(orig, " \t\r\n")) - len(cmd)
	if off < 0 || orig[off:off+len(cmd)] != cmd {
		off = strings.LastIndex(orig, cmd)
	}
	var b strings.Builder
	b.WriteString(cmd)
	if off >= 0 {
		s.pieces = append(s.pieces, piece{0, tm.shift(off)})
	}
	for i, h := range run.Files {
		b.WriteByte('\n')
		p := piece{off: b.Len()}
		if i < len(docs) {
			p.tm = docs[i]
		}
		s.pieces = append(s.pieces, p)
		b.WriteString(h.Data)
		b.WriteString(h.Name)
		b.WriteByte('\n')
	}
	s.text = b.String()
	return s
}

// shebangIsShell reports whether a #! line runs a POSIX shell.
func shebangIsShell(line string) bool {
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return true
	}
	prog := path.Base(fields[0])
	if prog == "env" && len(fields) > 1 {
		prog = path.Base(fields[len(fields)-1])
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				prog = path.Base(f)
				break
			}
		}
	}
	return slices.Contains(posixShells, prog)
}

// simpleCmd is one command of a script: the program and its arguments.
type simpleCmd struct {
	name    string   // the program's base name, after wrappers (sudo, env)
	args    []string // the literal text of each argument; "" for one that is not literal
	off     int      // offset of the program's word in the script
	sudo    bool     // run under sudo
	sudoOff int
}

// hasArg reports whether one of the arguments is a.
func (c simpleCmd) hasArg(a ...string) bool {
	return slices.ContainsFunc(c.args, func(x string) bool { return slices.Contains(a, x) })
}

// pipe is a | in a script.
type pipe struct {
	off    int
	feeder bool // every command before it only prints (echo, printf, yes)
}

// shellFacts is what the checks need from a script.
type shellFacts struct {
	cmds     []simpleCmd
	pipes    []pipe
	pipefail int  // offset of the first `set -o pipefail`, -1 for none
	onlyCd   bool // the script is one cd command
	yes      bool // a `yes` feeds some command
}

// analyzeScript parses s as shell; nil when it does not parse (the shell
// will say so at build time; no finding is made of it).
func analyzeScript(s *script) *shellFacts {
	if s == nil || len(s.text) > maxScript {
		return nil
	}
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s.text), "")
	if err != nil {
		return nil
	}
	facts := &shellFacts{pipefail: -1}
	if len(file.Stmts) == 1 {
		if call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 && call.Args[0].Lit() == "cd" {
			facts.onlyCd = true
		}
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			c, ok := simpleCommand(x)
			if !ok {
				return true
			}
			facts.cmds = append(facts.cmds, c)
			switch c.name {
			case "set":
				if c.hasArg("pipefail") && facts.pipefail < 0 {
					facts.pipefail = c.off
				}
			case "yes":
				facts.yes = true
			}
		case *syntax.BinaryCmd:
			// Whether the left side only prints is judged for the first
			// pipes only: it walks the left side, quadratic on a long chain.
			if (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && len(facts.pipes) < maxPipes {
				facts.pipes = append(facts.pipes, pipe{off: int(x.OpPos.Offset()), feeder: onlyPrints(x.X)})
			}
		}
		return true
	})
	return facts
}

// onlyPrints reports whether every command of stmt only prints literal
// text, so a failure on its side of a pipe cannot be hidden.
func onlyPrints(stmt *syntax.Stmt) bool {
	ok := true
	syntax.Walk(stmt, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			if c, lit := simpleCommand(x); !lit || !slices.Contains([]string{"echo", "printf", "yes"}, c.name) {
				ok = false
			}
		case *syntax.CmdSubst:
			ok = false
		}
		return ok
	})
	return ok
}

// wrappers run the command after their own options.
var wrappers = map[string]bool{"sudo": true, "env": true, "exec": true, "command": true, "nice": true, "nohup": true, "time": true, "stdbuf": true}

// simpleCommand reads a call: its program (after wrappers such as sudo and
// env) and arguments. ok is false when the program is not a literal.
func simpleCommand(call *syntax.CallExpr) (simpleCmd, bool) {
	var c simpleCmd
	args := call.Args
	for len(args) > 0 {
		name, ok := wordText(args[0])
		if !ok {
			return c, false
		}
		base := path.Base(name)
		if !wrappers[base] {
			c.name, c.off = base, int(args[0].Pos().Offset())
			break
		}
		if base == "sudo" {
			c.sudo, c.sudoOff = true, int(args[0].Pos().Offset())
		}
		args = args[1:]
	opts:
		for len(args) > 0 {
			a, _ := wordText(args[0])
			switch {
			case base == "sudo" && slices.Contains([]string{"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, a):
				args = args[min(2, len(args)):]
			case strings.HasPrefix(a, "-") || (base == "env" && strings.Contains(a, "=")):
				args = args[1:]
			default:
				break opts
			}
		}
	}
	if c.name == "" {
		return c, false
	}
	for _, w := range args[1:] {
		t, _ := wordText(w)
		c.args = append(c.args, t)
	}
	return c, true
}

// wordText returns a word's text when it is literal (quoted or not); ok
// is false when it expands something.
func wordText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}
