//go:build !race

package designtokens

const slow = 1
