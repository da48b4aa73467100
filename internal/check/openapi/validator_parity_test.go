package openapi

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/go-yaml"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/cairn-dev/cairn/internal/check/internal/jsonschema"
)

// TestValidatorAgreesWithSanthosh validates every spec of the corpus and
// of libopenapi's test specs against its version's OpenAPI schema with
// Cairn's validator and with santhosh-tekuri/jsonschema (the validator it
// replaced, linked into this test only), and wants the same errors: the
// same places and kinds, leaf by leaf.
func TestValidatorAgreesWithSanthosh(t *testing.T) {
	var files []string
	roots := []string{"testdata/corpus", filepath.Join(moduleDir(t, "github.com/pb33f/libopenapi"), "test_specs")}
	if dir := os.Getenv("CAIRN_CORPUS_DIR"); dir != "" {
		for _, pkg := range []string{"@readme/oas-examples", "@directus/specs", "@blockfrost/openapi"} {
			roots = append(roots, filepath.Join(dir, "node_modules", pkg))
		}
	}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return nil
		})
	}
	old := map[version]*santhosh.Schema{}
	compared, withErrors := 0, 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 4<<20 {
			continue
		}
		var v any
		if strings.HasSuffix(p, ".json") {
			v, err = decodeJSON(string(b))
		} else {
			var n yaml.Node
			if err = yaml.Unmarshal(b, &n); err == nil {
				v, err = newConverter(len(b)).value(&n, 0)
			}
		}
		if err != nil {
			continue
		}
		m, _ := v.(map[string]any)
		ver := versionOfDoc(m)
		if ver == 0 {
			continue
		}
		ours := schemaFor(ver)
		if ours.err != nil {
			t.Fatalf("%s: %v", ver, ours.err)
		}
		if old[ver] == nil {
			old[ver] = compileSanthosh(t, ver)
		}
		var got, want []string
		if err := ours.root.Validate(v); err != nil {
			got = ourLeaves(err.(*jsonschema.ValidationError))
		}
		if err := old[ver].Validate(v); err != nil {
			want = theirLeaves(err.(*santhosh.ValidationError))
		}
		slices.Sort(got)
		slices.Sort(want)
		got, want = slices.Compact(got), slices.Compact(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s (OpenAPI %s):\n cairn     %q\n santhosh  %q", p, ver, got, want)
		}
		compared++
		if len(want) > 0 {
			withErrors++
		}
	}
	t.Logf("%d specs compared, %d of them with schema errors", compared, withErrors)
	if compared < 20 || withErrors < 5 {
		t.Errorf("only %d specs (%d with errors): the comparison is too small to mean anything", compared, withErrors)
	}
}

func versionOfDoc(m map[string]any) version {
	if s, ok := m["swagger"].(string); ok && s == "2.0" {
		return v20
	}
	s, _ := m["openapi"].(string)
	switch {
	case strings.HasPrefix(s, "3.0"):
		return v30
	case strings.HasPrefix(s, "3.1"):
		return v31
	case strings.HasPrefix(s, "3.2"):
		return v32
	}
	return 0
}

func compileSanthosh(t *testing.T, v version) *santhosh.Schema {
	doc, err := santhosh.UnmarshalJSON(strings.NewReader(oasSources[v]))
	if err != nil {
		t.Fatal(err)
	}
	patchOAS(v, doc)
	c := santhosh.NewCompiler()
	c.UseRegexpEngine(func(s string) (santhosh.Regexp, error) { return lenientRegexp(s) })
	if err := c.AddResource("cairn:oas.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("cairn:oas.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A propertyNames error is compared as itself, by its depth and the name:
// santhosh v6.0.3 gives it and the errors under it a wrong location (only
// the depth and the name are right), which the check corrected by
// finding the key (findKey).
func ourLeaves(e *jsonschema.ValidationError) []string {
	if pn, ok := e.Kind.(jsonschema.PropertyNames); ok {
		return []string{fmt.Sprintf("depth %d PropertyNames %s", len(e.InstanceLocation), pn.Property)}
	}
	if len(e.Causes) == 0 {
		return []string{"/" + strings.Join(e.InstanceLocation, "/") + " " + reflect.TypeOf(e.Kind).Name()}
	}
	var out []string
	for _, c := range e.Causes {
		out = append(out, ourLeaves(c)...)
	}
	return out
}

func theirLeaves(e *santhosh.ValidationError) []string {
	if pn, ok := e.ErrorKind.(*kind.PropertyNames); ok {
		return []string{fmt.Sprintf("depth %d PropertyNames %s", len(e.InstanceLocation), pn.Property)}
	}
	if len(e.Causes) == 0 {
		name := reflect.TypeOf(e.ErrorKind).Elem().Name()
		if name == "Dependency" {
			name = "DependentRequired"
		}
		return []string{"/" + strings.Join(e.InstanceLocation, "/") + " " + name}
	}
	var out []string
	for _, c := range e.Causes {
		out = append(out, theirLeaves(c)...)
	}
	return out
}
