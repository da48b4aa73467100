package runs

import "strings"

// maxTail is how many of the output's last lines a failure keeps.
const maxTail = 5

// Failed is what a failed command's output says worth keeping.
type Failed struct {
	// Line is the line a developer would quote (for some failures with the
	// line that completes it: a Go test's assertion, a Rust panic's
	// message), at most 200 bytes; "" when the output has none.
	Line string
	// Kind is the error's type, class or code where the output names one:
	// ValueError, java.lang.IllegalStateException, E0308, TS2322,
	// ERR_MODULE_NOT_FOUND, panic, command not found.
	Kind string
	// Tail are the output's last non-empty lines (at most 5, each at most
	// 200 bytes), without the hook's own "Exit code N" lines.
	Tail []string
	// Fingerprint identifies the failure: the same failure seen twice has
	// the same one, whatever the paths' temporary directories, line
	// numbers, addresses, times and ids; two different failures of one
	// command do not. A failure with no line is identified by its command.
	Fingerprint string
}

// Failure reads a failed command's output (stdout and stderr, as a hook
// got them) for the line worth keeping, its kind, a short tail and a
// fingerprint. See the package doc for the lines it prefers.
func Failure(command, output string) Failed {
	ls := dropHookLines(outputLines(output))
	var f Failed
	f.Tail = tail(ls)
	if c, ok := best(ls); ok {
		f.Line, f.Kind = shown(c.text), c.kind
	}
	f.Fingerprint = fingerprint(command, f.Kind, f.Line)
	return f
}

// dropHookLines removes the lines a coding client adds around a command's
// output: Claude Code's "Exit code N", Gemini CLI's "Exit Code: N",
// "Process Group PGID: N" and "Output: " prefix.
func dropHookLines(ls []string) []string {
	out := ls[:0:0]
	for _, l := range ls {
		switch {
		case isExitCode(l, "Exit code "), isExitCode(l, "Exit Code: "), strings.HasPrefix(l, "Process Group PGID: "),
			l == "Error: (none)", l == "Signal: (none)", l == "Background PIDs: (none)":
		default:
			if rest, ok := strings.CutPrefix(l, "Output: "); ok && len(out) == 0 {
				l = rest
			}
			out = append(out, l)
		}
	}
	return out
}

func isExitCode(l, prefix string) bool {
	rest, ok := strings.CutPrefix(strings.Join(strings.Fields(l), " "), prefix)
	_, tail, isInt := leadingInt(rest)
	return ok && isInt && tail == ""
}

// tail is the last non-empty lines, shown.
func tail(ls []string) []string {
	var out []string
	for i := len(ls) - 1; i >= 0 && len(out) < maxTail; i-- {
		if strings.TrimSpace(ls[i]) != "" {
			out = append(out, shown(ls[i]))
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// candidate is a line that may be the failure's.
type candidate struct {
	at    int
	score int
	kind  string
	text  string
	first bool // the earliest of equal scores wins, not the latest
}

// best is the most informative line: the highest score, and among equal
// scores the latest, or the earliest for kinds whose first occurrence is
// the cause (compile errors, panics, failing tests).
func best(ls []string) (candidate, bool) {
	var (
		top candidate
		sc  scanner
	)
	found := false
	for i := range ls {
		c, ok := sc.score(ls, i)
		if !ok {
			continue
		}
		if !found || c.score > top.score || c.score == top.score && !c.first {
			top, found = c, true
		}
	}
	if found {
		top.text, top.kind = complete(ls, top)
	}
	return top, found
}
