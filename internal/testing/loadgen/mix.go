package loadgen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Op names the operations a mix weighs. Each is one tool call, except that
// OpFocusCycle is an agent's focus workflow: every pick makes its next call
// (create_new_task, complete_current_task, ...), recorded under that tool.
const (
	OpGetCurrentTask    = "get_current_task"
	OpGetNextTask       = "get_next_task"
	OpGetTasks          = "get_tasks"
	OpGetTask           = "get_task"
	OpGetBigPicture     = "get_big_picture"
	OpCreateTask        = "create_task"
	OpUpdateTask        = "update_task"
	OpUpdateCurrentTask = "update_current_task"
	OpFocusCycle        = "focus_cycle"
	// OpPing is MCP's ping, no tool: what the SDK's transport and
	// dispatch cost on their own, the floor under every tool call.
	OpPing = "ping"
)

// ops lists every operation a mix may name, reads first.
var ops = []string{OpGetCurrentTask, OpGetNextTask, OpGetTasks, OpGetTask, OpGetBigPicture,
	OpCreateTask, OpUpdateTask, OpUpdateCurrentTask, OpFocusCycle, OpPing}

// DefaultMix is an agent's day, by weight: mostly reading where it is and
// what is next, about a third writes, of which most are the focus cycle.
const DefaultMix = "get_current_task=20,get_task=15,get_tasks=10,get_next_task=10,get_big_picture=2," +
	"create_task=5,update_task=8,update_current_task=5,focus_cycle=25"

// Mix is a weighted choice of operations.
type Mix struct {
	ops []string
	cum []int // cumulative weights, parallel to ops
}

// ParseMix reads "op=weight,op=weight,...". Weights are whole numbers; an
// operation left out or weighted 0 is never picked.
func ParseMix(s string) (Mix, error) {
	var m Mix
	seen := make(map[string]bool)
	total := 0
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, w, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if !ok {
			return Mix{}, fmt.Errorf("-mix: %q has no weight; write %s=10", part, name)
		}
		if !slices.Contains(ops, name) {
			return Mix{}, fmt.Errorf("-mix: unknown operation %q; choose from %s", name, strings.Join(ops, ", "))
		}
		if seen[name] {
			return Mix{}, fmt.Errorf("-mix: %s is weighted twice; give it once", name)
		}
		seen[name] = true
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 0 {
			return Mix{}, fmt.Errorf("-mix: weight of %s is %q; use a whole number 0 or more", name, w)
		}
		if n == 0 {
			continue
		}
		total += n
		m.ops = append(m.ops, name)
		m.cum = append(m.cum, total)
	}
	if total == 0 {
		return Mix{}, fmt.Errorf("-mix: %q weighs nothing; give at least one operation a weight above 0, e.g. %s", s, DefaultMix)
	}
	return m, nil
}

// Pick chooses an operation with probability proportional to its weight.
func (m Mix) Pick(r *rand.Rand) string {
	n := r.IntN(m.cum[len(m.cum)-1])
	i, _ := slices.BinarySearch(m.cum, n+1)
	return m.ops[i]
}

// String renders the mix as ParseMix reads it.
func (m Mix) String() string {
	parts := make([]string, len(m.ops))
	prev := 0
	for i, op := range m.ops {
		parts[i] = fmt.Sprintf("%s=%d", op, m.cum[i]-prev)
		prev = m.cum[i]
	}
	return strings.Join(parts, ",")
}

// Has says whether the mix can pick op.
func (m Mix) Has(op string) bool { return slices.Contains(m.ops, op) }
