//go:build !race

package a11y

const slowdown = 1
