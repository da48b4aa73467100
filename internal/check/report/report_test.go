package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

var sampleRules = []check.Rule{
	{ID: "sql/update-without-where", Severity: check.Error, Title: "UPDATE without WHERE", Why: "It changes every row.", Fix: "Add a WHERE clause.", Bad: "UPDATE t SET a = 1", Good: "UPDATE t SET a = 1 WHERE id = $1", Link: "https://example.com/rules/update"},
	{ID: "dockerfile/latest-tag", Severity: check.Warning, Title: "image without a pinned tag", Why: "Builds drift.", Fix: "Pin a tag or digest.", Bad: "FROM node", Good: "FROM node:20.11-bookworm"},
}

var sampleFindings = []check.Finding{
	{Rule: "sql/update-without-where", Severity: check.Error, File: "db/migrations/0003 fix.sql", Line: 12, Col: 1, EndLine: 12, EndCol: 18, Message: "UPDATE accounts has no WHERE: every row changes.", Fix: "Add WHERE id = $1.", Link: "https://example.com/rules/update"},
	{Rule: "dockerfile/latest-tag", Severity: check.Warning, File: "Dockerfile", Line: 1, Col: 6, Message: "FROM node has no tag.", Fix: "Pin node:20."},
	{Rule: "dockerfile/latest-tag", Severity: check.Warning, File: "svc/Dockerfile", Line: 3, EndLine: 5, Message: "a span over lines"},
	{Rule: "versions/not-found", Severity: check.Info, Message: "left-pad is not declared."},
	{Rule: "secrets/aws-key", Severity: check.Error, File: "config/prod,eu:1.env", Line: 4, Col: 7, Message: "An AWS key: 100% a secret,\nrotate it.", Fix: "Rotate the key."},
}

// sarifSchema compiles the SARIF 2.1.0 schema the SARIF project publishes,
// as shipped in @microsoft/jest-sarif.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	dir := checktest.External(t, "@microsoft/jest-sarif")
	f, err := os.Open(filepath.Join(dir, "lib", "schemas", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "https://json.schemastore.org/sarif-2.1.0-rtm.5.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, b []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return s.Validate(inst)
}

func TestSARIFValidatesAgainstTheSchema(t *testing.T) {
	schema := sarifSchema(t)
	for _, tt := range []struct {
		name     string
		findings []check.Finding
	}{
		{"findings of every shape", sampleFindings},
		{"no findings", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := SARIF(&buf, Tool{Name: "cairn", Version: "0.9.0", InformationURI: "https://github.com/cairn-dev/cairn"}, sampleRules, tt.findings); err != nil {
				t.Fatal(err)
			}
			if err := validate(t, schema, buf.Bytes()); err != nil {
				t.Errorf("SARIF does not validate: %v\n%s", err, buf.String())
			}
		})
	}
	// The validator can fail: a level SARIF does not know is refused.
	var buf bytes.Buffer
	if err := SARIF(&buf, Tool{}, sampleRules, sampleFindings[:1]); err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(buf.Bytes(), []byte(`"level": "error"`), []byte(`"level": "fatal"`), 1)
	if err := validate(t, schema, bad); err == nil {
		t.Error("a result with level fatal validated: the schema check cannot fail")
	}
}

func TestSARIFContent(t *testing.T) {
	var buf bytes.Buffer
	if err := SARIF(&buf, Tool{Name: "cairn"}, sampleRules, sampleFindings); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID, HelpURI          string
						DefaultConfiguration struct{ Level string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           *struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	for _, r := range run.Results {
		if rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %s points at rule %d (%s)", r.RuleID, r.RuleIndex, rules[r.RuleIndex].ID)
		}
	}
	first := run.Results[0]
	loc := first.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "db/migrations/0003%20fix.sql" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
		t.Errorf("artifact %+v", loc.ArtifactLocation)
	}
	if r := loc.Region; r == nil || r.StartLine != 12 || r.StartColumn != 1 || r.EndLine != 12 || r.EndColumn != 19 {
		t.Errorf("region %+v: want 12:1 to 12:19 (end column exclusive)", loc.Region)
	}
	if run.Results[3].Level != "note" || len(run.Results[3].Locations) != 0 {
		t.Errorf("info finding without a file: %+v", run.Results[3])
	}
}

func TestGitHubAnnotations(t *testing.T) {
	var buf bytes.Buffer
	if err := GitHub(&buf, sampleFindings); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"::error file=db/migrations/0003 fix.sql,line=12,endLine=12,col=1,endColumn=18,title=sql/update-without-where::UPDATE accounts has no WHERE: every row changes.%0AFix: Add WHERE id = $1.",
		"::warning file=Dockerfile,line=1,col=6,title=dockerfile/latest-tag::FROM node has no tag.%0AFix: Pin node:20.",
		"::warning file=svc/Dockerfile,line=3,endLine=5,title=dockerfile/latest-tag::a span over lines",
		"::notice title=versions/not-found::left-pad is not declared.",
		"::error file=config/prod%2Ceu%3A1.env,line=4,col=7,title=secrets/aws-key::An AWS key: 100%25 a secret,%0Arotate it.%0AFix: Rotate the key.",
	}
	if d := cmp.Diff(want, strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	fs := append([]check.Finding{{Rule: "x/pipe", Severity: check.Warning, File: "a.md", Line: 2, Message: "a | b <script>"}}, sampleFindings...)
	if err := Markdown(&buf, fs, MarkdownOptions{FileURL: "https://github.com/o/r/blob/abc/%s#L%d"}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"## Cairn checks\n\n2 errors, 3 warnings, 1 info.\n",
		"| error | [config/prod,eu:1.env:4](https://github.com/o/r/blob/abc/config/prod,eu:1.env#L4) | `secrets/aws-key` | An AWS key: 100% a secret,<br>rotate it. **Fix:** Rotate the key. |",
		"[`sql/update-without-where`](https://example.com/rules/update)",
		"| warning | [a.md:2](https://github.com/o/r/blob/abc/a.md#L2) | `x/pipe` | a \\| b &lt;script&gt; |",
		"| info | `(inline)` | `versions/not-found` | left-pad is not declared. |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "<script>") || strings.Count(got, "\n| ") != 7 {
		t.Errorf("rows or escaping wrong:\n%s", got)
	}
	buf.Reset()
	if err := Markdown(&buf, fs, MarkdownOptions{Max: 3}); err != nil || strings.Count(buf.String(), "\n| ") != 4 || !strings.Contains(buf.String(), "…and 3 more.") {
		t.Errorf("Max 3: %v\n%s", err, buf.String())
	}
	buf.Reset()
	if err := Markdown(&buf, nil, MarkdownOptions{}); err != nil || !strings.Contains(buf.String(), "No findings.") {
		t.Errorf("empty report: %q %v", buf.String(), err)
	}
}
