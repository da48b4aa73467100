package sqlcheck

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRulesAreDescribed(t *testing.T) {
	checktest.Rules(t, New())
}

func TestCorpusPerDialect(t *testing.T) {
	for _, d := range []string{"postgres", "mysql", "sqlite"} {
		t.Run(d, func(t *testing.T) {
			tally := checktest.Corpus(t, New(), filepath.Join("testdata", d), map[string]string{"dialect": d})
			t.Log(tally)
		})
	}
}

// run checks the files of root (all of them, or those under paths) and
// returns the report.
func run(t *testing.T, root string, params map[string]string, paths ...string) *check.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{
		Root: root, Paths: paths, Params: map[string]map[string]string{"sql": params}})
	if err != nil {
		t.Fatalf("run over %s: %v", root, err)
	}
	checktest.Declared(t, New(), rep.Findings)
	return rep
}

// noErrors fails t for each error finding: real files from projects that
// run them must parse.
func noErrors(t *testing.T, rep *check.Report) {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Severity == check.Error {
			t.Errorf("false error on a real file: %s", f)
		}
	}
	byRule := map[string]int{}
	for _, f := range rep.Findings {
		byRule[f.Rule]++
	}
	t.Logf("%d real files, %d findings %v; notes %q", rep.ByChecker["sql"], len(rep.Findings), byRule, rep.Notes)
}

// TestExternalNPM runs the check over SQL that npm packages ship: their
// migrations and schemas are run against real databases by their users.
func TestExternalNPM(t *testing.T) {
	cases := []struct {
		pkg, path, dialect, kind string
		min                      int
	}{
		{"graphile-worker", "sql", "postgres", "migration", 20},
		{"connect-pg-simple", "table.sql", "postgres", "", 1},
		{"express-mysql-session", "schema.sql", "mysql", "", 1},
		{"express-session-sqlite", "build/migrations", "sqlite", "migration", 1},
		{"mysql-import", "test/sample_dump_files", "mysql", "", 6},
		{"pg-structure", "module-files/sql", "postgres", "", 12},
		{"postgres-migrations", "dist/migrations", "postgres", "migration", 1},
	}
	for _, c := range cases {
		t.Run(c.pkg, func(t *testing.T) {
			dir := checktest.External(t, c.pkg)
			rep := run(t, dir, map[string]string{"dialect": c.dialect, "kind": c.kind}, c.path)
			if rep.ByChecker["sql"] < c.min {
				t.Errorf("checked %d files in %s, want at least %d", rep.ByChecker["sql"], c.pkg, c.min)
			}
			noErrors(t, rep)
		})
	}
}

// TestExternalBrokenDumps: mysql-import ships dumps broken on purpose, to
// test its own error path; each must be a syntax error at its line.
func TestExternalBrokenDumps(t *testing.T) {
	dir := checktest.External(t, "mysql-import")
	rep := run(t, dir, map[string]string{"dialect": "mysql"}, "test/broken_dump_files")
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.File+":"+itoa(f.Line)+" "+f.Rule)
	}
	want := []string{
		"test/broken_dump_files/dump.sql:2 sql/syntax", "test/broken_dump_files/dump.sql:3 sql/syntax",
		"test/broken_dump_files/dump_1.sql:2 sql/syntax", "test/broken_dump_files/dump_1.sql:3 sql/syntax",
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExternalGoModules runs the check over SQL files in modules of
// go.mod: Vitess's MySQL schemas and online-DDL fixtures, pgx's example
// schemas, and Cairn's own store migrations (PostgreSQL and SQLite,
// dialect guessed from their directories).
func TestExternalGoModules(t *testing.T) {
	modDir := func(mod string) string {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
		if err != nil || strings.TrimSpace(string(out)) == "" {
			t.Skipf("module %s not available: %v", mod, err)
		}
		return strings.TrimSpace(string(out))
	}
	t.Run("vitess", func(t *testing.T) {
		dir := modDir("vitess.io/vitess")
		// examples/ use vtgate's own "use keyspace/shard" targets and java/
		// holds JDBC fixtures, not scripts: the rest is MySQL.
		rep := run(t, dir, map[string]string{"dialect": "mysql"}, "go", "config", "test")
		if rep.ByChecker["sql"] < 200 {
			t.Errorf("checked %d Vitess files, want 200 or more", rep.ByChecker["sql"])
		}
		noErrors(t, rep)
	})
	t.Run("pgx", func(t *testing.T) {
		dir := modDir("github.com/jackc/pgx/v5")
		rep := run(t, dir, map[string]string{"dialect": "postgres"}, "examples", "testsetup")
		noErrors(t, rep)
	})
	t.Run("cairn-store", func(t *testing.T) {
		root, err := filepath.Abs("../../..")
		if err != nil {
			t.Fatal(err)
		}
		rep := run(t, root, nil, "internal/store")
		if rep.ByChecker["sql"] < 20 {
			t.Errorf("checked %d of Cairn's migrations, want 20 or more", rep.ByChecker["sql"])
		}
		noErrors(t, rep)
	})
}

// TestInlineThroughRun checks content given inline, as validate_sql gets
// it: no project to read, so the params say what it is.
func TestInlineThroughRun(t *testing.T) {
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{
		Inline: &check.File{Path: "inline.sql", Content: []byte("CREATE INDEX orders_idx ON orders (created_at);\nUPDATE orders SET x = 1;\n")},
		Params: map[string]map[string]string{"sql": {"dialect": "postgres", "kind": "migration"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s", cmp.Or(f.File, "<inline>"), f.Line, f.Col, f.Severity, f.Rule))
		if f.Link == "" {
			t.Errorf("%s: no link", f)
		}
	}
	want := []string{"inline.sql:1:1 warning sql/create-index-not-concurrently", "inline.sql:2:1 warning sql/update-without-where"}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParamsRefuseBadValues(t *testing.T) {
	for _, params := range []map[string]string{{"dialect": "oracle"}, {"kind": "view"}, {"dialekt": "pg"}} {
		_, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "a.sql", Content: []byte("SELECT 1;")}}, Params: params})
		var fe *problem.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("params %v: err = %v, want a *problem.FieldError", params, err)
		}
	}
}

func TestWantsSQLFiles(t *testing.T) {
	c := New()
	for p, want := range map[string]bool{"db/schema.sql": true, "a.PGSQL": true, "x.mysql": true, "main.go": false, "sql": false, "q.sqlx": false} {
		if got := c.Wants(p, nil); got != want {
			t.Errorf("Wants(%q) = %v, want %v", p, got, want)
		}
	}
}

// mapSource is a project given as a map of files.
type mapSource map[string]string

func (m mapSource) ReadFile(p string) ([]byte, error) {
	if s, ok := m[p]; ok {
		return []byte(s), nil
	}
	return nil, os.ErrNotExist
}
func (m mapSource) Exists(p string) bool               { _, ok := m[p]; return ok }
func (m mapSource) Files(dir string) ([]string, error) { return nil, nil }

func TestDialectGuessedAndNoted(t *testing.T) {
	cases := []struct {
		name    string
		project mapSource
		path    string
		content string
		want    string // the note
	}{
		{"go.mod pgx", mapSource{"go.mod": "module x\nrequire github.com/jackc/pgx/v5 v5.7.0\n"}, "q.sql", "SELECT 1;",
			"sql: dialect postgres, guessed from go.mod requiring github.com/jackc/pgx"},
		{"go.mod mysql", mapSource{"go.mod": "require github.com/go-sql-driver/mysql v1.8.0\n"}, "q.sql", "SELECT 1;",
			"sql: dialect mysql, guessed from go.mod requiring github.com/go-sql-driver/mysql"},
		{"package.json better-sqlite3", mapSource{"package.json": `{"dependencies": {"better-sqlite3": "^11.0.0"}}`}, "q.sql", "SELECT 1;",
			`sql: dialect sqlite, guessed from package.json "better-sqlite3":`},
		{"prisma", mapSource{"prisma/schema.prisma": "datasource db {\n  provider = \"mysql\"\n  url = env(\"DB\")\n}\n"}, "q.sql", "SELECT 1;",
			`sql: dialect mysql, guessed from prisma/schema.prisma provider = "mysql"`},
		{"rails", mapSource{"config/database.yml": "default: &default\n  adapter: postgresql\n"}, "q.sql", "SELECT 1;",
			"sql: dialect postgres, guessed from config/database.yml adapter: postgresql"},
		{"compose", mapSource{"docker-compose.yml": "services:\n  db:\n    image: mariadb:11\n"}, "q.sql", "SELECT 1;",
			"sql: dialect mysql, guessed from docker-compose.yml image mariadb:11"},
		{"nearest manifest in a monorepo", mapSource{"go.mod": "require github.com/jackc/pgx/v5 v5.7.0\n", "web/package.json": `{"dependencies": {"mysql2": "3"}}`},
			"web/db/q.sql", "SELECT 1;", `sql: dialect mysql, guessed from web/package.json "mysql2":`},
		{"root manifest for the rest", mapSource{"go.mod": "require github.com/jackc/pgx/v5 v5.7.0\n", "web/package.json": `{"dependencies": {"mysql2": "3"}}`},
			"db/q.sql", "SELECT 1;", "sql: dialect postgres, guessed from go.mod requiring github.com/jackc/pgx"},
		{"directory", mapSource{"go.mod": "require github.com/jackc/pgx/v5 v5.7.0\n"}, "migrations/sqlite/0001.sql", "SELECT 1;",
			`sql: dialect sqlite, guessed from the directory "sqlite" in its path`},
		{"file telltale", mapSource{}, "q.sql", "CREATE TABLE t (id int AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB;",
			"sql: dialect mysql, guessed from the file itself (AUTO_INCREMENT), the project naming no database"},
		{"nothing", mapSource{}, "q.sql", "SELECT 1;",
			"sql: dialect postgres, the default: nothing in the project or the file names a database (pass the param dialect to choose)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := New().Check(context.Background(), &check.Input{Source: c.project, Files: []check.File{{Path: c.path, Content: []byte(c.content)}}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Notes) == 0 || !strings.HasPrefix(res.Notes[0], c.want) {
				t.Errorf("notes %q, want one starting %q", res.Notes, c.want)
			}
		})
	}
}

// findings checks content as one file and returns "LINE:COL RULE" of each
// finding.
func findings(t *testing.T, path, content string, params map[string]string) []string {
	t.Helper()
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: path, Content: []byte(content)}}, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, strings.Join([]string{itoa(f.Line) + ":" + itoa(f.Col), f.Rule}, " "))
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// TestSyntaxPositions checks that each dialect's parser position lands on
// the offending token in the original file, multi-byte text and earlier
// statements included, and that checking goes on after the error.
func TestSyntaxPositions(t *testing.T) {
	cases := []struct {
		dialect, content string
		want             []string
	}{
		{"postgres", "SELECT 'héllo';\n-- ünïcode\nSELECT a,\n  FROM t;\nDELETE FROM t;\n",
			[]string{"4:3 sql/syntax", "5:1 sql/delete-without-where"}},
		{"postgres", "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; SELEC 2; $$ LANGUAGE sql;\nSELECT 1 FROM;\n",
			[]string{"2:14 sql/syntax"}},
		{"postgres", "SELECT (1", []string{"1:10 sql/syntax"}},
		{"postgres", "SELECT 1;\nCREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n  IF true THEN RETURN 1; END;\nEND;\n$$;\nDO $$ BEGIN PERFORM 1; END $$;\n",
			[]string{"4:3 sql/syntax"}},
		{"mysql", "SELECT 'é' FROM t;\nSELECT a FROM t WHER x = 1;\nDELETE FROM t;\n",
			[]string{"2:22 sql/syntax", "3:1 sql/delete-without-where"}},
		{"sqlite", "SELECT 'é';\nSELECT a FROM t WHER x = 1;\nDELETE FROM t;\n",
			[]string{"2:22 sql/syntax", "3:1 sql/delete-without-where"}},
		{"sqlite", "ALTER TABLE later ADD COLUMN x int NOT NULL DEFAULT 0 CHECK (;\nSELECT * FROM nowhere;\n",
			[]string{"1:62 sql/syntax"}},
	}
	for _, c := range cases {
		got := findings(t, "db/queries/q.sql", c.content, map[string]string{"dialect": c.dialect, "kind": "migration"})
		if diff := gocmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", c.dialect, c.content, diff)
		}
	}
}

// TestPsqlClientLines checks that what psql reads itself is skipped, and
// backslashes in strings, comments and function bodies are left alone.
func TestPsqlClientLines(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\\set ON_ERROR_STOP on\nSELECT 1;\n", "                     \nSELECT 1;\n"},
		{"SELECT 1 \\gexec\nSELECT 2;", "SELECT 1 ;     \nSELECT 2;"},
		{"/* combined `\\dT+` */ SELECT 1;", "/* combined `\\dT+` */ SELECT 1;"},
		{"SELECT E'it\\'s \\d', '\\x';", "SELECT E'it\\'s \\d', '\\x';"},
		{"CREATE FUNCTION f() RETURNS text AS $b$ SELECT '\\n' $b$ LANGUAGE sql;", "CREATE FUNCTION f() RETURNS text AS $b$ SELECT '\\n' $b$ LANGUAGE sql;"},
		{"COPY t (a) FROM stdin;\n1\\t2\n\\.\nSELECT 1;", "COPY t (a) FROM stdin;\n    \n  \nSELECT 1;"},
	}
	for _, c := range cases {
		got, _ := psqlClient(c.in)
		if diff := gocmp.Diff(c.want, got); diff != "" {
			t.Errorf("psqlClient(%q) (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestMaybeColonVar(t *testing.T) {
	for in, want := range map[string]bool{
		"x := 1; y::int; '{}'::jsonb": false, ":a": true, "x = :'v'": true, "a:::S.t": true, "ab": false, "a:": false, "a[1:2]": false,
	} {
		if got := maybeColonVar(in); got != want {
			t.Errorf("maybeColonVar(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestColonVars(t *testing.T) {
	for in, want := range map[string]string{
		"x := :A.b;":           "x := _A.b;",
		"a[1:n], a[lo:hi]":     "a[1:n], a[lo:hi]",
		"ARRAY[(a)):::S.t]":    "ARRAY[(a))::_S.t]",
		"ARRAY[ :S.t ]":        "ARRAY[ _S.t ]",
		"x::int, 'a:b'::text":  "x::int, 'a_b'::text",
		"from :SCHEMA.f(:'v')": "from _SCHEMA.f(:'v')",
	} {
		if got := colonVars(in); got != want {
			t.Errorf("colonVars(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRulesOnTrees checks the cases a regular expression gets wrong.
func TestRulesOnTrees(t *testing.T) {
	cases := []struct {
		name, dialect, path, content string
		want                         []string
	}{
		{"where inside a subquery is not the update's", "postgres", "q.sql",
			"UPDATE t SET a = (SELECT b FROM u WHERE u.id = 1);", []string{"1:1 sql/update-without-where"}},
		{"delete inside a data-modifying WITH", "postgres", "q.sql",
			"WITH d AS (DELETE FROM t RETURNING id) SELECT id FROM d;", []string{"1:24 sql/delete-without-where"}},
		{"star in EXISTS and count(*) are fine", "postgres", "q.sql",
			"SELECT count(*) FROM t WHERE EXISTS (SELECT * FROM u);", nil},
		{"star in a string is not a star", "postgres", "q.sql", "SELECT 'SELECT * FROM t' AS s;", nil},
		{"select star not flagged in migrations", "postgres", "migrations/1.sql", "INSERT INTO a SELECT * FROM b;", nil},
		{"sqlc files expand star themselves", "postgres", "q.sql", "-- name: One :one\nSELECT * FROM t WHERE id = $1;", nil},
		{"index on a table created in the file", "postgres", "migrations/1.sql",
			"CREATE TABLE t (id int PRIMARY KEY);\nCREATE INDEX t_i ON t (id);", nil},
		{"down section drops quietly", "postgres", "migrations/1.sql",
			"-- +goose Up\nCREATE TABLE t (id int PRIMARY KEY);\n-- +goose Down\nDROP TABLE IF EXISTS t;", nil},
		{"serial column fills itself but rewrites", "postgres", "migrations/1.sql",
			"ALTER TABLE t ADD COLUMN n bigserial NOT NULL;", []string{"1:1 sql/add-column-volatile-default"}},
		{"now() is not volatile", "postgres", "migrations/1.sql",
			"ALTER TABLE t ADD COLUMN at timestamptz NOT NULL DEFAULT now();", nil},
		{"mysql multi-table update restricted by its join", "mysql", "q.sql",
			"UPDATE orders o JOIN customers c ON c.id = o.customer_id SET o.region = c.region;", nil},
		{"mysql left join restricts nothing", "mysql", "q.sql",
			"DELETE o FROM orders o LEFT JOIN customers c ON c.id = o.customer_id;", []string{"1:1 sql/delete-without-where"}},
		{"mysql instant alter is fine", "mysql", "migrations/1.sql",
			"ALTER TABLE t MODIFY COLUMN a bigint, ALGORITHM=INSTANT;", nil},
		{"sqlite update in a trigger body is the trigger's", "sqlite", "q.sql",
			"CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE c SET n = n + 1; END;", nil},
		{"sqlite multiplication is not a star", "sqlite", "q.sql", "SELECT a * b, 2*3 FROM t;", nil},
		{"sqlite table star", "sqlite", "q.sql", "SELECT t.* FROM t;", []string{"1:10 sql/select-star"}},
		{"mysql star found at the star", "mysql", "q.sql", "SELECT a FROM t UNION SELECT * FROM u;", []string{"1:30 sql/select-star"}},
		{"unique constraint through an index is fine", "postgres", "migrations/1.sql",
			"ALTER TABLE u ADD CONSTRAINT k UNIQUE USING INDEX k;", nil},
		{"unique constraint building its index", "postgres", "migrations/1.sql",
			"ALTER TABLE u ADD CONSTRAINT k UNIQUE (email);", []string{"1:1 sql/add-unique-constraint"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := findings(t, c.path, c.content, map[string]string{"dialect": c.dialect})
			if diff := gocmp.Diff(c.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestForeignDialectsAreSkipped(t *testing.T) {
	for _, src := range []string{
		"CREATE TABLE [dbo].[Users] ([Id] INT IDENTITY(1,1) NOT NULL)\nGO\n",
		"CREATE TABLE users (id NUMBER(10), name VARCHAR2(100));\n",
	} {
		res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "a.sql", Content: []byte(src)}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Skipped) != 1 || len(res.Findings) != 0 {
			t.Errorf("%q: skipped %v, findings %v; want it skipped as a dialect without a parser", src, res.Skipped, res.Findings)
		}
	}
	// the param says otherwise: checked, and wrong
	res, _ := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "a.sql", Content: []byte("SELECT 1\nGO\nSELECT 2\n")}}, Params: map[string]string{"dialect": "postgres"}})
	if len(res.Findings) == 0 {
		t.Errorf("with dialect=postgres, T-SQL's GO should be a syntax error")
	}
}

// TestConcurrentChecks runs the three dialects from several goroutines,
// as the MCP server may (go test -race).
func TestConcurrentChecks(t *testing.T) {
	done := make(chan []string)
	for i := range 6 {
		d := []string{"postgres", "mysql", "sqlite"}[i%3]
		go func() {
			res, err := New().Check(context.Background(), &check.Input{
				Files:  []check.File{{Path: "q.sql", Content: []byte("SELECT a FROM t;\nDELETE FROM t;\nSELECT a,\nFROM t;\n")}},
				Params: map[string]string{"dialect": d}})
			var got []string
			if err != nil {
				got = append(got, err.Error())
			}
			for _, f := range res.Findings {
				got = append(got, itoa(f.Line)+" "+f.Rule)
			}
			done <- got
		}()
	}
	for range 6 {
		if diff := gocmp.Diff([]string{"2 sql/delete-without-where", "4 sql/syntax"}, sortedCopy(<-done)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	}
}

func sortedCopy(s []string) []string {
	s = append([]string(nil), s...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

func TestTemplatesAreSkipped(t *testing.T) {
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "models/a.sql", Content: []byte("SELECT * FROM {{ ref('orders') }}")}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || len(res.Findings) != 0 {
		t.Errorf("skipped %v, findings %v; want the template skipped", res.Skipped, res.Findings)
	}
	for _, tc := range []struct {
		sql  string
		skip bool
	}{
		{"{% if is_incremental() %}\nSELECT 1\n{% endif %}", true},
		{"SELECT id FROM docs WHERE doc LIKE '{%';", false}, // Cairn's own migration 0013
		{"SELECT 1 FROM t WHERE d > '{{ var(\"day\") }}';", false},
		{"-- {{ not a tag }}\nSELECT 1;", false},
		{"/* {% nor this %} */ SELECT 1;", false},
		{"SELECT 'it''s' || {{ col }} FROM t;", true},
		{"SELECT '{{ unterminated", false},
	} {
		if got := templated([]byte(tc.sql)) != ""; got != tc.skip {
			t.Errorf("templated(%q) = %v, want %v", tc.sql, got, tc.skip)
		}
	}
}

// TestHostileInput feeds what no parser should choke on: deep nesting,
// junk, an unterminated string, a huge statement.
func TestHostileInput(t *testing.T) {
	inputs := []string{
		"SELECT " + strings.Repeat("(", 50000) + "1" + strings.Repeat(")", 50000),
		strings.Repeat("ARRAY[", 5000) + "1" + strings.Repeat("]", 5000),
		"SELECT 'unterminated",
		"CREATE TRIGGER t BEGIN",
		"$$$$$$;;;;'\"`[[[((((/*",
		"\xff\xfe\x00garbage",
		"DELIMITER //\nSELECT 1//\nDELIMITER ;\n",
		strings.Repeat("SELECT 1;\n", 20000),
	}
	for _, d := range []string{"postgres", "mysql", "sqlite"} {
		for _, in := range inputs {
			_, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "x.sql", Content: []byte(in)}}, Params: map[string]string{"dialect": d}})
			if err != nil {
				t.Errorf("%s %.30q: %v", d, in, err)
			}
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"SELECT 1;", "UPDATE t SET a = 1;", "CREATE INDEX i ON t (a);", "DELIMITER ;;\nSELECT 1;;\n", "COPY t FROM stdin;\n1\n\\.\n", "SELECT :a, ${b};"} {
		for _, d := range []string{"postgres", "mysql", "sqlite"} {
			f.Add(d, s)
		}
	}
	// Compile the PostgreSQL parser before the first input: under the
	// fuzzer's instrumentation it takes longer than a single input may.
	WarmUp()
	f.Fuzz(func(t *testing.T, dialect, src string) {
		if _, ok := ParseDialect(dialect); !ok {
			dialect = "postgres"
		}
		res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "migrations/x.sql", Content: []byte(src)}}, Params: map[string]string{"dialect": dialect}})
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Col < 1 {
				t.Fatalf("finding without a position: %s", fd)
			}
		}
	})
}

func benchFile(b *testing.B, dialect, path string, repeat int) {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	content := []byte(strings.Repeat(string(src)+"\n", repeat))
	in := &check.Input{Files: []check.File{{Path: "db/migrations/1.up.sql", Content: content}}, Params: map[string]string{"dialect": dialect}}
	if _, err := New().Check(context.Background(), in); err != nil { // warm: the wasm compile is once per process
		b.Fatal(err)
	}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPostgresTypical(b *testing.B) {
	benchFile(b, "postgres", "testdata/postgres/valid/db/migrations/20240401080000_audit.up.sql", 1)
}
func BenchmarkPostgresLarge(b *testing.B) {
	benchFile(b, "postgres", "testdata/postgres/valid/db/migrations/20240401080000_audit.up.sql", 400)
}

// BenchmarkPostgresParserAlone is the baseline: libpg_query's parse of the
// same file, without the checker.
func BenchmarkPostgresParserAlone(b *testing.B) {
	src, err := os.ReadFile("testdata/postgres/valid/db/migrations/20240401080000_audit.up.sql")
	if err != nil {
		b.Fatal(err)
	}
	WarmUp()
	b.ReportAllocs()
	for b.Loop() {
		if _, perr, err := pgParse(string(src)); err != nil || perr != nil {
			b.Fatal(err, perr)
		}
	}
}

func BenchmarkMySQLTypical(b *testing.B) {
	benchFile(b, "mysql", "testdata/mysql/valid/schema.sql", 1)
}
func BenchmarkMySQLLarge(b *testing.B) { benchFile(b, "mysql", "testdata/mysql/valid/schema.sql", 400) }
func BenchmarkSQLiteTypical(b *testing.B) {
	benchFile(b, "sqlite", "testdata/sqlite/valid/schema.sql", 1)
}
func BenchmarkSQLiteLarge(b *testing.B) {
	benchFile(b, "sqlite", "testdata/sqlite/valid/schema.sql", 400)
}
