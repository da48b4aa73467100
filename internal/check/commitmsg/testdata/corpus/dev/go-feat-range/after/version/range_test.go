package version

import "testing"

func TestParseRange(t *testing.T) {
	r, err := ParseRange(">=1.2.0 <2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !r.Contains(Version{1, 4, 0}) || r.Contains(Version{2, 0, 0}) {
		t.Errorf("range %+v", r)
	}
}
