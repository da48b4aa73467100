// Package hands drives the real cairn binary's hands (the validators of
// `cairn check`, `cairn ci`, the commit-msg hook and their MCP tools) end
// to end over real stdio. It is a package of its own beside internal/e2e
// so that the end-to-end packages run in parallel, each well inside its
// timeout.
package hands

type args = map[string]any
