package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestNextCountsDependenciesInWords: the rationale words its count the
// way the number asks, "its dependency is done" never "its 1 dependencies
// are done".
func TestNextCountsDependenciesInWords(t *testing.T) {
	ctx := context.Background()
	p := service.New(openStore(t), service.Options{}).Plan
	mk := func(title string, st task.Status, deps ...string) string {
		d, err := p.Create(ctx, plan.NewTask{Title: title, Status: st, Deps: deps})
		if err != nil {
			t.Fatal(err)
		}
		return d.ID.String()
	}
	a := mk("a", task.StatusDone)
	b := mk("b", task.StatusDone)
	mk("one", "", a)
	n, err := p.Next(ctx, plan.NextQuery{Agent: "ann"})
	if err != nil || !strings.Contains(n.Rationale, "its 1 dependency is done") {
		t.Errorf("next with one done dependency: %q, %v", n.Rationale, err)
	}
	if _, err := p.Update(ctx, n.Task.ID.String(), plan.Change{Status: ptr(task.StatusDone)}); err != nil {
		t.Fatal(err)
	}
	mk("two", "", a, b)
	if n, err := p.Next(ctx, plan.NextQuery{Agent: "ann"}); err != nil || !strings.Contains(n.Rationale, "its 2 dependencies are done") {
		t.Errorf("next with two done dependencies: %q, %v", n.Rationale, err)
	}
}

func ptr[T any](v T) *T { return &v }
