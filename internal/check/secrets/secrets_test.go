package secrets

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRules(t *testing.T) { checktest.Rules(t, New()) }

// TestCorpus: no error on the valid files, every seeded defect (one per
// rule) found at its line.
func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", map[string]string{"scope": "all"})
	t.Log(tally)
	seeded := map[string]bool{}
	wants, err := checktest.ReadWants("testdata/corpus/defects/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wants {
		seeded[w.Rule] = true
	}
	for _, r := range New().Rules() {
		if !seeded[r.ID] {
			t.Errorf("rule %s has no seeded defect", r.ID)
		}
	}
}

// TestValidHasNoFindings: the valid corpus gives no finding at all, not
// only no error: placeholders, references and look-alikes stay quiet.
func TestValidHasNoFindings(t *testing.T) {
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: "testdata/corpus/valid",
		Params: map[string]map[string]string{"secrets": {"scope": "all"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Errorf("valid file: %s", f)
	}
}

// TestMessagesNeverHoldTheSecret: over every seeded defect, no message or
// fix contains the secret (nor more than its first 4 characters).
func TestMessagesNeverHoldTheSecret(t *testing.T) {
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: "testdata/corpus/defects",
		Params: map[string]map[string]string{"secrets": {"scope": "all"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		b, err := os.ReadFile(filepath.Join("testdata/corpus/defects", f.File))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		line := lines[f.Line-1]
		secret := line[f.Col-1:]
		if f.EndLine == f.Line {
			secret = line[f.Col-1 : f.EndCol]
		}
		if len(secret) > 8 && strings.Contains(f.Message+f.Fix, secret[:8]) {
			t.Errorf("%s:%d: the message shows more than 4 characters of the secret: %s", f.File, f.Line, f.Message)
		}
	}
}

func TestRedacted(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ghp_" + strings.Repeat("a", 36), "ghp_… (40 chars)"},
		{"hunter22", "hu… (8 chars)"},
		{"abc", "… (3 chars)"},
	} {
		if got := Redacted(tc.in); got != tc.want {
			t.Errorf("Redacted(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestScanLines reports a secret on the line number the caller gives (the
// diff scanner passes added lines with their numbers in the new file).
func TestScanLines(t *testing.T) {
	tok := "ghp_" + "R8vQm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDq"
	fs := ScanLines("deploy/ci.env", []Line{{No: 12, Text: "A=1"}, {No: 40, Text: "GITHUB_TOKEN=" + tok}})
	if len(fs) != 1 {
		t.Fatalf("got %d findings, want 1: %v", len(fs), fs)
	}
	got := fs[0]
	want := check.Finding{Rule: "secrets/github-token", Severity: check.Error, File: "deploy/ci.env", Line: 40, Col: 14, EndLine: 40, EndCol: 13 + len(tok),
		Message: "A GitHub token is written here: ghp_… (40 chars)", Fix: fixGeneral, Link: gitleaksRules}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ScanLines (-want +got):\n%s", diff)
	}
}

// TestAssignments: what counts as a secret assignment, and what does not.
func TestAssignments(t *testing.T) {
	key := "q8W2e4R6t8Y0u2I4o6P8a0S2d4F6g8H0"
	for _, tc := range []struct {
		file, text string
		rule       string // "" for no finding
	}{
		{"a.go", `apiKey := "` + key + `"`, ruleGeneric},
		{"a.go", `apiKey := cfg.Get("` + key + `")`, ""},
		{"a.go", `apiKey := os.Getenv("API_KEY")`, ""},
		{"a.js", `const clientSecret = '` + key + `';`, ruleGeneric},
		{"a.py", `SECRET_KEY = "` + key + `"`, ruleGeneric},
		{"a.env", `API_TOKEN=` + key, ruleGeneric},
		{"a.json", `{"api_key": "` + key + `"}`, ruleGeneric},
		{"a.properties", `db.password=Xk9#mQ2vL7pz`, rulePassword},
		{"a.yaml", `password: correct horse battery staple`, ""}, // prose, not a literal
		{"a.yaml", `token_url: https://auth.example.com/` + key, ""},
		{"a.yaml", `next_token: ` + key, ""},
		{"a.yaml", `primary_key: ` + key, ""},
		{"a.go", `key := "` + key + `"`, ""}, // a bare "key" is a map's
		{"a.env", `KEY=` + key, ruleGeneric},
		{"a.go", `if token == "` + key + `" {`, ""}, // a comparison
		{"a.env", `HEROKU_API_KEY=01234567-89ab-4cde-8f01-23456789abcd`, ruleGeneric},
		{"a.go", `requestToken := "01234567-89ab-4cde-8f01-23456789abcd"`, ""},
		{"a.yaml", `version: 1.2.3-beta.4+build.5678`, ""},
		{"a.yaml", `secret_name: projects/app/secrets/db-password/versions/latest`, ""},
		{"server_test.go", `apiKey := "` + key + `"`, ruleGeneric}, // info, still found
	} {
		fs := Scan(tc.file, []byte(tc.text))
		got := ""
		if len(fs) > 0 {
			got = fs[0].Rule
		}
		if got != tc.rule {
			t.Errorf("%s %q: got rule %q, want %q (%v)", tc.file, tc.text, got, tc.rule, fs)
		}
	}
	if fs := Scan("server_test.go", []byte(`apiKey := "`+key+`"`)); len(fs) != 1 || fs[0].Severity != check.Info {
		t.Errorf("an assignment in a test file should be info: %v", fs)
	}
}

func TestParams(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		field  string
	}{
		{map[string]string{"scope": "everything"}, "scope"},
		{map[string]string{"entropy": "nine"}, "entropy"},
		{map[string]string{"entropy": "9"}, "entropy"},
		{map[string]string{"allow": "[bad"}, "allow"},
		{map[string]string{"colour": "red"}, "colour"},
	} {
		_, err := New().Check(context.Background(), &check.Input{Params: tc.params})
		fe, ok := errors.AsType[*problem.FieldError](err)
		if !ok || fe.Field != tc.field {
			t.Errorf("params %v: got %v, want a FieldError on %s", tc.params, err, tc.field)
		}
	}
}

// TestAllowParam drops the findings in allowed paths and says how many
// files it skipped.
func TestAllowParam(t *testing.T) {
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: "testdata/corpus/defects",
		Params: map[string]map[string]string{"secrets": {"scope": "all", "allow": "*.env,deploy.*"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if strings.HasSuffix(f.File, ".env") || strings.HasPrefix(f.File, "deploy.") {
			t.Errorf("allowed file reported: %s", f)
		}
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "3 files skipped by the allow param") {
		t.Errorf("notes do not count the allowed files: %v", rep.Notes)
	}
}

// TestInlineIgnore: a `cairn:ignore secrets/<rule> reason` comment
// suppresses the finding on the next line.
func TestInlineIgnore(t *testing.T) {
	dir := t.TempDir()
	content := "# cairn:ignore secrets/github-token the test fixture of the CI docs\nGITHUB_TOKEN=ghp_" + "R8vQm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDq\n"
	if err := os.WriteFile(filepath.Join(dir, "ci.env"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 0 || rep.Suppressed["secrets/github-token"] != 1 {
		t.Errorf("findings %v, suppressed %v; want the token suppressed", rep.Findings, rep.Suppressed)
	}
}

// TestTrackedScope: in a git repository only tracked files are scanned by
// default, and the untracked ones are counted in a note.
func TestTrackedScope(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	tok := "GITHUB_TOKEN=ghp_" + "R8vQm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDq\n"
	for _, f := range []string{"tracked.env", "sub/dir/tracked2.env", "untracked.env"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(tok), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "tracked.env", "sub/dir/tracked2.env"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range rep.Findings {
		files = append(files, f.File)
	}
	if diff := cmp.Diff([]string{"sub/dir/tracked2.env", "tracked.env"}, files); diff != "" {
		t.Errorf("files reported (-want +got):\n%s", diff)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "1 untracked files not scanned") {
		t.Errorf("notes: %v", rep.Notes)
	}
}

func TestIndexPaths_Hostile(t *testing.T) {
	for _, b := range [][]byte{nil, []byte("DIRC"), []byte("DIRC\x00\x00\x00\x02\xff\xff\xff\xff"), []byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + strings.Repeat("\x00", 62) + "\xff\xff\xff")} {
		if _, err := indexPaths(b, 20); err == nil {
			t.Errorf("indexPaths(%q) accepted a broken index", b)
		}
	}
}

// TestHostileInput: pathological files stay linear.
func TestHostileInput(t *testing.T) {
	for name, text := range map[string]string{
		"repeated prefixes": strings.Repeat("glc_", 250000),
		"one long base64":   "token = \"" + strings.Repeat("Ab1+", 250000),
		"many assignments":  strings.Repeat("api_key=", 120000),
		"many pem headers":  strings.Repeat("-----BEGIN PRIVATE KEY-----\n", 30000),
		"atlas":             strings.Repeat("abcdefghijklmn.atlasv1.", 40000),
		"azure":             strings.Repeat("abc8Q~", 150000),
	} {
		start := time.Now()
		Scan("x.env", []byte(text))
		if d := time.Since(start); d > slowdown*30*time.Second { // a hang or a quadratic blow-up, not a speed budget: BenchmarkScan measures that
			t.Errorf("%s: %v for %d bytes", name, d, len(text))
		}
	}
}

func FuzzScan(f *testing.F) {
	f.Add("GITHUB_TOKEN=ghp_R8vQm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDq")
	f.Add(`{"api_key": "q8W2e4R6t8Y0u2I4o6P8a0S2d4F6g8H0"}`)
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----")
	f.Add("https://contoso.webhook.office.com/webhookb2/")
	f.Add("abc8Q~" + strings.Repeat("x", 33))
	f.Fuzz(func(t *testing.T, s string) {
		for _, fd := range Scan("fuzz.env", []byte(s)) {
			if fd.Line < 1 || fd.Col < 1 || fd.EndLine < fd.Line {
				t.Fatalf("bad position: %+v", fd)
			}
		}
		ScanLines("fuzz.go", []Line{{No: 3, Text: s}})
	})
}

// BenchmarkScan: a typical config file, a large source file, and Cairn's
// own repository end to end through check.Run (the one-second budget).
func BenchmarkScan(b *testing.B) {
	typical, err := os.ReadFile("testdata/corpus/defects/keys.env")
	if err != nil {
		b.Fatal(err)
	}
	large, err := os.ReadFile(filepath.Join("..", "..", "memory", "shapes.go"))
	if err != nil {
		b.Fatal(err)
	}
	large = []byte(strings.Repeat(string(large), 1<<20/len(large)))
	b.Run("typical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Scan("keys.env", typical)
		}
	})
	b.Run("large-1MiB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Scan("big.go", large)
		}
	})
	root, _ := filepath.Abs("../../..")
	if r := os.Getenv("SECRETS_BENCH_ROOT"); r != "" {
		root = r // a checkout with its own .git directory, for the tracked scope
	}
	b.Run("cairn-repo", func(b *testing.B) {
		for b.Loop() {
			if _, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
