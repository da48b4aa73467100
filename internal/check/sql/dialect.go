package sqlcheck

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// guess is the project's dialect and the evidence for it; "" when none.
type guess struct {
	dialect  Dialect
	evidence string
	others   []string // evidence for other dialects
}

// clue is one place a project says which database it uses.
type clue struct {
	file string
	// find returns the dialect and what in the file says so.
	find func(content string) (Dialect, string)
}

// driverSignals are package or module names that say a dialect, as they
// appear in a manifest. Order matters only within one file.
var driverSignals = []struct {
	needle  string
	dialect Dialect
}{
	{"github.com/jackc/pgx", Postgres}, {"github.com/lib/pq", Postgres}, {"github.com/go-pg/pg", Postgres},
	{"gorm.io/driver/postgres", Postgres}, {"github.com/uptrace/bun/dialect/pgdialect", Postgres},
	{"github.com/go-sql-driver/mysql", MySQL}, {"gorm.io/driver/mysql", MySQL},
	{"modernc.org/sqlite", SQLite}, {"github.com/mattn/go-sqlite3", SQLite}, {"github.com/ncruces/go-sqlite3", SQLite},
	{"github.com/glebarez/go-sqlite", SQLite}, {"gorm.io/driver/sqlite", SQLite}, {"zombiezen.com/go/sqlite", SQLite},
}

var (
	npmPG     = check.LazyRegexp(`"(pg|postgres|pg-promise|@neondatabase/serverless|@vercel/postgres|slonik)"\s*:`)
	npmMySQL  = check.LazyRegexp(`"(mysql|mysql2|mariadb)"\s*:`)
	npmSQLite = check.LazyRegexp(`"(sqlite3|better-sqlite3|sqlite|@libsql/client)"\s*:`)
	pyPG      = check.LazyRegexp(`(?im)^\s*["']?(psycopg2?(-binary)?|psycopg\[[^\]]*\]|asyncpg|pg8000)\b`)
	pyMySQL   = check.LazyRegexp(`(?im)^\s*["']?(mysqlclient|pymysql|mysql-connector-python|aiomysql)\b`)
	gemPG     = check.LazyRegexp(`(?m)^\s*gem\s+["']pg["']`)
	gemMySQL  = check.LazyRegexp(`(?m)^\s*gem\s+["'](mysql2|trilogy)["']`)
	gemSQLite = check.LazyRegexp(`(?m)^\s*gem\s+["']sqlite3["']`)
	adapter   = check.LazyRegexp(`(?m)^\s*adapter:\s*["']?(postgresql|postgis|mysql2|trilogy|sqlite3)`)
	prisma    = check.LazyRegexp(`(?s)datasource\s+\w+\s*\{[^}]*provider\s*=\s*"(postgresql|postgres|mysql|sqlite|cockroachdb)"`)
	sqlcEng   = check.LazyRegexp(`(?m)^\s*-?\s*"?engine"?\s*:\s*"?(postgresql|mysql|sqlite)`)
	composeDB = check.LazyRegexp(`(?m)^\s*image:\s*["']?(?:[\w.-]+/)*(postgres|postgis|timescaledb|mysql|mariadb)\b[^\s"']*`)
	sqlfluff  = check.LazyRegexp(`(?m)^\s*dialect\s*=\s*(postgres|mysql|sqlite|mariadb)\b`)
)

func regexClue(res ...reD) func(string) (Dialect, string) {
	return func(s string) (Dialect, string) {
		for _, r := range res {
			if m := r.re().FindStringSubmatch(s); m != nil {
				return r.d, strings.TrimSpace(m[0])
			}
		}
		return "", ""
	}
}

// reD is a lazily compiled expression and the dialect it says.
type reD = struct {
	re func() *regexp.Regexp
	d  Dialect
}

// clues, strongest first: a tool's own configuration names the dialect
// outright; a driver only says which database the code talks to.
var clues = []clue{
	{"sqlc.yaml", sqlcClue}, {"sqlc.yml", sqlcClue}, {"sqlc.json", sqlcClue},
	{".sqlfluff", func(s string) (Dialect, string) {
		if m := sqlfluff().FindStringSubmatch(s); m != nil {
			d, _ := ParseDialect(m[1])
			return d, strings.TrimSpace(m[0])
		}
		return "", ""
	}},
	{"prisma/schema.prisma", prismaClue}, {"schema.prisma", prismaClue},
	{"config/database.yml", func(s string) (Dialect, string) {
		if m := adapter().FindStringSubmatch(s); m != nil {
			switch m[1] {
			case "postgresql", "postgis":
				return Postgres, strings.TrimSpace(m[0])
			case "mysql2", "trilogy":
				return MySQL, strings.TrimSpace(m[0])
			}
			return SQLite, strings.TrimSpace(m[0])
		}
		return "", ""
	}},
	{"go.mod", func(s string) (Dialect, string) {
		for _, sig := range driverSignals {
			if strings.Contains(s, sig.needle) {
				return sig.dialect, "requiring " + sig.needle
			}
		}
		return "", ""
	}},
	{"package.json", regexClue(reD{npmPG, Postgres}, reD{npmMySQL, MySQL}, reD{npmSQLite, SQLite})},
	{"requirements.txt", regexClue(reD{pyPG, Postgres}, reD{pyMySQL, MySQL})},
	{"pyproject.toml", regexClue(reD{pyPG, Postgres}, reD{pyMySQL, MySQL})},
	{"Gemfile", regexClue(reD{gemPG, Postgres}, reD{gemMySQL, MySQL}, reD{gemSQLite, SQLite})},
	{"Cargo.toml", func(s string) (Dialect, string) {
		for _, c := range []struct {
			needle string
			d      Dialect
		}{{`"postgres"`, Postgres}, {"tokio-postgres", Postgres}, {`"mysql"`, MySQL}, {`"sqlite"`, SQLite}, {"rusqlite", SQLite}} {
			if strings.Contains(s, c.needle) {
				return c.d, "naming " + strings.Trim(c.needle, `"`)
			}
		}
		return "", ""
	}},
	{"docker-compose.yml", composeClue}, {"docker-compose.yaml", composeClue}, {"compose.yml", composeClue}, {"compose.yaml", composeClue},
}

func sqlcClue(s string) (Dialect, string) {
	if m := sqlcEng().FindStringSubmatch(s); m != nil {
		d, _ := ParseDialect(m[1])
		return d, "engine " + m[1]
	}
	return "", ""
}

func prismaClue(s string) (Dialect, string) {
	if m := prisma().FindStringSubmatch(s); m != nil {
		d, ok := ParseDialect(m[1])
		if !ok && m[1] == "cockroachdb" {
			d = Postgres
		}
		return d, `provider = "` + m[1] + `"`
	}
	return "", ""
}

func composeClue(s string) (Dialect, string) {
	if m := composeDB().FindStringSubmatch(s); m != nil {
		switch m[1] {
		case "mysql", "mariadb":
			return MySQL, "image " + strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[0]), "image:")), `"'`)
		}
		return Postgres, "image " + strings.Trim(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(m[0]), "image:")), `"'`)
	}
	return "", ""
}

// guesser finds the dialect a project's manifests name, nearest first: a
// file's own directory and its parents up to the root, so each part of a
// monorepo speaks for itself. Results are kept per directory.
type guesser struct {
	src   check.Source
	byDir map[string]guess
}

// forFile is the guess of the nearest directory above file that has one.
func (g *guesser) forFile(file string) guess {
	if g.src == nil {
		return guess{}
	}
	dir := path.Dir(file)
	for {
		if dir == "." || dir == "/" {
			dir = ""
		}
		if r := g.dir(dir); r.dialect != "" || dir == "" {
			return r
		}
		dir = path.Dir(dir)
	}
}

func (g *guesser) dir(dir string) guess {
	if r, ok := g.byDir[dir]; ok {
		return r
	}
	r := guessDir(g.src, dir)
	g.byDir[dir] = r
	return r
}

// guessDir reads the manifests in one directory of the project.
func guessDir(src check.Source, dir string) guess {
	var g guess
	for _, c := range clues {
		name := path.Join(dir, c.file)
		if !src.Exists(name) {
			continue
		}
		b, err := src.ReadFile(name)
		if err != nil {
			continue
		}
		d, ev := c.find(string(b))
		if d == "" {
			continue
		}
		ev = fmt.Sprintf("%s %s", name, ev)
		if g.dialect == "" {
			g.dialect, g.evidence = d, ev
		} else if d != g.dialect {
			g.others = append(g.others, fmt.Sprintf("%s (%s)", d, ev))
		}
	}
	return g
}

// dialectFor picks a file's dialect: a path segment that names one, the
// project's, the file's own telltales, else postgres; and says why.
func dialectFor(f check.File, project guess) (Dialect, string) {
	for _, seg := range strings.Split(strings.ToLower(path.Dir(f.Path)), "/") {
		if d, ok := ParseDialect(seg); ok {
			return d, fmt.Sprintf("guessed from the directory %q in its path", seg)
		}
	}
	if project.dialect != "" {
		why := "guessed from " + project.evidence
		if len(project.others) > 0 {
			why += "; the project also has " + strings.Join(project.others, ", ") + ": pass the param dialect to choose"
		}
		if strings.Contains(strings.ToLower(project.evidence), "mariadb") {
			why += "; MariaDB is read with MySQL 8's grammar, so MariaDB-only syntax may be reported"
		}
		return project.dialect, why
	}
	if d, ev := sniff(f.Content); d != "" {
		return d, "guessed from the file itself (" + ev + "), the project naming no database"
	}
	return Postgres, "the default: nothing in the project or the file names a database (pass the param dialect to choose)"
}

var (
	mysqlTell  = check.LazyRegexp("(?i)\\bENGINE\\s*=\\s*(InnoDB|MyISAM|MEMORY|Aria)\\b|\\bAUTO_INCREMENT\\b|`\\w+`\\s*\\(|CREATE TABLE `")
	sqliteTell = check.LazyRegexp(`(?i)\bAUTOINCREMENT\b|\bWITHOUT\s+ROWID\b|\bPRAGMA\s+\w+`)
)

// sniff looks for a dialect's telltales in a file's first 64 KiB.
func sniff(b []byte) (Dialect, string) {
	b = b[:min(len(b), 64<<10)]
	if m := mysqlTell().Find(b); m != nil {
		return MySQL, clip(string(m))
	}
	if m := sqliteTell().Find(b); m != nil {
		return SQLite, clip(string(m))
	}
	return "", ""
}

var (
	tsqlTell   = check.LazyRegexp(`(?im)^\s*GO\s*;?\s*$|\[dbo\]\.|\bNVARCHAR\s*\(\s*MAX\s*\)|\bIDENTITY\s*\(\s*\d+\s*,\s*\d+\s*\)|^\s*SET\s+ANSI_NULLS\s+ON`)
	oracleTell = check.LazyRegexp(`(?im)\bVARCHAR2\s*\(|\bCREATE\s+OR\s+REPLACE\s+PACKAGE\b|^\s*/\s*$`)
)

// foreign says why a file is in a dialect this check has no parser for
// (SQL Server's T-SQL, Oracle's PL/SQL); "" when it is not.
func foreign(b []byte) string {
	b = b[:min(len(b), 64<<10)]
	if m := tsqlTell().Find(b); m != nil {
		return "SQL Server T-SQL (" + clip(string(m)) + "): this check parses PostgreSQL, MySQL and SQLite; pass the param dialect to check it as one of them"
	}
	if m := oracleTell().Find(b); m != nil {
		return "Oracle SQL (" + clip(string(m)) + "): this check parses PostgreSQL, MySQL and SQLite; pass the param dialect to check it as one of them"
	}
	return ""
}
