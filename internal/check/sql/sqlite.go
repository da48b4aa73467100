package sqlcheck

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/cairn-dev/cairn/internal/check"
	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// scratch is an in-memory SQLite database that statements are prepared on.
type scratch struct {
	tls *libc.TLS
	db  uintptr
}

func openScratch() (*scratch, error) {
	tls := libc.NewTLS()
	name, err := libc.CString(":memory:")
	if err != nil {
		tls.Close()
		return nil, err
	}
	defer libc.Xfree(tls, name)
	pp := libc.Xmalloc(tls, 8)
	if pp == 0 {
		tls.Close()
		return nil, errors.New("sqlite: out of memory")
	}
	defer libc.Xfree(tls, pp)
	poke(pp, 0)
	rc := sqlite3.Xsqlite3_open_v2(tls, name, pp, sqlite3.SQLITE_OPEN_READWRITE|sqlite3.SQLITE_OPEN_CREATE, 0)
	db := peek(pp)
	if rc != sqlite3.SQLITE_OK {
		if db != 0 {
			sqlite3.Xsqlite3_close_v2(tls, db)
		}
		tls.Close()
		return nil, fmt.Errorf("sqlite: cannot open a scratch database (code %d)", rc)
	}
	// Nothing a checked file says may reach the disk: no ATTACH.
	sqlite3.Xsqlite3_limit(tls, db, sqlite3.SQLITE_LIMIT_ATTACHED, 0)
	return &scratch{tls: tls, db: db}, nil
}

// peek reads the pointer stored at p, and poke stores one there. p is C
// memory from libc.Xmalloc, outside the Go heap, as modernc's own driver
// uses it.
func peek(p uintptr) uintptr    { return *(*uintptr)(unsafe.Add(nil, p)) }
func poke(p uintptr, v uintptr) { *(*uintptr)(unsafe.Add(nil, p)) = v }

func (s *scratch) close() {
	sqlite3.Xsqlite3_close_v2(s.tls, s.db)
	s.tls.Close()
}

// exec runs one statement of Cairn's own (a stub table).
func (s *scratch) exec(sql string) {
	z, err := libc.CString(sql)
	if err != nil {
		return
	}
	defer libc.Xfree(s.tls, z)
	sqlite3.Xsqlite3_exec(s.tls, s.db, z, 0, 0, 0)
}

// sqliteSyntax are the messages of SQLite's parser and tokenizer: a
// statement that draws one does not parse. Every other error (no such
// table, no such column, already exists…) depends on the rest of the
// schema and is not reported.
var sqliteSyntax = []string{
	"syntax error", "incomplete input", "unrecognized token", "parser stack overflow", "unknown table option",
	"should come after", "is not allowed on UPDATE or DELETE statements within triggers",
	"qualified table names are not allowed", "a JOIN clause is required before", "unknown join type",
	"unknown or unsupported join type",
}

var noSuchTable = check.LazyRegexp(`^no such table: (\S+)$`)

func isSQLiteSyntax(msg string) bool {
	for _, s := range sqliteSyntax {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func checkSQLite(ctx context.Context, f *file) {
	text, n := placeholders(f.src)
	if n > 0 {
		f.notes = append(f.notes, fmt.Sprintf("%d ${placeholders} read as identifiers", n))
	}
	if i := strings.IndexByte(text, 0); i >= 0 {
		text = text[:i]
	}
	db, err := openScratch()
	if err != nil {
		f.notes = append(f.notes, f.path+": not checked: "+err.Error())
		return
	}
	defer db.close()
	tls := db.tls
	zAll, err := libc.CString(text)
	if err != nil {
		f.notes = append(f.notes, f.path+": not checked: "+err.Error())
		return
	}
	defer libc.Xfree(tls, zAll)
	pp := libc.Xmalloc(tls, 16)
	if pp == 0 {
		return
	}
	defer libc.Xfree(tls, pp)
	pStmt, pTail := pp, pp+8
	var stmts []piece
	off, errs, stubs := 0, 0, 0
	for off < len(text) {
		if len(stmts)%64 == 0 && ctx.Err() != nil {
			return
		}
		poke(pStmt, 0)
		poke(pTail, 0)
		rc := sqlite3.Xsqlite3_prepare_v3(tls, db.db, zAll+uintptr(off), int32(len(text)-off), 0, pStmt, pTail)
		stmt := peek(pStmt)
		if rc != sqlite3.SQLITE_OK {
			msg := libc.GoString(sqlite3.Xsqlite3_errmsg(tls, db.db))
			eo := int(sqlite3.Xsqlite3_error_offset(tls, db.db))
			if stmt != 0 {
				sqlite3.Xsqlite3_finalize(tls, stmt)
			}
			if m := noSuchTable().FindStringSubmatch(msg); m != nil && stubs < 50 && earlyResolving(text, off) {
				// ALTER TABLE and CREATE TRIGGER look their table up before
				// the rest of the statement is parsed: give them a stub, so
				// the parse goes on.
				stubs++
				db.exec("CREATE TABLE IF NOT EXISTS " + quoteQualified(m[1]) + " (_cairn_stub)")
				continue
			}
			end := sqliteStmtEnd(text, off)
			if isSQLiteSyntax(msg) {
				at := firstToken(text, off, end)
				if eo >= 0 {
					at = off + eo
				}
				if errs < maxSyntaxErrors {
					f.add(ruleSyntax, at, 0, "SQLite: "+msg, "Correct the statement here.")
				}
				errs++
			} else {
				stmts = append(stmts, piece{off, end})
			}
			if end <= off {
				break
			}
			off = end
			continue
		}
		next := int(peek(pTail) - zAll)
		if next <= off || next > len(text) {
			next = len(text)
		}
		if stmt == 0 { // only white space and comments were left
			off = next
			continue
		}
		if sqliteSchemaChange(text[off:next]) {
			sqlite3.Xsqlite3_step(tls, stmt)
		}
		sqlite3.Xsqlite3_finalize(tls, stmt)
		stmts = append(stmts, piece{off, next})
		off = next
	}
	for _, s := range stmts {
		sqliteRules(f, text, s)
	}
}

func quoteQualified(name string) string {
	parts := strings.Split(name, ".")
	for i, p := range parts {
		parts[i] = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
	}
	return strings.Join(parts, ".")
}

// earlyResolving reports whether the statement at off is one SQLite
// resolves its table for before parsing the rest: ALTER TABLE, CREATE
// TRIGGER.
func earlyResolving(text string, off int) bool {
	w := words(text, off, 4)
	return len(w) >= 2 && (w[0] == "ALTER" && w[1] == "TABLE" || w[0] == "CREATE" && (w[1] == "TRIGGER" || len(w) > 2 && w[2] == "TRIGGER"))
}

// sqliteSchemaChange reports whether a statement is one the scratch
// database runs, so the statements after it see its tables: CREATE TABLE
// (not … AS SELECT), CREATE VIEW, INDEX or TRIGGER, ALTER TABLE, DROP.
// Nothing else is run: no query, no write, no ATTACH, no virtual table.
func sqliteSchemaChange(stmt string) bool {
	toks := sqliteTokens(stmt, 0, len(stmt), 64)
	var w []string
	for _, t := range toks {
		if t.kind == tkWord {
			w = append(w, strings.ToUpper(stmt[t.off:t.end]))
		} else if len(w) > 0 && t.kind == tkPunct && stmt[t.off] == '(' {
			break
		}
	}
	if len(w) < 2 {
		return false
	}
	switch w[0] {
	case "ALTER", "DROP":
		return true
	case "CREATE":
		for _, x := range w[1:] {
			switch x {
			case "TEMP", "TEMPORARY", "UNIQUE":
				continue
			case "VIEW", "INDEX", "TRIGGER":
				return true
			case "TABLE":
				return !hasWordDepth0(stmt, "AS")
			}
			return false
		}
	}
	return false
}

func hasWordDepth0(stmt, word string) bool {
	depth := 0
	for _, t := range sqliteTokens(stmt, 0, len(stmt), 1<<30) {
		switch {
		case t.kind == tkPunct && stmt[t.off] == '(':
			depth++
		case t.kind == tkPunct && stmt[t.off] == ')':
			depth--
		case t.kind == tkWord && depth == 0 && strings.EqualFold(stmt[t.off:t.end], word):
			return true
		}
	}
	return false
}

// words returns the first n keywords (upper-cased) of the statement at off.
func words(text string, off, n int) []string {
	var w []string
	for _, t := range sqliteTokens(text, off, len(text), n) {
		if t.kind != tkWord {
			break
		}
		w = append(w, strings.ToUpper(text[t.off:t.end]))
	}
	return w
}

// sqliteStmtEnd finds where the statement at off ends: after its
// semicolon, or for CREATE TRIGGER after the ";END;" that closes its body.
func sqliteStmtEnd(text string, off int) int {
	trigger := earlyResolving(text, off) && !strings.EqualFold(firstWord(text, off), "ALTER")
	prevSemi, prevEnd := false, false
	l := lexer{text: text, i: off}
	for {
		t, ok := l.next()
		if !ok {
			break
		}
		semi := t.kind == tkPunct && text[t.off] == ';'
		if semi && (!trigger || prevEnd) {
			return t.end
		}
		isEnd := t.kind == tkWord && strings.EqualFold(text[t.off:t.end], "END")
		prevEnd = isEnd && prevSemi
		prevSemi = semi
	}
	return len(text)
}

func firstWord(text string, off int) string {
	w := words(text, off, 1)
	if len(w) == 0 {
		return ""
	}
	return w[0]
}

// sqliteRules are the pattern rules for SQLite, on tokens: SQLite gives no
// parse tree. Each looks at keywords at parenthesis depth 0 of a statement
// SQLite itself delimited.
func sqliteRules(f *file, text string, s piece) {
	toks := sqliteTokens(text, s.off, s.end, 1<<30)
	if len(toks) == 0 {
		return
	}
	// depth-0 view of the statement
	type w struct {
		tok   token
		upper string
		depth int
	}
	var ws []w
	depth := 0
	for _, t := range toks {
		if t.off >= s.end {
			break
		}
		up := ""
		switch {
		case t.kind == tkWord:
			up = strings.ToUpper(text[t.off:t.end])
		case t.kind == tkPunct && text[t.off] == '(':
			depth++
		case t.kind == tkPunct && text[t.off] == ')':
			depth--
		}
		if t.kind == tkPunct {
			up = text[t.off:t.end]
		}
		ws = append(ws, w{t, up, depth})
	}
	start := ws[0].tok.off
	down := f.inDown(start)
	at0 := func(i int, word string) bool { return i < len(ws) && ws[i].depth == 0 && ws[i].upper == word }
	// the main verb, after a WITH clause
	verb := 0
	if ws[0].upper == "WITH" {
		verb = -1
		for i := 1; i < len(ws); i++ {
			if ws[i].depth == 0 && (ws[i].upper == "SELECT" || ws[i].upper == "INSERT" || ws[i].upper == "UPDATE" ||
				ws[i].upper == "DELETE" || ws[i].upper == "REPLACE") && ws[i].tok.kind == tkWord {
				verb = i
				break
			}
		}
		if verb < 0 {
			return
		}
	}
	hasWhere := func(from int) bool {
		for i := from; i < len(ws); i++ {
			if at0(i, "WHERE") {
				return true
			}
		}
		return false
	}
	name := func(i int) string {
		if i < len(ws) {
			n := text[ws[i].tok.off:ws[i].tok.end]
			if i+2 < len(ws) && ws[i+1].upper == "." {
				n += "." + text[ws[i+2].tok.off:ws[i+2].tok.end]
			}
			return n
		}
		return "?"
	}
	// skip OR REPLACE/ROLLBACK/… after UPDATE or INSERT
	afterOr := func(i int) int {
		if at0(i, "OR") {
			return i + 2
		}
		return i
	}
	star := func(from int) {
		for i := from; i < len(ws); i++ {
			if ws[i].depth != 0 || ws[i].upper != "SELECT" {
				continue
			}
			for j := i + 1; j < len(ws) && !(ws[j].depth == 0 && ws[j].upper == "FROM"); j++ {
				if ws[j].depth == 0 && ws[j].upper == "*" {
					prev := ws[j-1].upper
					if prev == "SELECT" || prev == "DISTINCT" || prev == "ALL" || prev == "," || prev == "." {
						f.add(ruleSelectStar, ws[j].tok.off, ws[j].tok.end, "SELECT * returns whatever columns the table has today; the code reading it changes meaning when they change",
							"List the columns the code reads.")
						return
					}
				}
			}
		}
	}
	switch ws[verb].upper {
	case "UPDATE":
		if !hasWhere(verb) {
			f.add(ruleUpdateNoWhere, ws[verb].tok.off, 0, fmt.Sprintf("UPDATE %s has no WHERE clause: it changes every row", name(afterOr(verb+1))),
				"Add a WHERE clause, or suppress with the reason every row must change.")
		}
	case "DELETE":
		if !hasWhere(verb) {
			f.add(ruleDeleteNoWhere, ws[verb].tok.off, 0, fmt.Sprintf("DELETE FROM %s has no WHERE clause: it removes every row", name(verb+2)),
				"Add a WHERE clause, or suppress with the reason the table must be emptied.")
		}
	case "SELECT", "INSERT", "REPLACE":
		if !f.migration && !f.sqlc {
			star(verb)
		}
	case "CREATE":
		i := verb + 1
		for at0(i, "TEMP") || at0(i, "TEMPORARY") {
			i++
		}
		if at0(i, "TABLE") {
			i++
			if at0(i, "IF") {
				i += 3
			}
			f.markCreated(name(i))
		}
	case "DROP":
		if !f.migration || len(ws) < 3 {
			return
		}
		what := ws[verb+1].upper
		i := verb + 2
		ifExists := at0(i, "IF")
		if ifExists {
			i += 2
		}
		if !ifExists {
			f.add(ruleDropIfExists, start, 0, fmt.Sprintf("DROP %s %s without IF EXISTS fails if it is already gone", what, name(i)), "Write DROP "+what+" IF EXISTS.")
		}
		if what == "TABLE" && !down {
			f.add(ruleDropTable, start, 0, fmt.Sprintf("DROP TABLE %s destroys the table and its data", name(i)),
				"Make sure nothing reads it and its data is not needed, then suppress with the reason.")
		}
	case "ALTER":
		if !f.migration || down || !at0(verb+1, "TABLE") {
			return
		}
		table := name(verb + 2)
		i := verb + 3
		if i < len(ws) && ws[i].upper == "." {
			i += 2
		}
		if f.isCreated(table) {
			return
		}
		switch {
		case at0(i, "RENAME") && at0(i+1, "TO"):
			f.add(ruleRename, start, 0, fmt.Sprintf("renaming table %s to %s breaks the code still using the old name", table, name(i+2)),
				"Create the new table (or a view under the old name) and move the code over first.")
		case at0(i, "RENAME"):
			j := i + 1
			if at0(j, "COLUMN") {
				j++
			}
			f.add(ruleRename, start, 0, fmt.Sprintf("renaming column %s.%s to %s breaks the code still using the old name", table, name(j), name(j+2)),
				"Add the new column, keep both in sync while the code moves, then drop the old one.")
		case at0(i, "DROP"):
			j := i + 1
			if at0(j, "COLUMN") {
				j++
			}
			f.add(ruleDropColumn, start, 0, fmt.Sprintf("dropping column %s.%s destroys its data and breaks code still reading it", table, name(j)),
				"Stop using the column in a release first, then drop it and suppress with the reason.")
		case at0(i, "ADD"):
			j := i + 1
			if at0(j, "COLUMN") {
				j++
			}
			var notNull, dflt, generated bool
			for k := j + 1; k < len(ws); k++ {
				switch {
				case at0(k, "NOT") && at0(k+1, "NULL"), at0(k, "PRIMARY"):
					notNull = true
				case at0(k, "DEFAULT"):
					dflt = true
				case at0(k, "AS"), at0(k, "GENERATED"):
					generated = true
				}
			}
			if notNull && !dflt && !generated {
				f.add(ruleNotNullNoDefault, start, 0, fmt.Sprintf("column %s.%s is added NOT NULL without a default: SQLite refuses it on a table that has rows", table, name(j)),
					"Give it a non-NULL DEFAULT, or add it nullable.")
			}
		}
	}
}

// token kinds of the SQLite tokenizer.
const (
	tkWord  = iota // a keyword or bare identifier
	tkName         // a quoted identifier
	tkStr          // a string or blob literal
	tkNum          // a number
	tkParam        // ?, ?1, :a, @a, $a
	tkPunct        // anything else, one byte (two for || and the like is not needed)
)

type token struct {
	kind     int
	off, end int
}

// sqliteTokens tokenizes text[off:end] as SQLite's tokenizer does for the
// parts the rules read: comments and white space dropped, strings and
// quoted names kept whole. It stops after max tokens.
func sqliteTokens(text string, off, end, max int) []token {
	var out []token
	l := lexer{text: text[:min(end, len(text))], i: off}
	for len(out) < max {
		t, ok := l.next()
		if !ok {
			break
		}
		out = append(out, t)
	}
	return out
}

// lexer reads tokens one at a time.
type lexer struct {
	text string
	i    int
}

func (l *lexer) next() (token, bool) {
	text := l.text
	for l.i < len(text) {
		i := l.i
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.i++
			continue
		case c == '-' && i+1 < len(text) && text[i+1] == '-':
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				l.i = len(text)
				return token{}, false
			}
			l.i += j + 1
			continue
		case c == '/' && i+1 < len(text) && text[i+1] == '*':
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				l.i = len(text)
				return token{}, false
			}
			l.i += j + 4
			continue
		case c == '\'' || c == '"' || c == '`' || c == '[':
			closer := c
			if c == '[' {
				closer = ']'
			}
			j := i + 1
			for j < len(text) {
				if text[j] == closer {
					if closer != ']' && j+1 < len(text) && text[j+1] == closer {
						j += 2
						continue
					}
					break
				}
				j++
			}
			kind := tkName
			if c == '\'' {
				kind = tkStr
			}
			l.i = min(j+1, len(text))
			return token{kind, i, l.i}, true
		case (c == 'x' || c == 'X') && i+1 < len(text) && text[i+1] == '\'':
			j := strings.IndexByte(text[i+2:], '\'')
			l.i = len(text)
			if j >= 0 {
				l.i = i + 2 + j + 1
			}
			return token{tkStr, i, l.i}, true
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9':
			j := i + 1
			for j < len(text) && (isIdent(text[j]) || text[j] == '.') {
				j++
			}
			l.i = j
			return token{tkNum, i, j}, true
		case c == '?' || c == ':' || c == '@' || c == '$':
			j := i + 1
			for j < len(text) && isIdent(text[j]) {
				j++
			}
			l.i = j
			return token{tkParam, i, j}, true
		case isIdent(c):
			j := i + 1
			for j < len(text) && isIdent(text[j]) {
				j++
			}
			l.i = j
			return token{tkWord, i, j}, true
		default:
			l.i++
			return token{tkPunct, i, i + 1}, true
		}
	}
	return token{}, false
}

// starOffset is where the first * of an outermost select list is in
// src[off:end] (after SELECT, DISTINCT, ALL, a comma or a table name's
// dot, at parenthesis depth 0); -1 if none. Vitess's tree has no
// positions: this puts the finding on the star.
func starOffset(src string, off, end int) int {
	l := lexer{text: src[:min(end, len(src))], i: off}
	depth, inList := 0, false
	prev := ""
	for {
		t, ok := l.next()
		if !ok {
			return -1
		}
		w := strings.ToUpper(src[t.off:t.end])
		switch {
		case w == "(":
			depth++
		case w == ")":
			depth--
		case depth != 0:
		case w == "SELECT":
			inList = true
		case w == "FROM":
			inList = false
		case w == "*" && inList && (prev == "SELECT" || prev == "DISTINCT" || prev == "ALL" || prev == "," || prev == "."):
			return t.off
		}
		prev = w
	}
}
