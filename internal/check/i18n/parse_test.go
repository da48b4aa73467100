package i18n

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
)

func TestParseICU(t *testing.T) {
	for _, tc := range []struct {
		msg     string
		names   []string
		sels    []string // selectors of the first complex argument
		wantErr string
	}{
		{msg: "Hello {name}!", names: []string{"{name}"}},
		{msg: "{n, plural, offset:1 =0 {none} one {# item} other {{n} items by {who}}}", names: []string{"{n}", "{n}", "{who}"}, sels: []string{"=0", "one", "other"}},
		{msg: "{g, select, male {{n, plural, one {he has one} other {he has #}}} other {they}}", names: []string{"{g}", "{n}"}, sels: []string{"male", "other"}},
		{msg: "It''s '{literal}' and '#' {x, number, ::currency/EUR}", names: []string{"{x}"}},
		{msg: "{d, date, medium} at {d, time, short}", names: []string{"{d}", "{d}"}},
		{msg: "{n, plural, one {#} other {#}", wantErr: "not closed"},
		{msg: "a } b", wantErr: "unmatched '}'"},
		{msg: "{}", wantErr: "without a name"},
		{msg: "{n, plural,}", wantErr: "no branches"},
		{msg: "{n, plural, one}", wantErr: "has no {message}"},
		{msg: strings.Repeat("{a, select, x {", 40) + strings.Repeat("} other {}}", 40), wantErr: "nested deeper"},
	} {
		t.Run(tc.msg[:min(len(tc.msg), 30)], func(t *testing.T) {
			args, err := parseICU(tc.msg)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.names, icuNames(args)); d != "" {
				t.Errorf("names (-want +got):\n%s", d)
			}
			if tc.sels != nil {
				var got []string
				for _, a := range args {
					if a.Selectors != nil {
						got = a.Selectors
						break
					}
				}
				if d := cmp.Diff(tc.sels, got); d != "" {
					t.Errorf("selectors (-want +got):\n%s", d)
				}
			}
		})
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		syn    syntax
		printf bool
		msg    string
		want   []string
	}{
		{synAuto, false, "Hi {{name}}, {{- html}} {{count, number}} $t(other.key, {\"x\": 1})", []string{"{{name}}", "{{html}}", "{{count}}", "$t(other.key)"}},
		{synAuto, false, "Hallo %{name}, %<n>d and {x} and %(user)s", []string{"%{name}", "%<n>", "{x}", "%(user)"}},
		{synAuto, false, "50% off, 100%sure, %s", nil},
		{synAuto, true, "50% off, %s and %d", []string{"%1$s", "%2$d"}},
		{synPrintf, false, "%2$s %1$d %% %-5.2f %*d", []string{"%2$s", "%1$d", "%1$f", "%2$d", "%3$d"}},
		{synChrome, false, "Closed $COUNT$ in $Window$ for $$5 ($1)", []string{"$count$", "$window$", "$1"}},
		{synPython, false, "{name!r:>10} {{literal}} {0}", []string{"{name}", "{0}"}},
		{synI18next, false, "{single} {{double}}", []string{"{{double}}"}},
		{synAuto, false, "{n, plural, one {# {what}} other {# {what}s}}", []string{"{n}", "{what}", "{what}"}},
	} {
		got, _, err := placeholders(tc.syn, tc.msg, tc.printf)
		if err != nil {
			t.Errorf("%s %q: %v", tc.syn, tc.msg, err)
		}
		if d := cmp.Diff(tc.want, got); d != "" {
			t.Errorf("%s %q (-want +got):\n%s", tc.syn, tc.msg, d)
		}
	}
}

func TestParsePO(t *testing.T) {
	src := `# header
msgid ""
msgstr ""
"Language: pl\n"
"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : 1);\n"

#. extracted
#: src/a.c:1
#, fuzzy, c-format
msgctxt "ctx"
msgid "a \"quoted\" %s"
msgstr "line one\n"
"line two \x41\101"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d plik"
msgstr[1] "%d pliki"
msgstr[2] "%d plików"

#~ msgid "gone"
#~ msgstr "zniknął"
`
	f, err := parsePO(src)
	if err != nil {
		t.Fatal(err)
	}
	if f.NPlurals != 3 || f.Header["Language"] != "pl" {
		t.Errorf("header: nplurals %d, language %q", f.NPlurals, f.Header["Language"])
	}
	type got struct {
		Key      string
		Str      []string
		Flags    []string
		Obsolete bool
		Line     int
	}
	var have []got
	for _, e := range f.Entries[1:] {
		have = append(have, got{e.key(), e.Str, e.Flags, e.Obsolete, e.Line})
	}
	want := []got{
		{"ctx\x04a \"quoted\" %s", []string{"line one\nline two AA"}, []string{"fuzzy", "c-format"}, false, 11},
		{"%d file", []string{"%d plik", "%d pliki", "%d plików"}, nil, false, 15},
		{"gone", []string{"zniknął"}, nil, true, 21},
	}
	if d := cmp.Diff(want, have); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	for _, tc := range []struct{ src, msg string }{
		{"msgid \"a\"\nmsgstr[0] \"b\"\n", "without a msgid_plural"},
		{"msgid \"a\nmsgstr \"b\"\n", "not closed"},
		{"msgid \"a\"\nmsgtxt \"b\"\n", "unknown keyword"},
		{"msgid \"a\"\n", "has no msgstr"},
		{"msgid \"a\" x\nmsgstr \"\"\n", "unexpected text"},
		{"msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[1] \"\"\n", "out of order"},
	} {
		if _, err := parsePO(tc.src); err == nil || !strings.Contains(err.Msg, tc.msg) {
			t.Errorf("%q: want error %q, got %v", tc.src, tc.msg, err)
		}
	}
}

func TestIsLocale(t *testing.T) {
	yes := []string{"en", "pt-BR", "pt_br", "zh-Hant-TW", "zh_Hans", "es-419", "sr@latin", "ca-valencia", "fil", "ckb"}
	no := []string{"", "EN", "english", "app", "web", "xx", "en-", "common", "zh-Hant-TW-x", "en_US.UTF-8", "messages"}
	for _, s := range yes {
		if !isLocale(s) {
			t.Errorf("isLocale(%q) = false", s)
		}
	}
	for _, s := range no {
		if isLocale(s) {
			t.Errorf("isLocale(%q) = true", s)
		}
	}
}

func TestPlace(t *testing.T) {
	for _, tc := range []struct {
		path, pattern, locale string
	}{
		{"src/locales/en.json", "src/locales/*.json", "en"},
		{"public/locales/pt-BR/common.json", "public/locales/*/common.json", "pt-BR"},
		{"config/locales/devise.fr.yml", "config/locales/devise.*.yml", "fr"},
		{"lib/l10n/app_zh_Hant.arb", "lib/l10n/app_*.arb", "zh_Hant"},
		{"ext/_locales/en_GB/messages.json", "ext/_locales/*/messages.json", "en_GB"},
		{"locale/fr/LC_MESSAGES/app.po", "locale/*/LC_MESSAGES/app.po", "fr"},
		{"po/app.pot", "po/*.po", ""},
		{"package.nls.de.json", "package.nls*.json", "de"},
	} {
		pl, ok := place(tc.path)
		if !ok || pl.pattern != tc.pattern || pl.locale != tc.locale {
			t.Errorf("place(%q) = %q %q %v, want %q %q", tc.path, pl.pattern, pl.locale, ok, tc.pattern, tc.locale)
		}
	}
	for _, tc := range []struct {
		path string
		head string
		want bool
	}{
		{"src/locales/en.json", "{", true},
		{"src/data/en.json", "{", false},
		{"src/locales/index.json", "{", false},
		{"i18n/fr.yaml", "hello: Bonjour", true},
		{"i18n/fr.yaml", "- a list", false},
		{"locales/fr.json", "[1, 2]", false},
		{"po/de.po", "", true},
		{"translations/en.tokens.json", "{", false},
	} {
		if got := wants(tc.path, []byte(tc.head)); got != tc.want {
			t.Errorf("wants(%q, %q) = %v", tc.path, tc.head, got)
		}
	}
}

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		err    string
	}{
		{map[string]string{"base": "english"}, "params.base"},
		{map[string]string{"syntax": "mustache"}, "params.syntax"},
		{map[string]string{"color": "red"}, "params.color"},
	} {
		_, err := New().Check(context.Background(), &check.Input{Params: tc.params})
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%v: want an error naming %s, got %v", tc.params, tc.err, err)
		}
	}
}

// TestInline checks content given inline: one file, nothing else read.
func TestInline(t *testing.T) {
	in := &check.Input{Files: []check.File{{Path: "inline.json", Content: []byte(`{"a": "{n, plural, one {#}}", "b": "x", "b": "y"}`)}}}
	res, err := New().Check(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range res.Findings {
		rules = append(rules, f.Rule)
	}
	if d := cmp.Diff([]string{ruleDuplicate, rulePluralOther}, rules); d != "" {
		t.Errorf("rules (-want +got):\n%s", d)
	}
}

func TestBaseParam(t *testing.T) {
	rep := runOn(t, "testdata/corpus/valid/app", map[string]string{"base": "fr"})
	found := false
	for _, n := range rep.Notes {
		found = found || strings.Contains(n, "base fr (the param base)")
	}
	if !found {
		t.Errorf("notes do not say the base came from the param: %q", rep.Notes)
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a": {"b": "{{x}} %s {n, plural, one {#} other {#}}"}}`, "a:\n  b: &x {c: 1}\n  d: *x\n", "msgid \"a\"\nmsgstr \"b\"\n", `{"@@locale": "en", "a": "{x}", "@a": {"placeholders": {"x": {}}}}`} {
		f.Add("x.json", []byte(s))
		f.Add("x.yaml", []byte(s))
		f.Add("x.po", []byte(s))
		f.Add("x.arb", []byte(s))
	}
	f.Fuzz(func(t *testing.T, name string, b []byte) {
		in := &check.Input{Files: []check.File{{Path: "locales/" + name, Content: b}}}
		if _, err := New().Check(context.Background(), in); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzICU(f *testing.F) {
	for _, s := range []string{"{a}", "{n, plural, one {#} other {# {b}}}", "'{'}", "{a, select, x {{b, number, ::x}} other {}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parseICU(s)
		for _, syn := range syntaxes {
			_, _, _ = placeholders(syn, s, true)
		}
	})
}
