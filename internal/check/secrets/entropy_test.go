package secrets

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// The entropy threshold of secrets/generic-secret and the password test
// were tuned on the TUNING sets and are reported on the TEST set: real
// files nobody here wrote (npm packages from testdata/corpus.txt, Go
// modules from go.mod), where every assignment finding of severity warning
// is taken for a false positive.
//
// The first held-out set (now tuningNPM2/tuningGo2) gave 5.6 per thousand
// files, over the bound: OAuth test fixtures (access_token in
// golang.org/x/oauth2's tests) and RFC 6455's sample nonce under the name
// "key". After the changes that run led to (a bare "key" needs a
// qualifier; assignment findings in test files are info) it became a
// tuning set, and TEST is a fresh set, not looked at before the bound was
// fixed.
var (
	tuningNPM  = []string{"stripe", "twilio", "jsonwebtoken", "dotenv", "aws-sdk"}
	tuningGo   = []string{"github.com/go-git/go-git/v5", "github.com/jackc/pgx/v5"}
	tuningNPM2 = []string{"express", "nodemailer", "passport", "axios", "@sendgrid/mail", "mongoose"}
	tuningGo2  = []string{"golang.org/x/oauth2", "golang.org/x/net", "github.com/chromedp/chromedp", "github.com/chromedp/cdproto", "github.com/modelcontextprotocol/go-sdk",
		"go.yaml.in/yaml/v3", "github.com/spf13/cobra", "github.com/segmentio/encoding", "github.com/google/jsonschema-go"}
	testNPM = []string{"pg", "mysql2", "ioredis", "knex", "jose", "openid-client", "passport-oauth2", "sequelize", "simple-oauth2"}
	testGo  = []string{"github.com/gobwas/ws", "github.com/google/uuid", "github.com/spf13/pflag", "github.com/jackc/puddle/v2",
		"github.com/jackc/pgpassfile", "github.com/jackc/pgservicefile", "golang.org/x/text", "golang.org/x/sync", "golang.org/x/time",
		"github.com/go-json-experiment/json", "github.com/dlclark/regexp2/v2", "github.com/dustin/go-humanize",
		"github.com/tiktoken-go/tokenizer", "github.com/yosida95/uritemplate/v3", "github.com/go-git/go-billy/v5",
		"github.com/go-git/gcfg", "github.com/bmatcuk/doublestar/v4", "github.com/google/go-cmp", "golang.org/x/sys"}
)

// maxFalsePerThousand is what the TEST set may give, assignment findings
// per thousand files.
const maxFalsePerThousand = 2.0

type setResult struct {
	files    int
	warned   int // assignment findings of severity warning or error
	byRule   map[string]int
	examples []string
}

func scanSet(t *testing.T, npm, mods []string, params map[string]string) setResult {
	t.Helper()
	var dirs []string
	for _, p := range npm {
		dirs = append(dirs, checktest.External(t, p))
	}
	for _, m := range mods {
		dir, err := moduleDir(m)
		if err != nil || dir == "" {
			t.Fatalf("go list -m %s: %v (is it in go.mod, and downloaded?)", m, err)
		}
		dirs = append(dirs, dir)
	}
	res := setResult{byRule: map[string]int{}}
	p := map[string]string{"scope": "all"}
	for k, v := range params {
		p[k] = v
	}
	for _, dir := range dirs {
		rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{
			Root: dir, Params: map[string]map[string]string{"secrets": p}})
		if err != nil {
			t.Fatalf("scan %s: %v", dir, err)
		}
		res.files += rep.Files
		for _, f := range rep.Findings {
			res.byRule[f.Rule]++
			if (f.Rule == ruleGeneric || f.Rule == rulePassword) && f.Severity.AtLeast(check.Warning) {
				res.warned++
			}
			res.examples = append(res.examples, filepath.Base(dir)+"/"+f.String())
		}
	}
	return res
}

func (r setResult) rate(rules ...string) float64 {
	n := 0
	for _, rule := range rules {
		n += r.byRule[rule]
	}
	return 1000 * float64(n) / float64(max(r.files, 1))
}

// warnRate is the rate of assignment findings of severity warning or
// error (the ones in test files are info).
func (r setResult) warnRate() float64 { return 1000 * float64(r.warned) / float64(max(r.files, 1)) }

func (r setResult) String() string {
	var parts []string
	for rule, n := range r.byRule {
		parts = append(parts, fmt.Sprintf("%s %d", strings.TrimPrefix(rule, "secrets/"), n))
	}
	slices.Sort(parts)
	return fmt.Sprintf("%d files; findings: %s", r.files, strings.Join(parts, ", "))
}

// TestEntropyTuning is the tuning run: it logs the findings on the TUNING
// set at the default threshold and around it (go test -run
// TestEntropyTuning -v). It fails only if the default threshold is noisier
// on the tuning set than the bound the TEST set is held to.
func TestEntropyTuning(t *testing.T) {
	if os.Getenv("SECRETS_TUNING") == "" {
		t.Skip("the tuning run reads some 8,000 files five times: SECRETS_TUNING=1 runs it")
	}
	for _, th := range []string{"2.5", "3.0", "3.5", "4.0", "4.5"} {
		r := scanSet(t, append(tuningNPM, tuningNPM2...), append(tuningGo, tuningGo2...), map[string]string{"entropy": th})
		t.Logf("TUNING threshold %s: %v; assignment findings %.2f per 1000 files (warnings %.2f)", th, r, r.rate(ruleGeneric, rulePassword), r.warnRate())
		if th == "4.0" {
			if os.Getenv("SECRETS_VERBOSE") != "" {
				for _, e := range r.examples {
					t.Log(e)
				}
			}
			if got := r.warnRate(); got > maxFalsePerThousand {
				t.Errorf("default threshold gives %.2f assignment findings per 1000 tuning files, over %.1f", got, maxFalsePerThousand)
			}
		}
	}
}

// TestEntropyFalsePositives is the benchmark that can fail: on the TEST
// set (never tuned on), assignment findings per thousand files must stay
// under maxFalsePerThousand.
func TestEntropyFalsePositives(t *testing.T) {
	if testing.Short() {
		t.Skip("reads real packages")
	}
	r := scanSet(t, testNPM, testGo, nil)
	got := r.warnRate()
	t.Logf("TEST set: %v; assignment warnings %.2f per 1000 files (bound %.1f); assignment findings of any severity %.2f; all findings %.2f per 1000 files",
		r, got, maxFalsePerThousand, r.rate(ruleGeneric, rulePassword), r.rate(keys(r.byRule)...))
	if os.Getenv("SECRETS_VERBOSE") != "" {
		for _, e := range r.examples {
			t.Log(e)
		}
	}
	if got > maxFalsePerThousand {
		t.Errorf("%.2f assignment findings per 1000 real files, over the bound %.1f", got, maxFalsePerThousand)
	}
}

func keys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// moduleDir is the directory of a module of go.mod in the module cache,
// downloaded first when it is not there yet.
func moduleDir(m string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", m).Output()
	if dir := strings.TrimSpace(string(out)); err == nil && dir != "" {
		return dir, nil
	}
	out, err = exec.Command("go", "mod", "download", "-json", m).Output()
	if err != nil {
		return "", err
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", err
	}
	return info.Dir, nil
}
