package memory

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDetailsRoundTrip(t *testing.T) {
	for _, e := range []Entry{
		{},
		{Rationale: "why", Alternatives: []string{"a", "b"}},
		{RootCause: "rc", Fix: "f", Prevention: "p"},
		{Examples: []string{"x"}, DiscoveryTokens: 12},
	} {
		doc := e.Details()
		var got Entry
		if err := got.SetDetails(doc); err != nil {
			t.Fatalf("SetDetails(%s): %v", doc, err)
		}
		if d := cmp.Diff(e, got); d != "" {
			t.Errorf("round trip of %s (-want +got):\n%s", doc, d)
		}
	}
	if doc := (Entry{Title: "t", Content: "c"}).Details(); doc != nil {
		t.Errorf("an entry without details has document %s, want none", doc)
	}
	if got := string(Entry{Fix: "f", DiscoveryTokens: 3}.Details()); got != `{"fix":"f","discovery_tokens":3}` {
		t.Errorf("Details = %s", got)
	}
	var e Entry
	if err := e.SetDetails([]byte(`{"fix":"f","from_a_newer_cairn":[1,2],"alternatives":null}`)); err != nil || e.Fix != "f" {
		t.Errorf("unknown names are ignored: %v %+v", err, e)
	}
	if err := e.SetDetails([]byte(`{"fix":3}`)); err == nil {
		t.Error("a detail of the wrong type was accepted")
	}
	want := []string{"rationale", "alternatives", "root_cause", "fix", "prevention", "examples", "discovery_tokens"}
	if d := cmp.Diff(want, DetailNames()); d != "" {
		t.Errorf("DetailNames (-want +got):\n%s", d)
	}
}

func TestFold(t *testing.T) {
	known := Entry{ID: 12, Type: Mistake, Title: "boom at a.go:1", Content: "first", RootCause: "rc1", Fix: "f1", Occurrences: 2, Tags: []string{"x"}}
	for _, tc := range []struct {
		name                  string
		again                 Entry
		replace               bool
		want                  Entry
		added, replaced, kept []string
	}{
		{"no analysis", Entry{Title: "Boom at a.go:9", Content: "again"}, false,
			Entry{RootCause: "rc1", Fix: "f1"}, nil, nil, nil},
		{"different analysis is kept with the occurrence", Entry{Title: "boom", Content: "again", RootCause: "same", Prevention: "p2"}, false,
			Entry{RootCause: "rc1", Fix: "f1", Prevention: "p2"}, []string{"prevention"}, nil, []string{"root_cause"}},
		{"replace on request", Entry{Title: "boom", RootCause: "rc2", Fix: "f1"}, true,
			Entry{RootCause: "rc2", Fix: "f1"}, nil, []string{"root_cause"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.again.Tags = []string{"y"}
			f := Fold(known, tc.again, tc.replace)
			if f.Entry.RootCause != tc.want.RootCause || f.Entry.Fix != tc.want.Fix || f.Entry.Prevention != tc.want.Prevention {
				t.Errorf("analysis = %q %q %q", f.Entry.RootCause, f.Entry.Fix, f.Entry.Prevention)
			}
			if f.Entry.Content != "first" || f.Entry.Title != known.Title || f.Entry.Occurrences != 3 || f.Occurrence.N != 3 {
				t.Errorf("entry = %+v, occurrence %d", f.Entry, f.Occurrence.N)
			}
			if f.Occurrence.Content != tc.again.Content || f.Occurrence.Title != tc.again.Title || f.Occurrence.RootCause != tc.again.RootCause {
				t.Errorf("occurrence = %+v", f.Occurrence)
			}
			if d := cmp.Diff([]string{"x", "y"}, f.Entry.Tags); d != "" {
				t.Errorf("tags: %s", d)
			}
			if d := cmp.Diff([][]string{tc.added, tc.replaced, tc.kept}, [][]string{f.Added, f.Replaced, f.Kept}); d != "" {
				t.Errorf("added, replaced, kept (-want +got):\n%s", d)
			}
		})
	}
}
