package versions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// bigLock is a package-lock.json v3 of n packages, react among them.
func bigLock(n int) string {
	var b strings.Builder
	b.WriteString(`{"name":"app","lockfileVersion":3,"packages":{"":{"name":"app"},`)
	for i := range n {
		fmt.Fprintf(&b, `"node_modules/pkg-%d":{"version":"1.%d.0","resolved":"https://registry.npmjs.org/pkg-%d/-/pkg-%d-1.%d.0.tgz","integrity":"sha512-AAAA"},`, i, i%50, i, i, i%50)
	}
	b.WriteString(`"node_modules/react":{"version":"18.3.1"}}}`)
	return b.String()
}

// BenchmarkVerify measures Verify on an npm project with a typical
// (300 packages) and a large (5000) lock, against the bare JSON decode of
// the same lock as the baseline.
func BenchmarkVerify(b *testing.B) {
	for _, n := range []int{300, 5000} {
		lock := bigLock(n)
		fsys := fstest.MapFS{
			"package.json":      {Data: []byte(packageJSON)},
			"package-lock.json": {Data: []byte(lock)},
		}
		b.Run(fmt.Sprintf("verify/%d-packages", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Verify(context.Background(), fsys, "react", "18.3", noEnv); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("baseline-json-decode/%d-packages", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var v map[string]any
				if err := json.Unmarshal([]byte(lock), &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
