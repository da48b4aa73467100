// Package proc reads the process tree Cairn runs in, to link what an agent's
// client starts: the client runs its hook commands and its MCP servers as
// child processes, so a hook and a server of the same client window share
// the client's process as an ancestor, and no id needs to pass between them.
// A process is named by its pid and its start time, so that a pid the
// system has reused is not taken for the old process.
package proc

import (
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
)

// maxDepth bounds how far up the tree Ancestors walks.
const maxDepth = 16

// info is what the tree holds of one process.
type info struct {
	proc memory.Proc
	ppid int
	name string // the executable's base name
}

// Ancestors returns the processes above this one, its parent first, up to
// the first of the system's own (pid 1); nil where the system does not say.
func Ancestors() []memory.Proc {
	var out []memory.Proc
	for _, i := range chain() {
		out = append(out, i.proc)
	}
	return out
}

// Client returns the process of the agent's client that ran this one: the
// nearest ancestor that is not a shell or a launcher (sh -c, env, timeout,
// npx…), which is how clients run hook commands. ok is false where the
// system does not say.
func Client() (memory.Proc, bool) {
	for _, i := range chain() {
		if !launcher(i.name) {
			return i.proc, true
		}
	}
	return memory.Proc{}, false
}

// Alive reports whether p still runs: its pid is taken by a process that
// started when p did. Where the system does not say, it reports true.
func Alive(p memory.Proc) bool {
	if p.PID <= 0 {
		return false
	}
	i, ok, known := read(p.PID)
	if !known {
		return true
	}
	return ok && (p.Start == 0 || i.proc.Start == p.Start)
}

// chain walks up from this process's parent.
func chain() []info {
	var out []info
	pid := parent()
	for d := 0; d < maxDepth && pid > 1; d++ {
		i, ok, _ := read(pid)
		if !ok {
			break
		}
		out = append(out, i)
		pid = i.ppid
	}
	return out
}

// launcher reports whether a process of this name only runs another: a
// shell or a wrapper, not a client.
func launcher(name string) bool {
	name = strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".exe")
	switch name {
	case "sh", "bash", "zsh", "dash", "fish", "ksh", "csh", "tcsh", "busybox", "env", "timeout", "nice", "nohup",
		"npx", "npm", "pnpm", "yarn", "bunx", "uvx", "sudo", "doas", "script", "stdbuf", "time", "cairn":
		return true
	}
	return false
}
