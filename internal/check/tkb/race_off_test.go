//go:build !race

package tkb

const slow = 1
