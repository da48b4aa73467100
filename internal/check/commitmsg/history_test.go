package commitmsg

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestRealHistory measures Generate on a real repository's history: each
// non-merge commit whose message is a Conventional Commit with a type of
// the enum is a labeled example (the diff against its parent, old and new
// contents from git). It runs only when CAIRN_COMMITMSG_REPO names a git
// directory (a clone or a bare mirror); CAIRN_COMMITMSG_N caps the commits
// (default 300). It reports; it does not fail on the number, since people
// label their own commits differently (chore(deps) where this says
// build(deps)).
func TestRealHistory(t *testing.T) {
	repo := os.Getenv("CAIRN_COMMITMSG_REPO")
	if repo == "" {
		t.Skip("set CAIRN_COMMITMSG_REPO to a git directory to measure on its history")
	}
	n := 300
	if s := os.Getenv("CAIRN_COMMITMSG_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	git := func(args ...string) ([]byte, error) {
		return exec.Command("git", append([]string{"--git-dir", repo}, args...)...).Output()
	}
	out, err := git("log", "--no-merges", "--format=%H%x00%B%x01", "-n", strconv.Itoa(4*n))
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ total, strict, loose, breakOK int }
	var all tally
	confusion := map[string]int{}
	for _, rec := range strings.Split(string(out), "\x01") {
		sha, msg, ok := strings.Cut(strings.TrimSpace(rec), "\x00")
		if !ok || all.total >= n {
			continue
		}
		m := Parse(msg)
		if !slices.Contains(Types, m.Type) {
			continue
		}
		diff, err := git("diff", "-M", sha+"^", sha)
		if err != nil || len(diff) == 0 || len(diff) > 2<<20 {
			continue
		}
		s, err := Generate(Input{
			Diff: string(diff),
			Old:  func(p string) ([]byte, error) { return git("show", sha+"^:"+p) },
			New:  func(p string) ([]byte, error) { return git("show", sha+":"+p) },
		})
		if err != nil {
			continue
		}
		all.total++
		want, got := m.Type, s.Type
		if want == got {
			all.strict++
		}
		// Conventions differ on dependency bumps and tooling: chore and
		// build are one family, ci and chore for CI-only chores.
		fam := func(t string) string {
			if t == "build" || t == "chore" {
				return "chore"
			}
			return t
		}
		if fam(want) == fam(got) {
			all.loose++
		} else {
			confusion[want+"→"+got]++
			if os.Getenv("CAIRN_COMMITMSG_SHOW") == want+"→"+got {
				files, _ := git("diff", "--stat=100", sha+"^", sha)
				t.Logf("%s %q\n  got %q\n  %s\n%s", sha[:8], m.Header, strings.SplitN(s.Message, "\n", 2)[0], strings.Join(s.Reasons, "; "), files)
			}
		}
		if (m.Breaking != "") == s.Breaking {
			all.breakOK++
		}
	}
	if all.total == 0 {
		t.Fatal("no conventional commits found")
	}
	var conf []string
	for k, v := range confusion {
		conf = append(conf, fmt.Sprintf("%s %d", k, v))
	}
	sort.Slice(conf, func(i, j int) bool {
		a, _ := strconv.Atoi(conf[i][strings.LastIndexByte(conf[i], ' ')+1:])
		b, _ := strconv.Atoi(conf[j][strings.LastIndexByte(conf[j], ' ')+1:])
		return a > b
	})
	t.Logf("%d commits: type strict %d (%.0f%%), type with build≡chore %d (%.0f%%), breaking %d (%.0f%%)",
		all.total, all.strict, 100*float64(all.strict)/float64(all.total), all.loose, 100*float64(all.loose)/float64(all.total),
		all.breakOK, 100*float64(all.breakOK)/float64(all.total))
	t.Logf("most confused (want→got): %s", strings.Join(conf[:min(len(conf), 12)], ", "))
}
