package memory

import (
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/lazyre"
)

// ErrorText is an error as an agent pastes it (a message, a stack trace,
// a failed command's output) or as a past entry records it, read into the
// parts that tell one failure from another: what kind of error it is, what
// it names, and its other words. What every failure says (exit statuses,
// "Traceback (most recent call last)", library stack frames, line numbers,
// addresses, times, temporary paths) is left out.
type ErrorText struct {
	// Types are the kinds of error it states, canonical: exception and
	// error classes ("FileNotFoundError", "NullPointerException"), codes
	// ("E0308" of Rust, "TS2345", "ERR_MODULE_NOT_FOUND", errno names such
	// as "ENOENT", "SQLSTATE 23505", "SIGSEGV") and well-known messages
	// ("index out of range", "command not found"), which also stand for
	// their errno ("No such file or directory" is ENOENT).
	Types []string
	// Names are what it names, lower case: file base names ("sample2.csv"),
	// identifiers (snake_case, camelCase, dotted and :: paths) and short
	// quoted values.
	Names []string
	// Words are the terms (as Tokens makes them) of the rest, without the
	// words every error says ("error", "failed", "line", "file", "test",
	// message templates such as "cannot read properties of").
	Words []string
	// Keys are its key lines (the first, and the one stating its type) as
	// keyLine normalizes them: the same key line is the same failure.
	Keys []string
	// Prints are the Fingerprints of its key lines, or of an entry's
	// title (EntryError): memory counts a mistake whose title has the same
	// fingerprint as another occurrence of it.
	Prints []string
	// shown is a term's or name's spelling as written, for saying why two
	// errors match.
	shown map[string]string
}

// Shown returns how the error wrote a name or a term of Words.
func (e ErrorText) Shown(term string) string {
	if s, ok := e.shown[term]; ok {
		return s
	}
	return term
}

// Typed reports whether a kind of error was recognized.
func (e ErrorText) Typed() bool { return len(e.Types) > 0 }

// Query is the error as a full-text search for entries like it: its types,
// names and words, at most MaxTerms terms.
func (e ErrorText) Query() string {
	parts := append(append([]string(nil), e.Types...), e.Names...)
	for _, w := range e.Words {
		parts = append(parts, e.Shown(w))
	}
	return strings.Join(parts, " ")
}

// MaxErrorParse bounds the bytes of an error ParseError reads: the key
// lines of a trace are within it, and the rest is more frames.
const MaxErrorParse = 16 << 10

// maxNames bounds an error's names, and maxWords its words.
const (
	maxNames = 24
	maxWords = 40
)

var (
	// An exception or error class, the last part of a dotted name:
	// java.io.FileNotFoundException, requests.exceptions.ConnectionError.
	errClass = lazyre.New(`\b(?:[A-Za-z_][\w$]*\.)*([A-Z][A-Za-z0-9]*?(?:Error|Exception|Exit|Interrupt|Warning|Fault|Failure))\b`)
	// Codes: Rust's error[E0308], TypeScript's TS2345, C#'s CS0103, Node's
	// ERR_*, errno names, SQLSTATE, Python's [Errno 2], signals.
	errCode = lazyre.New(`\berror\[(E\d{4})\]|\b(TS\d{4,5})\b|\b(CS\d{4})\b|\b(ERR_[A-Z0-9_]{3,})\b|` +
		`\b(E(?:NOENT|ACCES|PERM|ADDRINUSE|ADDRNOTAVAIL|CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|EXIST|NOTDIR|ISDIR|MFILE|NFILE|NOSPC|PIPE|` +
		`NOTEMPTY|AI_AGAIN|NOTFOUND|HOSTUNREACH|NETUNREACH|BUSY|INVAL|ROFS|NOMEM|XDEV|LOOP|NAMETOOLONG|BADF|DQUOT))\b|` +
		`SQLSTATE[\s:=\[(]*([0-9A-Z]{5})\b|\[Errno (\d+)\]|\b(SIG(?:SEGV|BUS|ABRT|ILL|FPE|KILL|PIPE))\b|\b(SQLITE_[A-Z]+)\b`)
)

// errnoNames are the errno numbers Python prints ("[Errno 2]") on Linux.
var errnoNames = map[string]string{
	"1": "EPERM", "2": "ENOENT", "9": "EBADF", "11": "EAGAIN", "12": "ENOMEM", "13": "EACCES", "16": "EBUSY", "17": "EEXIST",
	"18": "EXDEV", "20": "ENOTDIR", "21": "EISDIR", "22": "EINVAL", "24": "EMFILE", "28": "ENOSPC", "30": "EROFS", "32": "EPIPE",
	"36": "ENAMETOOLONG", "39": "ENOTEMPTY", "98": "EADDRINUSE", "99": "EADDRNOTAVAIL", "104": "ECONNRESET", "110": "ETIMEDOUT",
	"111": "ECONNREFUSED", "113": "EHOSTUNREACH",
}

// errPhrase is a well-known message and the type it states.
type errPhrase struct {
	src  string
	kind string
}

// errPhrases are messages that say what kind of error it is whatever the
// language: the errno texts of the C library, Go's runtime and compiler,
// Rust's panics, shells, databases. Matched on the lower-cased text; their
// words are the type's, not the error's own.
var errPhrases = []errPhrase{
	{`no such file or directory|cannot find the (?:file|path) specified|enoent`, "ENOENT"},
	{`permission denied|operation not permitted|eacces`, "EACCES"},
	{`connection refused|econnrefused`, "ECONNREFUSED"},
	{`address already in use|eaddrinuse`, "EADDRINUSE"},
	{`too many open files|emfile`, "EMFILE"},
	{`no space left on device|enospc`, "ENOSPC"},
	{`broken pipe|epipe`, "EPIPE"},
	{`connection reset by peer|econnreset`, "ECONNRESET"},
	{`not a directory`, "ENOTDIR"},
	{`is a directory`, "EISDIR"},
	{`read-only file system`, "EROFS"},
	{`command not found|is not recognized as an internal or external command`, "command not found"},
	{`(?:list |slice |string |tuple |array )?index out of (?:range|bounds)(?: \[-?\d+\] with length \d+)?|indexoutofbounds`, "index out of range"},
	{`slice bounds out of range(?: \[[:\d]+\] with (?:length|capacity) \d+)?`, "slice bounds out of range"},
	{`mismatched types`, "mismatched types"},
	{`nil pointer dereference|invalid memory address`, "nil pointer dereference"},
	{`assignment to entry in nil map`, "nil map write"},
	{`concurrent map (?:writes|read and map write|iteration and map write)`, "concurrent map access"},
	{`all goroutines are asleep`, "deadlock"},
	{`deadlock detected`, "deadlock"},
	{`data race`, "data race"},
	{`context deadline exceeded`, "deadline exceeded"},
	{`i/o timeout`, "i/o timeout"},
	{`declared and not used|imported and not used`, "unused"},
	{`(?:^|\n|: )undefined: `, "undefined"},
	{`cannot find (?:module|package)|module not found|no module named|(?:could not|failed to) resolve (?:import|module)|unresolved import`, "module not found"},
	{`out of memory|heap out of memory|oomkilled|memoryerror|reached heap limit(?: allocation failed)?`, "out of memory"},
	{`stack overflow|maximum call stack size exceeded|maximum recursion depth exceeded`, "stack overflow"},
	{`segmentation fault|sigsegv`, "SIGSEGV"},
	{"called `option::unwrap\\(\\)` on a `none` value", "unwrap on None"},
	{"called `result::unwrap\\(\\)` on an `err` value", "unwrap on Err"},
	{`duplicate key value violates unique constraint|unique constraint failed`, "unique violation"},
	{`violates foreign key constraint|foreign key constraint failed`, "foreign key violation"},
	{`violates not-null constraint|not null constraint failed`, "not-null violation"},
	{`relation "[^"]*" does not exist|no such table`, "undefined table"},
	{`column "[^"]*" (?:of relation "[^"]*" )?does not exist|no such column`, "undefined column"},
	{`database is locked|sqlite_busy`, "database locked"},
	{`test timed out after|exceeded timeout of|timeout of \d+ms exceeded`, "test timeout"},
	{`certificate (?:verify failed|signed by unknown authority|has expired)|x509: `, "TLS certificate"},
	{`merge conflict|conflict \(content\)`, "merge conflict"},
	{`not a git repository`, "not a git repository"},
	{`non-fast-forward|failed to push some refs`, "push rejected"},
	{`missing script:`, "missing script"},
	{`maximum update depth exceeded\.?(?: this can happen when a component (?:repeatedly )?calls setstate inside \w+(?: or \w+)?)?`, "maximum update depth exceeded"},
	{`superfluous response\.writeheader call`, "superfluous WriteHeader"},
	{`hydration failed because the initial ui does not match what was rendered on the server`, "hydration mismatch"},
	{`too many redirects|too_many_redirects|redirected you too many times`, "too many redirects"},
	{`syntax error near unexpected token|unexpected end of file`, "shell syntax error"},
}

// Noise the parts are read without.
var (
	// Whole lines: trace headers, library frames, exit statuses and the
	// wrappers of tools that ran the failing command.
	errNoiseLine = lazyre.New(`(?i)^\s*(?:traceback \(most recent call last\):?|goroutine \d+ \[[^\]]*\]:?|stack backtrace:|during handling of the above exception.*|` +
		`the above exception was the direct cause.*|\.\.\. \d+ more|note: run with .rust_backtrace.*|created by .*|exit status \d+|` +
		`process finished with exit code.*|##\[error\]process completed with exit code.*|make(?:\[\d+\])?: \*\*\* .*|` +
		`npm err! (?:code|errno|a complete log|this is probably|failed at|lifecycle|\S*/_logs/).*|npm err!\s*|error: command failed with exit code.*|` +
		`(?:fail|ok)\s+\S+\s+[\d.]+s|fail|-+)\s*$`)
	// A stack frame's line, any language's.
	errFrame = lazyre.New(`^\s*(?:File "|at |#\d+ |\d+: |[\w./-]+\.go:\d+)|^[\w./*()-]+\(.*\)$`)
	// A stack frame of a library, the runtime or the standard library: it
	// says where the error passed, not what it is.
	errLibFrame = lazyre.New(`site-packages|dist-packages|node_modules|<frozen |node:internal|\(internal/|/usr/lib/|/usr/local/lib/|/lib/python\d|` +
		`/rustc/|\.cargo/registry|\.rustup/|/go/pkg/mod/|/usr/local/go/src/|/libexec/src/|\bruntime/\w+\.go|^\s*runtime\.|testing/testing\.go|` +
		`^\s*at (?:java|javax|jdk|sun|kotlin|scala|org\.junit|org\.springframework|org\.apache|org\.gradle|worker\.org\.gradle)\.|` +
		`^\s*at (?:node:|new Promise|async Promise|Promise\.)`)
	// Exit statuses and codes said inline ("Exit code 1", "exit status 2").
	errExit = lazyre.New(`(?i)\b(?:exit(?:ed)?(?: with)?(?: status| code)|exit status|return(?:ed)? code|status code|error code|errno)[\s:=]*-?\d+\b\.?`)
	// Times, UUIDs, addresses, long hex ids: what differs between runs.
	errVaries = lazyre.New(`(?i)\d{4}-\d\d-\d\d(?:[t ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:z|[+-]\d\d:?\d\d)?)?|\b\d\d?:\d\d:\d\d(?:\.\d+)?\b|` +
		`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b0x[0-9a-f]+\b|\+0x[0-9a-f]+`)
	// A path: its directories go, its base name stays.
	errPath = lazyre.New(`(?:[a-zA-Z][\w+.-]*://[^/\s]*/)?(?:[A-Za-z]:)?(?:[\w.@~+-]*[/\\])+([\w@+-][\w.@+-]*)`)
	// A port a server listens on or a client dials: "127.0.0.1:5432",
	// ":::3000", "localhost:8080", "port 5432".
	errPort = lazyre.New(`(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[?::1?\]?|:)(?::|\]:)(\d{2,5})\b|\bport (\d{2,5})\b`)
	// A file name with an extension that names source, data or config.
	errFile = lazyre.New(`(?i)\b[\w@+-]+(?:\.[\w@+-]+)*\.(?:py|pyi|ipynb|go|mod|js|mjs|cjs|jsx|ts|tsx|mts|vue|svelte|rs|java|kt|kts|scala|groovy|gradle|rb|php|cs|fs|c|h|cc|cpp|hpp|m|swift|` +
		`sh|bash|zsh|ps1|sql|csv|tsv|json|jsonl|ndjson|yaml|yml|toml|xml|html|htm|css|scss|md|txt|db|sqlite|sqlite3|parquet|xlsx|lock|env|ini|cfg|conf|log|proto|tf|dockerfile|pem|key|crt|so|dll|dylib|wasm|jar|whl|zip|gz|tar)\b`)
	// A short quoted value, one token.
	errQuoted = lazyre.New("'([^'\\s]{1,80})'|\"([^\"\\s]{1,80})\"|`([^`\\s]{1,80})`|‘([^’\\s]{1,80})’|“([^”\\s]{1,80})”")
	// Identifiers that are code rather than words: dotted or :: paths,
	// snake_case, camelCase and PascalCase with an inner capital.
	errIdent = lazyre.New(`\b[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)+\b|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9]\b|` +
		`\b_[A-Za-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b`)
)

// genericErrorWords are words any error or test failure says: they tell
// no failure from another. Message-template words ("cannot read
// properties of", "object has no attribute") are among them.
var genericErrorWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`error errors err exception exceptions traceback recent call calls last most line lines file files
		fail fails failed failing failure failures fatal panic panics panicked raise raised raising throw thrown threw caught uncaught
		unhandled warning warnings warn info debug trace stack backtrace exit code status process command returned return run runs
		running ran caused cause main thread goroutine frame frames note help see information detail details log logs npm yarn pnpm
		elifecycle errno test tests testing build value values type types expected found got want wanted actual received
		instance object objects attribute attributes property properties read reading defined function callable subscriptable
		operand unsupported positional argument arguments given required literal base implemented scope symbol resolve resolved
		assignable parameter token unexpected end input method named none nonetype null nil undefined cannot could unable
		occurred happened exited terminated killed abort aborted anonymous module modules package packages import imports
		stderr stdout output tool bash sh shell cmd exe python python3 node go cargo rustc java javac mvn gradle pytest jest
		vitest assert assertion assertionerror check checks true false self this new string str int integer bool boolean
		line col column offset pos position src lib bin usr home tmp var file_name filename path dir directory
		runtime because invoke invoked com org let const def func fn pub mut use impl async await class struct
		try consider using conversion listen connect getaddrinfo spawn bind open port
		key already exists exist after before during git docker kubectl make curl wget ssh`) {
		m[w] = true
		if t := Term(w); t != "" {
			m[t] = true
		}
	}
	return m
})

// IsGenericErrorWord reports whether a term (as Tokens makes it) is one
// every error says.
func IsGenericErrorWord(term string) bool { return genericErrorWords()[term] }

// ParseError reads an error text into its parts (see ErrorText); it reads
// at most MaxErrorParse bytes.
func ParseError(text string) ErrorText {
	if len(text) > MaxErrorParse {
		text = text[:MaxErrorParse]
	}
	var e ErrorText
	e.shown = map[string]string{}
	// Lines: noise and library frames left out, and the source line Python
	// prints under a library frame.
	var kept []string
	skipSource := false
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(l)
		if skipSource && t != "" && l != t && !errFrame.MatchString(l) {
			skipSource = false
			continue
		}
		skipSource = false
		if t == "" || errNoiseLine.MatchString(t) {
			continue
		}
		if errLibFrame.MatchString(l) {
			skipSource = true
			continue
		}
		kept = append(kept, t)
	}
	body := errExit.ReplaceAllString(strings.Join(kept, "\n"), " ")
	var first int
	e.Types, first = errTypes(body)
	// The key line: the one stating the first type, else the first that is
	// not a stack frame.
	at := 0
	for _, l := range strings.Split(body, "\n") {
		key := len(e.Types) > 0 && first >= at && first <= at+len(l) || len(e.Types) == 0 && !errFrame.MatchString(l)
		at += len(l) + 1
		if !key {
			continue
		}
		if k := keyLine(l); k != "" {
			e.Keys = append(e.Keys, k)
			e.Prints = append(e.Prints, Fingerprint(l))
		}
		break
	}
	// Ports, before paths take their hosts.
	for _, m := range errPort.Compile().FindAllStringSubmatch(body, -1) {
		if p := m[1] + m[2]; p != "" && !slices.Contains(e.Names, "port "+p) {
			e.Names = append(e.Names, "port "+p)
			e.shown["port "+p] = "port " + p
		}
	}
	// The rest, without times, addresses, the directories of paths, the
	// type names and the well-known messages (their words are the type's).
	rest := errVaries.ReplaceAllString(body, " ")
	rest = errPath.ReplaceAllString(rest, "$1")
	rest = blank(rest, errClass.Compile().FindAllStringIndex(rest, -1))
	rest = blank(rest, phraseRE().FindAllStringIndex(asciiLower(rest), -1))
	typeNames := map[string]bool{}
	for _, t := range e.Types {
		typeNames[strings.ToLower(t)] = true
	}
	addName := func(n string) {
		n = strings.TrimSuffix(strings.Trim(strings.TrimSpace(n), ".,:;[]"), "()")
		low := strings.ToLower(n)
		if len(low) < 2 || typeNames[low] || slices.Contains(e.Names, low) || len(e.Names) >= maxNames {
			return
		}
		// A name of generic words alone ("self.name", "__init__") tells
		// nothing.
		if ts := Terms(low); len(ts) == 0 || allGeneric(ts) {
			return
		}
		e.Names = append(e.Names, low)
		e.shown[low] = n
		for _, w := range words(n) {
			if t := Term(w); t != "" && e.shown[t] == "" {
				e.shown[t] = w
			}
		}
	}
	for _, f := range errFile.Compile().FindAllString(rest, -1) {
		addName(f)
	}
	for _, m := range errQuoted.Compile().FindAllStringSubmatch(rest, -1) {
		for _, g := range m[1:] {
			if g != "" {
				addName(path.Base(strings.ReplaceAll(g, `\`, "/")))
			}
		}
	}
	for _, id := range errIdent.Compile().FindAllString(rest, -1) {
		if !isTypeName(id, typeNames) {
			addName(id)
		}
	}
	// Words: the rest without file names (their names say them).
	typeTerms := map[string]bool{}
	for _, t := range Tokens(strings.Join(e.Types, " ")) {
		typeTerms[t] = true
	}
	for _, w := range words(errFile.ReplaceAllString(rest, " ")) {
		t := Term(w)
		if t == "" || len(t) < 2 || typeTerms[t] || IsGenericErrorWord(t) || IsGenericErrorWord(w) || numeric(w) || hexID(w) ||
			slices.Contains(e.Words, t) {
			continue
		}
		if len(e.Words) >= maxWords {
			break
		}
		e.Words = append(e.Words, t)
		if e.shown[t] == "" {
			e.shown[t] = w
		}
	}
	e.Keys, e.Prints = ownKeys(e, e.Keys), ownKeys(e, e.Prints)
	return e
}

// EntryError reads what a past entry says of its error: its title, content
// and every other text field, as ParseError reads a pasted error. Its
// Prints are its title's Fingerprint alone: what memory counts a mistake
// by (a pasted key line with that fingerprint is a mistake memory would
// count as another occurrence).
func EntryError(e Entry) ErrorText {
	x := ParseError(e.Title + "\n" + e.SearchText())
	x.Prints = nil
	if fp := Fingerprint(e.Title); fp != "" {
		x.Prints = []string{fp}
	}
	return x
}

// Terms returns the terms of its names and words that are not generic to
// errors, once each, names' first.
func (e ErrorText) Terms() []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] && !IsGenericErrorWord(t) {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, n := range e.Names {
		for _, t := range Terms(n) {
			add(t)
		}
	}
	for _, t := range e.Words {
		add(t)
	}
	return out
}

// genericFileStems are the base names of files every project has many of:
// "main.py" or "index.js" tells no failure from another.
var genericFileStems = map[string]bool{"main": true, "index": true, "app": true, "__init__": true, "init": true, "conftest": true,
	"setup": true, "mod": true, "lib": true, "utils": true, "util": true, "helpers": true, "common": true, "test": true, "tests": true,
	"spec": true}

// distinctiveName reports whether a name can tell failures apart: not a
// file every project has many of, and holding a word that is not generic.
func distinctiveName(n string) bool {
	if ext := path.Ext(n); ext != "" && !strings.ContainsAny(n, ":") && errFile.MatchString(n) {
		if genericFileStems[strings.TrimSuffix(n, ext)] {
			return false
		}
	}
	for _, t := range Terms(n) {
		if !IsGenericErrorWord(t) && !numeric(t) {
			return true
		}
	}
	return strings.HasPrefix(n, "port ")
}

// ownKeys keeps the key lines that hold one of the error's names or words:
// a key line of a type's message alone ("called `Option::unwrap()` on a
// `None` value") is the same in every error of the type.
func ownKeys(e ErrorText, keys []string) []string {
	own := map[string]bool{}
	for _, t := range e.Terms() {
		own[t] = true
	}
	var out []string
	for _, k := range keys {
		if slices.ContainsFunc(Tokens(k), func(t string) bool { return own[t] }) {
			out = append(out, k)
		}
	}
	return out
}

// blank is s with the spans replaced by spaces.
func blank(s string, spans [][]int) string {
	if len(spans) == 0 {
		return s
	}
	b := []byte(s)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// errTypes returns the types s states, in order of first mention, and
// where the first is.
func errTypes(s string) ([]string, int) {
	type at struct {
		pos  int
		kind string
	}
	var found []at
	for _, m := range errClass.FindAllStringSubmatchIndex(s, -1) {
		found = append(found, at{m[0], s[m[2]:m[3]]})
	}
	for _, m := range errCode.FindAllStringSubmatchIndex(s, -1) {
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] < 0 {
				continue
			}
			v := s[m[2*g]:m[2*g+1]]
			switch g {
			case 6: // SQLSTATE
				v = "SQLSTATE " + v
			case 7: // [Errno N]
				v = errnoNames[v]
			}
			found = append(found, at{m[0], v})
		}
	}
	for _, m := range phraseRE().FindAllStringSubmatchIndex(asciiLower(s), -1) {
		for g := 1; g < len(m)/2; g++ {
			if m[2*g] >= 0 {
				found = append(found, at{m[0], errPhrases[g-1].kind})
				break
			}
		}
	}
	slices.SortStableFunc(found, func(a, b at) int { return a.pos - b.pos })
	var out []string
	for _, f := range found {
		if f.kind != "" && !slices.Contains(out, f.kind) {
			out = append(out, f.kind)
		}
	}
	if len(found) == 0 {
		return nil, -1
	}
	return out, found[0].pos
}

// phraseRE is every well-known message in one pattern, a group each, so
// a text is scanned once for all of them.
var phraseRE = sync.OnceValue(func() *regexp.Regexp {
	parts := make([]string, len(errPhrases))
	for i, p := range errPhrases {
		parts[i] = "(" + p.src + ")"
	}
	re := regexp.MustCompile(strings.Join(parts, "|"))
	if re.NumSubexp() != len(errPhrases) {
		panic("memory: a well-known error message's pattern has a capturing group")
	}
	return re
})

// isTypeName reports whether an identifier is, or ends in, a type already
// read (java.lang.NullPointerException).
func isTypeName(id string, types map[string]bool) bool {
	low := strings.ToLower(id)
	if types[low] {
		return true
	}
	if i := strings.LastIndexAny(low, ".:"); i >= 0 && types[low[i+1:]] {
		return true
	}
	return false
}

func allGeneric(terms []string) bool {
	for _, t := range terms {
		if !IsGenericErrorWord(t) && !numeric(t) {
			return false
		}
	}
	return true
}

func numeric(w string) bool {
	_, err := strconv.ParseFloat(w, 64)
	return err == nil
}

// hexID reports a run of hex digits mixing digits and letters, seven or
// more long: a commit or object id.
func hexID(w string) bool {
	if len(w) < 7 {
		return false
	}
	digit, letter := false, false
	for _, c := range w {
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			letter = true
		default:
			return false
		}
	}
	return digit && letter
}

// keyLine is a key line as two runs of one failure both print it: lower
// case, times, temporary paths, addresses, hex ids, line and column
// numbers and durations blurred as Fingerprint blurs them, but quoted
// values kept (two TypeErrors reading different properties of undefined
// are two failures). A line of fewer than three words is no key.
func keyLine(l string) string {
	s := strings.ToLower(l)
	for _, b := range fpBlurs[2:] { // not the quoted values
		s = b.re.ReplaceAllString(s, b.with)
	}
	s = fpHexRun.ReplaceAllStringFunc(s, func(h string) string {
		if strings.ContainsAny(h, "abcdef") && strings.ContainsAny(h, "0123456789") {
			return "#"
		}
		return h
	})
	s = strings.TrimSpace(fpSpace.ReplaceAllString(s, " "))
	if strings.Count(s, " ") < 2 {
		return ""
	}
	return s
}

// Evidence is why a past entry's error is like another: what they share.
type Evidence struct {
	// SameKey: a key line is the same (see ErrorText.Keys), or has the
	// fingerprint of the entry's title: memory would count it as another
	// occurrence of that mistake.
	SameKey bool
	// Types are the types both state.
	Types []string
	// Names and Words are the distinctive names and words both hold, as
	// the error wrote them; a name's words are not listed again.
	Names, Words []string
	// Pieces is how many distinctive names and words the error holds:
	// what Names and Words are a share of.
	Pieces int
	// Score weighs it all: the same key line, a shared type, and the
	// weight (rarity) of each shared name and word.
	Score float64
}

// Shared is how many distinctive names and words both hold.
func (ev Evidence) Shared() int { return len(ev.Names) + len(ev.Words) }

// Weights say how much a shared term (as Tokens makes it) or name tells
// failures apart: zero for one too common in the project.
type Weights struct {
	Term, Name func(string) float64
}

// Compare weighs what a past entry's error shares with err.
func Compare(err, past ErrorText, w Weights) Evidence {
	var ev Evidence
	for _, k := range err.Keys {
		if slices.Contains(past.Keys, k) {
			ev.SameKey = true
		}
	}
	for _, p := range err.Prints {
		if slices.Contains(past.Prints, p) {
			ev.SameKey = true
		}
	}
	for _, t := range err.Types {
		if slices.Contains(past.Types, t) {
			ev.Types = append(ev.Types, t)
		}
	}
	covered := map[string]bool{} // words of names the error holds
	for _, n := range err.Names {
		for _, t := range Terms(n) {
			covered[t] = true
		}
		if !distinctiveName(n) {
			continue
		}
		nw := w.Name(n)
		if nw == 0 {
			continue
		}
		ev.Pieces++
		switch {
		case slices.Contains(past.Names, n):
			ev.Names = append(ev.Names, err.Shown(n))
			ev.Score += 1.5 * nw
		case past.says(n):
			// Spelled as words there (redirect_uri, "the redirect URI"):
			// as common as its words are.
			tw := 0.0
			for _, t := range Terms(n) {
				if !IsGenericErrorWord(t) {
					tw = max(tw, w.Term(t))
				}
			}
			if tw > 0 {
				ev.Words = append(ev.Words, err.Shown(n))
				ev.Score += tw
			}
		}
	}
	for _, t := range err.Words {
		if covered[t] {
			continue
		}
		tw := w.Term(t)
		if tw == 0 {
			continue
		}
		ev.Pieces++
		if slices.Contains(past.Words, t) {
			ev.Words = append(ev.Words, err.Shown(t))
			ev.Score += tw
		}
	}
	if ev.SameKey {
		ev.Score += 10
	}
	if len(ev.Types) > 0 {
		ev.Score += 3
	}
	return ev
}

// says reports whether a name that is one identifier or value (not a
// file, a dotted path or a port) is said in words in e: every word of it
// that is not generic is among e's words or the words of its names.
func (e ErrorText) says(name string) bool {
	if strings.ContainsAny(name, ".:/ ") {
		return false
	}
	n := 0
	for _, t := range Terms(name) {
		if IsGenericErrorWord(t) {
			continue
		}
		if !slices.Contains(e.Words, t) && !slices.ContainsFunc(e.Names, func(x string) bool { return slices.Contains(Terms(x), t) }) {
			return false
		}
		n++
	}
	return n > 0
}

// String says why in a few words: "same error type FileNotFoundError; both
// name sample2.csv; both say timezone, naive".
func (ev Evidence) String() string {
	var parts []string
	if ev.SameKey {
		parts = append(parts, "same error line")
	}
	if len(ev.Types) > 0 {
		parts = append(parts, "same error type "+strings.Join(ev.Types[:min(len(ev.Types), 2)], ", "))
	}
	if len(ev.Names) > 0 {
		parts = append(parts, "both name "+strings.Join(ev.Names[:min(len(ev.Names), 3)], ", "))
	}
	if len(ev.Words) > 0 {
		parts = append(parts, "both say "+strings.Join(ev.Words[:min(len(ev.Words), 4)], ", "))
	}
	return strings.Join(parts, "; ")
}

// asciiLower lowercases ASCII letters only, so byte offsets in the result are offsets
// in s (strings.ToLower can change the length of other letters).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
