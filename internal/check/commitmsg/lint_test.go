package commitmsg

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestLint(t *testing.T) {
	tests := []struct {
		name, msg string
		want      []string // rule@line:col
	}{
		{"conventional with scope, body and footers", "feat(store): add memory tags\n\nTags let agents group entries.\n\nRefs: #42\nBREAKING CHANGE: Put takes a Tags argument", nil},
		{"bang and no body", "refactor(api)!: drop the v1 routes", nil},
		{"identifier starts the subject", "fix(parser): ParseRange accepts empty input", nil},
		{"git comments are dropped", "# Please enter the commit message\nfix: handle nil\n# On branch main\n", nil},
		{"merge commits are not checked", "Merge branch 'main' into feature", nil},
		{"not conventional", "Fixed the parser", []string{"commitmsg/header-format@1:1"}},
		{"unknown type", "feature: add export", []string{"commitmsg/type-enum@1:1"}},
		{"upper-case type", "Fix: handle nil", []string{"commitmsg/type-case@1:1"}},
		{"upper-case scope", "fix(API): handle nil", []string{"commitmsg/scope-case@1:5"}},
		{"empty parens", "fix(): handle nil", []string{"commitmsg/scope-empty-parens@1:5"}},
		{"trailing period", "docs: explain the flags.", []string{"commitmsg/subject-full-stop@1:24"}},
		{"sentence case", "feat: Add export", []string{"commitmsg/subject-case@1:7"}},
		{"upper case", "fix: FIX THE BUILD", []string{"commitmsg/subject-case@1:6"}},
		{"empty subject", "fix: ", []string{"commitmsg/header-format@1:1"}},
		{"header over 72", "feat(store): add a new way to store the memory entries of agents with embeddings", []string{"commitmsg/header-max-length@1:73"}},
		{"no blank before body", "fix: handle nil\nThe map was nil.", []string{"commitmsg/body-leading-blank@2:1"}},
		{"no blank before footer", "fix: handle nil\n\nThe map was nil.\nRefs: #7", []string{"commitmsg/footer-leading-blank@4:1"}},
		{"prose with a colon is not a footer", "fix: handle nil\n\nThe map was nil.\nNote: callers passed nil", nil},
		{"misspelled breaking footer", "feat: new Open\n\nBREAKING CHANGES: Open takes a context", []string{"commitmsg/breaking-change-format@3:1"}},
		{"lower-case breaking footer", "feat: new Open\n\nbreaking change: Open takes a context", []string{"commitmsg/breaking-change-format@3:1"}},
		{"body line over 100", "fix: x\n\n" + string(make([]byte, 0)) + repeat("word ", 25), []string{"commitmsg/body-max-line-length@3:101"}},
		{"empty message", "\n# only comments\n", []string{"commitmsg/empty@1:1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range Lint(tt.msg, Options{}) {
				got = append(got, f.Rule+"@"+strconv.Itoa(f.Line)+":"+strconv.Itoa(f.Col))
			}
			slices.Sort(got)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("Lint(%q) (-want +got)\n%s", tt.msg, d)
			}
		})
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func TestParseBreaking(t *testing.T) {
	m := Parse("feat(api)!: drop v1\n\nThe v1 routes are gone.\n\nRefs: #3\nBREAKING-CHANGE: clients must call /v2\n  and re-authenticate")
	if m.Type != "feat" || m.Scope != "api" || !m.Bang || m.Breaking != "clients must call /v2\n  and re-authenticate" || m.Body != "The v1 routes are gone." {
		t.Errorf("parsed %+v", m)
	}
}

func TestRules(t *testing.T) { checktest.Rules(t, rulesChecker{}) }

type rulesChecker struct{}

func (rulesChecker) Name() string              { return "commitmsg" }
func (rulesChecker) Rules() []check.Rule       { return Rules() }
func (rulesChecker) Wants(string, []byte) bool { return false }
func (rulesChecker) Check(context.Context, *check.Input) (check.Result, error) {
	return check.Result{}, nil
}
