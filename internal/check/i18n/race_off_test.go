//go:build !race

package i18n

const slow = 1
