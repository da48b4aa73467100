// Package secrets is the "secrets" checker (tool scan_secrets): it finds
// credentials committed to a project's files.
//
// What is checked, on what:
//   - Cairn's own redaction shapes (internal/redact.FindSecrets: AWS,
//     Google, GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe, npm, Hugging
//     Face, SendGrid, Twilio, Azure storage, Shopify, DigitalOcean and PyPI
//     keys, private-key blocks, JWTs, bearer and Basic credentials,
//     passwords in URLs), so a key the memory would redact is a key the
//     scanner reports.
//   - Provider formats Cairn's shapes lack, written here after comparing
//     with gitleaks' default rule set (shapes.go): a literal prefix and a
//     measured body, no regexps, so the scan is linear in the file.
//   - Assignments to names that say "secret" (api_key, clientSecret, TOKEN,
//     password…) in code, .env, YAML, JSON, TOML and properties files: a
//     value over the base64 or hex alphabet whose Shannon entropy is over a
//     threshold tuned on real files is secrets/generic-secret; a literal
//     password is secrets/password-assignment.
//
// Every finding shows the secret redacted: its first characters (4, or a
// quarter of a short one), "…" and its length; never the whole secret.
//
// Not checked: binary files (a .p12 or a keystore; the runner skips
// files with NUL bytes), secrets split across string concatenations or
// encoded (base64 of a key), the git history (only the files as they are),
// and whether a key is live (nothing is sent anywhere).
//
// Allowlist: placeholders are never reported (EXAMPLE, xxxx, <your-key>,
// ${VAR}, {{ .Token }}, changeme…); known test fixtures are allowed by the
// project's suppressions (rule + path glob), an inline `cairn:ignore
// secrets/<rule> reason`, or the allow param.
//
// Params:
//   - scope: "tracked" (default) scans only the files git tracks when the
//     root is a git repository (read from .git/index; untracked files are
//     counted in a note); "all" scans every file the walk gives
//     (.gitignore respected).
//   - allow: comma-separated path globs ("**/testdata/**,fixtures/*.pem")
//     whose findings are dropped and counted in a note.
//   - entropy: the generic-secret threshold in bits per character over the
//     base64 alphabet (default 4.0; hex values use it less 0.7).
//
// For a diff scanner, Scan and ScanLines check content given directly
// (added lines with their numbers) with the same rules.
package secrets

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
)

// Checker is the secrets checker.
type Checker struct{}

// New returns the secrets checker.
func New() *Checker { return &Checker{} }

// Name is "secrets".
func (*Checker) Name() string { return "secrets" }

var rules = sync.OnceValue(buildRules)

// Rules lists every rule.
func (*Checker) Rules() []check.Rule { return rules() }

// skipExt are files that hold no secrets worth reading as text.
var skipExt = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".ico": true, ".bmp": true,
	".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true, ".zip": true, ".gz": true,
	".tgz": true, ".bz2": true, ".xz": true, ".zst": true, ".pdf": true, ".mp3": true, ".mp4": true,
	".wasm": true, ".so": true, ".dll": true, ".exe": true, ".class": true, ".jar": true, ".pyc": true,
	".map": true, ".sum": true,
}

// skipNames are lock files: resolved versions and integrity hashes, which
// are high-entropy by design and never credentials.
var skipNames = map[string]bool{
	"package-lock.json": true, "yarn.lock": true, "pnpm-lock.yaml": true, "Cargo.lock": true, "go.sum": true,
	"poetry.lock": true, "composer.lock": true, "Gemfile.lock": true, "uv.lock": true, "bun.lock": true,
}

// Wants takes every text file but lock files, source maps and known
// binary formats: a secret can be in any of them.
func (*Checker) Wants(p string, head []byte) bool {
	base := path.Base(p)
	return !skipNames[base] && !skipExt[strings.ToLower(path.Ext(base))]
}

// options are the params, read.
type options struct {
	tracked bool
	allow   []string
	entropy float64
}

// DefaultEntropy is the generic-secret threshold over the base64 alphabet,
// in bits per character (see entropy_test.go for how it was tuned).
const DefaultEntropy = 4.0

func readParams(p map[string]string) (options, error) {
	o := options{tracked: true, entropy: DefaultEntropy}
	for k, v := range p {
		switch k {
		case "scope":
			switch strings.TrimSpace(v) {
			case "", "tracked":
				o.tracked = true
			case "all":
				o.tracked = false
			default:
				return o, &problem.FieldError{Field: "scope", Problem: problem.Quote(v) + " is not a scope", Fix: `use "tracked" (git's tracked files, the default) or "all" (every file the walk finds)`}
			}
		case "allow":
			for _, g := range strings.Split(v, ",") {
				g = strings.TrimSpace(g)
				if g == "" {
					continue
				}
				if !doublestar.ValidatePattern(g) {
					return o, &problem.FieldError{Field: "allow", Problem: problem.Quote(g) + " is not a valid glob", Fix: `give comma-separated path globs such as "**/testdata/**,fixtures/*.pem"`}
				}
				o.allow = append(o.allow, g)
			}
		case "entropy":
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 2 || f > 6 {
				return o, &problem.FieldError{Field: "entropy", Problem: problem.Quote(v) + " is not a threshold between 2 and 6", Fix: "give bits per character, e.g. 4.0 (the default); lower finds more and is noisier"}
			}
			o.entropy = f
		default:
			return o, &problem.FieldError{Field: k, Problem: "is not a param of scan_secrets", Fix: "use scope, allow or entropy"}
		}
	}
	return o, nil
}

// Check scans in's files.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	o, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	var res check.Result
	files := in.Files
	if o.tracked && in.Source != nil {
		tracked, note := trackedFiles(in.Source)
		if tracked != nil {
			kept := files[:0:0]
			untracked := 0
			for _, f := range files {
				if tracked[f.Path] {
					kept = append(kept, f)
				} else {
					untracked++
				}
			}
			files = kept
			if untracked > 0 {
				res.Notes = append(res.Notes, fmt.Sprintf("secrets: %d untracked files not scanned (scope=all scans them)", untracked))
			}
		} else if note != "" {
			res.Notes = append(res.Notes, note)
		}
	}
	allowed, scanned := 0, 0
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if matchAny(o.allow, f.Path) {
			allowed++
			continue
		}
		scanned++
		res.Findings = append(res.Findings, scan(f.Path, string(f.Content), nil, o)...)
	}
	res.Notes = append(res.Notes, fmt.Sprintf("secrets: scanned %d files with Cairn's %d redaction shapes, %d more provider formats and the entropy test (threshold %.1f bits/char)",
		scanned, len(kindOrder), len(redact.ProviderShapes()), o.entropy))
	if allowed > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("secrets: %d files skipped by the allow param", allowed))
	}
	return res, nil
}

func matchAny(globs []string, p string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, p); ok {
			return true
		}
	}
	return false
}

// Line is one line given to ScanLines: its 1-based number in the file and
// its text, without the newline.
type Line struct {
	No   int
	Text string
}

// Scan checks content as the file at path (its extension says how values
// are written) with the default options, and returns its findings with
// severity and link set.
func Scan(path string, content []byte) []check.Finding {
	o := options{entropy: DefaultEntropy}
	return settle(scan(path, string(content), nil, o))
}

// ScanLines checks some lines of the file at path, such as the lines a diff
// adds, reporting each finding at the line's own number.
func ScanLines(path string, lines []Line) []check.Finding {
	var b strings.Builder
	nos := make([]int, len(lines))
	for i, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
		nos[i] = l.No
	}
	o := options{entropy: DefaultEntropy}
	return settle(scan(path, b.String(), nos, o))
}

// settle fills a finding's severity and link from its rule, as check.Run
// does.
func settle(fs []check.Finding) []check.Finding {
	for i := range fs {
		j := slices.IndexFunc(rules(), func(r check.Rule) bool { return r.ID == fs[i].Rule })
		if j >= 0 {
			if fs[i].Severity == "" {
				fs[i].Severity = rules()[j].Severity
			}
			fs[i].Link = check.RuleLink(rules()[j])
		}
	}
	return fs
}
