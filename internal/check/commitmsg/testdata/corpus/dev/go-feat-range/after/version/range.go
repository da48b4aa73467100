package version

import (
	"fmt"
	"strings"
)

// Range is a closed-open interval of versions: [Min, Max).
type Range struct {
	Min, Max Version
}

// ParseRange reads ">=1.2.0 <2.0.0".
func ParseRange(s string) (Range, error) {
	f := strings.Fields(s)
	if len(f) != 2 || !strings.HasPrefix(f[0], ">=") || !strings.HasPrefix(f[1], "<") {
		return Range{}, fmt.Errorf("range %q: want \">=MIN <MAX\"", s)
	}
	lo, err := Parse(strings.TrimPrefix(f[0], ">="))
	if err != nil {
		return Range{}, err
	}
	hi, err := Parse(strings.TrimPrefix(f[1], "<"))
	if err != nil {
		return Range{}, err
	}
	return Range{lo, hi}, nil
}

// Contains reports whether v is in the range.
func (r Range) Contains(v Version) bool {
	return !v.Less(r.Min) && v.Less(r.Max)
}
