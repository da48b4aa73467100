// Package badinput sends every tool of the real cairn binary, over real
// stdio, the malformed arguments a client could send, and holds each
// refusal to naming the field, the problem and the fix, with the store
// unchanged. It is a package of its own beside internal/e2e so that the
// end-to-end packages run in parallel, each well inside its timeout.
package badinput

type args = map[string]any
