package task

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFindCycle(t *testing.T) {
	deps := Deps{2: {1}, 3: {2}, 4: {3, 1}}
	for _, tc := range []struct {
		name string
		id   ID
		next []ID
		want []ID
	}{
		{"self", 1, []ID{1}, []ID{1, 1}},
		{"two", 1, []ID{2}, []ID{1, 2, 1}},
		{"long", 1, []ID{4}, []ID{1, 4, 1}}, // the shortest way back wins
		{"chain", 2, []ID{3}, []ID{2, 3, 2}},
		{"none", 4, []ID{1, 2}, nil},
		{"none for a new task", 9, []ID{4}, nil},
		{"replacing edges", 3, []ID{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FindCycle(deps, tc.id, tc.next)); diff != "" {
				t.Fatalf("FindCycle (-want +got):\n%s", diff)
			}
		})
	}
	err := error(&CycleError{Path: []ID{1, 2, 1}})
	if !errors.Is(err, ErrCycle) || err.Error() != "dependency cycle 1 → 2 → 1" {
		t.Fatalf("CycleError: %v", err)
	}
}

func TestDepthStats(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ids     []ID
		deps    Deps
		max     int
		average float64
	}{
		{"empty", nil, nil, 0, 0},
		{"no deps", []ID{1, 2}, Deps{}, 0, 0},
		{"chain", []ID{1, 2, 3, 4}, Deps{2: {1}, 3: {2}, 4: {3}}, 3, 0.75},
		{"diamond", []ID{1, 2, 3, 4}, Deps{2: {1}, 3: {1}, 4: {2, 3}}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, avg := DepthStats(tc.ids, tc.deps)
			if m != tc.max || avg != tc.average {
				t.Fatalf("DepthStats = %d, %v; want %d, %v", m, avg, tc.max, tc.average)
			}
		})
	}
	// A long chain does not exhaust the stack.
	var ids []ID
	deps := Deps{}
	for i := ID(1); i <= 50000; i++ {
		ids = append(ids, i)
		if i > 1 {
			deps[i] = []ID{i - 1}
		}
	}
	if m, _ := DepthStats(ids, deps); m != 49999 {
		t.Fatalf("long chain depth %d", m)
	}
}

func pt(id, parent ID, st Status, p Priority, ageHours int) Task {
	return Task{ID: id, ParentID: parent, Status: st, Priority: p, Title: "t" + id.String(),
		CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(-ageHours) * time.Hour)}
}

func TestNext(t *testing.T) {
	const (
		P  = StatusPending
		IP = StatusInProgress
		D  = StatusDone
		B  = StatusBlocked
		C  = StatusCancelled
	)
	for _, tc := range []struct {
		name   string
		tasks  []Task
		deps   Deps
		filter NextFilter
		want   ID // zero: none
	}{
		{"empty", nil, nil, NextFilter{}, 0},
		{"priority first", []Task{pt(1, 0, P, PriorityLow, 9), pt(2, 0, P, PriorityHigh, 1)}, nil, NextFilter{}, 2},
		{"critical beats high", []Task{pt(1, 0, P, PriorityHigh, 9), pt(2, 0, P, PriorityCritical, 1)}, nil, NextFilter{}, 2},
		{"fewer dependencies next", []Task{pt(1, 0, D, PriorityLow, 0), pt(2, 0, P, PriorityMedium, 9), pt(3, 0, P, PriorityMedium, 1)},
			Deps{2: {1}}, NextFilter{}, 3},
		{"then age", []Task{pt(1, 0, P, PriorityMedium, 1), pt(2, 0, P, PriorityMedium, 5)}, nil, NextFilter{}, 2},
		{"then id", []Task{pt(2, 0, P, PriorityMedium, 1), pt(1, 0, P, PriorityMedium, 1)}, nil, NextFilter{}, 1},
		{"open dependency blocks", []Task{pt(1, 0, P, PriorityLow, 0), pt(2, 0, P, PriorityCritical, 0)}, Deps{2: {1}}, NextFilter{}, 1},
		{"cancelled dependency does not block", []Task{pt(1, 0, C, PriorityLow, 0), pt(2, 0, P, PriorityCritical, 0)}, Deps{2: {1}}, NextFilter{}, 2},
		{"parent's dependency blocks subtasks", []Task{pt(1, 0, P, PriorityLow, 0), pt(2, 0, P, PriorityLow, 0), pt(3, 2, P, PriorityCritical, 0)},
			Deps{2: {1}}, NextFilter{}, 1},
		{"parent with open subtasks is not a candidate", []Task{pt(1, 0, P, PriorityCritical, 9), pt(2, 1, P, PriorityLow, 0)}, nil, NextFilter{}, 2},
		{"subtasks of in-progress tasks first", []Task{pt(1, 0, P, PriorityCritical, 9), pt(2, 0, IP, PriorityLow, 0), pt(3, 2, P, PriorityLow, 0)},
			nil, NextFilter{}, 3},
		{"blocked status is skipped", []Task{pt(1, 0, B, PriorityCritical, 0), pt(2, 0, P, PriorityLow, 0)}, nil, NextFilter{}, 2},
		{"nothing open", []Task{pt(1, 0, D, PriorityHigh, 0)}, nil, NextFilter{}, 0},
		{"status filter", []Task{pt(1, 0, P, PriorityHigh, 0), pt(2, 0, IP, PriorityLow, 0)}, nil, NextFilter{Statuses: []Status{IP}}, 2},
		{"priority filter", []Task{pt(1, 0, P, PriorityHigh, 0), pt(2, 0, P, PriorityLow, 0)}, nil, NextFilter{Priorities: []Priority{PriorityLow}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBoard(tc.tasks, tc.deps)
			got, ok := b.Next(tc.filter)
			var id ID
			if ok {
				id = got.ID
			}
			if id != tc.want {
				t.Fatalf("Next = %v, want %v", id, tc.want)
			}
		})
	}
}

func TestUnblocks(t *testing.T) {
	tasks := []Task{
		pt(1, 0, StatusPending, PriorityMedium, 0),
		pt(2, 0, StatusPending, PriorityMedium, 0),
		pt(3, 0, StatusPending, PriorityMedium, 0), // waits for 1 only
		pt(4, 0, StatusPending, PriorityMedium, 0), // waits for 1 and 2
		pt(5, 0, StatusDone, PriorityMedium, 0),
	}
	b := NewBoard(tasks, Deps{3: {1}, 4: {1, 2}, 5: {1}, 6: {1}})
	if diff := cmp.Diff([]ID{3}, b.Unblocks(1)); diff != "" {
		t.Fatalf("Unblocks(1) (-want +got):\n%s", diff)
	}
	if got := b.Waiting(4); len(got) != 2 {
		t.Fatalf("Waiting(4) = %v", got)
	}
}
