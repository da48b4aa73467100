package hands

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// The hands end to end: a project with a few broken files, checked by the
// real binary over stdio MCP (the hands toolset) and by `cairn check`.

const handsToken = "ghp_R7nXq2Lm9Vt4Kp8Zw3Yb6Hc1Jd5Fs0Ag2Nu7"

var handsFiles = map[string]string{
	"go.mod":               "module example.com/shop\n\ngo 1.26\n",
	"deploy/app.env":       "GITHUB_TOKEN=" + handsToken + "\n",
	"Dockerfile":           "FROM node:latest\nWORKDIR /app\nCOPY . .\nCMD [\"node\", \"server.js\"]\n",
	"db/queries/reset.sql": "-- year end\nUPDATE accounts SET balance = 0;\n",
	"docs/flow.mmd":        "flowchart TD\n  A[Start] --> B{Ready?\n  B -->|yes| C[Go]\n",
	"docs/ok.mmd":          "flowchart TD\n  A[Start] --> B[Done]\n",
	"fixtures/stripe.env":  "STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dcXYZ12345\n",
	".cairn/config.toml":   "[[checks.ignore]]\nrule = \"secrets/*\"\npath = \"fixtures/**\"\nreason = \"fake keys for the payment tests\"\n",
	"server.js":            "const http = require('http');\nhttp.createServer((req, res) => res.end('ok')).listen(8080);\n",
}

// handsProject writes the broken project, with a symbolic link out of it,
// a file over the size cap and a binary file; outside is the directory the
// link points into.
func handsProject(t *testing.T) (dir, outside string) {
	t.Helper()
	dir = cairntest.Project(t)
	for rel, text := range handsFiles {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside = t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "prod.env"), []byte("AWS_KEY=AKIAZ7QXR4TLW2MVN6PE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "prod.env"), filepath.Join(dir, "escape.env")); err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat([]byte("SELECT 1;\n"), 120_000) // 1.2 MB, over the 1 MiB cap
	if err := os.WriteFile(filepath.Join(dir, "db", "dump.sql"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "logo.env"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, outside
}

// treeSum is a digest of every file under dir but .cairn's (where the
// server keeps its store), to show a check changed nothing.
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel == ".cairn" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v %d\n", rel, fi.Mode(), fi.Size())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestHandsOverMCP(t *testing.T) {
	dir, outside := handsProject(t)
	before := treeSum(t, dir)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,hands"}})

	// The whole project: each seeded defect where it is.
	r := s.OK("scan_secrets", args{})
	if !strings.Contains(r.Text, "deploy/app.env:1:14 error secrets/github-token") || strings.Contains(r.Text, handsToken) {
		t.Errorf("scan_secrets: the token not reported at its place, or not redacted:\n%s", r.Text)
	}
	if r.Structured["suppressed"] != float64(1) || !strings.Contains(r.Text, "1 suppressed (secrets/stripe-key 1)") {
		t.Errorf("the config's suppression of fixtures/ is not counted: %v\n%s", r.Structured["suppressed"], r.Text)
	}
	for _, want := range []string{"escape.env (a symbolic link out of the project)", "logo.env (binary (it has NUL bytes))", "db/dump.sql (1200000 bytes, over the 1048576-byte cap)"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("scan_secrets does not say it skipped %s:\n%s", want, r.Text)
		}
	}
	if strings.Contains(r.Text, "AKIAZ7QX") {
		t.Errorf("scan_secrets read through the link out of the project:\n%s", r.Text)
	}
	for _, c := range []struct{ tool, path, want string }{
		{"validate_dockerfile", "Dockerfile", "Dockerfile:1:6 warning dockerfile/image-latest The base image node:latest is :latest"},
		{"validate_sql", "db/queries", "db/queries/reset.sql:2:1 warning sql/update-without-where UPDATE accounts has no WHERE clause"},
		{"validate_mermaid", "docs", "docs/flow.mmd:3:"},
	} {
		r := s.OK(c.tool, args{"path": c.path})
		if !strings.Contains(r.Text, c.want) {
			t.Errorf("%s %s lacks %q:\n%s", c.tool, c.path, c.want, r.Text)
		}
		if len(r.Text) > 2048 {
			t.Errorf("%s answers %d bytes, over 2 KB:\n%s", c.tool, len(r.Text), r.Text)
		}
		if strings.Contains(r.Text, "docs/ok.mmd") {
			t.Errorf("%s reports the valid diagram:\n%s", c.tool, r.Text)
		}
	}
	r = s.OK("validate_mermaid", args{"path": "docs"})
	if r.Structured["by_severity"].(map[string]any)["error"] != float64(1) || r.Structured["files"] != float64(2) {
		t.Errorf("validate_mermaid docs: %v", r.Structured)
	}
	// Inline content, with the check's params.
	r = s.OK("validate_sql", args{"content": "DELETE FROM sessions", "dialect": "mysql"})
	if !strings.Contains(r.Text, "query.sql:1:1 warning sql/delete-without-where") {
		t.Errorf("inline SQL:\n%s", r.Text)
	}

	// Bad input: refused naming the argument, or skipped with the reason.
	for _, c := range []struct {
		tool string
		args args
		want string
	}{
		{"scan_secrets", args{"path": "../" + filepath.Base(outside)}, "path \"../"},
		{"scan_secrets", args{"path": filepath.Join(outside, "prod.env")}, "is outside the project"},
		{"scan_secrets", args{"path": "escape.env"}, "path \"escape.env\" is outside the project"},
		{"validate_sql", args{"path": "db/missing.sql"}, "path \"db/missing.sql\" does not exist"},
		{"validate_sql", args{"content": strings.Repeat("SELECT 1;\n", 110_000)}, "content is 1100000 bytes, over the 1048576-byte cap"},
		{"validate_sql", args{"content": "SELECT 1", "dialect": "oracle"}, "dialect is \"oracle\": use postgres, mysql or sqlite"},
		{"validate_sql", args{"content": "SELECT 1", "path": "db"}, "content and path were both given"},
		{"validate_mermaid", args{"limit": 1000}, "limit"},
	} {
		r := s.Err(c.tool, c.args)
		if !strings.Contains(r.Text, c.want) {
			t.Errorf("%s %v: %s, want it to say %q", c.tool, c.args, r.Text, c.want)
		}
		if strings.Contains(r.Text, "AKIAZ7QX") {
			t.Errorf("%s %v leaks the file outside: %s", c.tool, c.args, r.Text)
		}
	}
	r = s.OK("validate_sql", args{"path": "db/dump.sql"})
	if !strings.Contains(r.Text, "Skipped 1 file: db/dump.sql (1200000 bytes, over the 1048576-byte cap)") {
		t.Errorf("a file over the cap named outright:\n%s", r.Text)
	}
	if after := treeSum(t, dir); after != before {
		t.Error("checking changed the project's files")
	}
	if got := s.OK("get_tasks", args{}).Structured["total"]; got != float64(0) {
		t.Errorf("the store has %v tasks after checks", got)
	}

}

// runCheck runs the binary in dir and returns its stdout, stderr and exit
// status.
func runCheck(t *testing.T, dir string, a ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), a...)
	cmd.Dir = dir
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

func TestCheckCommand(t *testing.T) {
	dir, outside := handsProject(t)
	before := treeSum(t, dir)

	out, _, code := runCheck(t, dir, "check")
	if code != 1 {
		t.Fatalf("cairn check on a project with errors exits %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"deploy/app.env:1:14 error secrets/github-token A GitHub token is written here: ghp_… (40 chars)",
		"Dockerfile:1:6 warning dockerfile/image-latest",
		"db/queries/reset.sql:2:1 warning sql/update-without-where",
		"docs/flow.mmd:3:",
		"1 suppressed (secrets/stripe-key 1)",
		"escape.env (a symbolic link out of the project)",
		"Next: fix the errors",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("cairn check lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, handsToken) || strings.Contains(out, "AKIAZ7QX") {
		t.Errorf("cairn check prints a secret:\n%s", out)
	}

	// The same words as the tool: each finding line of the MCP answer is a
	// line of the command's.
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "hands"}})
	tool := s.OK("validate_dockerfile", args{"path": "Dockerfile"}).Text
	cli, _, _ := runCheck(t, dir, "check", "--only", "dockerfile", "Dockerfile")
	if tool != strings.TrimSuffix(cli, "\n") {
		t.Errorf("validate_dockerfile and cairn check --only dockerfile differ:\n--- tool\n%s\n--- cli\n%s", tool, cli)
	}

	// Paths are the shell's: relative to the working directory.
	out, _, code = runCheck(t, filepath.Join(dir, "docs"), "check", "ok.mmd")
	if code != 0 || !strings.Contains(out, "Checked 1 file (mermaid 1, secrets 1): no findings") {
		t.Errorf("cairn check ok.mmd from docs/ exits %d:\n%s", code, out)
	}
	// Warnings fail only with --fail-on warning.
	if _, _, code := runCheck(t, dir, "check", "Dockerfile"); code != 0 {
		t.Errorf("warnings only: exit %d, want 0", code)
	}
	if _, _, code := runCheck(t, dir, "check", "--fail-on", "warning", "Dockerfile"); code != 1 {
		t.Errorf("--fail-on warning: exit %d, want 1", code)
	}

	out, _, code = runCheck(t, dir, "check", "--json", "--only", "secrets,sql")
	var v struct {
		Checks     []string         `json:"checks"`
		Total      int              `json:"total"`
		BySeverity map[string]int   `json:"by_severity"`
		ByRule     map[string]int   `json:"by_rule"`
		Findings   []map[string]any `json:"findings"`
		Skipped    []map[string]any `json:"skipped"`
		Suppressed int              `json:"suppressed"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 1 {
		t.Fatalf("cairn check --json: exit %d, %v:\n%s", code, err, out)
	}
	if strings.Join(v.Checks, ",") != "sql,secrets" || v.Total != len(v.Findings) || v.ByRule["secrets/github-token"] != 1 || v.Suppressed != 1 || len(v.Skipped) == 0 {
		t.Errorf("cairn check --json: %+v", v)
	}

	// Could not run: exit 2 and a message naming what to fix.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", outside}, "is outside the project"},
		{[]string{"check", "escape.env"}, "is outside the project"},
		{[]string{"check", "nope.sql"}, "does not exist"},
		{[]string{"check", "--only", "lint"}, "\"lint\" is not a check"},
		{[]string{"check", "--param", "sql.dialect=oracle", "db/queries"}, "dialect \"oracle\""},
		{[]string{"check", "--fail-on", "fatal"}, "--fail-on"},
	} {
		out, errOut, code := runCheck(t, dir, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("cairn %s: exit %d, stderr %q, stdout %q; want 2 and %q", strings.Join(c.args, " "), code, errOut, out, c.want)
		}
	}
	if after := treeSum(t, dir); after != before {
		t.Error("cairn check changed the project's files")
	}

	// cairn check opens no store: a repository without .cairn keeps none.
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "Dockerfile"), []byte("FROM alpine:3.20\nUSER 10001\nCMD [\"true\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, errOut, code := runCheck(t, repo, "check"); code != 0 {
		t.Errorf("a clean repository: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(repo, ".cairn")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cairn check made .cairn: %v", err)
	}
	// A malformed config is said, with its file.
	cfg := filepath.Join(dir, ".cairn", "config.toml")
	if err := os.WriteFile(cfg, []byte("[[checks.ignore]]\nrule = \"secrets/*\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCheck(t, dir, "check"); code != 2 || !strings.Contains(errOut, ".cairn/config.toml checks.ignore[1] (secrets/*) gives no reason") {
		t.Errorf("malformed config: exit %d, %s", code, errOut)
	}
}

// TestCheckCommandIsMeasured: the checks `cairn check` runs are recorded
// by the insight recorder, and `cairn health` reads them back as its checks
// component.
func TestCheckCommandIsMeasured(t *testing.T) {
	dir, _ := handsProject(t)
	if _, _, code := runCheck(t, dir, "check", "--only", "sql,mermaid"); code != 1 {
		t.Fatalf("cairn check exits %d, want 1", code)
	}
	if _, _, code := runCheck(t, dir, "check", "--only", "mermaid", "docs/ok.mmd"); code != 0 {
		t.Fatalf("cairn check docs/ok.mmd exits %d, want 0", code)
	}
	out, errOut, code := runCheck(t, dir, "health", "--json")
	var v struct {
		Components []struct {
			Name  string  `json:"name"`
			N     int     `json:"n"`
			Value float64 `json:"value"`
		} `json:"components"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
		t.Fatalf("cairn health --json: exit %d, %v:\n%s%s", code, err, out, errOut)
	}
	for _, c := range v.Components {
		if c.Name == "checks" {
			// Three check runs: sql and mermaid, then mermaid alone.
			if c.N != 3 {
				t.Errorf("health's checks component: %+v, want 3 runs", c)
			}
			return
		}
	}
	t.Errorf("cairn health has no checks component:\n%s", out)
}
