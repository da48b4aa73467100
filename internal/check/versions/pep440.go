package versions

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// pep440 is a version as PEP 440 defines it (the parts that order).
type pep440 struct {
	epoch   int
	release []int
	pre     *prePart // a1, b2, rc3
	post    int      // -1 when absent
	dev     int      // -1 when absent
	local   string
}

type prePart struct {
	kind int // 0 a, 1 b, 2 rc
	n    int
}

// pep440RE is PEP 440's permissive version syntax (appendix B), anchored.
var pep440RE = check.LazyRegexp(`^v?(?:(\d+)!)?(\d+(?:\.\d+)*)` +
	`(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d+)?)?` +
	`(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d+)?)?` +
	`(?:[-_.]?(dev)[-_.]?(\d+)?)?` +
	`(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$`)

func parsePEP440(s string) (pep440, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > 128 {
		return pep440{}, fmt.Errorf("version %.20q... is too long", s)
	}
	m := pep440RE().FindStringSubmatch(s)
	if m == nil {
		return pep440{}, fmt.Errorf("%q is not a PEP 440 version", s)
	}
	v := pep440{post: -1, dev: -1, local: m[10]}
	if m[1] != "" {
		v.epoch = atoi(m[1])
	}
	for _, part := range strings.Split(m[2], ".") {
		v.release = append(v.release, atoi(part))
	}
	if m[3] != "" {
		k := 0
		switch m[3] {
		case "b", "beta":
			k = 1
		case "c", "rc", "pre", "preview":
			k = 2
		}
		v.pre = &prePart{k, atoi(m[4])}
	}
	switch {
	case m[5] != "":
		v.post = atoi(m[5])
	case m[6] != "":
		v.post = atoi(m[7])
	}
	if m[8] != "" {
		v.dev = atoi(m[9])
	}
	return v, nil
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

func cmpRelease(a, b []int) int {
	for i := 0; i < max(len(a), len(b)); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	}
	return 0
}

// compare orders versions as PEP 440 does: dev < pre < final < post, and
// a local label sorts after the same public version.
func (v pep440) compare(w pep440) int {
	if c := cmp.Compare(v.epoch, w.epoch); c != 0 {
		return c
	}
	if c := cmpRelease(v.release, w.release); c != 0 {
		return c
	}
	// Pre-release key: a dev release without pre or post sorts before any
	// pre-release; no pre-release sorts after all of them.
	key := func(x pep440) (int, int, int) {
		switch {
		case x.pre == nil && x.post < 0 && x.dev >= 0:
			return -1, 0, 0
		case x.pre == nil:
			return 3, 0, 0
		}
		return x.pre.kind, x.pre.n, 0
	}
	ak, an, _ := key(v)
	bk, bn, _ := key(w)
	if c := cmp.Or(cmp.Compare(ak, bk), cmp.Compare(an, bn)); c != 0 {
		return c
	}
	if c := cmp.Compare(v.post, w.post); c != 0 {
		return c
	}
	// No dev sorts after any dev.
	dv, dw := v.dev, w.dev
	if dv < 0 {
		dv = int(^uint(0) >> 1)
	}
	if dw < 0 {
		dw = int(^uint(0) >> 1)
	}
	if c := cmp.Compare(dv, dw); c != 0 {
		return c
	}
	return cmp.Compare(v.local, w.local)
}

func (v pep440) isPre() bool { return v.pre != nil || v.dev >= 0 }

func (v pep440) public() pep440 { v.local = ""; return v }

// pep440Satisfies checks version v against a PEP 440 specifier set
// ("> =1.2, <2", "~=1.4.2", "==1.2.*").
func pep440Satisfies(spec, v string) (bool, error) {
	spec = strings.TrimSpace(spec)
	ver, err := parsePEP440(v)
	if err != nil {
		return false, errNotEvaluable
	}
	if spec == "" || spec == "*" {
		return true, nil
	}
	for _, clause := range strings.Split(spec, ",") {
		ok, err := pep440Clause(strings.TrimSpace(clause), v, ver)
		if err != nil || !ok {
			return ok, err
		}
	}
	return true, nil
}

var pep440Ops = []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"}

func pep440Clause(clause, raw string, v pep440) (bool, error) {
	op := ""
	for _, o := range pep440Ops {
		if strings.HasPrefix(clause, o) {
			op = o
			break
		}
	}
	if op == "" {
		return false, errNotEvaluable
	}
	arg := strings.TrimSpace(clause[len(op):])
	if op == "===" {
		return strings.EqualFold(arg, raw), nil
	}
	if op == "==" || op == "!=" {
		if prefix, ok := strings.CutSuffix(arg, ".*"); ok {
			p, err := parsePEP440(prefix)
			if err != nil {
				return false, errNotEvaluable
			}
			in := v.epoch == p.epoch && cmpRelease(padTo(v.release, len(p.release)), p.release) == 0
			return in == (op == "=="), nil
		}
	}
	s, err := parsePEP440(arg)
	if err != nil {
		return false, errNotEvaluable
	}
	pub := v
	if s.local == "" {
		pub = v.public()
	}
	switch op {
	case "==":
		return pub.compare(s) == 0, nil
	case "!=":
		return pub.compare(s) != 0, nil
	case "<=":
		return v.public().compare(s) <= 0, nil
	case ">=":
		return v.public().compare(s) >= 0, nil
	case "<":
		// Not a pre-release of the bound itself unless the bound is one.
		if !s.isPre() && v.isPre() && cmpRelease(v.release, s.release) == 0 {
			return false, nil
		}
		return v.public().compare(s) < 0, nil
	case ">":
		if s.post < 0 && v.post >= 0 && cmpRelease(v.release, s.release) == 0 {
			return false, nil
		}
		return v.public().compare(s) > 0, nil
	case "~=":
		if len(s.release) < 2 {
			return false, errNotEvaluable
		}
		if v.public().compare(s) < 0 {
			return false, nil
		}
		prefix := s.release[:len(s.release)-1]
		return v.epoch == s.epoch && cmpRelease(padTo(v.release, len(prefix)), prefix) == 0, nil
	}
	return false, errNotEvaluable
}

// padTo returns the first n parts of r, padded with zeros.
func padTo(r []int, n int) []int {
	out := make([]int, n)
	copy(out, r)
	return out
}

// poetrySatisfies checks v against a Poetry constraint: PEP 440 clauses
// plus ^ and ~ ranges, a bare version meaning exactly it, "||" for OR.
func poetrySatisfies(c, v string) (bool, error) {
	for _, alt := range strings.Split(c, "||") {
		var clauses []string
		for _, part := range strings.Split(alt, ",") {
			// Poetry also accepts space-separated clauses: ">=1.2 <2.0".
			clauses = append(clauses, splitSpaced(part)...)
		}
		all, evaluable := true, true
		for _, cl := range clauses {
			pep, err := poetryClause(cl)
			if err != nil {
				evaluable = false
				break
			}
			ok, err := pep440Satisfies(pep, v)
			if err != nil {
				evaluable = false
				break
			}
			all = all && ok
		}
		if !evaluable {
			return false, errNotEvaluable
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}

func splitSpaced(s string) []string {
	f := strings.Fields(s)
	var out []string
	for i := 0; i < len(f); i++ {
		// Rejoin an operator written apart from its version: ">= 1.2".
		if slices.Contains(append(pep440Ops, "^", "~"), f[i]) && i+1 < len(f) {
			out = append(out, f[i]+f[i+1])
			i++
			continue
		}
		out = append(out, f[i])
	}
	return out
}

// poetryClause turns one Poetry clause into PEP 440 specifiers.
func poetryClause(cl string) (string, error) {
	cl = strings.TrimSpace(cl)
	switch {
	case cl == "*" || cl == "":
		return "", nil
	case strings.HasPrefix(cl, "^"):
		v, err := parsePEP440(cl[1:])
		if err != nil {
			return "", err
		}
		// The upper bound bumps the first non-zero part.
		up := slices.Clone(v.release)
		i := 0
		for i < len(up)-1 && up[i] == 0 {
			i++
		}
		up = append(up[:i], up[i]+1)
		return ">=" + cl[1:] + ",<" + joinInts(up), nil
	case strings.HasPrefix(cl, "~") && !strings.HasPrefix(cl, "~="):
		v, err := parsePEP440(cl[1:])
		if err != nil {
			return "", err
		}
		up := slices.Clone(v.release)
		if len(up) == 1 {
			up = []int{up[0] + 1}
		} else {
			up = []int{up[0], up[1] + 1}
		}
		return ">=" + cl[1:] + ",<" + joinInts(up), nil
	}
	for _, o := range pep440Ops {
		if strings.HasPrefix(cl, o) {
			return cl, nil
		}
	}
	if strings.HasSuffix(cl, ".*") {
		return "==" + cl, nil
	}
	if _, err := parsePEP440(cl); err != nil {
		return "", err
	}
	return "==" + cl, nil
}

func joinInts(r []int) string {
	s := make([]string, len(r))
	for i, n := range r {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ".")
}
