// Package claims drives many real cairn processes claiming tasks from one
// plan, over stdio and HTTP, on SQLite and PostgreSQL. It is a package of
// its own beside internal/e2e so that the end-to-end packages run in
// parallel, each well inside its timeout.
package claims

type args = map[string]any
