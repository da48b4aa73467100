package runs

import "strings"

// noisePrefixes start lines that never say what failed: stack frames,
// make's and npm's bookkeeping, hints to re-run, runtime banners.
var noisePrefixes = []string{
	"at ", "File \"", "Traceback (most recent call last)", "During handling of the above exception",
	"The above exception was the direct cause", "goroutine ", "created by ", "exit status ", "Node.js v",
	"note: ", "help: ", "hint: ", "info: ", "For more information about", "Some errors have detailed explanations",
	"warning: build failed, waiting", "stack backtrace:", "Stack backtrace:", "Stack trace:", "... ", "-> [Help",
	"[Help ", "Re-run Maven", "To see the full stack trace", "For more information about the errors", "Please refer to",
	"Total time:", "Finished at:", "Output from these tests are in", "Use \"--rerun-failed", "You have skipped tests",
	"Randomized with seed", "Finished in ", "Run options:", "error Command failed with exit code", "info Visit ",
	"Error: Process completed with exit code", "make: Entering directory", "make: Leaving directory", "* Try:",
	"> Run with --", "> Get more help", "Get more help at", "Run with --stacktrace", "A complete log of this run",
	"Learn more about", "Ran all test suites", "Snapshots:", "Time:", "Start at",
	"Duration", "Command: ", "Directory: ", "Compiling ", "Finished `", "Running ", "Downloading", "Downloaded",
	"[process exited", "rerun with", "To see a list of", "Did you mean",
}

// npmBookkeeping are npm's lines about its own run.
var npmBookkeeping = []string{"code ", "errno ", "path ", "command ", "workdir ", "location ", "syscall ", "signal ",
	"Lifecycle script", "Failed at the", "This is probably", "A complete log", "Log files", "Did you mean", "To see a list",
	"   npm ", "  npm ", "npm "}

// isNoise reports a line that never says what failed.
func isNoise(t string) bool {
	for _, p := range noisePrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if isMakeError(t) || isBacktraceFrame(t) || isRule(t) {
		return true
	}
	for _, p := range []string{"npm ERR!", "npm error"} {
		if rest, ok := strings.CutPrefix(t, p); ok {
			rest = strings.TrimLeft(rest, " ")
			if rest == "" {
				return true
			}
			for _, b := range npmBookkeeping[1:] { // npm's "code E404" is kept, as a hint
				if strings.HasPrefix(rest, b) {
					return true
				}
			}
		}
	}
	return false
}

// isMakeError reads make's "make: *** [Makefile:14: x] Error 1" and
// "make[1]: Leaving directory …".
func isMakeError(t string) bool {
	name, rest, ok := strings.Cut(t, ": ")
	if !ok || !(strings.HasPrefix(name, "make") || strings.HasPrefix(name, "gmake")) {
		return false
	}
	if strings.HasPrefix(rest, "*** [") || strings.HasPrefix(rest, "*** Waiting") {
		return true
	}
	return strings.HasPrefix(rest, "Entering directory") || strings.HasPrefix(rest, "Leaving directory")
}

// isBacktraceFrame reads Rust's "  3: core::panicking::…" and PHP's "#0
// /path(12): …".
func isBacktraceFrame(t string) bool {
	t = strings.TrimPrefix(t, "#")
	_, rest, ok := leadingInt(t)
	return ok && (strings.HasPrefix(rest, ": ") && !strings.Contains(rest[2:], " ") || strings.HasPrefix(rest, " /") || strings.HasPrefix(rest, " {main}"))
}

// isRule reports a line of only punctuation: ====, ----, ^^^, ~~~, ⎯⎯⎯.
func isRule(t string) bool {
	for _, r := range t {
		if r == ' ' || strings.ContainsRune("=-_^~*#+|<>.⎯─━╍┄", r) {
			continue
		}
		if r >= '0' && r <= '9' || r == '/' || r == '[' || r == ']' {
			continue
		}
		return false
	}
	return true
}
