package task

import (
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"

	"github.com/google/go-cmp/cmp"
)

func TestParseID(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ID
		ok   bool
	}{
		{"12", 12, true},
		{" #7 ", 7, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"abc", 0, false},
		{"", 0, false},
		{"99999999999999999999", 0, false},
	} {
		got, err := ParseID(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseID(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !problem.Is(err, problem.Invalid) {
			t.Errorf("ParseID(%q) error %v is not an invalid argument", tc.in, err)
		}
	}
}

func TestValidateTitle(t *testing.T) {
	for _, tc := range []struct {
		name, title string
		problem     string // empty: valid
	}{
		{"ok", "Design new feature", ""},
		{"256 runes", strings.Repeat("é", 256), ""},
		{"257 runes", strings.Repeat("x", 257), "257 characters"},
		{"empty", "", "empty"},
		{"blank", "   ", "empty"},
		{"newline", "a\nb", "line break"},
		{"bad utf8", "a\xffb", "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateTitle(tc.title)
			if tc.problem == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			var fe *problem.FieldError
			if !errors.As(err, &fe) || fe.Field != "title" || !strings.Contains(err.Error(), tc.problem) || fe.Fix == "" {
				t.Fatalf("error %v: want a title problem.FieldError mentioning %q with a fix", err, tc.problem)
			}
		})
	}
}

func TestValidateBody(t *testing.T) {
	if err := ValidateBody(strings.Repeat("x", MaxBodyLen)); err != nil {
		t.Fatalf("1 MiB body refused: %v", err)
	}
	err := ValidateBody(strings.Repeat("x", MaxBodyLen+1))
	if !problem.Is(err, problem.Invalid) || len(err.Error()) > 200 {
		t.Fatalf("oversized body: %v", err)
	}
}

// tree builds tasks from "id:parent:position:status" specs.
func tree(specs ...Task) []Task { return specs }

func tk(id, parent ID, pos int, st Status) Task {
	return Task{ID: id, ParentID: parent, Position: pos, Status: st, Title: "t" + id.String()}
}

func ids(es []Entry) []ID {
	var out []ID
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func TestOutline(t *testing.T) {
	// Given out of order; positions decide sibling order.
	ts := tree(
		tk(5, 0, 2, StatusPending),
		tk(3, 2, 1, StatusDone),
		tk(1, 0, 1, StatusPending),
		tk(4, 2, 2, StatusPending),
		tk(2, 1, 1, StatusPending),
		tk(6, 99, 3, StatusPending), // parent not present: a root
	)
	got := Outline(ts)
	if diff := cmp.Diff([]ID{1, 2, 3, 4, 5, 6}, ids(got)); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	depths := []int{0, 1, 2, 2, 0, 0}
	for i, e := range got {
		if e.Depth != depths[i] {
			t.Errorf("task %s depth %d, want %d", e.ID, e.Depth, depths[i])
		}
	}
}

func TestOutlineDeep(t *testing.T) {
	var ts []Task
	for i := ID(1); i <= 100000; i++ {
		ts = append(ts, tk(i, i-1, 1, StatusPending))
	}
	out := Outline(ts)
	if len(out) != 100000 || out[len(out)-1].Depth != 99999 {
		t.Fatalf("deep chain: %d entries, last depth %d", len(out), out[len(out)-1].Depth)
	}
}

func TestNextFocus(t *testing.T) {
	// The scenario tree: 1 > 2 > (3, 4), and 5 after 1 at the root.
	base := func() []Task {
		return tree(
			tk(1, 0, 1, StatusPending),
			tk(2, 1, 1, StatusPending),
			tk(3, 2, 1, StatusPending),
			tk(4, 2, 2, StatusPending),
			tk(5, 0, 2, StatusPending),
		)
	}
	byID := func(ts []Task, id ID) *Task {
		for i := range ts {
			if ts[i].ID == id {
				return &ts[i]
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name string
		done []ID // completed before the call, the left task last
		want ID
	}{
		{"leftmost open sibling", []ID{4}, 3},
		{"parent when no sibling is open", []ID{4, 3}, 2},
		{"left sibling at the root", []ID{4, 3, 2, 5}, 1},
		{"right sibling is also a sibling", []ID{3}, 4},
		{"rightmost open task anywhere", []ID{4, 3, 2, 1}, 5},
		{"zen", []ID{4, 3, 2, 1, 5}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := base()
			for _, id := range tc.done {
				byID(ts, id).Status = StatusDone
			}
			left := *byID(ts, tc.done[len(tc.done)-1])
			var sibs []Task
			for _, e := range Outline(ts) {
				if e.ParentID == left.ParentID {
					sibs = append(sibs, e.Task)
				}
			}
			var parent *Task
			if left.ParentID != 0 {
				parent = byID(ts, left.ParentID)
			}
			got, err := NextFocus(left.ID, sibs, parent, func() ([]Entry, error) { return Outline(ts), nil }, func(Task) bool { return true })
			if err != nil || got != tc.want {
				t.Fatalf("NextFocus = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestNextFocusReady: the sibling rule and the search from the end land
// only on a task that can be worked on now.
func TestNextFocusReady(t *testing.T) {
	// Roots 1..5; 6 is a child of 5. Task 2 waits on 1.
	mk := func(st map[ID]Status) []Task {
		ts := tree(tk(1, 0, 1, StatusPending), tk(2, 0, 2, StatusPending), tk(3, 0, 3, StatusPending),
			tk(4, 0, 4, StatusPending), tk(5, 0, 5, StatusPending), tk(6, 5, 1, StatusPending))
		for i := range ts {
			if s, ok := st[ts[i].ID]; ok {
				ts[i].Status = s
			}
		}
		return ts
	}
	deps := Deps{2: {1}}
	for _, tc := range []struct {
		name string
		st   map[ID]Status
		left ID
		want ID
	}{
		{"deferred and blocked siblings are skipped", map[ID]Status{1: StatusDeferred, 2: StatusBlocked, 4: StatusDone}, 4, 3},
		{"a sibling waiting on a dependency is skipped", map[ID]Status{1: StatusDone, 4: StatusDone}, 4, 2},
		{"waiting on an open dependency", map[ID]Status{1: StatusDeferred, 3: StatusDone, 4: StatusDone}, 4, 5},
		{"nothing ready: zen", map[ID]Status{1: StatusDeferred, 3: StatusCancelled, 4: StatusDone, 5: StatusBlocked, 6: StatusDeferred}, 4, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := mk(tc.st)
			b := NewBoard(ts, deps)
			left := *b.Tasks.Get(tc.left)
			var sibs []Task
			for _, e := range Outline(ts) {
				if e.ParentID == left.ParentID {
					sibs = append(sibs, e.Task)
				}
			}
			var parent *Task
			if left.ParentID != 0 {
				parent = b.Tasks.Get(left.ParentID)
			}
			got, err := NextFocus(left.ID, sibs, parent, func() ([]Entry, error) { return Outline(ts), nil }, func(t Task) bool { return b.Ready(t.ID) })
			if err != nil || got != tc.want {
				t.Fatalf("NextFocus = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	// The search from the end, reached directly: a left task whose parent
	// is closed (as after a removal).
	ts := tree(tk(1, 0, 1, StatusPending), tk(2, 0, 2, StatusDeferred), tk(3, 2, 1, StatusPending), tk(4, 0, 3, StatusDone))
	b := NewBoard(ts, nil)
	closed := *b.Tasks.Get(4)
	got, _ := NextFocus(99, nil, &closed, func() ([]Entry, error) { return Outline(ts), nil }, func(t Task) bool { return b.Ready(t.ID) })
	if got != 3 {
		t.Fatalf("search from the end = %v, want 3 (the deepest rightmost ready task; 2 is deferred)", got)
	}
}

func TestSubtree(t *testing.T) {
	ts := tree(
		tk(1, 0, 1, StatusPending),
		tk(2, 1, 1, StatusPending),
		tk(3, 2, 1, StatusDone),
		tk(4, 0, 2, StatusPending),
	)
	got := Subtree(ts, 1)
	var gotIDs []ID
	for _, x := range got {
		gotIDs = append(gotIDs, x.ID)
	}
	if diff := cmp.Diff([]ID{1, 2, 3}, gotIDs); diff != "" {
		t.Fatalf("Subtree (-want +got):\n%s", diff)
	}
	if Subtree(ts, 42) != nil {
		t.Fatal("Subtree of a missing id should be nil")
	}
}

func TestStatusOpen(t *testing.T) {
	for _, s := range Statuses {
		want := s != StatusDone && s != StatusCancelled
		if s.Open() != want || !s.Valid() {
			t.Errorf("%s: Open=%v Valid=%v", s, s.Open(), s.Valid())
		}
	}
	if Status("finished").Valid() {
		t.Error("unknown status is valid")
	}
}

// idsOf is the ids of ts, in order.
func idsOf(ts []Task) []ID {
	var out []ID
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func TestNearLeft(t *testing.T) {
	var left []Task
	for i := ID(1); i <= 20; i++ {
		st := StatusDone
		if i == 2 || i == 9 {
			st = StatusPending
		}
		left = append(left, tk(i, 0, int(i), st))
	}
	// The open ones, wherever they are, then the closed ones nearest the
	// current task (right of the list), in position order.
	shown, more := NearLeft(left, 5)
	if diff := cmp.Diff([]ID{2, 9, 18, 19, 20}, idsOf(shown)); diff != "" || more != 15 {
		t.Fatalf("NearLeft(20, 5): more %d, shown (-want +got):\n%s", more, diff)
	}
	// More open ones than room: the nearest open ones.
	shown, more = NearLeft(left, 1)
	if diff := cmp.Diff([]ID{9}, idsOf(shown)); diff != "" || more != 19 {
		t.Fatalf("NearLeft(20, 1): more %d, shown (-want +got):\n%s", more, diff)
	}
	// Few enough: all of them, as they were.
	shown, more = NearLeft(left[:4], 5)
	if diff := cmp.Diff([]ID{1, 2, 3, 4}, idsOf(shown)); diff != "" || more != 0 {
		t.Fatalf("NearLeft(4, 5): more %d, shown (-want +got):\n%s", more, diff)
	}
}

func TestGlance(t *testing.T) {
	var level []Task
	for i := ID(1); i <= 20; i++ {
		st := StatusDone
		switch i {
		case 3, 11:
			st = StatusPending
		case 7:
			st = StatusBlocked
		case 19:
			st = StatusCancelled
		}
		level = append(level, tk(i, 0, int(i), st))
	}
	for _, c := range []struct {
		limit             int
		want              []ID
		omitted, openLeft int
	}{
		// The open ones, then the closed ones nearest the end, in
		// position order; what is left out is all closed.
		{6, []ID{3, 7, 11, 18, 19, 20}, 14, 0},
		// More open ones than room: the first open ones, and the count
		// of those left out says so.
		{2, []ID{3, 7}, 18, 1},
		{3, []ID{3, 7, 11}, 17, 0},
		// Few enough: all of them, as they were.
		{20, idsOf(level), 0, 0},
		{0, nil, 20, 3},
	} {
		shown, omitted, openLeft := Glance(level, c.limit)
		if diff := cmp.Diff(c.want, idsOf(shown)); diff != "" || omitted != c.omitted || openLeft != c.openLeft {
			t.Errorf("Glance(20, %d): omitted %d (want %d), open among them %d (want %d), shown (-want +got):\n%s",
				c.limit, omitted, c.omitted, openLeft, c.openLeft, diff)
		}
	}
}
