package secrets

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/redact"
)

// expand fills a coverage template with random characters of the asked
// alphabet and length, from r.
func expand(t *testing.T, tmpl string, r *rand.Rand) string {
	const (
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower  = "abcdefghijklmnopqrstuvwxyz"
		digits = "0123456789"
	)
	sets := map[string]string{
		"A": upper + digits, "a": lower + digits, "x": upper + lower + digits, "h": "0123456789abcdef",
		"H": "0123456789ABCDEF", "d": digits, "u": upper + lower + digits + "_-", "b": upper + lower + digits + "+/",
		"B": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
	}
	pick := func(set string, n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(set[r.IntN(len(set))])
		}
		return b.String()
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			break
		}
		j := strings.IndexByte(tmpl[i:], '}') + i
		b.WriteString(tmpl[:i])
		spec := tmpl[i+1 : j]
		switch spec {
		case "uuid", "uuidU":
			h := "0123456789abcdef"
			if spec == "uuidU" {
				h = "0123456789ABCDEF"
			}
			b.WriteString(pick(h, 8) + "-" + pick(h, 4) + "-" + pick(h, 4) + "-" + pick(h, 4) + "-" + pick(h, 12))
		default:
			set, n, _ := strings.Cut(spec, ":")
			count, err := strconv.Atoi(n)
			if err != nil || sets[set] == "" {
				t.Fatalf("bad template part {%s}", spec)
			}
			b.WriteString(pick(sets[set], count))
		}
		tmpl = tmpl[j+1:]
	}
	return strings.ReplaceAll(b.String(), `\n`, "\n")
}

// TestGitleaksCoverage scans one synthetic credential per gitleaks default
// rule, in an .env-like file, and reports which of Cairn's shapes, this
// package's provider formats or its assignment tests catch it. It fails
// when coverage falls below what it was when written, or when a finding's
// message holds the whole secret.
func TestGitleaksCoverage(t *testing.T) {
	f, err := os.Open("testdata/coverage.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := rand.New(rand.NewPCG(30, 1))
	by := map[string][]string{} // how caught → gitleaks rules
	total := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, tmpl, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad line %q", line)
		}
		total++
		text := expand(t, tmpl, r)
		fs := Scan("config/.env", []byte(text))
		how := "missed"
		if len(fs) > 0 {
			rule := fs[0].Rule
			switch {
			case rule == ruleGeneric || rule == rulePassword:
				how = "assignment test (" + strings.TrimPrefix(rule, "secrets/") + ")"
			case slices.ContainsFunc(redact.ProviderShapes(), func(s redact.Shape) bool { return "secrets/"+s.Rule == rule }):
				how = "provider format added here"
			default:
				how = "Cairn's redaction shapes"
			}
		}
		by[how] = append(by[how], id)
		for _, fd := range fs {
			for _, s := range redact.FindSecrets(text) {
				if secret := text[s.Start:s.End]; len(secret) > 8 && strings.Contains(fd.Message, secret) {
					t.Errorf("%s: the message shows the secret: %s", id, fd.Message)
				}
			}
		}
	}
	caught := total - len(by["missed"])
	var report []string
	for how, ids := range by {
		report = append(report, fmt.Sprintf("%-45s %3d", how, len(ids)))
	}
	slices.Sort(report)
	t.Logf("gitleaks v8.30.1 default rules: %d of %d caught (%.0f%%)\n%s\nmissed: %s",
		caught, total, 100*float64(caught)/float64(total), strings.Join(report, "\n"), strings.Join(by["missed"], " "))
	if min := 199; caught < min {
		t.Errorf("caught %d of %d gitleaks rule samples; it was at least %d", caught, total, min)
	}
}
