package openapi

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRulesAreDeclaredFully(t *testing.T) {
	checktest.Rules(t, New())
	for _, r := range New().Rules() {
		if r.Bad == "" || r.Good == "" || r.Link == "" {
			t.Errorf("rule %s: Bad, Good and Link are wanted", r.ID)
		}
	}
}

func TestCorpusValidAndSeededDefects(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", nil)
	t.Log(tally)
	if tally.ValidFiles < 4 || tally.Seeded < 30 {
		t.Errorf("the corpus is smaller than it should be: %s", tally)
	}
}

func TestWantsSpecsByExtensionAndHead(t *testing.T) {
	tests := []struct {
		path, head string
		want       bool
	}{
		{"api.yaml", "openapi: 3.1.0\ninfo: {}\n", true},
		{"api.yml", "# The API\n---\nswagger: '2.0'\n", true},
		{"api.yaml", "\"openapi\": 3.0.0\n", true},
		{"api.json", `{"openapi": "3.0.3", "info": {}}`, true},
		{"api.json", `{"info": {"title": "x", "openapi": "no"}, "swagger": "2.0"}`, true},
		{"api.json", `{"components": {"schemas": {`, true}, // sorted keys, cut before openapi
		{"stripe.yaml", "components:\n  schemas:\n", true},
		{"k8s.json", `{"definitions": {"io.k8s.api": {`, true},
		{"docker-compose.yaml", "services:\n  api:\n    image: x\n", false},
		{"package.json", `{"name": "x", "version": "1.0.0"}`, false},
		{"schema.json", `{"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {}}`, false},
		{"asyncapi.yaml", "asyncapi: 2.6.0\ncomponents: {}\n", false},
		{"nested.yaml", "info:\n  openapi: 3.0.0\n", false},
		{"api.txt", "openapi: 3.1.0\n", false},
		{"api.json", `{"data": {"openapi": "3.0.0"}}`, false},
	}
	c := New()
	for _, tt := range tests {
		if got := c.Wants(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("Wants(%q, %q) = %v, want %v", tt.path, tt.head, got, tt.want)
		}
	}
}

// checkInline runs the checker over one inline file, as validate_openapi
// does with content.
func checkInline(t *testing.T, name, content string, params map[string]string) []check.Finding {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{
		Inline: &check.File{Path: name, Content: []byte(content)},
		Params: map[string]map[string]string{"openapi": params},
	})
	if err != nil {
		t.Fatal(err)
	}
	checktest.Declared(t, New(), rep.Findings)
	return rep.Findings
}

type brief struct {
	Line int
	Rule string
}

func briefs(fs []check.Finding) []brief {
	out := make([]brief, 0, len(fs))
	for _, f := range fs {
		out = append(out, brief{f.Line, f.Rule})
	}
	return out
}

func TestInlineFileRefIsNotFollowed(t *testing.T) {
	fs := checkInline(t, "inline.yaml", `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          $ref: 'responses.yaml#/Pets'
`, nil)
	want := []brief{{9, ruleRefNotFollowed}}
	if diff := cmp.Diff(want, briefs(fs)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if !strings.Contains(fs[0].Message, "inline") {
		t.Errorf("message %q should say the content was inline", fs[0].Message)
	}
}

func TestJSONLinesAndColumnsAreTheFileOwn(t *testing.T) {
	fs := checkInline(t, "api.json", "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"T\", \"version\": \"1\"},\n  \"paths\": {\n    \"/pets/{id}\": {\"get\": {\"operationId\": \"a\", \"responses\": {\"200\": {\"description\": \"ok\"}}}}\n  }\n}\n", nil)
	want := []check.Finding{{Rule: rulePathParamUndeclared, Line: 5, Col: 5}}
	got := make([]check.Finding, 0, len(fs))
	for _, f := range fs {
		got = append(got, check.Finding{Rule: f.Rule, Line: f.Line, Col: f.Col})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestColumnsCountBytesAfterMultibyteText(t *testing.T) {
	// "é" is two bytes: yaml counts it as one column, a Finding counts bytes.
	fs := checkInline(t, "api.yaml", "openapi: 3.0.3\ninfo: {title: Café, version: '1', x: 1}\npaths: {}\n", nil)
	if len(fs) != 1 || fs[0].Rule != ruleSchema || fs[0].Line != 2 || fs[0].Col != 36 {
		t.Fatalf("want one openapi/schema at 2:36 (the x after Café: é is two bytes), got %v", fs)
	}
}

func TestExampleFormatsParam(t *testing.T) {
	spec := `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    When:
      type: string
      format: date-time
      examples: ["tomorrow"]
`
	if fs := checkInline(t, "api.yaml", spec, nil); len(fs) != 2 { // the example, and When is unused
		t.Errorf("example_formats defaults to assert: want the example reported, got %v", fs)
	}
	fs := checkInline(t, "api.yaml", spec, map[string]string{"example_formats": "ignore"})
	if slices.ContainsFunc(fs, func(f check.Finding) bool { return f.Rule == ruleExampleInvalid }) {
		t.Errorf("example_formats=ignore still reports a format: %v", fs)
	}
}

func TestBadParamsAreFieldErrors(t *testing.T) {
	for _, params := range []map[string]string{{"example_formats": "maybe"}, {"dialect": "x"}} {
		_, err := New().Check(context.Background(), &check.Input{Params: params})
		var fe *problem.FieldError
		if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "params.") || fe.Fix == "" {
			t.Errorf("params %v: want a *problem.FieldError naming the param, got %v", params, err)
		}
	}
}

func TestNotASpecIsSkipped(t *testing.T) {
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{
		{Path: "k.json", Content: []byte(`{"definitions": {"A": {"type": "object"}}}`)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 || len(res.Skipped) != 1 {
		t.Errorf("want the file skipped without findings, got %+v", res)
	}
}

func TestUnsupportedVersionIsAFinding(t *testing.T) {
	fs := checkInline(t, "api.yaml", "openapi: 4.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n", nil)
	if len(fs) != 1 || fs[0].Rule != ruleSchema || fs[0].Line != 1 {
		t.Errorf("want one openapi/schema finding at line 1, got %v", fs)
	}
}

// TestHostileInputIsBounded feeds what an attacker or a broken generator
// could: it must end fast, without a panic or a Go error.
func TestHostileInputIsBounded(t *testing.T) {
	laughs := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\nx-a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	prev := "a"
	for i := range 9 {
		name := string(rune('b' + i))
		laughs += "x-" + name + ": &" + name + " [*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + ",*" + prev + "]\n"
		prev = name
	}
	laughs += "components:\n  schemas:\n    S:\n      type: string\n      example: *" + prev + "\n"
	deep := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    S: " + strings.Repeat("{items: ", 5000) + "{}" + strings.Repeat("}", 5000) + "\n"
	deepJSON := `{"openapi": "3.0.3", "x": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	refLoop := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    $ref: '#/paths/~1b'\n  /b:\n    $ref: '#/paths/~1a'\ncomponents:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A', example: 1}\n"
	longLine := "openapi: 3.0.3\ninfo: {title: '" + strings.Repeat("é", 400000) + "', version: '1'}\npaths: {}\n"
	junk := "openapi: 3.0.3\n" + strings.Repeat("\x01\x02{[:,\"'&*!|>%@`", 20000)
	for name, content := range map[string]string{"laughs.yaml": laughs, "deep.yaml": deep, "deep.json": deepJSON,
		"loop.yaml": refLoop, "long.yaml": longLine, "junk.yaml": junk} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: name, Content: []byte(content)}}})
			if err != nil {
				t.Fatalf("a Go error on hostile input: %v", err)
			}
			if d := time.Since(start); d > 30*time.Second { // a hang or a blow-up, not a speed budget
				t.Errorf("took %v", d)
			}
			_ = res
		})
	}
}

func TestCancelledContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Check(ctx, &check.Input{Files: []check.File{{Path: "a.yaml", Content: []byte("openapi: 3.0.3\n")}}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("want context.Canceled, got %v", err)
	}
}

// --- real specs nobody here wrote ---

// known reads testdata/external-known.txt: the errors real specs do have,
// each checked by hand, as "SOURCE/FILE:LINE RULE".
func known(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open("testdata/external-known.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			out[strings.Join(strings.Fields(line), " ")] = true
		}
	}
	return out
}

// external runs the checker over dir (files up to 8 MiB: the large real
// specs are over the 1 MiB a project walk reads) and fails for each error
// that is not a known, hand-checked defect of that spec.
func external(t *testing.T, source, dir string, paths []string, knownErrs, found map[string]bool) (files, errs, clean int) {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir, Paths: paths, MaxFileSize: 8 << 20, Only: []string{"openapi"}})
	if err != nil {
		t.Fatal(err)
	}
	checktest.Declared(t, New(), rep.Findings)
	withErrs := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Severity != check.Error {
			continue
		}
		errs++
		withErrs[f.File] = true
		key := source + "/" + f.File + ":" + strconv.Itoa(f.Line) + " " + f.Rule
		if !knownErrs[key] {
			t.Errorf("not a known defect of this real spec: %s\n\t%s", key, f)
		}
		found[key] = true
	}
	for _, s := range rep.Skipped {
		t.Logf("%s: skipped %s: %s", source, s.Path, s.Reason)
	}
	files = rep.ByChecker["openapi"]
	return files, errs, files - len(withErrs) // a finding in a $ref'd file counts against no spec: close enough
}

func TestExternalRealSpecs(t *testing.T) {
	knownErrs, found := known(t), map[string]bool{}
	total, totalErrs, totalClean := 0, 0, 0
	for _, pkg := range []string{"@readme/oas-examples", "@directus/specs", "@blockfrost/openapi"} {
		dir := checktest.External(t, pkg)
		n, e, c := external(t, "npm:"+pkg, dir, nil, knownErrs, found)
		t.Logf("npm %s: %d specs (%d without error), %d errors", pkg, n, c, e)
		total, totalErrs, totalClean = total+n, totalErrs+e, totalClean+c
	}
	// libopenapi's module ships real specs (and broken ones for its own
	// tests, left out here).
	dir := moduleDir(t, "github.com/pb33f/libopenapi")
	specs := []string{"test_specs/petstorev2.json", "test_specs/petstorev3.json", "test_specs/asana.yaml",
		"test_specs/k8s.json", "test_specs/stripe.yaml", "test_specs/docusignv3.1.json", "test_specs/xsoar.json",
		"test_specs/nested_files/openapi.yaml", "test_specs/circular_cross_file/orig/root.yaml"}
	n, e, c := external(t, "go:libopenapi", dir, specs, knownErrs, found)
	t.Logf("go module libopenapi: %d specs (%d without error), %d errors", n, c, e)
	total, totalErrs, totalClean = total+n, totalErrs+e, totalClean+c
	t.Logf("real specs: %d (%d without error); their errors %d, each a known defect checked by hand", total, totalClean, totalErrs)
	for k := range knownErrs {
		if !found[k] {
			t.Errorf("known defect no longer found: %s", k)
		}
	}
}

func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("go list -m %s: %v", mod, err)
		}
		t.Skipf("go list -m %s: %v", mod, err)
	}
	return filepath.Clean(dir)
}

// TestConcurrentChecksShareTheCompiledSchemas runs checks at once, as the
// MCP server may: the OpenAPI schemas are compiled once and shared.
func TestConcurrentChecksShareTheCompiledSchemas(t *testing.T) {
	var specs []check.File
	for _, p := range []string{"petstore-3.0.yaml", "petstore-3.1.json", "petstore-2.0.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata/corpus/valid", p))
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, check.File{Path: p, Content: b})
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			res, err := New().Check(context.Background(), &check.Input{Files: specs})
			if err == nil && len(res.Findings) != 0 {
				err = errors.New(res.Findings[0].String())
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
