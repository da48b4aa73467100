package focus

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// AgentFocus is where one agent is: its YOU ARE HERE.
type AgentFocus struct {
	Agent string
	Task  task.Task
}

// Agents returns every agent whose focus names an open task, by agent
// name: the people watching see where each one is.
func (f *Focus) Agents(ctx context.Context) ([]AgentFocus, error) {
	var out []AgentFocus
	err := f.store.View(ctx, func(tx store.Tx) error {
		m, err := tx.Focuses(ctx)
		if err != nil {
			return err
		}
		for agent, id := range m {
			t, err := store.Task(ctx, tx, id)
			if err != nil {
				if tasks.IsNotFound(err) {
					continue
				}
				return err
			}
			if t.Status.Open() {
				t.Body = ""
				out = append(out, AgentFocus{Agent: agent, Task: t})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list agents' focus: %w", err)
	}
	sortAgents(out)
	return out, nil
}

func sortAgents(a []AgentFocus) {
	slices.SortFunc(a, func(x, y AgentFocus) int { return strings.Compare(x.Agent, y.Agent) })
}
