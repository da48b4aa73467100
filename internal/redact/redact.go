package redact

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/lazyre"
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
	KindGitLabToken          Kind = "gitlab_token"
	KindNPMToken             Kind = "npm_token"
	KindHuggingFaceToken     Kind = "huggingface_token"
	KindSendGridKey          Kind = "sendgrid_key"
	KindTwilioKey            Kind = "twilio_key"
	KindAzureStorageKey      Kind = "azure_storage_key"
	KindBasicAuth            Kind = "basic_auth"
	KindShopifyToken         Kind = "shopify_token"
	KindDigitalOceanToken    Kind = "digitalocean_token"
	KindPyPIToken            Kind = "pypi_token"
	KindTelegramToken        Kind = "telegram_bot_token"
	KindGoogleOAuthToken     Kind = "google_oauth_token"
	KindVaultToken           Kind = "vault_token" // also a provider shape's kind, at a lower length bar
	KindSentryDSN            Kind = "sentry_dsn"
	KindHeaderToken          Kind = "header_token"     // X-API-Key: …, Authorization: token …
	KindCommandPassword      Kind = "command_password" // mysql -p…, sshpass -p, redis-cli -a, curl -u user:…
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
// It takes time linear in len(s): Go regexps are linear, and a rule runs its regexp
// only where its literal hint occurs, so prose without secrets costs little.
func Redact(s string) (string, Redactions) {
	var r Redactions
	s = redactPrivate(s, &r)
	s = redactShapes(s, &r)
	// A replacement can put a marker's ']' right before text that an earlier rule needs
	// a word boundary for, so repeat until nothing changes. In practice one or two
	// rounds; the cap only guards against a pathological input.
	for range 8 {
		changed := false
		lower := asciiLower(s)
		for i := range secretRules {
			var n int
			s, n = secretRules[i].apply(s, lower)
			if n > 0 {
				lower = asciiLower(s)
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

// redactShapes replaces the provider tokens FindShapes finds, each with a
// marker of its shape's kind (the rule id with _ for -: vault_token).
func redactShapes(s string, r *Redactions) string {
	ms := FindShapes(s)
	if len(ms) == 0 {
		return s
	}
	slices.SortStableFunc(ms, func(a, b ShapeMatch) int { return a.Start - b.Start })
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, m := range ms {
		if m.Start < at {
			continue // inside a token already replaced
		}
		k := ShapeKind(m.Shape)
		b.WriteString(s[at:m.Start])
		b.WriteString(marker(k))
		at = m.End
		r.add(k, 1)
	}
	b.WriteString(s[at:])
	return b.String()
}

// ShapeKind is the redaction kind of a provider shape.
func ShapeKind(sh *Shape) Kind { return Kind(strings.ReplaceAll(sh.Rule, "-", "_")) }

var privateTag = lazyre.New(`(?i)<\s*(/?)\s*private\s*>`)

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
// "password="); without groups the whole match is replaced.
//
// Most text holds no secret, so a rule first looks for one of its hints, literal
// substrings every match contains (in lowercase when fold is set), and runs its regexp
// only when one is there. Regexps avoid counted repetition, which makes Go's regexp
// machines large and slow; minLen and keep check lengths and substance afterwards.
type secretRule struct {
	kind   Kind
	hints  []string
	fold   bool
	re     *lazyre.Regexp
	minLen int                      // the secret's minimum length
	keep   func(secret string) bool // vetoes a candidate with a secret's shape but not its substance
	// boundStart and boundEnd ask for a non-word character (or the text's edge)
	// before and after the match: what \b would say, were the search not resumed
	// mid-text.
	boundStart, boundEnd bool
	// atHint says the regexp is anchored (^…) and is tried only where a hint occurs,
	// for rules whose regexp would otherwise have to be tried at every position.
	atHint bool
	// boundB64 asks for a character that cannot be part of base64 text (or the
	// text's edge) before and after the match, so a run cut out of a longer blob
	// (test data, a hash) is not taken for a key.
	boundB64 bool
	// find, when set, replaces re: the leftmost candidate at or after pos, as
	// FindStringSubmatchIndex would give it, or nil.
	find func(f *finder, pos int) []int
}

// maxRetries bounds how often one application of a rule looks again inside a vetoed
// candidate, which keeps Redact linear on adversarial input.
const maxRetries = 64

func (rule *secretRule) apply(s, lower string) (string, int) {
	var b strings.Builder
	at, n := 0, 0
	rule.spans(s, lower, func(start, end int) {
		if n == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[at:start])
		b.WriteString(marker(rule.kind))
		at = end
		n++
	})
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[at:])
	return b.String(), n
}

// spans calls yield with the start and end of each secret the rule finds in
// s (lower is s with ASCII lowercased), left to right, never overlapping.
func (rule *secretRule) spans(s, lower string, yield func(start, end int)) {
	hay := s
	if rule.fold {
		hay = lower
	}
	f := finder{rule: rule, s: s, hay: hay, next: make([]int, len(rule.hints)), endFrom: -1}
	found := false
	for i, h := range rule.hints {
		f.next[i] = strings.Index(hay, h)
		found = found || f.next[i] >= 0
	}
	if !found {
		return
	}
	retries := 0
	for pos := 0; pos < len(s); {
		m := f.find(pos)
		if m == nil {
			break
		}
		start, end := m[0], m[1]
		for g := 2; g+1 < len(m); g += 2 { // the first group that matched: the secret
			if m[g] >= 0 {
				start, end = m[g], m[g+1]
				break
			}
		}
		secret := s[start:end]
		if !rule.accept(s, m[0], m[1], secret) {
			// A longer candidate may hide a real secret that starts inside it
			// ("eyJx.eyJ…" followed by a whole JWT), so look again just after its start.
			if retries < maxRetries {
				retries++
				pos = m[0] + 1
			} else {
				pos = max(m[1], m[0]+1)
			}
			continue
		}
		yield(start, end)
		pos = max(m[1], m[0]+1)
	}
}

// finder finds a rule's candidates in s from a position on.
type finder struct {
	rule   *secretRule
	s, hay string
	next   []int // per hint, its next known occurrence in hay at or after the last position asked, or -1
	// end, endFrom and endStart remember findPrivateKey's last search for
	// an END line: the first one at or after endFrom starts at endStart and
	// ends at end (-1: there is none), so each part of the text is searched
	// for one once.
	end, endFrom, endStart int
}

// find returns the leftmost candidate at or after pos as submatch indexes into s.
func (f *finder) find(pos int) []int {
	if f.rule.find != nil {
		return f.rule.find(f, pos)
	}
	if !f.rule.atHint {
		return offset(f.rule.re.FindStringSubmatchIndex(f.s[pos:]), pos)
	}
	// The regexp is anchored: try it where a hint occurs, leftmost first.
	for {
		p := -1
		for i, h := range f.rule.hints {
			if f.next[i] >= 0 && f.next[i] < pos {
				if j := strings.Index(f.hay[pos:], h); j >= 0 {
					f.next[i] = pos + j
				} else {
					f.next[i] = -1
				}
			}
			if f.next[i] >= 0 && (p < 0 || f.next[i] < p) {
				p = f.next[i]
			}
		}
		if p < 0 {
			return nil
		}
		if m := f.rule.re.FindStringSubmatchIndex(f.s[p:]); m != nil {
			return offset(m, p)
		}
		pos = p + 1
	}
}

func offset(m []int, by int) []int {
	for i := range m {
		if m[i] >= 0 {
			m[i] += by
		}
	}
	return m
}

// accept applies the checks a regexp cannot do cheaply: word boundaries around the
// match s[from:to], the secret's length and substance, and never a marker.
func (rule *secretRule) accept(s string, from, to int, secret string) bool {
	if rule.boundStart && from > 0 && isWordByte(s[from-1]) {
		return false
	}
	if rule.boundEnd && to < len(s) && isWordByte(s[to]) {
		return false
	}
	if rule.boundB64 && (from > 0 && isBase64Byte(s[from-1]) || to < len(s) && isBase64Byte(s[to])) {
		return false
	}
	if len(secret) < rule.minLen || strings.HasPrefix(secret, markerPrefix) {
		return false
	}
	return rule.keep == nil || !rule.keep(secret)
}

// asciiLower lowercases ASCII letters only, so byte offsets in the result are offsets
// in s (strings.ToLower can change the length of other letters).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isBase64Byte(c byte) bool {
	return isWordByte(c) || c == '+' || c == '/' || c == '=' || c == '-'
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// secretRules run in order: whole blocks and specific prefixes before the generic
// context rules, so a GitHub token after "token=" is reported as a GitHub token.
var secretRules = []secretRule{
	{
		kind:  KindPrivateKey,
		hints: []string{"PRIVATE KEY"},
		// Through the END line; a key pasted without its END line is removed through
		// the lines that are all base64. Found by findPrivateKey, not a regexp: a
		// lazy search for the END line from every BEGIN line is quadratic in text
		// of many BEGIN lines and no END.
		find: findPrivateKey,
	},
	{
		kind:  KindSlackWebhook,
		hints: []string{"hooks.slack"},
		re:    lazyre.New(`https://hooks\.slack(?:-gov)?\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]+`),
	},
	{
		kind:       KindAWSAccessKeyID,
		hints:      []string{"AKIA", "ASIA", "ABIA", "ACCA"},
		re:         lazyre.New(`(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]+`),
		keep:       func(s string) bool { return len(s) != 20 },
		boundStart: true, boundEnd: true,
	},
	{
		kind:   KindAWSSecretAccessKey,
		hints:  []string{"secret"},
		fold:   true,
		atHint: true,
		// Forty base64 characters are also a SHA-1 in hex, so only in an assignment to a
		// name that says what it is: aws_secret_access_key=, SecretAccessKey:, …
		re:   lazyre.New(`^(?i)secret_?(?:access_?)?key["']?\s*(?::=|=>|[:=])\s*["']?([A-Za-z0-9/+]+)`),
		keep: func(s string) bool { return len(s) != 40 },
	},
	{
		kind:       KindGoogleAPIKey,
		hints:      []string{"AIza"},
		re:         lazyre.New(`AIza[0-9A-Za-z_-]+`),
		boundStart: true,
		minLen:     39,
	},
	{
		kind:       KindGitHubToken,
		hints:      []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re:         lazyre.New(`gh[pousr]_[A-Za-z0-9]+|github_pat_[A-Za-z0-9_]+`),
		boundStart: true,
		keep: func(s string) bool {
			return (strings.HasPrefix(s, "github_pat_") && len(s) < 51) || len(s) < 40
		},
	},
	{
		kind:       KindSlackToken,
		hints:      []string{"xox"},
		re:         lazyre.New(`xox[abprs]-[A-Za-z0-9-]+`),
		boundStart: true,
		minLen:     15,
		keep:       lacksDigit,
	},
	{
		kind:       KindAnthropicKey,
		hints:      []string{"sk-ant-"},
		re:         lazyre.New(`sk-ant-[A-Za-z0-9_-]+`),
		boundStart: true,
		minLen:     27,
		keep:       notMachineMade,
	},
	{
		kind:       KindStripeKey,
		hints:      []string{"_live_", "_test_"},
		re:         lazyre.New(`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]+`),
		boundStart: true,
		minLen:     24,
		keep:       lacksDigit,
	},
	{
		kind:       KindGitLabToken,
		hints:      []string{"glpat-", "gldt-", "glrt-", "glptt-"},
		re:         lazyre.New(`gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]+`),
		boundStart: true,
		minLen:     25,
		keep:       notMachineMade,
	},
	{
		kind:       KindNPMToken,
		hints:      []string{"npm_"},
		re:         lazyre.New(`npm_[A-Za-z0-9]+`),
		boundStart: true, boundEnd: true,
		keep: func(s string) bool { return len(s) != 40 || lacksDigit(s) },
	},
	{
		kind:       KindHuggingFaceToken,
		hints:      []string{"hf_"},
		re:         lazyre.New(`hf_[A-Za-z0-9]+`),
		boundStart: true, boundEnd: true,
		minLen: 37,
		keep:   notMixedCase,
	},
	{
		kind:       KindSendGridKey,
		hints:      []string{"SG."},
		re:         lazyre.New(`SG\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`),
		boundStart: true,
		keep: func(s string) bool {
			parts := strings.SplitN(s, ".", 3)
			return len(parts[1]) < 16 || len(parts[2]) < 30
		},
	},
	{
		// Account SIDs (AC…) and API key SIDs (SK…): 32 hex digits.
		kind:       KindTwilioKey,
		hints:      []string{"AC", "SK"},
		re:         lazyre.New(`(?:AC|SK)[0-9a-f]+`),
		boundStart: true, boundEnd: true,
		keep: func(s string) bool { return len(s) != 34 || lacksDigit(s) || !strings.ContainsAny(s[2:], "abcdef") },
	},
	{
		kind:   KindAzureStorageKey,
		hints:  []string{"accountkey", "sharedaccesskey"},
		fold:   true,
		atHint: true,
		re:     lazyre.New(`^(?i)(?:accountkey|sharedaccesskey)\s*=\s*([A-Za-z0-9+/]+=*)`),
		minLen: 20,
	},
	{
		kind:   KindBasicAuth,
		hints:  []string{"basic"},
		fold:   true,
		atHint: true,
		// "Authorization: Basic dXNlcjpwYXNz": base64 of user:password.
		re:         lazyre.New(`^(?i)basic\s+([A-Za-z0-9+/]+=*)`),
		boundStart: true,
		minLen:     8,
		keep:       notBasicCredentials,
	},
	{
		kind:       KindShopifyToken,
		hints:      []string{"shpat_", "shpss_", "shpca_", "shppa_"},
		re:         lazyre.New(`shp(?:at|ss|ca|pa)_[a-fA-F0-9]+`),
		boundStart: true,
		minLen:     38,
	},
	{
		kind:       KindDigitalOceanToken,
		hints:      []string{"dop_v1_", "doo_v1_", "dor_v1_"},
		re:         lazyre.New(`do[opr]_v1_[a-f0-9]+`),
		boundStart: true,
		minLen:     71,
	},
	{
		kind:       KindPyPIToken,
		hints:      []string{"pypi-"},
		re:         lazyre.New(`pypi-[A-Za-z0-9_-]+`),
		boundStart: true,
		minLen:     50,
		keep:       notMachineMade,
	},
	{
		// A Telegram bot token: the bot's numeric id, a colon, 35 characters
		// that start with AA.
		kind:       KindTelegramToken,
		hints:      []string{":AA"},
		re:         lazyre.New(`[0-9]+:AA[A-Za-z0-9_-]+`),
		boundStart: true, boundEnd: true,
		keep: func(s string) bool {
			id, tok, _ := strings.Cut(s, ":")
			return len(id) < 8 || len(id) > 10 || len(tok) != 35
		},
	},
	{
		kind:       KindGoogleOAuthToken,
		hints:      []string{"ya29."},
		re:         lazyre.New(`ya29\.[0-9A-Za-z_-]+`),
		boundStart: true,
		minLen:     30,
		keep:       notMachineMade,
	},
	{
		// Vault service, batch and recovery tokens: the provider shape asks
		// for the 90 characters of a real one; a shorter one redacts too.
		kind:       KindVaultToken,
		hints:      []string{"hvs.", "hvb.", "hvr."},
		re:         lazyre.New(`hv[sbr]\.[A-Za-z0-9_-]+`),
		boundStart: true,
		minLen:     24,
		keep:       notMachineMade,
	},
	{
		// https://<key>@o1.ingest.sentry.io/2: the key is the DSN's secret.
		kind:  KindSentryDSN,
		hints: []string{"sentry"},
		fold:  true,
		re:    lazyre.New(`://([0-9a-fA-F]+)(?::[0-9a-fA-F]+)?@[A-Za-z0-9.-]*sentry`),
		keep:  func(s string) bool { return len(s) != 32 },
	},
	{
		// X-API-Key: …, X-Auth-Token: …, Authorization: token … / apikey …
		kind:   KindHeaderToken,
		hints:  []string{"x-api-key", "x-auth-token", "x-access-token", "api-key:", "authorization"},
		fold:   true,
		atHint: true,
		re:     lazyre.New(`^(?i)(?:x-api-key|x-auth-token|x-access-token|api-key|authorization)["']?\s*[:=]\s*["']?(?:(?:token|apikey|api-key|key)\s+)?([^\s"',;]+)`),
		minLen: 8,
		keep: func(v string) bool {
			return isReference(v) || strings.EqualFold(v, "bearer") || strings.EqualFold(v, "basic") || lacksDigit(v)
		},
	},
	{
		// A password given on a command line: mysql -pS3cret (attached),
		// sshpass -p, docker/podman/az login -p, redis-cli -a, openssl
		// -k/-pass, and --password/--passwd with = or a space.
		kind:   KindCommandPassword,
		hints:  []string{"mysql", "mariadb", "sshpass", "login", "redis-cli", "openssl", "--pass"},
		atHint: true,
		re: lazyre.New(`^(?:(?:mysql[a-z]*|mariadb[a-z-]*)[^\n;&|]{0,200}?[ \t]-p([^\s'"-][^\s'"]*)` +
			`|sshpass[ \t]+-p[ \t]*(\S+)` +
			`|login[^\n;&|]{0,200}?[ \t]-p[ \t]+(\S+)` +
			`|redis-cli[^\n;&|]{0,200}?[ \t]-a[ \t]+(\S+)` +
			`|openssl[^\n;&|]{0,200}?[ \t]-(?:k|pass)[ \t]+(?:pass:)?(\S+)` +
			`|--pass(?:word|wd)?(?:=|[ \t]+)['"]?([^\s'"]+))`),
		minLen: 3,
		keep: func(v string) bool {
			// openssl's -pass env:NAME, file:PATH, fd:N, stdin say where it is.
			return isReference(v) || v == "stdin" || strings.HasPrefix(v, "env:") || strings.HasPrefix(v, "file:") || strings.HasPrefix(v, "fd:")
		},
	},
	{
		// curl -u user:password, --user user:password: the part after the
		// colon.
		kind:   KindCommandPassword,
		hints:  []string{"curl"},
		atHint: true,
		re:     lazyre.New(`^curl[^\n;&|]{0,200}?[ \t](?:-u|--user)(?:[ \t]+|=)?['"]?[^\s:'"]+:([^\s'"]+)`),
		minLen: 3,
		keep:   isReference,
	},
	{
		// heroku config:set NAME=value (or NAME value).
		kind:   KindCommandPassword,
		hints:  []string{"config:set"},
		atHint: true,
		re:     lazyre.New(`^config:set[ \t]+(?:-[a-z]+[ \t]+\S+[ \t]+)*[A-Za-z_][A-Za-z0-9_]*(?:=|[ \t]+)(\S+)`),
		minLen: 6,
		keep:   isReference,
	},
	{
		kind:  KindOpenAIKey,
		hints: []string{"sk-"},
		// Prose like "ask-the-user" fails the word boundary; a hyphenated phrase after
		// "sk-" fails notMachineMade.
		re:         lazyre.New(`sk-[A-Za-z0-9_-]+`),
		boundStart: true,
		minLen:     23,
		keep:       notMachineMade,
	},
	{
		kind:       KindJWT,
		hints:      []string{"eyJ"},
		re:         lazyre.New(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`),
		boundStart: true,
		keep: func(s string) bool {
			parts := strings.SplitN(s, ".", 3)
			return len(parts[0]) < 13 || len(parts[1]) < 10
		},
	},
	{
		kind:  KindURLPassword,
		hints: []string{"://"},
		// scheme://user:password@host keeps the user. The password runs to the last @
		// before the host so one containing @ is not half left behind.
		re: lazyre.New(`://[^\s:/?#@\[\]]*:([^\s/?#]+)@`),
	},
	{
		// A password with a '/' in it: what follows "user:" is a port when it is
		// digits up to the '/', as in http://host:8080/a@b.
		kind:  KindURLPassword,
		hints: []string{"://"},
		re:    lazyre.New(`://[^\s:/?#@\[\]]*:([^\s@]*/[^\s@]*)@`),
		keep:  looksLikePort,
	},
	{
		// An AWS secret access key in prose ("the AWS secret is wJalr…"): forty
		// base64 characters with upper and lower case and a digit (a SHA-1 in hex
		// has one case), standing alone, in text that speaks of AWS or a secret.
		kind:     KindAWSSecretAccessKey,
		hints:    []string{"aws", "secret"},
		fold:     true,
		re:       lazyre.New(`[A-Za-z0-9/+]+`),
		boundB64: true,
		keep:     func(s string) bool { return len(s) != 40 || lacksDigit(s) || notMixedCase(s) },
	},
	{
		kind:       KindBearerToken,
		hints:      []string{"bearer"},
		fold:       true,
		atHint:     true,
		re:         lazyre.New(`^(?i)bearer\s+([A-Za-z0-9._~+/-]+=*)`),
		boundStart: true,
		minLen:     16,
		keep:       notMachineMade,
	},
	{
		// A password assigned with '=' (code, env files): any value but a
		// placeholder or a reference, digits or not (PASSWORD=hunter2,
		// DB_PASSWORD=correcthorsebatterystaple). "password: required" in prose
		// uses ':' and is left to the rule below.
		kind:   KindCredentialAssignment,
		hints:  []string{"passw", "_pass", "pwd", "passphrase"},
		fold:   true,
		atHint: true,
		re:     lazyre.New(`^(?i)(?:passw(?:or)?d|_pass|pwd|passphrase)["']?\s*(?::=|=>|=)\s*["'` + "`" + `]?([^\s"'` + "`" + `,;&<>(){}\[\]]+)`),
		minLen: 6,
		keep:   isReference,
	},
	{
		// Other names that say "secret" when assigned with '=' (env files):
		// STRIPE_KEY=, MAILGUN_AUTH=, AUTH=.
		kind:   KindCredentialAssignment,
		hints:  []string{"_key", "auth"},
		fold:   true,
		atHint: true,
		re:     lazyre.New(`^(?i)(?:_key|auth)["']?\s*(?::=|=>|=)\s*["'` + "`" + `]?([^\s"'` + "`" + `,;&<>(){}\[\]]+)`),
		minLen: 8,
		keep:   notCredential,
	},
	{
		kind:   KindCredentialAssignment,
		hints:  []string{"passw", "passphrase", "secret", "token", "apikey", "api_key", "accesskey", "access_key", "credential"},
		fold:   true,
		atHint: true,
		// The name may carry a prefix (DB_PASSWORD, githubToken); the value must look
		// machine-made, so "password: required" or "token: the bucket" stay.
		re:     lazyre.New(`^(?i)(?:passw(?:or)?d|passphrase|secret|token|api_?key|access_?key|credentials?)["']?\s*(?::=|=>|[:=])\s*["'` + "`" + `]?([^\s"'` + "`" + `,;&<>(){}\[\]]+)`),
		minLen: 8,
		keep:   notCredential,
	},
}

// notMixedCase reports whether s lacks either upper or lower case letters.
func notMixedCase(s string) bool {
	return !strings.ContainsFunc(s, unicode.IsUpper) || !strings.ContainsFunc(s, unicode.IsLower)
}

// notBasicCredentials vetoes a "Basic …" value that is not base64 of
// user:password ("basic usage", "Basic auth").
func notBasicCredentials(v string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	return err != nil || !bytes.ContainsRune(b, ':') || !utf8.Valid(b)
}

// looksLikePort vetoes a URL "password" that is a port and a path.
func looksLikePort(v string) bool {
	head, _, _ := strings.Cut(v, "/")
	if head == "" {
		return true
	}
	return !strings.ContainsFunc(head, func(r rune) bool { return r < '0' || r > '9' })
}

// isReference vetoes a password value that says where the secret is, or
// that it is not given, rather than being it.
func isReference(v string) bool {
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/") ||
		strings.HasPrefix(v, "$") || strings.HasPrefix(v, "%") || strings.HasPrefix(v, "*") ||
		strings.HasPrefix(v, "process.env") || strings.HasPrefix(v, "os.") || strings.HasPrefix(v, "env.") ||
		strings.HasPrefix(v, "secrets.") || strings.HasPrefix(v, "vault:") {
		return true
	}
	switch strings.ToLower(strings.Trim(v, ".")) {
	case "none", "null", "nil", "empty", "required", "optional", "changeme", "redacted", "xxxxxx", "xxxxxxxx", "******":
		return true
	}
	return false
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

var (
	pemBegin = lazyre.New(`^-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
	pemEnd   = lazyre.New(`^-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)
)

// maxPEMLabel bounds how far before "PRIVATE KEY" a BEGIN or END line's
// dashes may start ("-----BEGIN ENCRYPTED PRIVATE KEY-----" is 39 bytes).
const maxPEMLabel = 64

// findPrivateKey finds the leftmost private-key block at or after pos: its
// BEGIN line through the first END line after it or, with none, through the
// lines after it that are all base64. Each part of s is read a bounded number
// of times, however many BEGIN lines it holds.
func findPrivateKey(f *finder, pos int) []int {
	s := f.s
	for from := pos; from < len(s); {
		i := strings.Index(s[from:], "PRIVATE KEY")
		if i < 0 {
			return nil
		}
		hint := from + i
		from = hint + 1
		// The BEGIN line's dashes start within maxPEMLabel bytes before the hint.
		lo := max(pos, hint-maxPEMLabel)
		start := strings.LastIndex(s[lo:hint], "-----BEGIN")
		if start < 0 {
			continue
		}
		start += lo
		head := pemBegin.FindStringIndex(s[start:min(len(s), hint+len("PRIVATE KEY BLOCK-----"))])
		if head == nil {
			continue
		}
		body := start + head[1]
		if end := f.pemEndAfter(body); end >= 0 {
			return []int{start, end}
		}
		return []int{start, base64Lines(s, body)}
	}
	return nil
}

// pemEndAfter is the end of the first END line at or after from, or -1.
func (f *finder) pemEndAfter(from int) int {
	if f.endFrom >= 0 && from >= f.endFrom && (f.end < 0 || from <= f.endStart) {
		return f.end
	}
	s := f.s
	f.endFrom, f.end = from, -1
	for at := from; at < len(s); {
		i := strings.Index(s[at:], "-----END")
		if i < 0 {
			break
		}
		at += i
		if m := pemEnd.FindStringIndex(s[at:min(len(s), at+maxPEMLabel+len("PRIVATE KEY BLOCK-----"))]); m != nil {
			f.end = at + m[1]
			f.endStart = at
			break
		}
		at++
	}
	return f.end
}

// base64Lines is the end of a key's body pasted without its END line: the
// rest of the BEGIN line's base64 characters, then every following line
// that is all base64 (a trailing \r allowed).
func base64Lines(s string, at int) int {
	isB64 := func(c byte) bool {
		return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
	}
	for at < len(s) && isB64(s[at]) {
		at++
	}
	for {
		i := at
		if i < len(s) && s[i] == '\r' {
			i++
		}
		if i >= len(s) || s[i] != '\n' {
			return at
		}
		i++
		j := i
		for j < len(s) && isB64(s[j]) {
			j++
		}
		if j == i {
			return at
		}
		if j < len(s) && s[j] == '\r' {
			j++
		}
		if j < len(s) && s[j] != '\n' {
			return at // the line holds more than base64
		}
		at = j
	}
}
