package memory

import "testing"

func TestStem(t *testing.T) {
	for in, want := range map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "agreed": "agre", "plastered": "plaster",
		"motoring": "motor", "hopping": "hop", "filing": "file", "happy": "happi", "relational": "relat",
		"conditional": "condit", "digitizer": "digit", "hopeful": "hope", "goodness": "good", "adjustment": "adjust",
		"adoption": "adopt", "probate": "probat", "controll": "control", "groups": "group", "grouped": "group",
		"grouping": "group", "running": "run", "went": "went", "go": "go", "kids": "kid", "painted": "paint",
		"generalizations": "gener", "oscillators": "oscil", "5k": "5k",
	} {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}
