package designtokens

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
)

func TestCSSColor(t *testing.T) {
	for _, ok := range []string{"#fff", "#ffff", "#0066cc", "#0066cc80", "rebeccapurple", "Transparent", "rgb(0, 0, 0)", "rgba(0,0,0,.5)", "rgb(0 0 0 / 50%)",
		"hsl(210deg 10% 40%)", "oklch(0.7 0.1 250)", "color(display-p3 1 0 0)", "lab(50% 40 59.5 / 0.5)", "rgb(var(--r) 0 0)", "hwb(none 0% 0%)"} {
		if why := cssColor(ok); why != "" {
			t.Errorf("cssColor(%q): %s", ok, why)
		}
	}
	for _, bad := range []string{"", "#ff", "#12345", "#gggggg", "blu", "rgb(0, 0)", "rgb(a b c)", "fancy(1 2 3)", "color(cmyk 0 0 0)"} {
		if cssColor(bad) == "" {
			t.Errorf("cssColor(%q) accepted it", bad)
		}
	}
}

// check runs the checker on one inline DTCG file and returns its findings
// as "LINE RULE".
func checkOne(t *testing.T, src string) []string {
	t.Helper()
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "x.tokens.json", Content: []byte(src)}}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, fmt.Sprintf("%d %s", f.Line, f.Rule))
	}
	return out
}

func TestValues(t *testing.T) {
	for _, tc := range []struct {
		name, typ, value string
		want             []string
	}{
		{"dimension object", "dimension", `{"value": 4, "unit": "px"}`, nil},
		{"dimension no unit", "dimension", `{"value": 4}`, []string{"1 designtokens/invalid-value"}},
		{"dimension em", "dimension", `"2em"`, []string{"1 designtokens/non-portable-unit"}},
		{"dimension unitless", "dimension", `16`, []string{"1 designtokens/non-portable-unit"}},
		{"dimension zero", "dimension", `"0"`, nil},
		{"duration", "duration", `{"value": 0.2, "unit": "s"}`, nil},
		{"duration bad unit", "duration", `{"value": 2, "unit": "min"}`, []string{"1 designtokens/invalid-value"}},
		{"number string", "number", `"1.5"`, []string{"1 designtokens/invalid-value"}},
		{"font weight alias name", "fontWeight", `"demi-bold"`, nil},
		{"font weight zero", "fontWeight", `0`, []string{"1 designtokens/invalid-value"}},
		{"font family list", "fontFamily", `["Inter", 3]`, []string{"1 designtokens/invalid-value"}},
		{"cubic bezier", "cubicBezier", `[0, -2, 1, 3]`, nil},
		{"stroke style object", "strokeStyle", `{"dashArray": [{"value": 1, "unit": "px"}], "lineCap": "flat"}`, []string{"1 designtokens/invalid-value"}},
		{"border missing style", "border", `{"color": "#000", "width": "1px"}`, []string{"1 designtokens/invalid-value"}},
		{"shadow array", "shadow", `[{"color": "#000", "offsetX": "0px", "offsetY": "1px", "blur": "2px", "spread": "0px"}]`, nil},
		{"shadow no spread", "shadow", `{"color": "#000", "offsetX": "0px", "offsetY": "1px", "blur": "2px"}`, []string{"1 designtokens/invalid-value"}},
		{"gradient position", "gradient", `[{"color": "#000", "position": 2}]`, []string{"1 designtokens/invalid-value"}},
		{"color hue 360", "color", `{"colorSpace": "hsl", "components": [360, 50, 50]}`, []string{"1 designtokens/invalid-value"}},
		{"color none", "color", `{"colorSpace": "oklch", "components": [0.5, 0, "none"], "alpha": 0.5}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkOne(t, fmt.Sprintf(`{"t": {"$type": %q, "$value": %s}}`, tc.typ, tc.value))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestAliases(t *testing.T) {
	src := `{
  "a": {"$type": "color", "$value": "#000"},
  "b": {"$value": "{a}"},
  "c": {"$type": "dimension", "$value": "{b}"},
  "d": {"$value": "{e}"},
  "e": {"$value": "{d}"},
  "f": {"$value": "{f}"},
  "g": {"$type": "shadow", "$value": {"color": "{c}", "offsetX": "0px", "offsetY": "0px", "blur": "0px", "spread": "0px"}},
  "grp": {"$root": {"$type": "color", "$value": "#fff"}},
  "h": {"$type": "color", "$value": "{grp}"},
  "i": {"$type": "color", "$value": "{grp.$root}"}
}`
	want := []string{
		"4 designtokens/type-mismatch",
		"5 designtokens/alias-cycle", "5 designtokens/missing-type",
		"6 designtokens/alias-cycle", "6 designtokens/missing-type",
		"7 designtokens/alias-cycle", "7 designtokens/missing-type",
		"8 designtokens/type-mismatch",
		"10 designtokens/unresolved-alias",
	}
	got := checkOne(t, src)
	if d := cmp.Diff(want, got, cmpSorted); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestWants(t *testing.T) {
	for _, tc := range []struct {
		path, head string
		want       bool
	}{
		{"design/colors.tokens.json", "{", true},
		{"src/base.tokens", "{", true},
		{"tokens/color/base.json", "{", true},
		{"packages/ui/properties/size.json", "{", true},
		{"src/theme.json", `{"color": {"$value": "#fff"`, true},
		{"src/theme.json", `{"color": "#fff"}`, false},
		{"tokens/$themes.json", "[", false},
		{"tokens/package.json", "{", false},
		{"dist/tokens/color.json", "{", false},
		{"schemas/token-types/color.json", `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "/token-types/"`, false},
		{"tokens/readme.md", "{", false},
	} {
		if got := wants(tc.path, []byte(tc.head)); got != tc.want {
			t.Errorf("wants(%q, %q) = %v", tc.path, tc.head, got)
		}
	}
}

func TestParams(t *testing.T) {
	for _, p := range []map[string]string{{"format": "yaml"}, {"dialect": "dtcg"}} {
		if _, err := New().Check(context.Background(), &check.Input{Params: p}); err == nil {
			t.Errorf("%v: want an error", p)
		}
	}
	res, err := New().Check(context.Background(), &check.Input{Params: map[string]string{"format": "style-dictionary"},
		Files: []check.File{{Path: "tokens/a.json", Content: []byte(`{"c": {"value": "#ff", "type": "color"}}`)}}})
	if err != nil || len(res.Findings) != 1 {
		t.Errorf("format=style-dictionary: %v %v", res.Findings, err)
	}
}

func TestHostile(t *testing.T) {
	var chain strings.Builder
	chain.WriteString("{")
	for i := range 50000 {
		fmt.Fprintf(&chain, `"t%d": {"$type": "color", "$value": "{t%d}"},`, i, i+1)
	}
	chain.WriteString(`"t50000": {"$type": "color", "$value": "{t0}"}}`)
	var refs strings.Builder
	refs.WriteString(`{"x": {"$type": "color", "$value": "`)
	for range 100000 {
		refs.WriteString("{nope}")
	}
	refs.WriteString(`"}}`)
	for _, tc := range []struct{ name, body string }{
		{"long cycle", chain.String()},
		{"many refs", refs.String()},
		{"deep groups", strings.Repeat(`{"a":`, 5000) + strings.Repeat("}", 5000)},
		{"braces", `{"x": {"$value": "` + strings.Repeat("{", 300000) + `"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			if _, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "x.tokens.json", Content: []byte(tc.body)}}}); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > slow*30*time.Second { // a hang or a blow-up, not a speed budget
				t.Errorf("took %v", d)
			}
		})
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{`{"a": {"$type": "color", "$value": "{b}"}, "b": {"$value": "{a}"}}`, `{"s": {"$type": "shadow", "$value": [{"color": "#000"}]}}`,
		`{"c": {"value": "{d.value}"}, "d": {"value": 1}}`, `{"p": {"$ref": "#/a/0"}, "a": [1]}`, `{"t": {"$type": "typography", "$value": {"lineHeight": {"value": 1, "unit": "px"}}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []string{"x.tokens.json", "tokens/x.json5"} {
			if _, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: p, Content: []byte(s)}}}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
