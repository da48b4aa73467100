package hands_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/usage"
)

// TestEachCheckRunIsRecorded: every checker that ran is one usage event
// whose counts are the answer's own (after suppressions), failed when it
// found errors.
func TestEachCheckRunIsRecorded(t *testing.T) {
	files := map[string]string{".cairn/config.toml": "[[checks.ignore]]\nrule = \"dockerfile/image-latest\"\nreason = \"the demo tracks node\"\n"}
	for k, v := range broken {
		files[k] = v
	}
	root := project(t, files)
	var events []usage.Event
	res, err := hands.New(root).Recording(func(e usage.Event) { events = append(events, e) }).
		Check(context.Background(), hands.Request{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.SuppressedTotal == 0 {
		t.Fatal("the config's suppression removed nothing; the test needs one")
	}
	want := map[string][3]int{}
	for _, f := range res.Findings {
		name, _, _ := strings.Cut(f.Rule, "/")
		c := want[name]
		switch f.Severity {
		case check.Error:
			c[0]++
		case check.Warning:
			c[1]++
		default:
			c[2]++
		}
		want[name] = c
	}
	seen := map[string]bool{}
	for _, e := range events {
		if e.Kind != usage.KindCheck || e.Toolset != "hands" || e.Duration < 0 {
			t.Errorf("event %+v: want a hands check event", e)
		}
		files, errs, warns, infos, ok := usage.ParseCheckSubject(e.Subject)
		if !ok {
			t.Fatalf("subject %q does not parse", e.Subject)
		}
		if files != res.ByCheck[e.Name] || files == 0 {
			t.Errorf("%s: %d files recorded, the answer says %d", e.Name, files, res.ByCheck[e.Name])
		}
		if got := [3]int{errs, warns, infos}; got != want[e.Name] {
			t.Errorf("%s: recorded %v findings by severity, the answer has %v", e.Name, got, want[e.Name])
		}
		if wantOut := map[bool]string{true: "failed", false: usage.OK}[errs > 0]; e.Outcome != wantOut {
			t.Errorf("%s: outcome %q, want %q", e.Name, e.Outcome, wantOut)
		}
		seen[e.Name] = true
	}
	for _, name := range res.Checks {
		if !seen[name] {
			t.Errorf("check %s ran and was not recorded", name)
		}
	}
	if len(events) != len(res.Checks) {
		t.Errorf("%d events for %d checks run", len(events), len(res.Checks))
	}
	if !seen["sql"] || !seen["secrets"] {
		t.Errorf("checks recorded %v; the project has SQL and a secret", seen)
	}
}

func TestCheckSubjectRoundTrips(t *testing.T) {
	f, e, w, i, ok := usage.ParseCheckSubject(usage.CheckSubject(7, 1, 2, 3))
	if !ok || f != 7 || e != 1 || w != 2 || i != 3 {
		t.Errorf("got %d %d %d %d %v", f, e, w, i, ok)
	}
	if _, _, _, _, ok := usage.ParseCheckSubject("get_tkb_entry t3"); ok {
		t.Error("another event's subject parsed as a check's")
	}
}
