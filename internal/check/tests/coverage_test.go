package testcheck

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
)

// lines makes a file of n numbered lines.
func lines(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("// line ")
		b.WriteString(scan.Itoa(i + 1))
		b.WriteString("\n")
	}
	return b.String()
}

func findingsOf(rep *check.Report, rule string) []string {
	var out []string
	for _, f := range rep.Findings {
		if f.Rule == rule {
			out = append(out, f.File+":"+scan.Itoa(f.Line)+" "+f.Message)
		}
	}
	return out
}

func noteWith(rep *check.Report, s string) bool {
	return slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, s) })
}

func TestGoCoverProfile(t *testing.T) {
	rep := run(t, map[string]string{
		"go.mod":     "module example.com/app // the app\n",
		"pkg/a.go":   lines(30),
		"pkg/b.go":   lines(10),
		"sub/go.mod": "module example.com/sub\n",
		"sub/x/x.go": lines(5),
		"coverage.out": "mode: count\n" +
			"example.com/app/pkg/a.go:3.10,5.2 2 4\n" +
			"example.com/app/pkg/a.go:5.2,9.3 3 0\n" +
			"example.com/app/pkg/a.go:12.1,12.20 1 0\n" +
			"example.com/app/pkg/a.go:12.1,12.20 1 0\n" + // the same block from another test binary
			"example.com/app/pkg/b.go:1.1,2.2 1 0\n" +
			"example.com/app/pkg/b.go:1.1,2.2 1 3\n" + // covered by the other binary
			"example.com/sub/x/x.go:1.1,3.2 2 0\n",
	}, map[string]string{"threshold": "60", "changed": "pkg/a.go, pkg/b.go,sub/x/x.go, pkg/none.go"})
	// 2+3+1+1+2 = 9 statements, 2+1 = 3 covered
	if !noteWith(rep, "coverage 33.3% of 9 statements (3 covered), from coverage.out (Go cover profile)") {
		t.Errorf("notes: %q", rep.Notes)
	}
	want := []string{"coverage.out:0 coverage is 33.3% of statements, below the threshold of 60%"}
	if diff := cmp.Diff(want, findingsOf(rep, scan.RuleBelow)); diff != "" {
		t.Errorf("threshold (-want +got):\n%s", diff)
	}
	want = []string{
		"pkg/a.go:6 5 of 8 instrumented lines are not covered (coverage.out): lines 6-9, 12",
		"sub/x/x.go:1 3 of 3 instrumented lines are not covered (coverage.out): lines 1-3",
	}
	if diff := cmp.Diff(want, findingsOf(rep, scan.RuleUncovered)); diff != "" {
		t.Errorf("uncovered (-want +got):\n%s", diff)
	}
	if !noteWith(rep, "not in the coverage report coverage.out: pkg/none.go") {
		t.Errorf("notes: %q", rep.Notes)
	}
}

func TestLCOV(t *testing.T) {
	rep := run(t, map[string]string{
		"src/cart.ts":      lines(20),
		"src/util.ts":      lines(5),
		"src/cart.test.ts": "import { Cart } from './cart'\nit('x', () => expect(new Cart()).toBeTruthy())\n",
		"coverage/lcov.info": "TN:\nSF:/home/ci/work/app/src/cart.ts\nFN:1,Cart\nFNDA:1,Cart\nDA:1,1\nDA:2,0\nDA:3,0\nDA:5,2\nDA:7,0\nLF:5\nLH:2\nBRF:0\nBRH:0\nend_of_record\n" +
			"TN:\nSF:src/util.ts\nDA:1,1\nDA:2,1\nLF:2\nLH:2\nend_of_record\n",
	}, map[string]string{"threshold": "50"})
	if !noteWith(rep, "coverage 57.1% of 7 lines (4 covered), from coverage/lcov.info (LCOV)") {
		t.Errorf("notes: %q", rep.Notes)
	}
	if got := findingsOf(rep, scan.RuleBelow); len(got) != 0 {
		t.Errorf("57.1%% is above 50%%: %q", got)
	}
	// changed defaults to the source files checked
	want := []string{"src/cart.ts:2 3 of 5 instrumented lines are not covered (coverage/lcov.info): lines 2-3, 7"}
	if diff := cmp.Diff(want, findingsOf(rep, scan.RuleUncovered)); diff != "" {
		t.Errorf("uncovered (-want +got):\n%s", diff)
	}
}

func TestCobertura(t *testing.T) {
	const xml = `<?xml version="1.0" ?>
<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">
<coverage version="7.4" timestamp="1" lines-valid="6" lines-covered="3" line-rate="0.5" branches-covered="0" branches-valid="0" branch-rate="0" complexity="0">
	<sources>
		<source>/builds/shop/app</source>
	</sources>
	<packages>
		<package name="shop" line-rate="0.5" branch-rate="0" complexity="0">
			<classes>
				<class name="cart.py" filename="shop/cart.py" complexity="0" line-rate="0.5" branch-rate="0">
					<methods>
						<method name="add" signature="" line-rate="0"><lines><line number="4" hits="0"/></lines></method>
					</methods>
					<lines>
						<line number="1" hits="1"/>
						<line number="2" hits="1"/>
						<line number="4" hits="0"/>
						<line number="5" hits="0"/>
					</lines>
				</class>
				<class name="cart.py$Inner" filename="shop/cart.py" complexity="0" line-rate="0.5" branch-rate="0">
					<lines>
						<line number="5" hits="2" branch="false"/>
						<line number="8" hits="0"/>
					</lines>
				</class>
			</classes>
		</package>
	</packages>
</coverage>
`
	rep := run(t, map[string]string{"app/shop/cart.py": lines(10), "reports/coverage.xml": xml},
		map[string]string{"coverage": "reports/coverage.xml", "changed": "app/shop/cart.py", "threshold": "75"})
	if !noteWith(rep, "coverage 60.0% of 5 lines (3 covered), from reports/coverage.xml (Cobertura XML)") {
		t.Errorf("notes: %q", rep.Notes)
	}
	want := []string{"app/shop/cart.py:4 2 of 5 instrumented lines are not covered (reports/coverage.xml): lines 4, 8"}
	if diff := cmp.Diff(want, findingsOf(rep, scan.RuleUncovered)); diff != "" {
		t.Errorf("uncovered (-want +got):\n%s", diff)
	}
	if len(findingsOf(rep, scan.RuleBelow)) != 1 {
		t.Errorf("60%% is below 75%%: %v", rep.Findings)
	}
}

func TestCoverageReportsThatDoNotParse(t *testing.T) {
	tests := []struct{ name, file, content, want string }{
		{"go block", "coverage.out", "mode: set\na.go:1.1,x 1 1\n", "coverage.out:2"},
		{"go modes mixed", "coverage.out", "mode: set\nmode: count\n", "coverage.out:2"},
		{"lcov record", "lcov.info", "SF:a.js\nDA:one,1\n", "lcov.info:2"},
		{"cobertura xml", "coverage.xml", "<?xml version=\"1.0\"?>\n<coverage>\n<packages>\n</coverage>\n", "coverage.xml:4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := run(t, map[string]string{tt.file: tt.content, "a.go": "package a\n"}, nil)
			got := findingsOf(rep, scan.RuleSyntax)
			if len(got) != 1 || !strings.HasPrefix(got[0], tt.want+" ") {
				t.Errorf("got %q, want a finding at %s", got, tt.want)
			}
		})
	}
}

func TestCoverageGivenInline(t *testing.T) {
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Only: []string{"tests"},
		Inline: &check.File{Path: "lcov.info", Content: []byte("SF:a.js\nDA:1,0\nDA:2,1\nend_of_record\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if !noteWith(rep, "coverage 50.0% of 2 lines") {
		t.Errorf("notes %q", rep.Notes)
	}
}

func TestRangesText(t *testing.T) {
	tests := []struct {
		in   [][2]int
		want string
	}{
		{[][2]int{{40, 40}}, "line 40"},
		{[][2]int{{12, 18}, {40, 40}}, "lines 12-18, 40"},
	}
	for _, tt := range tests {
		if got := rangesText(tt.in); got != tt.want {
			t.Errorf("rangesText(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	var many [][2]int
	for i := range 25 {
		many = append(many, [2]int{i * 3, i * 3})
	}
	if got := rangesText(many); !strings.HasSuffix(got, "and 5 more ranges") {
		t.Errorf("rangesText(25 ranges) = %q", got)
	}
}

func TestStaleReportIsNoted(t *testing.T) {
	rep := run(t, map[string]string{"a.js": lines(3), "lcov.info": "SF:a.js\nDA:2,0\nDA:90,0\nend_of_record\n"}, map[string]string{"changed": "a.js"})
	if !noteWith(rep, "older than the file") {
		t.Errorf("notes %q", rep.Notes)
	}
	if diff := cmp.Diff([]string{"a.js:2 1 of 2 instrumented lines are not covered (lcov.info): line 2"}, findingsOf(rep, scan.RuleUncovered)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
