package memory

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Kind names what a redaction removed. It appears in the marker that replaces the text,
// [REDACTED:<kind>], and in Redactions.ByKind.
type Kind string

// The kinds of text Redact removes.
const (
	KindPrivate              Kind = "private" // a <private>…</private> span
	KindPrivateKey           Kind = "private_key"
	KindAWSAccessKeyID       Kind = "aws_access_key_id"
	KindAWSSecretAccessKey   Kind = "aws_secret_access_key"
	KindGoogleAPIKey         Kind = "google_api_key"
	KindGitHubToken          Kind = "github_token"
	KindSlackToken           Kind = "slack_token"
	KindSlackWebhook         Kind = "slack_webhook"
	KindAnthropicKey         Kind = "anthropic_key"
	KindOpenAIKey            Kind = "openai_key"
	KindStripeKey            Kind = "stripe_key"
	KindJWT                  Kind = "jwt"
	KindURLPassword          Kind = "url_password"
	KindBearerToken          Kind = "bearer_token"
	KindCredentialAssignment Kind = "credential" // password=…, token: …, API_KEY=…
)

// markerPrefix starts every replacement. Rules never match their own markers, which
// is what makes Redact idempotent.
const markerPrefix = "[REDACTED:"

func marker(k Kind) string { return markerPrefix + string(k) + "]" }

// Redactions counts what Redact removed, in total and by kind.
type Redactions struct {
	Total  int
	ByKind map[Kind]int
}

func (r *Redactions) add(k Kind, n int) {
	if n == 0 {
		return
	}
	if r.ByKind == nil {
		r.ByKind = make(map[Kind]int)
	}
	r.ByKind[k] += n
	r.Total += n
}

// Add adds o's counts to r.
func (r *Redactions) Add(o Redactions) {
	for k, n := range o.ByKind {
		r.add(k, n)
	}
}

// String reports the counts for a log line or a tool message, e.g.
// "3 redactions (github_token 1, private 2)"; it never includes redacted text.
func (r Redactions) String() string {
	if r.Total == 0 {
		return "no redactions"
	}
	kinds := make([]string, 0, len(r.ByKind))
	for k := range r.ByKind {
		kinds = append(kinds, string(k))
	}
	slices.Sort(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, r.ByKind[Kind(k)])
	}
	noun := "redactions"
	if r.Total == 1 {
		noun = "redaction"
	}
	return fmt.Sprintf("%d %s (%s)", r.Total, noun, strings.Join(parts, ", "))
}

// Redact removes private spans and replaces well-known secret shapes in s, returning
// the cleaned text and what was removed. Everything removed becomes a [REDACTED:<kind>]
// marker, so a reader sees that something was there but not what.
//
// Private spans are <private>…</private>, the tag case-insensitive and the span free to
// cross lines. Nested tags close at the outermost closing tag; an unclosed tag removes
// to the end; a stray closing tag removes from the end of the previous span (or the
// start of the text) up to itself, since the text before it was meant to be private.
//
// Secrets are matched by shape (AWS, Google, GitHub, Slack, OpenAI, Anthropic and
// Stripe keys, private-key blocks, JWTs, bearer tokens, passwords in URLs) and by
// context (password=, secret:, API_KEY= … followed by a value that looks machine-made).
// Prose such as "the token bucket" or "password reset" is left alone.
//
// Redact is idempotent: Redact of its own output changes nothing and counts nothing.
// It runs in time linear in len(s) (Go regexps are linear).
func Redact(s string) (string, Redactions) {
	var r Redactions
	s = redactPrivate(s, &r)
	// A replacement can put a marker's ']' right before text that an earlier rule needs
	// a word boundary for, so repeat until nothing changes. In practice one or two
	// rounds; the cap only guards against a pathological input.
	for range 8 {
		changed := false
		for i := range secretRules {
			var n int
			s, n = secretRules[i].apply(s)
			if n > 0 {
				r.add(secretRules[i].kind, n)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return s, r
}

// RedactFields applies Redact in place to each field (title, content, each fact, …) and
// returns the summed counts. Nil pointers are skipped.
func RedactFields(fields ...*string) Redactions {
	var total Redactions
	for _, f := range fields {
		if f == nil {
			continue
		}
		var r Redactions
		*f, r = Redact(*f)
		total.Add(r)
	}
	return total
}

// RedactStrings applies Redact in place to every element of ss (facts, tags, file
// paths) and returns the summed counts.
func RedactStrings(ss []string) Redactions {
	var total Redactions
	for i := range ss {
		var r Redactions
		ss[i], r = Redact(ss[i])
		total.Add(r)
	}
	return total
}

var privateTag = regexp.MustCompile(`(?i)<\s*(/?)\s*private\s*>`)

// redactPrivate replaces every private span with one marker. Spans that touch are
// merged so a stray closing tag right after a span does not add a second marker.
func redactPrivate(s string, r *Redactions) string {
	tags := privateTag.FindAllStringSubmatchIndex(s, -1)
	if tags == nil {
		return s
	}
	type span struct{ start, end int }
	var spans []span
	prevEnd := 0 // end of the previous span, where a stray closing tag reaches back to
	depth, start := 0, 0
	for _, m := range tags {
		closing := m[3] > m[2]
		switch {
		case !closing:
			if depth == 0 {
				start = m[0]
			}
			depth++
		case depth > 0:
			depth--
			if depth == 0 {
				spans = append(spans, span{start, m[1]})
				prevEnd = m[1]
			}
		default: // a closing tag with nothing open
			spans = append(spans, span{prevEnd, m[1]})
			prevEnd = m[1]
		}
	}
	if depth > 0 {
		spans = append(spans, span{start, len(s)})
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for i := 0; i < len(spans); i++ {
		sp := spans[i]
		for i+1 < len(spans) && spans[i+1].start <= sp.end {
			sp.end = max(sp.end, spans[i+1].end)
			i++
		}
		b.WriteString(s[at:sp.start])
		b.WriteString(marker(KindPrivate))
		at = sp.end
		r.add(KindPrivate, 1)
	}
	b.WriteString(s[at:])
	return b.String()
}

// A secretRule finds one kind of secret. The regexp's group 1, when present, is the
// secret itself and only it is replaced (the rest of the match is context such as
// "password="); without groups the whole match is replaced. keep, when set, vetoes a
// candidate that has the shape but not the substance of a secret.
type secretRule struct {
	kind Kind
	re   *regexp.Regexp
	keep func(secret string) bool
}

func (rule *secretRule) apply(s string) (string, int) {
	matches := rule.re.FindAllStringSubmatchIndex(s, -1)
	if matches == nil {
		return s, 0
	}
	var b strings.Builder
	at, n := 0, 0
	for _, m := range matches {
		start, end := m[0], m[1]
		if len(m) >= 4 && m[2] >= 0 {
			start, end = m[2], m[3]
		}
		secret := s[start:end]
		if strings.HasPrefix(secret, markerPrefix) || (rule.keep != nil && rule.keep(secret)) {
			continue
		}
		if n == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[at:start])
		b.WriteString(marker(rule.kind))
		at = end
		n++
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[at:])
	return b.String(), n
}

// secretRules run in order: whole blocks and specific prefixes before the generic
// context rules, so a GitHub token after "token=" is reported as a GitHub token.
var secretRules = []secretRule{
	{
		kind: KindPrivateKey,
		// Through the END line; a key pasted without its END line is removed through
		// the lines that are all base64.
		re: regexp.MustCompile(`(?m)-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=]*(?:\r?\n[A-Za-z0-9+/=]+\r?$)*)`),
	},
	{
		kind: KindSlackWebhook,
		re:   regexp.MustCompile(`https://hooks\.slack(?:-gov)?\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]+`),
	},
	{
		kind: KindAWSAccessKeyID,
		re:   regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`),
	},
	{
		kind: KindAWSSecretAccessKey,
		// Forty base64 characters are also a SHA-1 in hex, so only in an assignment to a
		// name that says what it is: aws_secret_access_key=, SecretAccessKey:, …
		re: regexp.MustCompile(`(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?\s*(?::=|=>|[:=])\s*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
	},
	{
		kind: KindGoogleAPIKey,
		re:   regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35,}`),
	},
	{
		kind: KindGitHubToken,
		re:   regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`),
	},
	{
		kind: KindSlackToken,
		re:   regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
		keep: lacksDigit,
	},
	{
		kind: KindAnthropicKey,
		re:   regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`),
		keep: notMachineMade,
	},
	{
		kind: KindStripeKey,
		re:   regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
		keep: lacksDigit,
	},
	{
		kind: KindOpenAIKey,
		// Prose like "ask-the-user" fails the word boundary; a hyphenated phrase after
		// "sk-" fails notMachineMade.
		re:   regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`),
		keep: notMachineMade,
	},
	{
		kind: KindJWT,
		re:   regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
	},
	{
		kind: KindURLPassword,
		// scheme://user:password@host keeps the user. The password runs to the last @
		// before the host so one containing @ is not half left behind.
		re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\[\]]*:([^\s/?#]+)@`),
	},
	{
		kind: KindBearerToken,
		re:   regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)`),
		keep: notMachineMade,
	},
	{
		kind: KindCredentialAssignment,
		// The name may carry a prefix (DB_PASSWORD, githubToken); the value must look
		// machine-made, so "password: required" or "token: the bucket" stay.
		re:   regexp.MustCompile(`(?i)(?:passw(?:or)?d|passphrase|secret|token|api_?key|access_?key|credentials?)["']?\s*(?::=|=>|[:=])\s*["'` + "`" + `]?([^\s"'` + "`" + `,;&<>(){}\[\]]{8,})`),
		keep: notCredential,
	},
}

func lacksDigit(s string) bool {
	return !strings.ContainsFunc(s, unicode.IsDigit)
}

// notMachineMade reports whether s reads like words rather than a generated key: no
// digit, or no letter, or mostly hyphen-separated short words ("sk-learn-style-…").
func notMachineMade(s string) bool {
	if lacksDigit(s) || !strings.ContainsFunc(s, unicode.IsLetter) {
		return true
	}
	longest := 0
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' }) {
		longest = max(longest, len(part))
	}
	return longest < 12
}

// notCredential vetoes the value of a password=/token= assignment that is a
// placeholder, a reference to where the secret lives, or plain words.
func notCredential(v string) bool {
	switch {
	case strings.HasPrefix(v, "/"), strings.HasPrefix(v, "./"), strings.HasPrefix(v, "~/"): // a file holding it
		return true
	case strings.HasPrefix(v, "$"), strings.HasPrefix(v, "%"), strings.HasPrefix(v, "*"),
		strings.HasPrefix(v, "process.env"), strings.HasPrefix(v, "os."), strings.HasPrefix(v, "env."),
		strings.HasPrefix(v, "secrets."), strings.HasPrefix(v, "vault:"):
		return true
	}
	hasLetter := strings.ContainsFunc(v, unicode.IsLetter)
	hasDigit := strings.ContainsFunc(v, unicode.IsDigit)
	if !hasLetter || !hasDigit {
		return true
	}
	return false
}
