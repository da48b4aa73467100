package i18n

import (
	"slices"
	"strings"
	"testing"

	cldr "golang.org/x/text/feature/plural"
	xlang "golang.org/x/text/language"
)

// TestPluralTable holds pluralCats to CLDR's plural rules as
// golang.org/x/text carries them (CLDR 32): for every language code the
// check knows, the categories whole numbers from 0 to 999 select. Hebrew
// is the one language the table takes from a later CLDR (42 dropped its
// "many").
func TestPluralTable(t *testing.T) {
	names := []string{"other", "zero", "one", "two", "few", "many"}
	newer := map[string]bool{"he": true, "iw": true}
	var codes []string
	for c := range iso639_1 {
		codes = append(codes, c)
	}
	for c := range iso639_3 {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	for _, code := range codes {
		if newer[code] {
			continue
		}
		tag, err := xlang.Parse(code)
		if err != nil {
			continue
		}
		seen := map[cldr.Form]bool{}
		for i := range 1000 {
			seen[cldr.Cardinal.MatchPlural(tag, i, 0, 0, 0, 0)] = true
		}
		var want []string
		for _, c := range pluralCategories {
			for f, n := range names {
				if n == c && seen[cldr.Form(f)] {
					want = append(want, c)
				}
			}
		}
		got := neededCategories(code)
		if strings.Join(want, " ") == "other" && strings.Join(got, " ") == "other" {
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the table says %v, CLDR %v", code, got, want)
		}
	}
}
