package sqlcheck

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/cairn-dev/cairn/internal/check"
	"vitess.io/vitess/go/vt/sqlparser"
)

var (
	myParserOnce sync.Once
	myParser     *sqlparser.Parser
	myParserErr  error
)

func mysqlParser() (*sqlparser.Parser, error) {
	myParserOnce.Do(func() {
		myParser, myParserErr = sqlparser.New(sqlparser.Options{MySQLServerVersion: "8.0.40"})
	})
	return myParser, myParserErr
}

// piece is one statement's byte range in the file.
type piece struct{ off, end int }

var (
	delimiterLine = check.LazyRegexp(`(?im)^[ \t]*DELIMITER[ \t]+(\S+)[ \t]*\r?$`)
	vitessPos     = check.LazyRegexp(`at position (\d+)(?: near '(.*)')?`)
	vitessAt      = check.LazyRegexp(` at position \d+`)
	// unread starts a statement Vitess's grammar does not cover (stored
	// programs, accounts, replication and server administration): its
	// failure to parse is not reported as an error.
	unreadRE = check.LazyRegexp(`(?is)^\s*(?:` +
		`CREATE\s+(?:OR\s+REPLACE\s+)?(?:ALGORITHM\s*=\s*\w+\s+)?(?:DEFINER\s*=\s*\S+\s+)?(?:SQL\s+SECURITY\s+\w+\s+)?(?:TRIGGER|EVENT|FUNCTION|PROCEDURE|AGGREGATE|SPATIAL|SERVER|TABLESPACE|LOGFILE|RESOURCE|ROLE|USER)\b|` +
		`(?:DROP|ALTER)\s+(?:TRIGGER|EVENT|FUNCTION|PROCEDURE|SERVER|TABLESPACE|LOGFILE|RESOURCE|ROLE|USER|INSTANCE)\b|` +
		`(?:GRANT|REVOKE|RENAME\s+USER|SET\s+(?:PASSWORD|DEFAULT\s+ROLE|ROLE|RESOURCE\s+GROUP)|INSTALL|UNINSTALL|CHANGE\s+(?:MASTER|REPLICATION)|START\s+(?:SLAVE|REPLICA|GROUP_REPLICATION)|STOP\s+(?:SLAVE|REPLICA|GROUP_REPLICATION)|RESET|PURGE|HANDLER|CLONE|SHUTDOWN|RESTART|CACHE\s+INDEX|LOAD\s+INDEX|BINLOG|HELP|IMPORT\s+TABLE|XA|DO|CALL|SIGNAL|RESIGNAL|DECLARE|PREPARE|EXECUTE|DEALLOCATE)\b)`)
	versionComment = check.LazyRegexp(`/\*!\d*|\*/`)
)

// unread matches a statement's head against unreadRE, reading MySQL's
// versioned comments (/*!50003 … */) as the server does: as code.
type unreadMatcher struct{}

var unread unreadMatcher

func (unreadMatcher) MatchString(s string) bool {
	head := s[:min(len(s), 400)]
	return unreadRE().MatchString(versionComment().ReplaceAllString(head, " "))
}

// mysqlPieces splits the file into statements: Vitess's splitter within
// each stretch of the default delimiter, and the mysql client's DELIMITER
// command for the others. The DELIMITER lines themselves are not
// statements.
func mysqlPieces(p *sqlparser.Parser, src string) []piece {
	var out []piece
	delim := ";"
	pos := 0
	region := func(end int) {
		text := src[pos:end]
		if strings.TrimSpace(text) == "" {
			return
		}
		if delim == ";" {
			parts, err := safeSplit(p, text)
			if err == nil {
				base := uintptr(unsafe.Pointer(unsafe.StringData(text)))
				for _, s := range parts {
					if len(s) == 0 || strings.TrimSpace(s) == "" {
						continue
					}
					off := int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - base)
					if off < 0 || off+len(s) > len(text) {
						continue
					}
					out = append(out, piece{pos + off, pos + off + len(s)})
				}
				return
			}
		}
		for _, r := range splitOn(text, delim) {
			body := text[r.off:r.end]
			st := skipSpace(body, 0, len(body), true)
			if unread.MatchString(body[st:]) {
				out = append(out, piece{pos + r.off, pos + r.end})
				continue
			}
			// not a stored program: the ; inside end statements as usual
			parts, err := safeSplit(p, body)
			if err != nil {
				out = append(out, piece{pos + r.off, pos + r.end})
				continue
			}
			base := uintptr(unsafe.Pointer(unsafe.StringData(body)))
			for _, s := range parts {
				off := int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - base)
				if strings.TrimSpace(s) == "" || off < 0 || off+len(s) > len(body) {
					continue
				}
				out = append(out, piece{pos + r.off + off, pos + r.off + off + len(s)})
			}
		}
	}
	for _, m := range delimiterLine().FindAllStringSubmatchIndex(src, -1) {
		region(m[0])
		delim = src[m[2]:m[3]]
		pos = m[1]
	}
	region(len(src))
	return out
}

// splitOn splits text on delim outside quotes and comments, as the mysql
// client does under a DELIMITER command.
func splitOn(text, delim string) []piece {
	var out []piece
	start := 0
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(text) && text[j] != c {
				if text[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			i = j + 1
		case c == '#' || c == '-' && strings.HasPrefix(text[i:], "-- "):
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				i = len(text)
			} else {
				i += j + 1
			}
		case c == '/' && strings.HasPrefix(text[i:], "/*") && !strings.HasPrefix(text[i:], "/*!"):
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				i = len(text)
			} else {
				i += j + 4
			}
		case strings.HasPrefix(text[i:], delim):
			if strings.TrimSpace(text[start:i]) != "" {
				out = append(out, piece{start, i})
			}
			i += len(delim)
			start = i
		default:
			i++
		}
	}
	if strings.TrimSpace(text[start:]) != "" {
		out = append(out, piece{start, len(text)})
	}
	return out
}

func checkMySQL(f *file) {
	p, err := mysqlParser()
	if err != nil {
		f.notes = append(f.notes, "the MySQL parser could not start: "+err.Error())
		return
	}
	text, n := placeholders(f.src)
	if n > 0 {
		f.notes = append(f.notes, fmt.Sprintf("%d ${placeholders} read as identifiers", n))
	}
	text, n = mysqlClient(text)
	if n > 0 {
		f.notes = append(f.notes, "mysql client commands (lines starting with \\) skipped as the mysql client reads them")
	}
	unchecked, errs := 0, 0
	for _, pc := range mysqlPieces(p, text) {
		stmtText := text[pc.off:pc.end]
		start := skipSpace(f.src, pc.off, pc.end, true)
		if start >= pc.end {
			continue
		}
		st, err := safeParse(p, stmtText)
		if errors.Is(err, sqlparser.ErrEmpty) {
			continue
		}
		if err != nil {
			if errors.Is(err, errParserPanic) || unread.MatchString(text[start:pc.end]) {
				unchecked++
				continue
			}
			if errs >= maxSyntaxErrors {
				continue
			}
			errs++
			at, msg := pc.off, err.Error()
			if m := vitessPos().FindStringSubmatch(msg); m != nil {
				if p, err := strconv.Atoi(m[1]); err == nil {
					at = pc.off + max(0, min(len(stmtText), p-1-len(m[2])))
				}
			}
			msg = strings.TrimSpace(strings.TrimPrefix(msg, "Code: INVALID_ARGUMENT"))
			msg = vitessAt().ReplaceAllString(msg, "")
			f.add(ruleSyntax, at, 0, "MySQL (Vitess's parser): "+strings.Join(strings.Fields(msg), " "),
				"Correct the statement here.")
			continue
		}
		myRules(f, st, start, pc.end)
	}
	if unchecked > 0 {
		f.notes = append(f.notes, fmt.Sprintf("%d statements not checked: Vitess's parser does not read stored programs (CREATE TRIGGER/FUNCTION/EVENT…), accounts (CREATE USER, GRANT) or server administration", unchecked))
	}
}

func myRules(f *file, st sqlparser.Statement, start, end int) {
	down := f.inDown(start)
	switch s := st.(type) {
	case *sqlparser.Update:
		if s.Where == nil && !myJoinRestricts(s.TableExprs) {
			f.add(ruleUpdateNoWhere, start, 0, fmt.Sprintf("UPDATE %s has no WHERE clause: it changes every row", sqlparser.String(sqlparser.TableExprs(s.TableExprs))),
				"Add a WHERE clause, or suppress with the reason every row must change.")
		}
	case *sqlparser.Delete:
		if s.Where == nil && !myJoinRestricts(s.TableExprs) {
			f.add(ruleDeleteNoWhere, start, 0, fmt.Sprintf("DELETE FROM %s has no WHERE clause: it removes every row", sqlparser.String(sqlparser.TableExprs(s.TableExprs))),
				"Add a WHERE clause, or suppress with the reason the table must be emptied.")
		}
	case *sqlparser.Select, *sqlparser.Union:
		if !f.migration && !f.sqlc {
			myStar(f, s.(sqlparser.TableStatement), start, end)
		}
	case *sqlparser.Insert:
		if ts, ok := s.Rows.(sqlparser.TableStatement); ok && !f.migration && !f.sqlc {
			myStar(f, ts, start, end)
		}
	case *sqlparser.CreateTable:
		name := s.Table.Name.String()
		if !s.Temp && s.OptLike == nil && s.Select == nil && s.TableSpec != nil && !myHasPK(s.TableSpec) {
			f.noPK = append(f.noPK, pendingPK{name, start})
		}
		f.markCreated(name)
	case *sqlparser.DropTable:
		names := sqlparser.String(s.FromTables)
		if f.migration && !s.IfExists {
			f.add(ruleDropIfExists, start, 0, fmt.Sprintf("DROP TABLE %s without IF EXISTS fails if it is already gone", names), "Write DROP TABLE IF EXISTS.")
		}
		if f.migration && !down && !s.Temp {
			f.add(ruleDropTable, start, 0, fmt.Sprintf("DROP TABLE %s destroys the table and its data", names),
				"Make sure nothing reads it and its data is not needed, then suppress with the reason.")
		}
	case *sqlparser.DropView:
		if f.migration && !s.IfExists {
			f.add(ruleDropIfExists, start, 0, fmt.Sprintf("DROP VIEW %s without IF EXISTS fails if it is already gone", sqlparser.String(s.FromTables)), "Write DROP VIEW IF EXISTS.")
		}
	case *sqlparser.TruncateTable:
		if f.migration && !down {
			f.add(ruleTruncate, start, 0, fmt.Sprintf("TRUNCATE %s removes every row", s.Table.Name.String()), "Delete only the rows meant, or suppress with the reason.")
		}
	case *sqlparser.RenameTable:
		if f.migration && !down {
			for _, tp := range s.TablePairs {
				if !f.isCreated(tp.FromTable.Name.String()) {
					f.add(ruleRename, start, 0, fmt.Sprintf("renaming table %s to %s breaks the code still using the old name", tp.FromTable.Name.String(), tp.ToTable.Name.String()),
						"Create the new table (or a view under the old name) and move the code over first.")
				}
			}
		}
	case *sqlparser.AlterTable:
		for _, o := range s.AlterOptions {
			if ad, ok := o.(*sqlparser.AddIndexDefinition); ok && ad.IndexDefinition != nil && ad.IndexDefinition.Info != nil && ad.IndexDefinition.Info.Type == sqlparser.IndexTypePrimary {
				f.addedPK(s.Table.Name.String())
			}
		}
		if f.migration && !down {
			myAlter(f, s, start)
		}
	}
}

// myJoinRestricts reports whether a multi-table UPDATE or DELETE is
// restricted by an inner join's ON or USING, as MySQL allows in place of a
// WHERE clause.
func myJoinRestricts(tes []sqlparser.TableExpr) bool {
	for _, te := range tes {
		j, ok := te.(*sqlparser.JoinTableExpr)
		if !ok {
			continue
		}
		switch j.Join {
		case sqlparser.NormalJoinType, sqlparser.StraightJoinType:
			if j.Condition != nil && (j.Condition.On != nil || len(j.Condition.Using) > 0) {
				return true
			}
		case sqlparser.NaturalJoinType:
			return true
		}
	}
	return false
}

// myStar flags * in the outermost select list of a SELECT or each arm of a
// UNION.
func myStar(f *file, ts sqlparser.TableStatement, start, end int) {
	switch s := ts.(type) {
	case *sqlparser.Union:
		myStar(f, s.Left, start, end)
		myStar(f, s.Right, start, end)
	case *sqlparser.Select:
		if s.SelectExprs == nil {
			return
		}
		for _, e := range s.SelectExprs.Exprs {
			if _, ok := e.(*sqlparser.StarExpr); ok {
				at := starOffset(f.src, start, end)
				if at < 0 {
					at = start
				}
				f.add(ruleSelectStar, at, 0, "SELECT * returns whatever columns the table has today; the code reading it changes meaning when they change",
					"List the columns the code reads.")
				return
			}
		}
	}
}

func myHasPK(ts *sqlparser.TableSpec) bool {
	for _, ix := range ts.Indexes {
		if ix.Info != nil && ix.Info.Type == sqlparser.IndexTypePrimary {
			return true
		}
	}
	for _, c := range ts.Columns {
		if c.Type != nil && c.Type.Options != nil && c.Type.Options.KeyOpt == sqlparser.ColKeyPrimary {
			return true
		}
	}
	return false
}

func myAlter(f *file, s *sqlparser.AlterTable, start int) {
	table := s.Table.Name.String()
	if f.isCreated(table) {
		return
	}
	online := false // ALGORITHM=INPLACE or INSTANT: MySQL refuses rather than copies
	for _, o := range s.AlterOptions {
		if a, ok := o.(sqlparser.AlgorithmValue); ok {
			switch strings.ToUpper(string(a)) {
			case "INPLACE", "INSTANT":
				online = true
			}
		}
	}
	for _, o := range s.AlterOptions {
		switch a := o.(type) {
		case *sqlparser.ModifyColumn:
			if !online {
				f.add(ruleColumnType, start, 0, fmt.Sprintf("MODIFY COLUMN %s.%s may copy the table, blocking writes while it does", table, a.NewColDefinition.Name.String()),
					"Say ALGORITHM=INPLACE (or INSTANT) so MySQL refuses rather than copies, or use an online schema-change tool.")
			}
		case *sqlparser.ChangeColumn:
			old, nw := a.OldColumn.Name.String(), a.NewColDefinition.Name.String()
			if !strings.EqualFold(old, nw) {
				f.add(ruleRename, start, 0, fmt.Sprintf("CHANGE COLUMN renames %s.%s to %s, breaking the code still using the old name", table, old, nw),
					"Add the new column, keep both in sync while the code moves, then drop the old one.")
			} else if !online {
				f.add(ruleColumnType, start, 0, fmt.Sprintf("CHANGE COLUMN %s.%s may copy the table, blocking writes while it does", table, old),
					"Say ALGORITHM=INPLACE (or INSTANT) so MySQL refuses rather than copies, or use an online schema-change tool.")
			}
		case *sqlparser.RenameColumn:
			f.add(ruleRename, start, 0, fmt.Sprintf("renaming column %s.%s to %s breaks the code still using the old name", table, a.OldName.Name.String(), a.NewName.Name.String()),
				"Add the new column, keep both in sync while the code moves, then drop the old one.")
		case *sqlparser.RenameTableName:
			f.add(ruleRename, start, 0, fmt.Sprintf("renaming table %s to %s breaks the code still using the old name", table, a.Table.Name.String()),
				"Create the new table (or a view under the old name) and move the code over first.")
		case *sqlparser.DropColumn:
			f.add(ruleDropColumn, start, 0, fmt.Sprintf("dropping column %s.%s destroys its data and breaks code still reading it", table, a.Name.Name.String()),
				"Stop using the column in a release first, then drop it and suppress with the reason.")
		}
	}
}

// mysqlClient blanks the mysql client's own backslash commands (\! echo,
// \. file), which never reach the server. Offsets stay as they were.
func mysqlClient(src string) (string, int) {
	if !strings.Contains(src, "\n\\") && !strings.HasPrefix(strings.TrimSpace(src), "\\") {
		return src, 0
	}
	b := []byte(src)
	n := 0
	for start := 0; start < len(b); {
		end := start + strings.IndexByte(src[start:], '\n')
		if end < start {
			end = len(b)
		}
		if strings.HasPrefix(strings.TrimSpace(src[start:end]), "\\") {
			blank(b[start:end])
			n++
		}
		start = end + 1
	}
	return string(b), n
}

// safeSplit is Vitess's splitter, with a panic on hostile input (fuzzing
// found one) turned into an error: the caller then splits on ; itself.
func safeSplit(p *sqlparser.Parser, text string) (pieces []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			pieces, err = nil, fmt.Errorf("vitess splitter: %v", r)
		}
	}()
	return p.SplitStatementToPieces(text)
}

// errParserPanic is a statement Vitess's parser panicked on.
var errParserPanic = errors.New("the parser failed on this statement")

func safeParse(p *sqlparser.Parser, text string) (st sqlparser.Statement, err error) {
	defer func() {
		if r := recover(); r != nil {
			st, err = nil, errParserPanic
		}
	}()
	return p.ParseStrictDDL(text)
}
