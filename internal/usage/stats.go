package usage

import (
	"math"
	"slices"
	"strings"
)

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959964

// Rate is a share of successes with its 95% Wilson score interval, which
// stays inside [0, 1] and is honest for small samples and rates near 0 or
// 1, where the normal approximation is not.
type Rate struct {
	K, N   int
	P      float64
	Lo, Hi float64
}

// Wilson is k successes out of n with its 95% interval; n zero is a zero
// Rate.
func Wilson(k, n int) Rate { return WilsonZ(k, n, z95) }

// Overlaps reports whether two rates' intervals share a point: then the
// sample does not tell them apart.
func (r Rate) Overlaps(o Rate) bool { return r.Lo <= o.Hi && o.Lo <= r.Hi }

// ZFor is the normal quantile of a two-sided interval of level 1-alpha.
func ZFor(alpha float64) float64 { return math.Sqrt2 * math.Erfinv(1-alpha) }

// WilsonZ is Wilson with the quantile z (ZFor) instead of 95%'s.
func WilsonZ(k, n int, z float64) Rate {
	if n <= 0 {
		return Rate{}
	}
	p, nf := float64(k)/float64(n), float64(n)
	z2 := z * z
	den := 1 + z2/nf
	mid := (p + z2/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return Rate{K: k, N: n, P: p, Lo: math.Max(0, mid-half), Hi: math.Min(1, mid+half)}
}

// Diff is a difference of two rates, a - b, with its interval by
// Newcombe's hybrid score method (from the two Wilson intervals at the
// same level): it excludes zero when the samples tell the rates apart.
type Diff struct {
	D, Lo, Hi float64
}

// DiffOf is a.P - b.P with its interval at quantile z.
func DiffOf(a, b Rate, z float64) Diff {
	wa, wb := WilsonZ(a.K, a.N, z), WilsonZ(b.K, b.N, z)
	d := a.P - b.P
	return Diff{D: d, Lo: d - math.Sqrt(sq(a.P-wa.Lo)+sq(wb.Hi-b.P)), Hi: d + math.Sqrt(sq(wa.Hi-a.P)+sq(b.P-wb.Lo))}
}

// Separated reports whether the interval excludes zero.
func (d Diff) Separated() bool { return d.Lo > 0 || d.Hi < 0 }

func sq(x float64) float64 { return x * x }

// Median is the median of a sample with a distribution-free interval
// from its order statistics: the ranks a binomial(n, ½) puts the level
// between (normal approximation), clamped to the sample.
type Median struct {
	N      int
	Mid    float64
	Lo, Hi float64
	P95    float64
}

// MedianOf summarises xs (not changed) with a 95% interval.
func MedianOf(xs []float64) Median { return MedianZ(xs, z95) }

// MedianZ is MedianOf at quantile z.
func MedianZ(xs []float64, z float64) Median {
	n := len(xs)
	if n == 0 {
		return Median{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := Median{N: n, Mid: Quantile(s, 0.5), P95: Quantile(s, 0.95)}
	half := z * math.Sqrt(float64(n)) / 2
	lo := int(math.Floor(float64(n)/2 - half))
	hi := int(math.Ceil(float64(n)/2+half)) - 1
	m.Lo, m.Hi = s[max(0, min(lo, n-1))], s[max(0, min(hi, n-1))]
	return m
}

// Quantile is the q-quantile of sorted values (linear between ranks).
func Quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return 0
	}
	pos := q * float64(len(s)-1)
	i := int(math.Floor(pos))
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

// Separated reports whether two medians' intervals do not overlap.
func (m Median) Separated(o Median) bool { return m.Hi < o.Lo || o.Hi < m.Lo }

// Task types: what a task's words say it is about.
const (
	TypeFrontend = "frontend"
	TypeBackend  = "backend"
	TypeData     = "data"
	TypeInfra    = "infra"
	TypeDocs     = "docs"
	TypeTests    = "tests"
	TypeOther    = "other"
)

// TaskTypes lists the task types, TypeOther last.
var TaskTypes = []string{TypeFrontend, TypeBackend, TypeData, TypeInfra, TypeDocs, TypeTests, TypeOther}

// typeWords are the words that mark each type.
var typeWords = map[string][]string{
	TypeFrontend: {"ui", "css", "html", "component", "components", "react", "vue", "svelte", "frontend", "page", "button", "form", "layout", "style", "styles", "tsx", "jsx", "browser", "dom", "modal", "screen"},
	TypeBackend:  {"api", "endpoint", "endpoints", "handler", "server", "backend", "service", "grpc", "rest", "auth", "middleware", "route", "routes", "http"},
	TypeData:     {"sql", "database", "migration", "migrations", "schema", "query", "queries", "table", "index", "postgres", "sqlite", "etl", "data"},
	TypeInfra:    {"docker", "dockerfile", "ci", "deploy", "deployment", "kubernetes", "k8s", "terraform", "pipeline", "build", "release", "infra"},
	TypeDocs:     {"docs", "readme", "documentation", "doc", "guide", "changelog", "comment", "comments"},
	TypeTests:    {"test", "tests", "testing", "coverage", "flaky", "e2e", "fixture", "fixtures", "benchmark"},
}

// TaskType classifies a task from its words (a title, a goal): the type
// whose marker words it holds most of, ties to the earlier type in
// TaskTypes; TypeOther when none.
func TaskType(text string) string {
	ws := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	best, bestN := TypeOther, 0
	for _, t := range TaskTypes[:len(TaskTypes)-1] {
		n := 0
		for _, w := range ws {
			if slices.Contains(typeWords[t], w) {
				n++
			}
		}
		if n > bestN {
			best, bestN = t, n
		}
	}
	return best
}
