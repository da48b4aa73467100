// Package kv parses key=value configuration lines.
package kv

import (
	"fmt"
	"strings"
)

// Parse reads "key=value" pairs separated by spaces.
func Parse(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, field := range strings.Fields(s) {
		k, v, ok := strings.Cut(field, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("kv: %q is not key=value", field)
		}
		out[k] = v
	}
	return out, nil
}

// Format writes pairs back, sorted by key.
func Format(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k + "=" + m[k])
	}
	return b.String()
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
