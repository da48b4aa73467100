package runs

import "strings"

// Revert is a commit undone, as a shell command line shows it.
type Revert struct {
	// What names what was reverted: the commits git revert was given, or
	// the reverting commit's message.
	What string
	// How says how it was seen: "git revert" or "commit message".
	How string
}

// Reverts finds the reverts in a shell command line: git revert with the
// commits it undoes (not --abort, --quit, --skip or --continue, which end
// one already under way), and git commit with a message (-m) that starts
// "Revert", as git writes for a revert and people copy by hand.
func Reverts(command string) []Revert {
	if len(command) > maxCommand {
		command = command[:maxCommand]
	}
	if !strings.Contains(command, "git") {
		return nil // most commands: not worth a parse
	}
	var out []Revert
	for _, argv := range simpleCommands(command) {
		argv = unwrap(argv)
		if len(argv) < 2 || program(argv[0]) != "git" {
			continue
		}
		args := gitSubcommand(argv[1:])
		if len(args) == 0 {
			continue
		}
		switch args[0] {
		case "revert":
			if r, ok := gitRevert(args[1:]); ok {
				out = append(out, r)
			}
		case "commit":
			if msg := strings.TrimSpace(commitMessage(args[1:])); revertMessage(msg) {
				out = append(out, Revert{What: firstLine(msg), How: "commit message"})
			}
		}
	}
	return out
}

// gitSubcommand skips git's own options (-C dir, -c k=v, --no-pager …).
func gitSubcommand(args []string) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return args[i:]
		}
	}
	return nil
}

func gitRevert(args []string) (Revert, bool) {
	var commits []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--abort" || a == "--quit" || a == "--skip" || a == "--continue":
			return Revert{}, false
		case a == "-m" || a == "--mainline": // a merge's parent number
			i++
		case strings.HasPrefix(a, "-"):
		default:
			commits = append(commits, a)
		}
	}
	if len(commits) == 0 {
		return Revert{}, false
	}
	return Revert{What: strings.Join(commits, " "), How: "git revert"}, true
}

// commitMessage is the message git commit -m (or --message) gives; "" when
// the command gives none on its line.
func commitMessage(args []string) string {
	var parts []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-m" || a == "--message") && i+1 < len(args):
			parts = append(parts, args[i+1])
			i++
		case strings.HasPrefix(a, "--message="):
			parts = append(parts, strings.TrimPrefix(a, "--message="))
		case strings.HasPrefix(a, "-m") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			parts = append(parts, a[2:])
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "m") && i+1 < len(args):
			parts = append(parts, args[i+1]) // -am "msg"
			i++
		}
	}
	return strings.Join(parts, "\n\n")
}

// revertMessage reports a message whose first word is Revert.
func revertMessage(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "Revert")
	return ok && (rest == "" || strings.ContainsAny(rest[:1], " \"':\n"))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 120 {
		line = line[:120]
	}
	return line
}
