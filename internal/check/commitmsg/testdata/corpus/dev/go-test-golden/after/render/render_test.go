package render

import (
	"os"
	"strings"
	"testing"
)

func TestTitleGolden(t *testing.T) {
	in, err := os.ReadFile("testdata/titles.in")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/titles.golden")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(in)), "\n") {
		got = append(got, Title(l))
	}
	if strings.Join(got, "\n")+"\n" != string(want) {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
}
