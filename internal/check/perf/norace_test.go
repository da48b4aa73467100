//go:build !race

package perf

const slowdown = 1
