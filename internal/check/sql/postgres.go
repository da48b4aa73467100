package sqlcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/check"
	pgparser "github.com/wasilibs/go-pgquery/parser"
	"google.golang.org/protobuf/encoding/protowire"
)

// pgMu serialises calls into libpg_query: go-pgquery compiles a new
// WebAssembly runtime (seconds of CPU) for each call that finds its pool
// empty, so one at a time keeps it to one compilation per process.
var pgMu sync.Mutex

// WarmUp compiles the PostgreSQL parser now, so the first check does not
// pay for it; a server may call it in the background when it starts.
func WarmUp() {
	_, _, _ = pgParse("SELECT 1")
}

// pgStmt is one statement of a parse: its tree and its byte range.
type pgStmt struct {
	tree     jmap // the statement node, {"SelectStmt": {...}}
	off, end int
	base     int // offset of the text parsed: node locations are relative to it
}

type jmap = map[string]any

// pgParse parses text; a syntax error comes back as perr, a failure of the
// parser itself as err.
func pgParse(text string) (stmts []pgStmt, perr *pgparser.Error, err error) {
	var out string
	func() {
		pgMu.Lock()
		defer pgMu.Unlock()
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("the PostgreSQL parser failed: %v", r)
			}
		}()
		out, err = pgparser.ParseToJSON(text)
	}()
	if err != nil {
		if pe, ok := errors.AsType[*pgparser.Error](err); ok {
			return nil, pe, nil
		}
		return nil, nil, err
	}
	var res struct {
		Stmts []struct {
			Stmt     jmap `json:"stmt"`
			Location int  `json:"stmt_location"`
			Len      int  `json:"stmt_len"`
		} `json:"stmts"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		return nil, nil, fmt.Errorf("reading the PostgreSQL parse tree: %w", err)
	}
	for _, s := range res.Stmts {
		end := len(text)
		if s.Len > 0 {
			end = min(len(text), s.Location+s.Len)
		}
		stmts = append(stmts, pgStmt{tree: s.Stmt, off: s.Location, end: end})
	}
	return stmts, nil, nil
}

// pgToken is one token of libpg_query's scanner.
type pgToken struct{ start, end, token int }

// The scanner's token numbers (pg_query.proto's Token) the checker reads.
const (
	pgTokColon   = 58
	pgTokSemi    = 59
	pgTokLParen  = 40
	pgTokRParen  = 41
	pgTokLBrack  = 91
	pgTokRBrack  = 93
	pgTokAtomic  = 301
	pgTokBegin   = 308
	pgTokEnd     = 404
	pgTokCase    = 322
	pgTokTypecst = 268
)

// pgScan runs libpg_query's scanner over text.
func pgScan(text string) ([]pgToken, error) {
	var b []byte
	var err error
	func() {
		pgMu.Lock()
		defer pgMu.Unlock()
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("the PostgreSQL scanner failed: %v", r)
			}
		}()
		b, err = pgparser.ScanToProtobuf(text)
	}()
	if err != nil {
		return nil, err
	}
	bad := errors.New("reading the PostgreSQL scan")
	var toks []pgToken
	// ScanResult{version=1, tokens=2}; ScanToken{start=1, end=2, token=4, keyword_kind=5}.
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, bad
		}
		b = b[n:]
		if num != 2 || typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return nil, bad
			}
			b = b[n:]
			continue
		}
		msg, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, bad
		}
		b = b[n:]
		var t pgToken
		for len(msg) > 0 {
			fnum, ftyp, m := protowire.ConsumeTag(msg)
			if m < 0 {
				return nil, bad
			}
			msg = msg[m:]
			if ftyp != protowire.VarintType {
				if m = protowire.ConsumeFieldValue(fnum, ftyp, msg); m < 0 {
					return nil, bad
				}
				msg = msg[m:]
				continue
			}
			v, m := protowire.ConsumeVarint(msg)
			if m < 0 {
				return nil, bad
			}
			msg = msg[m:]
			switch fnum {
			case 1:
				t.start = int(v)
			case 2:
				t.end = int(v)
			case 4:
				t.token = int(v)
			}
		}
		t.start, t.end = min(max(t.start, 0), len(text)), min(max(t.end, 0), len(text))
		toks = append(toks, t)
	}
	return toks, nil
}

// pgSemicolons returns the offsets of the statement-ending semicolons in
// text: not those in strings, comments, dollar-quoted bodies, parentheses
// (CREATE RULE actions) or BEGIN ATOMIC … END bodies.
func pgSemicolons(text string) ([]int, error) {
	toks, err := pgScan(text)
	if err != nil {
		return nil, err
	}
	var semis []int
	depth, atomic, cases := 0, 0, 0
	for i, t := range toks {
		switch t.token {
		case pgTokLParen:
			depth++
		case pgTokRParen:
			depth = max(0, depth-1)
		case pgTokAtomic:
			if i > 0 && toks[i-1].token == pgTokBegin {
				atomic++
			}
		case pgTokCase:
			if atomic > 0 {
				cases++
			}
		case pgTokEnd:
			if cases > 0 {
				cases--
			} else if atomic > 0 {
				atomic--
			}
		case pgTokSemi:
			if depth == 0 && atomic == 0 {
				semis = append(semis, t.start)
			}
		}
	}
	return semis, nil
}

// psqlVariables rewrites psql's variable interpolations, which psql
// replaces before the server sees the text: :name becomes the identifier
// _name, :'name' the string 'name', :"name" the identifier "name". Named
// query parameters (:id, as pgtyped or yesql write them) read the same
// way. Casts (::) and array slices (a[1:n]) are left alone.
func psqlVariables(text string) (string, int) {
	if !maybeColonVar(text) {
		return text, 0
	}
	toks, err := pgScan(text)
	if err != nil {
		return text, 0
	}
	var b []byte
	n, brackets := 0, 0
	for i, t := range toks {
		switch t.token {
		case pgTokLBrack:
			brackets++
		case pgTokRBrack:
			brackets = max(0, brackets-1)
		case pgTokColon:
			if brackets > 0 || i+1 >= len(toks) || toks[i+1].start != t.end || t.end >= len(text) {
				continue
			}
			c := text[t.end]
			if c != '\'' && c != '"' && c != '_' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
				continue
			}
			if b == nil {
				b = []byte(text)
			}
			if c == '\'' || c == '"' {
				b[t.start] = ' '
			} else {
				b[t.start] = '_'
			}
			n++
		}
	}
	if b == nil {
		return text, 0
	}
	return string(b), n
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// charToByte turns libpg_query's 1-based character position in text into
// a byte offset.
func charToByte(text string, cursor int) int {
	if cursor <= 1 {
		return 0
	}
	n := 0
	for i := range text {
		n++
		if n == cursor {
			return i
		}
	}
	return len(text)
}

// maxSyntaxErrors caps the syntax errors reported in one file: after that
// many, the rest is likely not this dialect.
const maxSyntaxErrors = 20

func checkPostgres(f *file) {
	text, n := psqlClient(f.src)
	if n > 0 {
		f.notes = append(f.notes, "psql client lines (backslash commands, COPY … FROM stdin data) skipped as psql reads them")
	}
	text, n = placeholders(text)
	if n > 0 {
		f.notes = append(f.notes, fmt.Sprintf("%d ${placeholders} read as identifiers", n))
	}
	text, n = psqlVariables(text)
	if n > 0 {
		f.notes = append(f.notes, fmt.Sprintf("%d psql variables or named parameters (:name) read as identifiers", n))
	}
	colonVarsUsed := n > 0
	var stmts []pgStmt
	base, errs := 0, 0
	for base < len(text) {
		part := text[base:]
		ss, perr, err := pgParse(part)
		if err != nil {
			f.notes = append(f.notes, fmt.Sprintf("%s: not checked past line %d: %v", f.path, lineOf(f, base), err))
			break
		}
		if perr == nil {
			for _, s := range ss {
				stmts = append(stmts, pgStmt{tree: s.tree, off: base + s.off, end: base + s.end, base: base})
			}
			break
		}
		at := charToByte(part, perr.Cursorpos)
		f.add(ruleSyntax, base+at, 0, pgMessage(perr, part, at), "Correct the statement here; PostgreSQL's parser stops at this token.")
		errs++
		// Recover: the statements before the failing one parse on their own;
		// go on after the semicolon that ends it.
		semis, serr := pgSemicolons(part)
		if serr != nil || errs >= maxSyntaxErrors {
			break
		}
		before, after := -1, -1
		for _, s := range semis {
			if s < at {
				before = s
			} else if after < 0 {
				after = s
			}
		}
		if before >= 0 {
			if ss, perr, err := pgParse(part[:before+1]); err == nil && perr == nil {
				for _, s := range ss {
					stmts = append(stmts, pgStmt{tree: s.tree, off: base + s.off, end: base + s.end, base: base})
				}
			}
		}
		if after < 0 {
			break
		}
		base += after + 1
	}
	for _, s := range stmts {
		pgPlpgsql(f, text, s, colonVarsUsed)
	}
	pgRules(f, stmts)
}

var plpgsqlLine = check.LazyRegexp(`near line (\d+)`)

// pgPlpgsql checks the body of a PL/pgSQL function or DO block with
// PostgreSQL's PL/pgSQL parser: PostgreSQL compiles it at CREATE FUNCTION
// (check_function_bodies is on by default), so a syntax error there fails
// the migration. The error names a line of the body.
func pgPlpgsql(f *file, text string, s pgStmt, colonVarsUsed bool) {
	kind, n := unwrap(s.tree)
	var opts []any
	switch kind {
	case "CreateFunctionStmt":
		opts = arr(n["options"])
	case "DoStmt":
		opts = arr(n["args"])
	default:
		return
	}
	lang, body := "plpgsql", ""
	for _, o := range opts {
		_, d := unwrap(o)
		switch str(d["defname"]) {
		case "language":
			_, a := unwrap(d["arg"])
			lang = strings.ToLower(str(a["sval"]))
		case "as":
			k, a := unwrap(d["arg"])
			if k == "List" {
				if items := arr(a["items"]); len(items) > 0 {
					_, a = unwrap(items[0])
				}
			}
			body = str(a["sval"])
		}
	}
	if lang != "plpgsql" || body == "" || s.end <= s.off {
		return
	}
	stmtText := text[s.off:s.end]
	if colonVarsUsed {
		// the file's :name placeholders are filled in by its tool before
		// PostgreSQL sees it, function bodies included
		stmtText = colonVars(stmtText)
	}
	var perr *pgparser.Error
	func() {
		pgMu.Lock()
		defer pgMu.Unlock()
		defer func() { _ = recover() }()
		_, err := pgparser.ParsePlPgSqlToJSON(stmtText)
		perr, _ = errors.AsType[*pgparser.Error](err)
	}()
	if perr == nil {
		return
	}
	at := firstToken(f.src, s.off, s.end)
	if i := strings.Index(stmtText, body); i >= 0 {
		at = s.off + i
		if m := plpgsqlLine().FindStringSubmatch(perr.Context); m != nil {
			line := 1
			fmt.Sscan(m[1], &line)
			for ; line > 1; line-- {
				j := strings.IndexByte(f.src[at:s.end], '\n')
				if j < 0 {
					break
				}
				at += j + 1
			}
			at = skipBlanks(f.src, at)
		}
	}
	name := "the DO block"
	if kind == "CreateFunctionStmt" {
		var parts []string
		for _, p := range arr(n["funcname"]) {
			_, sv := unwrap(p)
			parts = append(parts, str(sv["sval"]))
		}
		name = "function " + strings.Join(parts, ".")
	}
	f.add(ruleSyntax, at, 0, fmt.Sprintf("PostgreSQL, PL/pgSQL body of %s: %s", name, perr.Message),
		"Correct the function body here; PostgreSQL compiles it when the function is created.")
}

// maybeColonVar reports whether text has a colon that could start a psql
// variable: not part of :: or :=, and followed by a letter, _ or a quote.
// Most files have none, and are spared a scan.
func maybeColonVar(text string) bool {
	for i := strings.IndexByte(text, ':'); i >= 0 && i+1 < len(text); i++ {
		if text[i] != ':' {
			j := strings.IndexByte(text[i:], ':')
			if j < 0 {
				return false
			}
			i += j
			if i+1 >= len(text) {
				return false
			}
		}
		switch c := text[i+1]; {
		case c == ':':
			i++ // a cast: both colons
		case c == '_' || c == '\'' || c == '"' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			return true
		}
	}
	return false
}

// colonVars rewrites :name as _name, leaving :=, :: and array slices
// (a[1:n], a colon right after an expression inside brackets) alone. Same
// length, so positions hold.
func colonVars(s string) string {
	var b []byte
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '[':
			depth++
		case ']':
			depth = max(0, depth-1)
		case ':':
			if i+1 < len(s) && s[i+1] == ':' { // a cast
				i++
				continue
			}
			if i+1 >= len(s) || i > 0 && depth > 0 && (isIdent(s[i-1]) || s[i-1] == ')' || s[i-1] == ']') {
				continue
			}
			if n := s[i+1]; n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z' {
				if b == nil {
					b = []byte(s)
				}
				b[i] = '_'
			}
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// skipBlanks moves past spaces and tabs on a line.
func skipBlanks(src string, at int) int {
	for at < len(src) && (src[at] == ' ' || src[at] == '\t') {
		at++
	}
	return at
}

func lineOf(f *file, off int) int { l, _ := f.pos(off); return l }

// pgMessage is a syntax error as one sentence, naming the token.
func pgMessage(e interface{ Error() string }, text string, at int) string {
	msg := e.Error()
	if strings.Contains(msg, "at end of input") {
		return "PostgreSQL: " + msg + " (a statement is not finished: a missing parenthesis, quote or keyword)"
	}
	return "PostgreSQL: " + msg
}

var (
	copyStdin = check.LazyRegexp(`(?is)^\s*(?:--[^\n]*\n\s*)*COPY\b[^;]*\bFROM\s+(stdin|pstdin)\b[^;]*;$`)
)

// psqlClient blanks what psql reads itself rather than sending to the
// server: backslash commands (a line of their own, or after a query, where
// \g and its kin end the query as a semicolon would), and the data lines
// after COPY … FROM stdin up to "\.". Like psql's own lexer it tracks
// strings, quoted names, comments and dollar quotes, so a backslash inside
// them is text. Offsets and line numbers stay as they were.
func psqlClient(src string) (string, int) {
	if !strings.Contains(src, "\\") {
		return src, 0
	}
	var b []byte
	n := 0
	ensure := func() {
		if b == nil {
			b = []byte(src)
		}
	}
	const (
		normal = iota
		single
		double
		block
		dollar
	)
	state, depth, tag := normal, 0, ""
	escapes := false // in an E'…' string, where \' does not close it
	lineStart := 0
	stmtStart := 0 // where the current statement began, for COPY … FROM stdin
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			lineStart = i + 1
		}
		switch state {
		case single:
			if c == '\\' && escapes {
				i++
			} else if c == '\'' {
				state = normal
			}
		case double:
			if c == '"' {
				state = normal
			}
		case block:
			if c == '*' && i+1 < len(src) && src[i+1] == '/' {
				if depth--; depth == 0 {
					state = normal
				}
				i++
			} else if c == '/' && i+1 < len(src) && src[i+1] == '*' {
				depth++
				i++
			}
		case dollar:
			if c == '$' && strings.HasPrefix(src[i:], tag) {
				i += len(tag) - 1
				state = normal
			}
		case normal:
			switch {
			case c == '\'':
				state = single
				escapes = i > 0 && (src[i-1] == 'E' || src[i-1] == 'e') && (i == 1 || !isIdent(src[i-2]))
			case c == '"':
				state = double
			case c == '-' && i+1 < len(src) && src[i+1] == '-':
				j := strings.IndexByte(src[i:], '\n')
				if j < 0 {
					i = len(src)
				} else {
					i += j - 1
				}
			case c == '/' && i+1 < len(src) && src[i+1] == '*':
				state, depth = block, 1
				i++
			case c == '$':
				if t := dollarTag(src[i:]); t != "" && (i == 0 || !isIdent(src[i-1])) {
					state, tag = dollar, t
					i += len(t) - 1
				}
			case c == ';':
				if copyStdin().MatchString(src[stmtStart : i+1]) {
					// the data follows on the next line, up to \.
					j := strings.IndexByte(src[i:], '\n')
					if j < 0 {
						break
					}
					start := i + j + 1
					end := start
					for end < len(src) {
						e := strings.IndexByte(src[end:], '\n')
						line := src[end:]
						if e >= 0 {
							line = src[end : end+e]
						}
						next := len(src)
						if e >= 0 {
							next = end + e + 1
						}
						end = next
						if strings.TrimSpace(line) == `\.` {
							break
						}
					}
					ensure()
					blank(b[start:end])
					n++
					i = end - 1
					lineStart = end
				}
				stmtStart = i + 1
			case c == '\\':
				// a meta-command: to the end of the line
				e := strings.IndexByte(src[i:], '\n')
				end := len(src)
				if e >= 0 {
					end = i + e
				}
				ensure()
				blank(b[i:end])
				if strings.TrimSpace(src[lineStart:i]) != "" && sendsQuery(src[i+1:end]) {
					b[i] = ';'
					stmtStart = i + 1
				}
				n++
				i = end - 1
			}
		}
	}
	if b == nil {
		return src, 0
	}
	return string(b), n
}

// dollarTag returns the $tag$ that opens a dollar-quoted string at the
// start of s, "" if none.
func dollarTag(s string) string {
	for j := 1; j < len(s); j++ {
		switch c := s[j]; {
		case c == '$':
			return s[:j+1]
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 || j > 1 && c >= '0' && c <= '9':
		default:
			return ""
		}
	}
	return ""
}

// sendsQuery reports whether a psql meta-command sends the query buffer.
func sendsQuery(cmd string) bool {
	name, _, _ := strings.Cut(cmd, " ")
	switch strings.TrimSpace(name) {
	case "g", "gx", "gexec", "gset", "gdesc", "crosstabview", "watch", ";":
		return true
	}
	return false
}

func blank(b []byte) {
	for i := range b {
		if b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
}

var (
	flywayPH = check.LazyRegexp(`\$\{[A-Za-z0-9_.:-]{1,100}\}`)
)

// placeholders rewrites ${name} (Flyway, Liquibase and others) as an
// identifier of the same length, so the statement around it parses and
// positions hold.
func placeholders(src string) (string, int) {
	n := 0
	if strings.Contains(src, "${") {
		src = flywayPH().ReplaceAllStringFunc(src, func(m string) string {
			n++
			return "_" + strings.Repeat("x", len(m)-1)
		})
	}
	return src, n
}

// wrappingTool names the migration tool that runs this file inside a
// transaction by default, as its markers say; "" if none does.
func wrappingTool(src string) string {
	lower := strings.ToLower(src)
	switch {
	case strings.Contains(lower, "-- +goose up"):
		if !strings.Contains(lower, "-- +goose no transaction") {
			return "goose"
		}
	case strings.Contains(lower, "-- migrate:up"):
		line, _, _ := strings.Cut(lower[strings.Index(lower, "-- migrate:up"):], "\n")
		if !strings.Contains(line, "transaction:false") {
			return "dbmate"
		}
	case strings.Contains(lower, "-- +migrate up"):
		line, _, _ := strings.Cut(lower[strings.Index(lower, "-- +migrate up"):], "\n")
		if !strings.Contains(line, "notransaction") {
			return "sql-migrate"
		}
	}
	return ""
}

// pgRules applies the pattern rules to the parsed statements, in order.
func pgRules(f *file, stmts []pgStmt) {
	tool := ""
	if f.migration {
		tool = wrappingTool(f.src)
	}
	inTx := false
	for _, s := range stmts {
		start := firstToken(f.src, s.off, s.end)
		kind, n := unwrap(s.tree)
		switch kind {
		case "TransactionStmt":
			switch str(n["kind"]) {
			case "TRANS_STMT_BEGIN", "TRANS_STMT_START":
				inTx = true
			case "TRANS_STMT_COMMIT", "TRANS_STMT_ROLLBACK":
				inTx = false
			}
		case "IndexStmt", "DropStmt":
			if bval(n["concurrent"]) && (inTx || tool != "") {
				why := "between BEGIN and COMMIT"
				if !inTx {
					why = "in a " + tool + " migration, which " + tool + " runs in a transaction"
				}
				verb := "CREATE INDEX"
				if kind == "DropStmt" {
					verb = "DROP INDEX"
				}
				f.add(ruleConcurrentlyInTx, start, 0, fmt.Sprintf("%s CONCURRENTLY %s: PostgreSQL refuses it inside a transaction block", verb, why),
					"Move it to a migration of its own that runs outside a transaction.")
			}
		}
		switch kind {
		case "CreateStmt":
			pgCreateTable(f, n, start)
			f.markCreated(rangeVarName(obj(n["relation"])))
		case "CreateTableAsStmt":
			if into := obj(n["into"]); into != nil {
				f.markCreated(rangeVarName(obj(into["rel"])))
			}
		case "SelectStmt":
			if !f.migration && !f.sqlc {
				pgSelectStar(f, n, s.base, start)
			}
		case "InsertStmt":
			if !f.migration && !f.sqlc {
				if _, sel := unwrap(n["selectStmt"]); sel != nil {
					pgSelectStar(f, sel, s.base, start)
				}
			}
		}
		if kind == "AlterTableStmt" {
			rel := rangeVarName(obj(n["relation"]))
			for _, c := range arr(n["cmds"]) {
				_, cmd := unwrap(c)
				if _, cn := unwrap(cmd["def"]); str(cmd["subtype"]) == "AT_AddConstraint" && str(cn["contype"]) == "CONSTR_PRIMARY" {
					f.addedPK(rel)
				}
			}
		}
		pgWhere(f, s.tree, s.base, start, 0)
		if f.migration {
			pgMigration(f, kind, n, start)
		}
	}
}

// pgWhere finds UPDATE and DELETE without WHERE anywhere in the tree (a
// data-modifying WITH included).
func pgWhere(f *file, v any, base, start, depth int) {
	if depth > 200 {
		return
	}
	switch x := v.(type) {
	case jmap:
		for k, c := range x {
			switch k {
			case "UpdateStmt", "DeleteStmt":
				n := obj(c)
				if n != nil && n["whereClause"] == nil {
					rel := rangeVarName(obj(n["relation"]))
					at := start
					if depth > 1 {
						at = locationOr(obj(n["relation"]), base, start)
					}
					if k == "UpdateStmt" {
						f.add(ruleUpdateNoWhere, at, 0, fmt.Sprintf("UPDATE %s has no WHERE clause: it changes every row", quoteName(rel)),
							"Add a WHERE clause, or suppress with the reason every row must change.")
					} else {
						f.add(ruleDeleteNoWhere, at, 0, fmt.Sprintf("DELETE FROM %s has no WHERE clause: it removes every row", quoteName(rel)),
							"Add a WHERE clause, or suppress with the reason the table must be emptied.")
					}
				}
			}
			pgWhere(f, c, base, start, depth+1)
		}
	case []any:
		for _, c := range x {
			pgWhere(f, c, base, start, depth+1)
		}
	}
}

// pgSelectStar flags * in the outermost select list (each arm of a UNION).
func pgSelectStar(f *file, sel jmap, base, start int) {
	if sel == nil {
		return
	}
	if op, _ := sel["op"].(string); op != "" && op != "SETOP_NONE" {
		_, l := unwrap(sel["larg"])
		_, r := unwrap(sel["rarg"])
		if l == nil {
			l = obj(sel["larg"])
		}
		if r == nil {
			r = obj(sel["rarg"])
		}
		pgSelectStar(f, l, base, start)
		pgSelectStar(f, r, base, start)
		return
	}
	for _, t := range arr(sel["targetList"]) {
		_, rt := unwrap(t)
		_, cr := unwrap(rt["val"])
		fields := arr(cr["fields"])
		if len(fields) == 0 {
			continue
		}
		if k, _ := unwrap(fields[len(fields)-1]); k == "A_Star" {
			at := locationOr(rt, base, start)
			f.add(ruleSelectStar, at, at+1, "SELECT * returns whatever columns the table has today; the code reading it changes meaning when they change",
				"List the columns the code reads.")
		}
	}
}

// pgCreateTable flags a table without a primary key.
func pgCreateTable(f *file, n jmap, start int) {
	rel := obj(n["relation"])
	if rp, _ := rel["relpersistence"].(string); rp == "t" {
		return
	}
	if n["partbound"] != nil || n["inhRelations"] != nil || n["ofTypename"] != nil {
		return
	}
	for _, e := range arr(n["tableElts"]) {
		k, el := unwrap(e)
		switch k {
		case "Constraint":
			if str(el["contype"]) == "CONSTR_PRIMARY" {
				return
			}
		case "ColumnDef":
			for _, c := range arr(el["constraints"]) {
				if _, cn := unwrap(c); str(cn["contype"]) == "CONSTR_PRIMARY" {
					return
				}
			}
		case "TableLikeClause":
			return // LIKE … INCLUDING may bring one
		}
	}
	f.noPK = append(f.noPK, pendingPK{rangeVarName(rel), start})
}

// volatileFuncs are built-in functions PostgreSQL marks VOLATILE that a
// column default commonly calls.
var volatileFuncs = map[string]bool{
	"random": true, "gen_random_uuid": true, "uuid_generate_v1": true, "uuid_generate_v1mc": true, "uuid_generate_v4": true,
	"uuidv4": true, "uuidv7": true, "clock_timestamp": true, "timeofday": true, "nextval": true, "random_normal": true,
}

var serialTypes = map[string]bool{"serial": true, "bigserial": true, "smallserial": true, "serial2": true, "serial4": true, "serial8": true}

func pgMigration(f *file, kind string, n jmap, start int) {
	down := f.inDown(start)
	switch kind {
	case "IndexStmt":
		rel := rangeVarName(obj(n["relation"]))
		if !bval(n["concurrent"]) && !f.isCreated(rel) && !down {
			f.add(ruleIndexConcurrently, start, 0, fmt.Sprintf("CREATE INDEX %s on %s without CONCURRENTLY blocks writes to %s while it builds", quoteName(str(n["idxname"])), rel, rel),
				"Use CREATE INDEX CONCURRENTLY (outside a transaction).")
		}
	case "DropStmt":
		objType := str(n["removeType"])
		what := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(objType, "OBJECT_"), "_", " "))
		names := dropNames(n)
		if !bval(n["missing_ok"]) {
			f.add(ruleDropIfExists, start, 0, fmt.Sprintf("DROP %s %s without IF EXISTS fails if it is already gone", strings.ToUpper(what), names),
				"Write DROP "+strings.ToUpper(what)+" IF EXISTS.")
		}
		if objType == "OBJECT_TABLE" && !down {
			f.add(ruleDropTable, start, 0, fmt.Sprintf("DROP TABLE %s destroys the table and its data", names),
				"Make sure nothing reads it and its data is not needed, then suppress with the reason.")
		}
		if objType == "OBJECT_INDEX" && !bval(n["concurrent"]) && !down {
			f.add(ruleDropIndexConc, start, 0, fmt.Sprintf("DROP INDEX %s without CONCURRENTLY locks its table against reads and writes", names),
				"Use DROP INDEX CONCURRENTLY (outside a transaction).")
		}
	case "TruncateStmt":
		var names []string
		for _, r := range arr(n["relations"]) {
			_, rv := unwrap(r)
			names = append(names, rangeVarName(rv))
		}
		if !down {
			f.add(ruleTruncate, start, 0, fmt.Sprintf("TRUNCATE %s removes every row", strings.Join(names, ", ")),
				"Delete only the rows meant, or suppress with the reason.")
		}
	case "RenameStmt":
		rel := rangeVarName(obj(n["relation"]))
		switch str(n["renameType"]) {
		case "OBJECT_COLUMN":
			if !down && !f.isCreated(rel) {
				f.add(ruleRename, start, 0, fmt.Sprintf("renaming column %s.%s to %s breaks the code still using the old name", rel, str(n["subname"]), str(n["newname"])),
					"Add the new column, keep both in sync while the code moves, then drop the old one.")
			}
		case "OBJECT_TABLE":
			if !down && !f.isCreated(rel) {
				f.add(ruleRename, start, 0, fmt.Sprintf("renaming table %s to %s breaks the code still using the old name", rel, str(n["newname"])),
					"Create the new table (or a view under the old name) and move the code over first.")
			}
		}
	case "AlterTableStmt":
		if str(n["objtype"]) != "OBJECT_TABLE" {
			return
		}
		rel := rangeVarName(obj(n["relation"]))
		fresh := f.isCreated(rel)
		for _, c := range arr(n["cmds"]) {
			_, cmd := unwrap(c)
			pgAlterCmd(f, rel, fresh, down, cmd, start)
		}
	}
}

func pgAlterCmd(f *file, rel string, fresh, down bool, cmd jmap, start int) {
	switch str(cmd["subtype"]) {
	case "AT_AddColumn":
		_, def := unwrap(cmd["def"])
		col := str(def["colname"])
		typ := typeName(obj(def["typeName"]))
		var notNull, hasDefault, fills bool
		var volatile string
		for _, c := range arr(def["constraints"]) {
			_, cn := unwrap(c)
			switch str(cn["contype"]) {
			case "CONSTR_NOTNULL", "CONSTR_PRIMARY":
				notNull = true
			case "CONSTR_DEFAULT":
				hasDefault = true
				volatile = volatileCall(cn["raw_expr"], 0)
			case "CONSTR_IDENTITY", "CONSTR_GENERATED":
				fills = true
			}
		}
		if serialTypes[typ] {
			fills, volatile = true, typ
		}
		if fresh || down {
			return
		}
		if notNull && !hasDefault && !fills {
			f.add(ruleNotNullNoDefault, start, 0, fmt.Sprintf("column %s.%s is added NOT NULL without a default: this fails on a table that has rows", rel, col),
				"Give it a DEFAULT, or add it nullable, backfill, then SET NOT NULL.")
		}
		if volatile != "" {
			f.add(ruleVolatileDefault, start, 0, fmt.Sprintf("column %s.%s is added with the volatile default %s: PostgreSQL rewrites %s under an exclusive lock", rel, col, volatile, rel),
				"Add it without the default, set the default afterwards, and backfill in batches.")
		}
	case "AT_AlterColumnType":
		if !fresh && !down {
			_, def := unwrap(cmd["def"])
			f.add(ruleColumnType, start, 0, fmt.Sprintf("changing the type of %s.%s to %s rewrites the table under an exclusive lock", rel, str(cmd["name"]), typeName(obj(def["typeName"]))),
				"Add a column of the new type, backfill, switch the code, then drop the old one.")
		}
	case "AT_AddConstraint":
		_, cn := unwrap(cmd["def"])
		ct := str(cn["contype"])
		if (ct == "CONSTR_UNIQUE" || ct == "CONSTR_PRIMARY") && str(cn["indexname"]) == "" && !fresh && !down {
			what := "UNIQUE"
			if ct == "CONSTR_PRIMARY" {
				what = "PRIMARY KEY"
			}
			f.add(ruleUniqueConstraint, start, 0, fmt.Sprintf("adding %s to %s builds its index under a lock that blocks reads and writes", constraintName(what, cn), rel),
				"Create the unique index CONCURRENTLY, then add the constraint USING INDEX.")
		}
		if (ct == "CONSTR_FOREIGN" || ct == "CONSTR_CHECK") && !bval(cn["skip_validation"]) && !fresh && !down {
			what := "CHECK"
			if ct == "CONSTR_FOREIGN" {
				what = "FOREIGN KEY"
			}
			f.add(ruleNotValid, start, 0, fmt.Sprintf("adding %s to %s validates every row while blocking writes", constraintName(what, cn), rel),
				"Add it NOT VALID, then VALIDATE CONSTRAINT in a later migration.")
		}
	case "AT_SetNotNull":
		if !fresh && !down {
			f.add(ruleSetNotNull, start, 0, fmt.Sprintf("SET NOT NULL on %s.%s scans the whole table under an exclusive lock", rel, str(cmd["name"])),
				"Add and validate a CHECK (… IS NOT NULL) NOT VALID constraint first (PostgreSQL 12+ then skips the scan).")
		}
	case "AT_DropColumn":
		if !down {
			f.add(ruleDropColumn, start, 0, fmt.Sprintf("dropping column %s.%s destroys its data and breaks code still reading it", rel, str(cmd["name"])),
				"Stop using the column in a release first, then drop it and suppress with the reason.")
		}
	}
}

// constraintName is "the UNIQUE constraint users_email_key", or "a UNIQUE
// constraint" when it has no name.
func constraintName(what string, cn jmap) string {
	if name := str(cn["conname"]); name != "" {
		return what + " constraint " + name
	}
	return "a " + what + " constraint"
}

// volatileCall returns the name of a volatile function a default calls,
// "" if none.
func volatileCall(v any, depth int) string {
	if depth > 50 {
		return ""
	}
	switch x := v.(type) {
	case jmap:
		if fc := obj(x["FuncCall"]); fc != nil {
			names := arr(fc["funcname"])
			if len(names) > 0 {
				_, s := unwrap(names[len(names)-1])
				if name := strings.ToLower(str(s["sval"])); volatileFuncs[name] {
					return name + "()"
				}
			}
		}
		for _, c := range x {
			if s := volatileCall(c, depth+1); s != "" {
				return s
			}
		}
	case []any:
		for _, c := range x {
			if s := volatileCall(c, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

func dropNames(n jmap) string {
	var names []string
	for _, o := range arr(n["objects"]) {
		k, l := unwrap(o)
		if k != "List" {
			continue
		}
		var parts []string
		for _, it := range arr(l["items"]) {
			_, s := unwrap(it)
			parts = append(parts, str(s["sval"]))
		}
		names = append(names, strings.Join(parts, "."))
	}
	return quoteName(strings.Join(names, ", "))
}

func typeName(t jmap) string {
	names := arr(t["names"])
	if len(names) == 0 {
		return "?"
	}
	_, s := unwrap(names[len(names)-1])
	return strings.ToLower(str(s["sval"]))
}

func rangeVarName(rv jmap) string {
	if rv == nil {
		return ""
	}
	name := str(rv["relname"])
	if s := str(rv["schemaname"]); s != "" {
		name = s + "." + name
	}
	return name
}

// locationOr is the offset in the file of node n's location, def if it
// has none.
func locationOr(n jmap, base, def int) int {
	if n == nil {
		return def
	}
	if l, ok := n["location"].(float64); ok && l >= 0 {
		return base + int(l)
	}
	return def
}

// unwrap reads a node {"Kind": {...}}.
func unwrap(v any) (string, jmap) {
	m, _ := v.(jmap)
	if len(m) != 1 {
		return "", nil
	}
	for k, x := range m {
		inner, _ := x.(jmap)
		return k, inner
	}
	return "", nil
}

func obj(v any) jmap   { m, _ := v.(jmap); return m }
func arr(v any) []any  { a, _ := v.([]any); return a }
func str(v any) string { s, _ := v.(string); return s }
func bval(v any) bool  { b, _ := v.(bool); return b }
