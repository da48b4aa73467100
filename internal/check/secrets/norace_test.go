//go:build !race

package secrets

const slowdown = 1
