// Package hookdurability runs the real cairn binary's hooks as a client
// does, one short process per event, through long sessions (the SQLite
// log's growth) and under SIGKILL at any instant (nothing acknowledged is
// lost). It is a package of its own beside internal/e2e so that the
// end-to-end packages run in parallel, each well inside its timeout; the
// hook payloads it plays are internal/e2e/testdata/hooks.
package hookdurability

type args = map[string]any
