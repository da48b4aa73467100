package memory

import (
	"slices"
	"strings"
	"testing"
)

// TestParseError: each language's errors read into their types and names,
// with the noise every failure prints left out.
func TestParseError(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		types      []string
		names      []string // among the names
		words      []string // among the words
		not        []string // neither a name nor a word
	}{
		{"python", "Traceback (most recent call last):\n  File \"/home/u/proj/analyze.py\", line 14, in <module>\n    df = pd.read_csv(\"data/sample2.csv\")\n" +
			"  File \"/usr/lib/python3/site-packages/pandas/io/parsers/readers.py\", line 912, in read_csv\n    return _read(filepath_or_buffer, kwds)\n" +
			"FileNotFoundError: [Errno 2] No such file or directory: 'data/sample2.csv'\nExit code 1",
			[]string{"FileNotFoundError", "ENOENT"}, []string{"sample2.csv", "analyze.py"}, nil,
			[]string{"filepath_or_buffer", "readers.py", "exit", "code", "traceback", "such", "directori", "1", "14"}},
		{"go panic", "panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.parseHeader(...)\n\t/home/u/proj/parse.go:12\nexit status 2",
			[]string{"index out of range"}, []string{"parse.go", "main.parseheader"}, nil, []string{"length", "goroutin", "runtim"}},
		{"go compile", "./internal/store/store.go:14:9: undefined: sqlc.Queries", []string{"undefined"}, []string{"store.go", "sqlc.queries"}, nil, nil},
		{"rust", "error[E0308]: mismatched types\n --> src/chunk.rs:18:30\nexpected `usize`, found `u64`",
			[]string{"E0308", "mismatched types"}, []string{"chunk.rs", "usize", "u64"}, nil, []string{"mismatch", "expect"}},
		{"rust panic", "thread 'main' panicked at src/parser.rs:42:9:\ncalled `Option::unwrap()` on a `None` value\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
			[]string{"unwrap on None"}, []string{"parser.rs"}, nil, []string{"option::unwrap", "rust_backtrace", "main"}},
		{"node", "node:internal/modules/esm/resolve:853\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n" +
			"Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /app/src/server.js\n    at packageResolve (node:internal/modules/esm/resolve:853:9)",
			[]string{"ERR_MODULE_NOT_FOUND", "module not found"}, []string{"express", "server.js"}, nil, []string{"packagename", "fileurltopath"}},
		{"typescript", "src/app.ts(12,5): error TS2345: Argument of type 'string' is not assignable to parameter of type 'OrderId'.",
			[]string{"TS2345"}, []string{"app.ts", "orderid"}, nil, []string{"argument", "string"}},
		{"java", "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n" +
			"\tat com.acme.Greeter.greet(Greeter.java:10)\n\tat java.base/java.util.ArrayList.forEach(ArrayList.java:1596)",
			[]string{"NullPointerException"}, []string{"greeter.java", "string.length"}, nil, []string{"arraylist.java", "java.lang.nullpointerexception"}},
		{"shell", "./scripts/release.sh: line 23: jq: command not found\nError: Process completed with exit code 127.",
			[]string{"command not found"}, []string{"release.sh"}, []string{"jq"}, []string{"127", "process"}},
		{"postgres", "ERROR: duplicate key value violates unique constraint \"users_email_key\" (SQLSTATE 23505)",
			[]string{"unique violation", "SQLSTATE 23505"}, []string{"users_email_key"}, nil, nil},
		{"ports", "Error: listen EADDRINUSE: address already in use :::3000", []string{"EADDRINUSE"}, []string{"port 3000"}, nil, []string{"listen"}},
		{"no type", "error: redirect_uri mismatch (400)", nil, []string{"redirect_uri"}, []string{"mismatch"}, []string{"400"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := ParseError(tc.text)
			if !slices.Equal(e.Types, tc.types) {
				t.Errorf("types %q, want %q", e.Types, tc.types)
			}
			for _, n := range tc.names {
				if !slices.Contains(e.Names, n) {
					t.Errorf("names %q lack %q", e.Names, n)
				}
			}
			for _, w := range tc.words {
				if !slices.Contains(e.Words, w) {
					t.Errorf("words %q lack %q", e.Words, w)
				}
			}
			for _, x := range tc.not {
				if slices.Contains(e.Names, x) || slices.Contains(e.Words, x) {
					t.Errorf("%q read as a name or word: names %q, words %q", x, e.Names, e.Words)
				}
			}
		})
	}
}

// one weighs every name and word alike.
var one = Weights{Term: func(string) float64 { return 1 }, Name: func(string) float64 { return 1 }}

// TestCompare: what two errors share, and what is no evidence.
func TestCompare(t *testing.T) {
	sample := ParseError("FileNotFoundError: [Errno 2] No such file or directory: 'data/sample2.csv'")
	for _, tc := range []struct {
		name       string
		err, past  ErrorText
		weights    Weights
		types      []string
		names      []string
		words      []string
		sameKey    bool
		whyHas     string
		sharedNone bool
	}{
		{name: "the issue's near miss: one common word", err: sample,
			past: EntryError(Entry{Title: "Blank lines between rows in the exported CSV", RootCause: "csv.writer on a file opened without newline=''"}), weights: one, sharedNone: true},
		{name: "the same failure, recorded", err: sample,
			past:  EntryError(Entry{Title: "Failed: python analyze.py", Content: "FileNotFoundError: [Errno 2] No such file or directory: 'data/sample2.csv'"}),
			types: []string{"FileNotFoundError", "ENOENT"}, names: []string{"sample2.csv"}, sameKey: true, weights: one,
			whyHas: "same error type FileNotFoundError, ENOENT; both name sample2.csv"},
		{name: "same type, another file", err: sample,
			past:  EntryError(Entry{Title: "FileNotFoundError: [Errno 2] No such file or directory: 'models/forecast.pkl'"}),
			types: []string{"FileNotFoundError", "ENOENT"}, weights: one, sharedNone: true},
		{name: "a word too common in the project", err: ParseError("KeyError: 'region' in revenue report"),
			past:  EntryError(Entry{Title: "KeyError: 'sku' in the inventory report"}),
			types: []string{"KeyError"}, weights: Weights{Term: func(t string) float64 {
				if t == "report" {
					return 0
				}
				return 1
			}, Name: one.Name}, sharedNone: true},
		{name: "an identifier said in words", err: ParseError("error: redirect_uri mismatch (400)"),
			past: EntryError(Entry{Title: "Redirect URI mismatch", Content: "400 from the provider"}), weights: one,
			words: []string{"redirect_uri", "mismatch"}},
		{name: "a file every project has many of", err: ParseError("TypeError: x is undefined\n    at main.js:3:1"),
			past: EntryError(Entry{Title: "TypeError: y is undefined at main.js:9:2"}), weights: one, types: []string{"TypeError"}, sharedNone: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := Compare(tc.err, tc.past, tc.weights)
			if !slices.Equal(ev.Types, tc.types) || ev.SameKey != tc.sameKey {
				t.Errorf("types %q same key %v, want %q %v", ev.Types, ev.SameKey, tc.types, tc.sameKey)
			}
			if tc.sharedNone && ev.Shared() != 0 {
				t.Errorf("shares %q %q, want nothing", ev.Names, ev.Words)
			}
			for _, n := range tc.names {
				if !slices.Contains(ev.Names, n) {
					t.Errorf("names %q lack %q", ev.Names, n)
				}
			}
			for _, w := range tc.words {
				if !slices.Contains(ev.Words, w) {
					t.Errorf("words %q lack %q", ev.Words, w)
				}
			}
			if tc.whyHas != "" && !strings.Contains(ev.String(), tc.whyHas) {
				t.Errorf("why %q lacks %q", ev.String(), tc.whyHas)
			}
		})
	}
}

// TestKeyLines: a key line holding nothing of the error's own (a type's
// message alone) is no key, and a key keeps quoted values.
func TestKeyLines(t *testing.T) {
	a := ParseError("thread 'main' panicked at src/a.rs:1:1:\ncalled `Option::unwrap()` on a `None` value")
	b := ParseError("thread 'worker' panicked at src/b.rs:9:9:\ncalled `Option::unwrap()` on a `None` value")
	if Compare(a, b, one).SameKey {
		t.Errorf("two unwraps on None in different places share a key line: %q", a.Keys)
	}
	m1 := ParseError("TypeError: Cannot read properties of undefined (reading 'map') at OrderList")
	m2 := EntryError(Entry{Title: "OrderList crashed", Content: "TypeError: Cannot read properties of undefined (reading 'length') at OrderList"})
	if Compare(m1, m2, one).SameKey {
		t.Errorf("keys blur quoted values: %q %q", m1.Keys, m2.Keys)
	}
	// A mistake titled with the line is the same mistake to memory, which
	// counts occurrences by the title's fingerprint: quoted values blurred.
	m3 := EntryError(Entry{Title: "TypeError: Cannot read properties of undefined (reading 'length') at OrderList"})
	if !Compare(m1, m3, one).SameKey {
		t.Errorf("the fingerprint of a mistake's title: %q, %q", m1.Prints, m3.Prints)
	}
}
