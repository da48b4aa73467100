// Package humanize formats numbers for people.
package humanize

import "fmt"

// Bytes formats n in bytes.
func Bytes(n int64) string { return fmt.Sprintf("%d B", n) }
