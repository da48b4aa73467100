package redact

import (
	"strings"
	"sync"
)

// A Shape is a provider's token format beside the secret rules of
// redact.go: a distinctive literal prefix and a body of a known alphabet
// and length (written after comparing with gitleaks' default rule set).
// Redact replaces them, and the secrets check reports them. Shapes are matched without regexps: the
// prefixes are found with strings.Index and the body is measured, so a scan
// stays linear however many shapes there are.
type Shape struct {
	Rule     string   // the rule id without "secrets/", and the redaction kind with _ for -
	Provider string   // who issues it, for the message
	Noun     string   // what it is, "token" unless said
	Prefixes []string // literal, case-sensitive
	alphabet alphabet // the body's characters
	min, max int      // the body's length after the prefix
	// check vetoes a candidate (the whole token, prefix included) that has
	// the shape but not the substance; nil accepts.
	check func(tok string) bool
	// wordStart asks for a non-word byte (or the start) before the prefix.
	wordStart bool
	// extent, when set, replaces the prefix-and-body measure for formats
	// with structure around the prefix: it returns the token's span given
	// where the prefix is, or ok false.
	extent func(s string, at int) (start, end int, ok bool)
	// docs is where the provider documents the format, for the rule's Link.
	Docs string
}

// alphabet is the set of bytes a token body may hold.
type alphabet uint8

const (
	alnum     alphabet = iota // A-Z a-z 0-9
	alnumUp                   // A-Z 0-9
	hexLower                  // 0-9 a-f
	hexAny                    // 0-9 a-f A-F
	urlSafe                   // A-Z a-z 0-9 _ -
	base64Std                 // A-Z a-z 0-9 + / =
	dotted                    // A-Z a-z 0-9 _ - .
	bech32Up                  // the bech32 alphabet, upper case
	alnumDash                 // A-Z 0-9 -
)

func (a alphabet) has(c byte) bool {
	isAlnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	switch a {
	case alnum:
		return isAlnum
	case alnumUp:
		return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	case hexLower:
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'f'
	case hexAny:
		return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	case urlSafe:
		return isAlnum || c == '_' || c == '-'
	case base64Std:
		return isAlnum || c == '+' || c == '/' || c == '='
	case dotted:
		return isAlnum || c == '_' || c == '-' || c == '.'
	case alnumDash:
		return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
	case bech32Up:
		return strings.IndexByte("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", c) >= 0
	}
	return false
}

// hasDigitAndLetter vetoes bodies of one kind of character only: words
// joined by underscores, runs of zeros.
func needsMix(tok string) bool {
	return !strings.ContainsAny(tok, "0123456789") || !strings.ContainsFunc(tok, func(r rune) bool {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	})
}

// shapes are the provider formats added to Cairn's own. Each one's prefix
// is the provider's documented token prefix; lengths are the documented
// ones, with slack where providers have changed them.
// shapes are the provider formats, in the order their rules are listed.
var shapes = []Shape{
	{Rule: "age-secret-key", Noun: "secret key", Provider: "age", Prefixes: []string{"AGE-SECRET-KEY-1"}, alphabet: bech32Up, min: 58, max: 58, Docs: "https://age-encryption.org/v1"},
	{Rule: "onepassword-token", Provider: "1Password", Prefixes: []string{"ops_eyJ"}, alphabet: base64Std, min: 200, max: 4000, Docs: "https://developer.1password.com/docs/service-accounts/"},
	{Rule: "adobe-client-secret", Noun: "client secret", Provider: "Adobe", Prefixes: []string{"p8e-"}, alphabet: alnum, min: 32, max: 32, wordStart: true, check: needsMix},
	{Rule: "alibaba-access-key-id", Noun: "access key id", Provider: "Alibaba Cloud", Prefixes: []string{"LTAI"}, alphabet: alnum, min: 20, max: 20, wordStart: true, check: needsMix},
	{Rule: "artifactory-token", Provider: "JFrog Artifactory", Prefixes: []string{"AKCp"}, alphabet: alnum, min: 69, max: 69, wordStart: true},
	{Rule: "aws-bedrock-api-key", Noun: "API key", Provider: "Amazon Bedrock", Prefixes: []string{"ABSK"}, alphabet: base64Std, min: 109, max: 269, wordStart: true},
	{Rule: "clojars-token", Provider: "Clojars", Prefixes: []string{"CLOJARS_"}, alphabet: alnum, min: 60, max: 60},
	{Rule: "databricks-token", Provider: "Databricks", Prefixes: []string{"dapi"}, alphabet: hexLower, min: 32, max: 32, wordStart: true, check: needsMix},
	{Rule: "doppler-token", Provider: "Doppler", Prefixes: []string{"dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."}, alphabet: alnum, min: 40, max: 44, wordStart: true},
	{Rule: "duffel-token", Provider: "Duffel", Prefixes: []string{"duffel_test_", "duffel_live_"}, alphabet: urlSafe, min: 43, max: 43},
	{Rule: "dynatrace-token", Provider: "Dynatrace", Prefixes: []string{"dt0c01."}, alphabet: dotted, min: 89, max: 89},
	{Rule: "easypost-token", Provider: "EasyPost", Prefixes: []string{"EZAK", "EZTK"}, alphabet: alnum, min: 54, max: 54, wordStart: true},
	{Rule: "facebook-access-token", Provider: "Facebook", Prefixes: []string{"EAAM", "EAAC"}, alphabet: alnum, min: 100, max: 400, wordStart: true, check: needsMix},
	{Rule: "flutterwave-key", Provider: "Flutterwave", Prefixes: []string{"FLWSECK_TEST-", "FLWPUBK_TEST-", "FLWSECK-", "FLWPUBK-"}, alphabet: urlSafe, min: 12, max: 40},
	{Rule: "flyio-token", Provider: "Fly.io", Prefixes: []string{"fo1_", "fm1a_", "fm1r_", "fm2_"}, alphabet: base64Std, min: 43, max: 4000, wordStart: true, check: needsMix},
	{Rule: "frameio-token", Provider: "Frame.io", Prefixes: []string{"fio-u-"}, alphabet: urlSafe, min: 64, max: 64},
	{Rule: "gitlab-other-token", Provider: "GitLab", Prefixes: []string{"glcbt-", "glffct-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-", "GR1348941"}, alphabet: urlSafe, min: 20, max: 80, wordStart: true, check: needsMix},
	{Rule: "grafana-token", Provider: "Grafana", Prefixes: []string{"glc_", "glsa_", "eyJrIjoi"}, alphabet: base64Std, min: 32, max: 400, wordStart: true, check: needsMix},
	{Rule: "harness-token", Provider: "Harness", Prefixes: []string{"pat.", "sat."}, alphabet: dotted, min: 68, max: 68, wordStart: true, check: harnessParts},
	{Rule: "heroku-api-key", Noun: "API key", Provider: "Heroku", Prefixes: []string{"HRKU-AA"}, alphabet: urlSafe, min: 58, max: 58},
	{Rule: "huggingface-org-token", Provider: "Hugging Face", Prefixes: []string{"api_org_"}, alphabet: alnum, min: 34, max: 34, wordStart: true, check: shapeNotMixedCase},
	{Rule: "infracost-token", Provider: "Infracost", Prefixes: []string{"ico-"}, alphabet: alnum, min: 32, max: 32, wordStart: true, check: needsMix},
	{Rule: "linear-api-key", Noun: "API key", Provider: "Linear", Prefixes: []string{"lin_api_"}, alphabet: alnum, min: 40, max: 40},
	{Rule: "newrelic-key", Provider: "New Relic", Prefixes: []string{"NRAK-", "NRJS-", "NRII-"}, alphabet: urlSafe, min: 19, max: 32, wordStart: true, check: needsMix},
	{Rule: "notion-token", Provider: "Notion", Prefixes: []string{"ntn_", "secret_"}, alphabet: alnum, min: 43, max: 46, wordStart: true, check: needsMix},
	{Rule: "octopus-api-key", Noun: "API key", Provider: "Octopus Deploy", Prefixes: []string{"API-"}, alphabet: alnumUp, min: 26, max: 26, wordStart: true, check: needsMix},
	{Rule: "openshift-token", Provider: "OpenShift", Prefixes: []string{"sha256~"}, alphabet: urlSafe, min: 43, max: 43},
	{Rule: "perplexity-key", Provider: "Perplexity", Prefixes: []string{"pplx-"}, alphabet: alnum, min: 48, max: 48, wordStart: true},
	{Rule: "planetscale-token", Provider: "PlanetScale", Prefixes: []string{"pscale_tkn_", "pscale_oauth_", "pscale_pw_"}, alphabet: dotted, min: 32, max: 64, check: needsMix},
	{Rule: "postman-key", Provider: "Postman", Prefixes: []string{"PMAK-"}, alphabet: urlSafe, min: 59, max: 59},
	{Rule: "prefect-key", Provider: "Prefect", Prefixes: []string{"pnu_"}, alphabet: alnum, min: 36, max: 36, wordStart: true, check: needsMix},
	{Rule: "pulumi-token", Provider: "Pulumi", Prefixes: []string{"pul-"}, alphabet: hexLower, min: 40, max: 40, wordStart: true, check: needsMix},
	{Rule: "readme-key", Provider: "ReadMe", Prefixes: []string{"rdme_"}, alphabet: alnum, min: 70, max: 70, wordStart: true},
	{Rule: "rubygems-key", Provider: "RubyGems", Prefixes: []string{"rubygems_"}, alphabet: hexLower, min: 48, max: 48, wordStart: true},
	{Rule: "scalingo-token", Provider: "Scalingo", Prefixes: []string{"tk-us-"}, alphabet: urlSafe, min: 48, max: 48, wordStart: true},
	{Rule: "sendinblue-key", Provider: "Brevo (Sendinblue)", Prefixes: []string{"xkeysib-", "xsmtpsib-"}, alphabet: urlSafe, min: 81, max: 81, wordStart: true},
	{Rule: "sentry-token", Provider: "Sentry", Prefixes: []string{"sntrys_", "sntryu_"}, alphabet: base64Std, min: 64, max: 400, wordStart: true},
	{Rule: "settlemint-token", Provider: "SettleMint", Prefixes: []string{"sm_aat_", "sm_pat_", "sm_sat_"}, alphabet: alnum, min: 16, max: 16, wordStart: true, check: needsMix},
	{Rule: "shippo-token", Provider: "Shippo", Prefixes: []string{"shippo_live_", "shippo_test_"}, alphabet: hexAny, min: 40, max: 40},
	{Rule: "slack-other-token", Provider: "Slack", Prefixes: []string{"xapp-", "xoxe-", "xoxe.xox", "xoxo-"}, alphabet: urlSafe, min: 20, max: 300, wordStart: true, check: needsMix},
	{Rule: "square-token", Provider: "Square", Prefixes: []string{"sq0atp-", "sq0csp-", "EAAAE", "EAAAl"}, alphabet: urlSafe, min: 22, max: 60, wordStart: true, check: needsMix},
	{Rule: "stripe-prod-key", Noun: "secret key", Provider: "Stripe", Prefixes: []string{"sk_prod_", "rk_prod_", "whsec_"}, alphabet: alnum, min: 24, max: 99, wordStart: true, check: needsMix},
	{Rule: "terraform-cloud-token", Provider: "Terraform Cloud", Prefixes: []string{".atlasv1."}, alphabet: urlSafe, min: 60, max: 70, extent: atlasExtent},
	{Rule: "typeform-token", Provider: "Typeform", Prefixes: []string{"tfp_"}, alphabet: dotted, min: 40, max: 64, wordStart: true, check: needsMix},
	{Rule: "vault-token", Provider: "HashiCorp Vault", Prefixes: []string{"hvs.", "hvb.", "hvr."}, alphabet: urlSafe, min: 90, max: 300, wordStart: true},
	{Rule: "yandex-key", Provider: "Yandex Cloud", Prefixes: []string{"AQVN", "t1.9euelZ"}, alphabet: urlSafe, min: 35, max: 200, wordStart: true, check: needsMix},
	{Rule: "teams-webhook", Noun: "webhook URL", Provider: "Microsoft Teams", Prefixes: []string{".webhook.office.com/webhookb2/"}, alphabet: dotted, min: 0, max: 0, extent: teamsExtent},
	{Rule: "discord-webhook", Noun: "webhook URL", Provider: "Discord", Prefixes: []string{"discord.com/api/webhooks/", "discordapp.com/api/webhooks/"}, alphabet: dotted, min: 0, max: 0, extent: discordExtent},
	{Rule: "mailchimp-api-key", Noun: "API key", Provider: "Mailchimp", Prefixes: []string{"-us"}, extent: mailchimpExtent},
	{Rule: "gitlab-session-cookie", Noun: "session cookie", Provider: "GitLab", Prefixes: []string{"_gitlab_session="}, alphabet: alnum, min: 32, max: 32, check: needsMix},
	{Rule: "onepassword-secret-key", Noun: "account secret key", Provider: "1Password", Prefixes: []string{"A3-"}, alphabet: alnumDash, min: 36, max: 36, wordStart: true, check: onePasswordKey},
	{Rule: "azure-ad-client-secret", Noun: "client secret", Provider: "Microsoft Entra ID", Prefixes: []string{"Q~"}, alphabet: dotted, min: 31, max: 34, extent: azureExtent},
}

// title is what the token is called: "Linear API key", "Fly.io token".
// Title names what the shape finds: "Vault token".
func (sh *Shape) Title() string {
	if sh.Noun == "" {
		return sh.Provider + " token"
	}
	return sh.Provider + " " + sh.Noun
}

func shapeNotMixedCase(tok string) bool {
	return !strings.ContainsFunc(tok, func(r rune) bool { return 'a' <= r && r <= 'z' }) ||
		!strings.ContainsFunc(tok, func(r rune) bool { return 'A' <= r && r <= 'Z' })
}

// harnessParts: pat.<22>.<24>.<20>.
func harnessParts(tok string) bool {
	parts := strings.Split(tok, ".")
	return len(parts) != 4 || len(parts[1]) != 22 || len(parts[2]) != 24 || len(parts[3]) != 20
}

// runOf returns the end of the run of bytes from i that a has, looking at
// no more than limit bytes (a run past the limit is too long for any
// token, and the bound keeps a scan of repeated prefixes linear).
func runOf(s string, i int, a alphabet, limit int) int {
	stop := min(len(s), i+limit)
	for i < stop && a.has(s[i]) {
		i++
	}
	return i
}

// backOf returns the start of the run of bytes ending at i that a has,
// looking back no more than limit bytes.
func backOf(s string, i int, a alphabet, limit int) int {
	stop := max(0, i-limit)
	for i > stop && a.has(s[i-1]) {
		i--
	}
	return i
}

// atlasExtent: a Terraform Cloud token is <14 alnum>.atlasv1.<60-70>; the
// prefix found is its middle.
func atlasExtent(s string, at int) (int, int, bool) {
	start := backOf(s, at, alnum, 15)
	end := runOf(s, at+len(".atlasv1."), urlSafe, 71)
	n := end - at - len(".atlasv1.")
	return start, end, at-start == 14 && n >= 60 && n <= 70
}

// teamsExtent: https://<tenant>.webhook.office.com/webhookb2/<guid>@<guid>/IncomingWebhook/<32>/<guid>.
func teamsExtent(s string, at int) (int, int, bool) {
	start := backOf(s, at, alnum, 64)
	if start < 8 || s[start-8:start] != "https://" {
		return 0, 0, false
	}
	end := at
	for end < len(s) && end-at < 400 && (dotted.has(s[end]) || s[end] == '/' || s[end] == '@') {
		end++
	}
	u := s[start:end]
	return start - 8, end, strings.Contains(u, "/IncomingWebhook/") && strings.Count(u, "/") >= 5 && len(u) > 120
}

// discordExtent: https://discord.com/api/webhooks/<id digits>/<68 url-safe>.
func discordExtent(s string, at int) (int, int, bool) {
	i := strings.IndexByte(s[at:], 'w') // the "webhooks/" of the prefix
	p := at + i + len("webhooks/")
	idEnd := p
	for idEnd < len(s) && idEnd-p < 25 && '0' <= s[idEnd] && s[idEnd] <= '9' {
		idEnd++
	}
	if idEnd-p < 17 || idEnd >= len(s) || s[idEnd] != '/' {
		return 0, 0, false
	}
	end := runOf(s, idEnd+1, urlSafe, 100)
	return at, end, end-idEnd-1 >= 60
}

// azureExtent: an Entra ID client secret is three characters, a digit,
// "Q~" and 31 to 34 more.
func azureExtent(s string, at int) (int, int, bool) {
	if at < 4 || s[at-1] < '0' || s[at-1] > '9' {
		return 0, 0, false
	}
	start := at - 4
	for i := start; i < at-1; i++ {
		if !alnum.has(s[i]) && s[i] != '_' && s[i] != '~' && s[i] != '.' {
			return 0, 0, false
		}
	}
	if start > 0 && (dotted.has(s[start-1]) || s[start-1] == '~') {
		return 0, 0, false
	}
	end := at + 2
	for end < len(s) && end-at < 40 && (dotted.has(s[end]) || s[end] == '~') {
		end++
	}
	n := end - at - 2
	return start, end, n >= 31 && n <= 34 && !needsMix(s[start:end])
}

// mailchimpExtent: 32 hex digits, "-us" and the two digits of the data
// centre.
func mailchimpExtent(s string, at int) (int, int, bool) {
	start := backOf(s, at, hexLower, 33)
	end := at + 3
	for end < len(s) && end-at < 5 && '0' <= s[end] && s[end] <= '9' {
		end++
	}
	ok := at-start == 32 && end-at >= 4 && (end == len(s) || !isWord(s[end])) && (start == 0 || !isWord(s[start-1]))
	return start, end, ok && !needsMix(s[start:at])
}

// onePasswordKey: A3-XXXXXX-XXXXXXXXXXX-XXXXX-XXXXX-XXXXX (or the 11
// split 6-5).
func onePasswordKey(tok string) bool {
	n := strings.Count(tok, "-")
	return (n != 5 && n != 6) || needsMix(tok)
}

// ShapeMatch is one token a shape found.
type ShapeMatch struct {
	Shape      *Shape
	Start, End int
}

// ProviderShapes are the provider formats FindShapes finds; read only.
func ProviderShapes() []Shape { return shapes }

// prefixRef is one prefix of one shape.
type prefixRef struct {
	shape  int
	prefix string
}

// prefixIndex maps the first two bytes of every prefix to the prefixes
// that start with them; pairs marks which pairs start one, so the scan
// looks up the map only where a prefix may start.
type prefixIndex struct {
	pairs [1 << 16]bool
	refs  map[uint16][]prefixRef
}

var shapeIndex = sync.OnceValue(func() *prefixIndex {
	ix := &prefixIndex{refs: map[uint16][]prefixRef{}}
	for i, sh := range shapes {
		for _, p := range sh.Prefixes {
			k := uint16(p[0])<<8 | uint16(p[1])
			ix.pairs[k] = true
			ix.refs[k] = append(ix.refs[k], prefixRef{i, p})
		}
	}
	return ix
})

// FindShapes returns every token of the provider shapes in s, left to
// right, in one pass over it.
func FindShapes(s string) []ShapeMatch {
	ix := shapeIndex()
	var out []ShapeMatch
	skip := make([]int, len(shapes)) // per shape, where its last measured run ended
	for i := 0; i+1 < len(s); i++ {
		k := uint16(s[i])<<8 | uint16(s[i+1])
		if !ix.pairs[k] {
			continue
		}
		for _, r := range ix.refs[k] {
			if i < skip[r.shape] || !strings.HasPrefix(s[i:], r.prefix) {
				continue
			}
			sh := &shapes[r.shape]
			start, end, ok := sh.measure(s, i, r.prefix)
			if ok {
				out = append(out, ShapeMatch{sh, start, end})
			}
			if sh.extent == nil {
				// Another prefix inside the run just measured would measure
				// the same run: skip to its end.
				skip[r.shape] = max(end, i+1)
			}
		}
	}
	return out
}

// measure returns the span of the token whose prefix p is at s[at:].
func (sh *Shape) measure(s string, at int, p string) (int, int, bool) {
	if sh.extent != nil {
		return sh.extent(s, at)
	}
	end := runOf(s, at+len(p), sh.alphabet, sh.max+1)
	if sh.wordStart && at > 0 && isWord(s[at-1]) {
		return 0, end, false
	}
	n := end - at - len(p)
	if n < sh.min || n > sh.max {
		return 0, end, false
	}
	// The body must end where the token does, not inside a longer word.
	if end < len(s) && isWord(s[end]) {
		return 0, end, false
	}
	if sh.check != nil && sh.check(s[at:end]) {
		return 0, end, false
	}
	return at, end, true
}

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
