package csvx

import (
	"strings"
	"testing"
)

func BenchmarkFields(b *testing.B) {
	line := strings.Repeat(`abc,"d,e",`, 200)
	b.ReportAllocs()
	for b.Loop() {
		Fields(line)
	}
}
