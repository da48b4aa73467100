package benchseed

import (
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

//go:embed testdata/agents
var agentFiles embed.FS

// ProjectShape is a project as an agent session meets it: a plan, a
// memory, the default agent focused on an in-progress task, and the
// repository files an agent reads (AGENTS.md, CLAUDE.md, go.mod, Makefile).
type ProjectShape struct {
	Plan     PlanShape
	Memories int
}

// DefaultProject is 1,000 tasks and 10,000 memory entries.
var DefaultProject = ProjectShape{
	Plan:     PlanShape{Tasks: 1000, MaxDeps: 3, Window: 50, SubtaskPercent: 30, DonePercent: 30, InProgressPercent: 2, BodyLen: 120},
	Memories: 10000,
}

// SeedProject makes dir a project of shape s: the store holds the plan and
// the memory, and the default agent's focus is on the first in-progress
// task (and so is claude-code's, the agent Claude Code's hooks and MCP
// client are); WriteRepoFiles adds the repository files. dir must not hold a
// database yet.
func SeedProject(ctx context.Context, dir string, s ProjectShape) error {
	st, err := openNew(ctx, dir)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := seedPlan(ctx, st, s.Plan); err != nil {
		return err
	}
	if err := SeedMemoryStore(ctx, st, s.Memories); err != nil {
		return err
	}
	err = st.Update(ctx, func(tx store.Tx) error {
		ts, _, err := tx.Query(ctx, store.Query{Statuses: []task.Status{task.StatusInProgress}, Limit: 1})
		if err != nil || len(ts) == 0 {
			return fmt.Errorf("no task in progress to focus on: %v", err)
		}
		for _, agent := range []string{Agent, "claude-code"} {
			if err := tx.SetFocus(ctx, agent, ts[0].ID, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("benchseed: %w", err)
	}
	return WriteRepoFiles(dir)
}

// WriteRepoFiles writes a realistic AGENTS.md, CLAUDE.md, go.mod and
// Makefile into dir.
func WriteRepoFiles(dir string) error {
	entries, err := agentFiles.ReadDir("testdata/agents")
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, err := agentFiles.ReadFile("testdata/agents/" + e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSuffix(e.Name(), ".txt")), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// CachedProject is Cached for a project of shape s. Clone copies only the
// store: call WriteRepoFiles on the clone.
func CachedProject(ctx context.Context, s ProjectShape) (string, error) {
	p := s.Plan
	name := fmt.Sprintf("cairn-benchseed-project-v2-%d-%d-%d-%d-%d-%d-%d-%d",
		p.Tasks, p.MaxDeps, p.Window, p.SubtaskPercent, p.DonePercent, p.InProgressPercent, p.BodyLen, s.Memories)
	return cached(ctx, name, func(dir string) error { return SeedProject(ctx, dir, s) })
}
