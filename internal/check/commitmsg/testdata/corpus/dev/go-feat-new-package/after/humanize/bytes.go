// Package humanize formats numbers for people.
package humanize

import "fmt"

var units = []string{"B", "KiB", "MiB", "GiB", "TiB"}

// Bytes formats n as "1.5 MiB".
func Bytes(n int64) string {
	f := float64(n)
	i := 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}
