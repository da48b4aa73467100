// Package golang reads Go test files for package testcheck, with go/parser and go/ast:
// tests that assert nothing, are empty, skip, sleep, call t.Fatal from a goroutine or mix
// t.Setenv with t.Parallel.
package golang
