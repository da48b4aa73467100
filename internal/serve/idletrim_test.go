package serve

import "testing"

// TestIdleTrimmerTrimsOnceAfterABurst: the trimmer trims at the first idle
// tick after a burst, once, and only if enough is held; a server that
// keeps working, or idles from the start, is never trimmed.
func TestIdleTrimmerTrimsOnceAfterABurst(t *testing.T) {
	const mb = 1 << 20
	type step struct {
		allocs, excess uint64
		trim           bool
	}
	for name, steps := range map[string][]step{
		"burst then idle": {{0, 0, false}, {50 * mb, 10 * mb, false}, {50*mb + 1000, 10 * mb, true},
			{50*mb + 2000, 10 * mb, false}, {50*mb + 3000, 10 * mb, false}},
		"busy every tick": {{0, 0, false}, {10 * mb, 8 * mb, false}, {20 * mb, 8 * mb, false}, {30 * mb, 8 * mb, false}},
		"little to give back": {{0, 0, false}, {10 * mb, 8 * mb, false}, {10*mb + 10, 1 * mb, false},
			{10*mb + 20, 1 * mb, false}},
		"the start is a burst": {{0, 0, false}, {100, 3 * mb, true}, {200, 3 * mb, false}},
		"a second burst": {{0, 0, false}, {5 * mb, 3 * mb, false}, {5 * mb, 3 * mb, true},
			{9 * mb, 6 * mb, false}, {9 * mb, 6 * mb, true}, {9 * mb, 6 * mb, false}},
	} {
		var tr idleTrimmer
		for i, s := range steps {
			if got := tr.tick(s.allocs, s.excess); got != s.trim {
				t.Errorf("%s: tick %d (allocs %d, excess %d): trim %v; want %v", name, i, s.allocs, s.excess, got, s.trim)
			}
		}
	}
}
