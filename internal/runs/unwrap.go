package runs

import "strings"

// maxUnwrap bounds the wrappers taken off one command.
const maxUnwrap = 8

// unwrap takes off environment assignments and the commands that run
// another (env, timeout, npx, uv run, bundle exec, docker exec …).
func unwrap(argv []string) []string {
	for range maxUnwrap {
		argv = dropAssignments(argv)
		if len(argv) == 0 {
			return nil
		}
		w, ok := wrappers[program(argv[0])]
		if !ok {
			return argv
		}
		if argv = w(argv[1:]); argv == nil {
			return nil
		}
	}
	return argv
}

func dropAssignments(argv []string) []string {
	for len(argv) > 0 && isAssignment(argv[0]) {
		argv = argv[1:]
	}
	return argv
}

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// skipFlags drops leading flags; those in withValue take the next word
// (unless written --flag=value).
func skipFlags(args []string, withValue ...string) []string {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, f := range withValue {
			if a == f && len(args) > 0 {
				args = args[1:]
				break
			}
		}
	}
	return args
}

// after drops the words up to and including the first of subs, when the
// first non-flag word is one of them.
func after(args []string, flagsWithValue []string, subs ...string) []string {
	args = skipFlags(args, flagsWithValue...)
	if len(args) > 0 {
		for _, s := range subs {
			if args[0] == s {
				return args[1:]
			}
		}
	}
	return nil
}

// wrappers take off a wrapper and return the command it runs, nil when it
// runs none that can be told.
var wrappers = map[string]func([]string) []string{
	"env":              func(a []string) []string { return dropAssignments(skipFlags(a, "-u", "-C", "--unset", "--chdir")) },
	"timeout":          timeoutArgs,
	"gtimeout":         timeoutArgs,
	"nice":             func(a []string) []string { return skipFlags(a, "-n") },
	"ionice":           func(a []string) []string { return skipFlags(a, "-c", "-n", "-p") },
	"nohup":            func(a []string) []string { return a },
	"time":             func(a []string) []string { return skipFlags(a, "-f", "-o") },
	"command":          func(a []string) []string { return skipFlags(a) },
	"exec":             func(a []string) []string { return skipFlags(a, "-a") },
	"builtin":          func(a []string) []string { return a },
	"sudo":             func(a []string) []string { return skipFlags(a, "-u", "-g", "-C", "-D", "-h", "-p", "-U") },
	"doas":             func(a []string) []string { return skipFlags(a, "-u") },
	"stdbuf":           func(a []string) []string { return skipFlags(a, "-i", "-o", "-e") },
	"xvfb-run":         func(a []string) []string { return skipFlags(a, "-n", "-s", "-f", "-e", "-p", "--server-args") },
	"dbus-run-session": func(a []string) []string { return skipFlags(a, "--config-file") },
	"unbuffer":         func(a []string) []string { return skipFlags(a) },
	"dotenv":           func(a []string) []string { return skipFlags(a, "-e", "-v", "-c") },
	"npx":              npxArgs,
	"bunx":             npxArgs,
	"pnpx":             npxArgs,
	"uv":               func(a []string) []string { return skipFlags(after(a, uvFlags, "run"), uvFlags...) },
	"uvx":              func(a []string) []string { return skipFlags(a, uvFlags...) },
	"poetry":           func(a []string) []string { return after(a, []string{"-C", "--directory", "-P", "--project"}, "run") },
	"pipenv":           func(a []string) []string { return after(a, nil, "run") },
	"pdm":              func(a []string) []string { return skipFlags(after(a, []string{"-p", "--project"}, "run"), "-p") },
	"rye":              func(a []string) []string { return after(a, nil, "run") },
	"pixi":             func(a []string) []string { return skipFlags(after(a, nil, "run"), "-e", "--environment") },
	"hatch":            hatchArgs,
	"conda":            func(a []string) []string { return skipFlags(after(a, nil, "run"), "-n", "--name", "-p", "--prefix") },
	"mamba":            func(a []string) []string { return skipFlags(after(a, nil, "run"), "-n", "--name", "-p", "--prefix") },
	"micromamba":       func(a []string) []string { return skipFlags(after(a, nil, "run"), "-n", "--name", "-p", "--prefix") },
	"bundle":           func(a []string) []string { return after(a, nil, "exec") },
	"bundler":          func(a []string) []string { return after(a, nil, "exec") },
	"docker":           dockerArgs,
	"podman":           dockerArgs,
	"docker-compose":   composeArgs,
	"nix-shell":        nixShellArgs,
}

var uvFlags = []string{"--with", "--python", "-p", "--group", "--extra", "--package", "--directory", "--project", "--env-file", "--with-requirements", "--from", "--index", "--index-url"}

func timeoutArgs(a []string) []string {
	a = skipFlags(a, "-s", "-k", "--signal", "--kill-after")
	if len(a) > 0 {
		return a[1:] // the duration
	}
	return nil
}

// npxArgs reads npx [--yes] [-p pkg] bin …; a scoped or versioned
// package name is the bin it runs (npx vitest@latest run).
func npxArgs(a []string) []string {
	a = skipFlags(a, "-p", "--package", "-c", "--call")
	if len(a) == 0 {
		return nil
	}
	bin := a[0]
	if i := strings.LastIndexByte(bin, '@'); i > 0 {
		bin = bin[:i]
	}
	if i := strings.LastIndexByte(bin, '/'); i >= 0 && strings.HasPrefix(bin, "@") {
		bin = bin[i+1:]
	}
	return append([]string{bin}, a[1:]...)
}

// hatchArgs reads hatch run [env:]cmd; hatch test runs pytest.
func hatchArgs(a []string) []string {
	if rest := after(a, nil, "test"); rest != nil || len(a) > 0 && a[0] == "test" {
		return append([]string{"pytest"}, rest...)
	}
	rest := after(a, nil, "run")
	if len(rest) > 0 {
		if _, cmd, ok := strings.Cut(rest[0], ":"); ok {
			rest[0] = cmd
		}
	}
	return rest
}

var dockerValueFlags = []string{"-e", "--env", "-w", "--workdir", "-u", "--user", "-v", "--volume", "--name", "-p",
	"--publish", "--network", "--entrypoint", "--env-file", "-l", "--label", "--mount", "--platform", "-f", "--file",
	"--project-name", "--profile", "--add-host", "--cpus", "-m", "--memory", "--gpus", "--pull", "--hostname", "--ipc"}

// dockerArgs reads docker exec|run [flags] CONTAINER|IMAGE cmd … and
// docker compose exec|run [flags] SERVICE cmd ….
func dockerArgs(a []string) []string {
	a = skipFlags(a, "-H", "--host", "--context", "-c", "--config")
	if len(a) == 0 {
		return nil
	}
	switch a[0] {
	case "compose":
		return composeArgs(a[1:])
	case "exec", "run":
		a = skipFlags(a[1:], dockerValueFlags...)
		if len(a) > 1 {
			return a[1:]
		}
	}
	return nil
}

func composeArgs(a []string) []string {
	a = skipFlags(a, dockerValueFlags...)
	if len(a) > 0 && (a[0] == "exec" || a[0] == "run") {
		a = skipFlags(a[1:], dockerValueFlags...)
		if len(a) > 1 {
			return a[1:]
		}
	}
	return nil
}

// nixShellArgs reads nix-shell --run 'cmd' as the words of cmd.
func nixShellArgs(a []string) []string {
	for i, w := range a {
		if w == "--run" && i+1 < len(a) {
			return strings.Fields(a[i+1])
		}
	}
	return nil
}
