// Package sqlcheck is the SQL validator of Cairn's hands (checker "sql",
// the MCP tool validate_sql): it checks .sql files in their dialect's own
// parser, then looks for statements that are unsafe as written.
//
// # Syntax
//
// Each dialect is parsed by the parser the database itself uses, all pure Go:
//
//   - PostgreSQL: PostgreSQL's own grammar, libpg_query, compiled to
//     WebAssembly and run by wazero (github.com/wasilibs/go-pgquery). The
//     first PostgreSQL parse in a process compiles the module: seconds of
//     CPU, once; call WarmUp early in a long-running process to move that
//     off the first request. Statement boundaries come from the parse tree
//     (stmt_location) and, after a syntax error, from libpg_query's scanner,
//     so checking goes on after the failing statement. PL/pgSQL function
//     and DO bodies go through PostgreSQL's PL/pgSQL parser too, since
//     PostgreSQL compiles them at CREATE FUNCTION; their errors carry the
//     body line PostgreSQL names.
//   - MySQL: Vitess's MySQL 8 parser (vitess.io/vitess/go/vt/sqlparser),
//     statements split by its SplitStatementToPieces; the mysql client's
//     DELIMITER command is honoured. Stored-program bodies Vitess does not
//     read (CREATE TRIGGER/EVENT, most procedures) are not reported as
//     errors: a note says how many statements went unchecked.
//   - SQLite: SQLite itself (modernc.org/sqlite's library, which Cairn
//     already embeds): each statement is prepared on a scratch in-memory
//     database, in order, with the file's own CREATE/ALTER/DROP statements
//     executed there so later statements see their tables. Only parser
//     errors are findings ("near …: syntax error", "incomplete input",
//     "unrecognized token", …); a table or column the file does not create
//     ("no such table") is a fact about the rest of the project, not an error.
//
// What a client reads before the server sees the text is read as the
// client does: psql's backslash commands, \gexec and the data of COPY …
// FROM stdin are skipped (found by a lexer that knows strings, comments
// and dollar quotes, as psql's own does) and its :variables read as
// identifiers (named parameters such as pgtyped's :id too); the mysql
// client's DELIMITER and backslash commands likewise. Flyway-style
// ${placeholders} are read as identifiers. Templated files (Jinja/dbt
// {{ }} or {% %}) and files in a dialect without a parser here (SQL
// Server's T-SQL, Oracle) are skipped with the reason.
//
// # Patterns
//
// The rules read each dialect's parse tree (pg_query's JSON tree, Vitess's
// AST), not the text. SQLite gives no tree, so its patterns (UPDATE/DELETE
// without WHERE, SELECT *, DROP, RENAME, ADD COLUMN … NOT NULL) come from a
// tokenizer over the statements SQLite delimited: keywords at parenthesis
// depth 0, strings and comments skipped. Which rule applies where: see each
// rule's Why; migration rules apply to files under migrations/, migration/,
// migrate/, db/migrate/, to *.up.sql/*.down.sql, Flyway's V1__x.sql, and to
// files with goose, dbmate or sql-migrate markers; SELECT * only to other
// .sql files. SQL embedded in source files (Go, JavaScript, …) is not read.
//
// # Params
//
//   - dialect: postgres (postgresql, pg), mysql (mariadb) or sqlite
//     (sqlite3). Without it the dialect is guessed per file: a path segment
//     naming one (migrations/postgres/…), else the nearest manifests above
//     the file, so each part of a monorepo speaks for itself (go.mod drivers,
//     package.json, requirements.txt/pyproject.toml, Gemfile,
//     config/database.yml, prisma/schema.prisma, sqlc.yaml, docker-compose
//     images, .sqlfluff), else the file's own telltales (backquotes and
//     ENGINE= for MySQL, AUTOINCREMENT for SQLite); with no evidence,
//     postgres. The guess and its evidence are in the result's notes.
//   - kind: migration or query, to say what a file is when its path does
//     not (inline content, a schema directory); default: from the path.
package sqlcheck

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker is the SQL validator.
type Checker struct{}

// New returns the SQL checker.
func New() *Checker { return &Checker{} }

// Name is "sql".
func (*Checker) Name() string { return "sql" }

// Rules lists the rules.
func (*Checker) Rules() []check.Rule { return slices.Clone(rules) }

// Wants picks .sql files (and .pgsql/.psql, .mysql, .sqlite.sql by their
// extension).
func (*Checker) Wants(p string, head []byte) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".sql", ".pgsql", ".psql", ".mysql":
		return true
	}
	return false
}

// Dialect is an SQL dialect the checker parses.
type Dialect string

// The dialects.
const (
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
	SQLite   Dialect = "sqlite"
)

// ParseDialect reads a dialect as a person spells it.
func ParseDialect(s string) (Dialect, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "postgres", "postgresql", "pg", "psql", "pgsql":
		return Postgres, true
	case "mysql", "mariadb":
		return MySQL, true
	case "sqlite", "sqlite3":
		return SQLite, true
	}
	return "", false
}

type params struct {
	dialect Dialect // "" to guess
	kind    string  // "", "migration" or "query"
}

func readParams(m map[string]string) (params, error) {
	var p params
	for k, v := range m {
		switch k {
		case "dialect":
			if strings.TrimSpace(v) == "" {
				continue
			}
			d, ok := ParseDialect(v)
			if !ok {
				return p, &problem.FieldError{Field: "dialect", Problem: problem.Quote(v) + " is not a dialect this check parses",
					Fix: "use postgres, mysql or sqlite, or leave it out to guess from the project"}
			}
			p.dialect = d
		case "kind":
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "":
			case "migration", "migrations":
				p.kind = "migration"
			case "query", "queries", "app", "application":
				p.kind = "query"
			default:
				return p, &problem.FieldError{Field: "kind", Problem: problem.Quote(v) + " is not a kind of SQL file",
					Fix: "use migration (lock and destructive-change rules apply) or query (application SQL: SELECT * applies), or leave it out to tell from the path"}
			}
		default:
			return p, &problem.FieldError{Field: k, Problem: "is not a param of the sql check",
				Fix: "use dialect (postgres, mysql, sqlite) or kind (migration, query)"}
		}
	}
	return p, nil
}

// Check parses and checks each file.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	var res check.Result
	p, err := readParams(in.Params)
	if err != nil {
		return res, err
	}
	projects := &guesser{src: in.Source, byDir: map[string]guess{}}
	notes := map[string][]string{} // note → files
	var order []string
	note := func(n, file string) {
		if _, ok := notes[n]; !ok {
			order = append(order, n)
		}
		notes[n] = append(notes[n], file)
	}
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if why := templated(f.Content); why != "" {
			res.Skipped = append(res.Skipped, check.Skipped{Path: f.Path, Reason: why})
			continue
		}
		d, why := p.dialect, "given by the param dialect"
		if d == "" {
			if why := foreign(f.Content); why != "" {
				res.Skipped = append(res.Skipped, check.Skipped{Path: f.Path, Reason: why})
				continue
			}
			d, why = dialectFor(f, projects.forFile(f.Path))
		}
		note(fmt.Sprintf("dialect %s, %s", d, why), f.Path)
		fc := newFile(f, p.kind)
		switch d {
		case Postgres:
			checkPostgres(fc)
		case MySQL:
			checkMySQL(fc)
		case SQLite:
			checkSQLite(ctx, fc)
		}
		fc.finish()
		for _, n := range fc.notes {
			note(n, f.Path)
		}
		res.Findings = append(res.Findings, fc.findings...)
	}
	for _, n := range order {
		files := notes[n]
		if len(in.Files) > 1 {
			n += " (" + fileList(files) + ")"
		}
		res.Notes = append(res.Notes, "sql: "+n)
	}
	return res, nil
}

func fileList(files []string) string {
	if len(files) <= 3 {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:3], ", "), len(files)-3)
}

// templated says why a file is a template rather than SQL; "" if it is not.
//
// Only a tag outside string literals and comments counts: there it is what
// no parser reads, while LIKE '{%' is SQL, and '{{ var("day") }}' in a dbt
// model parses as the string it is.
func templated(b []byte) string {
	if !bytes.Contains(b, []byte("{{")) && !bytes.Contains(b, []byte("{%")) {
		return ""
	}
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\'':
			j := bytes.IndexByte(b[i+1:], '\'')
			if j < 0 {
				return ""
			}
			i += j + 1 // '' inside a string reads as two strings: the same
		case c == '-' && i+1 < len(b) && b[i+1] == '-':
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				return ""
			}
			i += j
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 {
				return ""
			}
			i += j + 3
		case c == '{' && i+1 < len(b) && (b[i+1] == '{' || b[i+1] == '%'):
			return "a template (Jinja/dbt {{ }} or {% %}), not SQL a parser can read"
		}
	}
	return ""
}

// file is one file being checked, and what was found in it.
type file struct {
	path      string
	src       string
	lines     []int // offset of each line start
	migration bool
	down      int  // offset where the down part starts (len(src)+1: none)
	sqlc      bool // annotated for sqlc-style code generation
	findings  []check.Finding
	notes     []string
	created   map[string]bool // tables created in this file, lower-cased unqualified name
	noPK      []pendingPK     // tables created without a primary key, unless a later ALTER adds one
}

// pendingPK is a table created without a primary key: a finding unless the
// file adds one later (ALTER TABLE … ADD PRIMARY KEY, as pg_dump writes).
type pendingPK struct {
	name string
	off  int
}

// addedPK notes that the file adds a primary key to table name.
func (f *file) addedPK(name string) {
	for i, p := range f.noPK {
		if baseName(p.name) == baseName(name) {
			f.noPK = append(f.noPK[:i], f.noPK[i+1:]...)
			return
		}
	}
}

// finish reports what only the whole file could tell.
func (f *file) finish() {
	for _, p := range f.noPK {
		f.add(ruleNoPrimaryKey, p.off, 0, fmt.Sprintf("table %s has no primary key", quoteName(p.name)), "Declare a PRIMARY KEY.")
	}
}

func newFile(f check.File, kind string) *file {
	fc := &file{path: f.Path, src: string(f.Content), created: map[string]bool{}}
	fc.lines = append(fc.lines, 0)
	for i := 0; i < len(fc.src); i++ {
		if fc.src[i] == '\n' {
			fc.lines = append(fc.lines, i+1)
		}
	}
	fc.migration, fc.down = classify(f.Path, fc.src)
	switch kind {
	case "migration":
		fc.migration = true
	case "query":
		fc.migration, fc.down = false, len(fc.src)+1
	}
	fc.sqlc = sqlcAnnotated(fc.src)
	return fc
}

// pos is the 1-based line and byte column of offset off.
func (f *file) pos(off int) (line, col int) {
	off = max(0, min(off, len(f.src)))
	i, found := slices.BinarySearch(f.lines, off)
	if !found {
		i--
	}
	return i + 1, off - f.lines[i] + 1
}

// add records a finding at src[off:end] (end <= off: no end).
func (f *file) add(rule string, off, end int, msg, fix string) {
	fd := check.Finding{Rule: rule, File: f.path, Message: msg, Fix: fix}
	fd.Line, fd.Col = f.pos(off)
	if end > off {
		fd.EndLine, fd.EndCol = f.pos(end - 1)
	}
	f.findings = append(f.findings, fd)
}

// inDown reports whether offset off is in a down migration.
func (f *file) inDown(off int) bool { return off >= f.down }

// isCreated reports whether table name (maybe qualified) is created
// earlier in the file.
func (f *file) isCreated(name string) bool { return f.created[baseName(name)] }

func (f *file) markCreated(name string) { f.created[baseName(name)] = true }

func baseName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.ToLower(strings.Trim(name, "`\"[]"))
}

// classify tells a migration by its path or its markers, and where its down
// part starts.
func classify(p, src string) (migration bool, down int) {
	down = len(src) + 1
	lp := strings.ToLower(p)
	segs := strings.Split(lp, "/")
	dirs, base := segs[:len(segs)-1], segs[len(segs)-1]
	for _, d := range dirs {
		switch d {
		case "migrations", "migration", "migrate", "db_migrations", "schema_migrations", "migrations_sql":
			migration = true
		}
	}
	switch {
	case strings.HasSuffix(base, ".up.sql"):
		migration = true
	case strings.HasSuffix(base, ".down.sql") || base == "down.sql" || flywayUndo(base):
		return true, 0
	case flywayVersioned(base):
		migration = true
	}
	lower := strings.ToLower(src)
	for _, m := range []string{"-- +goose up", "-- +migrate up", "-- migrate:up", "--liquibase formatted sql"} {
		if strings.Contains(lower, m) {
			migration = true
		}
	}
	for _, m := range []string{"-- +goose down", "-- +migrate down", "-- migrate:down", "--+goose down"} {
		if i := strings.Index(lower, m); i >= 0 && i < down {
			migration, down = true, i
		}
	}
	return migration, down
}

// flywayVersioned matches V1__name.sql, V1_2__name.sql.
func flywayVersioned(base string) bool {
	if !strings.HasPrefix(base, "v") || !strings.Contains(base, "__") {
		return false
	}
	v := base[1:strings.Index(base, "__")]
	return v != "" && strings.Trim(v, "0123456789._") == ""
}

func flywayUndo(base string) bool {
	return strings.HasPrefix(base, "u") && flywayVersioned("v"+base[1:])
}

// sqlcAnnotated reports whether the file names its queries for sqlc (or a
// tool of the same convention): "-- name: GetUser :one".
func sqlcAnnotated(src string) bool {
	i := strings.Index(src, "-- name:")
	if i < 0 {
		return false
	}
	line, _, _ := strings.Cut(src[i:], "\n")
	return strings.Contains(line, " :")
}

// firstToken skips white space and comments from off; the offset of the
// statement's first token.
func firstToken(src string, off, end int) int { return skipSpace(src, off, end, false) }

// skipSpace skips white space and comments; with mysql, # comments too,
// and /*! … */ is code, not a comment.
func skipSpace(src string, off, end int, mysql bool) int {
	end = min(end, len(src))
	for off < end {
		switch c := src[off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == ';':
			off++
		case mysql && c == '/' && strings.HasPrefix(src[off:end], "/*!"):
			return off
		case c == '-' && off+1 < end && src[off+1] == '-', mysql && c == '#':
			j := strings.IndexByte(src[off:end], '\n')
			if j < 0 {
				return end
			}
			off += j + 1
		case c == '/' && off+1 < end && src[off+1] == '*':
			depth, j := 1, off+2
			for j < end && depth > 0 {
				switch {
				case src[j] == '*' && j+1 < end && src[j+1] == '/':
					depth--
					j += 2
				case src[j] == '/' && j+1 < end && src[j+1] == '*':
					depth++
					j += 2
				default:
					j++
				}
			}
			off = j
		default:
			return off
		}
	}
	return min(off, len(src))
}

// clip shortens s for a message.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return s
}

// quoteName is a name as a message shows it.
func quoteName(s string) string { return cmp.Or(s, "?") }
