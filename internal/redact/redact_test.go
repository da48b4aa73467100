package redact

import (
	"strings"
	"testing"
)

// Fake secrets with real shapes. They are built from pieces so no scanner mistakes this
// file for a leak, and none of them is a live credential.
var (
	fakeAWSKeyID     = "AKIA" + "IOSFODNN7EXAMPLE"
	fakeAWSSecret    = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	fakeGoogleKey    = "AIza" + "SyB1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6R"
	fakeGitHubPAT    = "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	fakeGitHubOAuth  = "gho_" + strings.Repeat("Z9y8X7w6V5", 4)[:36]
	fakeFineGrained  = "github_pat_" + "11ABCDEFG0" + "abcdefghijkl_" + strings.Repeat("Qw3rTy", 10)[:59]
	fakeSlackBot     = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
	fakeSlackHook    = "https://hooks.slack.com/services/" + "T00000000/B00000000/" + "XXXXXXXXXXXXXXXXXXXXXXXX"
	fakeOpenAIProj   = "sk-proj-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90"
	fakeOpenAILegacy = "sk-" + "T3BlbkFJ" + "a8b7c6d5e4f3g2h1i0j9k8l7m6n5o4p3q2r1"
	fakeAnthropic    = "sk-ant-" + "api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7-AbCdEf"
	fakeStripe       = "sk_live_" + "51H8aBcDeFgHiJkLmNoPqRsTu"
	fakeJWT          = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUifQ" + "." + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	fakePEM          = "-----BEGIN RSA PRIVATE KEY-----\n" + "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n" + "aFDrBz9vFqU4yQIDAQABAoIBAQC5\n" + "-----END RSA PRIVATE KEY-----"
)

func TestRedact_Secrets(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
		kind Kind
	}{
		{"aws access key id", "export AWS_ACCESS_KEY_ID=" + fakeAWSKeyID, "export AWS_ACCESS_KEY_ID=[REDACTED:aws_access_key_id]", KindAWSAccessKeyID},
		{"aws temporary key id", "key ASIA" + "Y34FZKBOKMUTVV7A in the log", "key [REDACTED:aws_access_key_id] in the log", KindAWSAccessKeyID},
		{"aws secret in env", "aws_secret_access_key = " + fakeAWSSecret, "aws_secret_access_key = [REDACTED:aws_secret_access_key]", KindAWSSecretAccessKey},
		{"aws secret in json", `{"SecretAccessKey": "` + fakeAWSSecret + `"}`, `{"SecretAccessKey": "[REDACTED:aws_secret_access_key]"}`, KindAWSSecretAccessKey},
		{"google api key", "maps key=" + fakeGoogleKey + " works", "maps key=[REDACTED:google_api_key] works", KindGoogleAPIKey},
		{"github classic token", "git clone with " + fakeGitHubPAT, "git clone with [REDACTED:github_token]", KindGitHubToken},
		{"github oauth token", "(" + fakeGitHubOAuth + ")", "([REDACTED:github_token])", KindGitHubToken},
		{"github fine-grained token", "GITHUB_TOKEN=" + fakeFineGrained, "GITHUB_TOKEN=[REDACTED:github_token]", KindGitHubToken},
		{"slack bot token", "bot: " + fakeSlackBot, "bot: [REDACTED:slack_token]", KindSlackToken},
		{"slack webhook", "post to " + fakeSlackHook + " on failure", "post to [REDACTED:slack_webhook] on failure", KindSlackWebhook},
		{"openai project key", "OPENAI_API_KEY=" + fakeOpenAIProj, "OPENAI_API_KEY=[REDACTED:openai_key]", KindOpenAIKey},
		{"openai legacy key", "key " + fakeOpenAILegacy + ".", "key [REDACTED:openai_key].", KindOpenAIKey},
		{"anthropic key", "ANTHROPIC_API_KEY=\"" + fakeAnthropic + "\"", "ANTHROPIC_API_KEY=\"[REDACTED:anthropic_key]\"", KindAnthropicKey},
		{"stripe live key", "stripe.api_key = '" + fakeStripe + "'", "stripe.api_key = '[REDACTED:stripe_key]'", KindStripeKey},
		{"jwt", "cookie session=" + fakeJWT + "; Path=/", "cookie session=[REDACTED:jwt]; Path=/", KindJWT},
		{"jwt as bearer", "Authorization: Bearer " + fakeJWT, "Authorization: Bearer [REDACTED:jwt]", KindJWT},
		{"private key block", "key:\n" + fakePEM + "\nthen restart", "key:\n[REDACTED:private_key]\nthen restart", KindPrivateKey},
		{"private key without END", "pasted -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAABAAAAMwAAAAtzc2gtZW", "pasted [REDACTED:private_key]", KindPrivateKey},
		{"private key without END, then prose", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\nThen restart the server.", "[REDACTED:private_key]\nThen restart the server.", KindPrivateKey},
		{"jwt right after a short look-alike", "eyJab." + fakeJWT, "eyJab.[REDACTED:jwt]", KindJWT},
		{"aws key id inside a longer word is not one", "x" + fakeAWSKeyID + " and " + fakeAWSKeyID, "x" + fakeAWSKeyID + " and [REDACTED:aws_access_key_id]", KindAWSAccessKeyID},
		{"password in url", "DATABASE_URL=postgres://app:S3cretPassw0rd@db.internal:5432/app", "DATABASE_URL=postgres://app:[REDACTED:url_password]@db.internal:5432/app", KindURLPassword},
		{"password with @ in url", "redis://:p@ss:w0rd@cache:6379", "redis://:[REDACTED:url_password]@cache:6379", KindURLPassword},
		{"bearer token", "curl -H 'Authorization: Bearer 4f9a8c7e6d5b4a3c2e1f0a9b8c7d6e5f'", "curl -H 'Authorization: Bearer [REDACTED:bearer_token]'", KindBearerToken},
		{"password assignment", "DB_PASSWORD=hunter22xyz", "DB_PASSWORD=[REDACTED:credential]", KindCredentialAssignment},
		{"api key in json", `{"api_key": "9f8e7d6c5b4a39281706"}`, `{"api_key": "[REDACTED:credential]"}`, KindCredentialAssignment},
		{"token in yaml", "  token: abc123XYZ789\n  ttl: 60", "  token: [REDACTED:credential]\n  ttl: 60", KindCredentialAssignment},
		{"secret in go", `clientSecret := "q8W2e4R6t8Y0u2I4"`, `clientSecret := "[REDACTED:credential]"`, KindCredentialAssignment},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, r := Redact(tt.in)
			if got != tt.want {
				t.Fatalf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if r.Total != 1 || r.ByKind[tt.kind] != 1 {
				t.Fatalf("Redactions = %v, want one %s", r, tt.kind)
			}
		})
	}
}

func TestRedact_Private(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		want  string
		count int
	}{
		{"one span", "keep <private>my home address</private> this", "keep [REDACTED:private] this", 1},
		{"case and lines", "a <PRIVATE>line one\nline two</Private> b", "a [REDACTED:private] b", 1},
		{"spaces in tags", "a < private >x</ private > b", "a [REDACTED:private] b", 1},
		{"two spans", "<private>x</private> and <private>y</private>", "[REDACTED:private] and [REDACTED:private]", 2},
		{"unclosed removes to the end", "a <private> the rest\nof it", "a [REDACTED:private]", 1},
		{"nested closes at the outermost", "a <private>x<private>y</private>z</private> b", "a [REDACTED:private] b", 1},
		{"nested and unclosed", "a <private>x<private>y</private>z", "a [REDACTED:private]", 1},
		{"stray closer extends the previous span", "<private>a</private>b</private>c", "[REDACTED:private]c", 1},
		{"stray closer with nothing open", "pw is hunter2</private> rest", "[REDACTED:private] rest", 1},
		{"empty span", "a<private></private>b", "a[REDACTED:private]b", 1},
		{"private wins over secrets inside", "<private>" + fakeGitHubPAT + "</private>", "[REDACTED:private]", 1},
		{"not a tag", "the <privateer> and private members", "the <privateer> and private members", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, r := Redact(tt.in)
			if got != tt.want {
				t.Fatalf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if r.Total != tt.count || r.ByKind[KindPrivate] != tt.count {
				t.Fatalf("Redactions = %v, want %d private", r, tt.count)
			}
		})
	}
}

// Prose and identifiers that look a little like secrets must come through unchanged:
// a memory that loses words to over-eager redaction is worse than useless.
func TestRedact_LeavesProse(t *testing.T) {
	for _, s := range []string{
		"the token bucket refills ten tokens a second",
		"ask-the-user before deleting anything",
		"password reset flow sends a secret link; token expiry is 15 minutes",
		"fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b",
		"request id 123e4567-e89b-12d3-a456-426614174000",
		"tokens: 4096",
		"max_tokens=8192 and temperature=0.2",
		"password: required",
		"secret: none, token: see the vault",
		"sk-learn is not a package; scikit-learn is",
		"the risk-assessment-for-the-quarterly-review doc",
		"health check at http://localhost:8080/health",
		"remote git@github.com:cairn-dev/cairn.git",
		"email dev@example.com or https://example.com/a@b",
		"keys starting with AKIA are access key ids",
		"eyJ is how base64 JSON starts",
		`password = os.Getenv("DB_PASSWORD")`,
		"token: ${{ secrets.GITHUB_TOKEN }}",
		"secret=$SECRET_FROM_ENV",
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
		"the secret_sauce module; use bearer tokens for the API",
		"xoxb- prefixes a Slack bot token",
		"gh_pages branch, ghp_ prefix",
		"sk_live_ keys must never be committed",
		"short words: pw, pwd, key, tok",
		"pwd=/srv/app2 and credentials: ./secrets/prod1.json",
		"token_file=~/.config/tally/token2",
		"",
	} {
		got, r := Redact(s)
		if got != s || r.Total != 0 {
			t.Errorf("Redact(%q) = %q (%v), want it unchanged", s, got, r)
		}
	}
}

func TestRedact_Idempotent(t *testing.T) {
	in := strings.Join([]string{
		"<private>a</private>", fakeAWSKeyID, "aws_secret_access_key=" + fakeAWSSecret, fakeGoogleKey,
		fakeGitHubPAT + fakeGitHubOAuth, fakeSlackBot, fakeSlackHook, fakeOpenAIProj, fakeAnthropic,
		fakeStripe, fakeJWT, fakePEM, "https://u:pw1234567@h/", "password=" + fakeGitHubPAT,
		"token=abc123def456", "Bearer 4f9a8c7e6d5b4a3c2e1f0a9b", "<private>unclosed",
	}, " ")
	once, r1 := Redact(in)
	twice, r2 := Redact(once)
	if twice != once || r2.Total != 0 {
		t.Fatalf("Redact is not idempotent:\nonce  %q\ntwice %q (%v)", once, twice, r2)
	}
	if r1.Total < 15 {
		t.Fatalf("Redactions = %v, want at least 15", r1)
	}
}

func TestRedactFields(t *testing.T) {
	title := "rotate " + fakeGitHubPAT
	content := "creds <private>in 1password</private>, db postgres://a:Pa55word99@h/db"
	facts := []string{"key " + fakeAWSKeyID, "nothing here"}
	r := RedactFields(&title, &content, nil)
	r.Add(RedactStrings(facts))
	if title != "rotate [REDACTED:github_token]" {
		t.Errorf("title = %q", title)
	}
	if content != "creds [REDACTED:private], db postgres://a:[REDACTED:url_password]@h/db" {
		t.Errorf("content = %q", content)
	}
	if facts[0] != "key [REDACTED:aws_access_key_id]" || facts[1] != "nothing here" {
		t.Errorf("facts = %q", facts)
	}
	want := map[Kind]int{KindGitHubToken: 1, KindPrivate: 1, KindURLPassword: 1, KindAWSAccessKeyID: 1}
	if r.Total != 4 || len(r.ByKind) != len(want) {
		t.Fatalf("Redactions = %v, want %v", r, want)
	}
	for k, n := range want {
		if r.ByKind[k] != n {
			t.Fatalf("Redactions = %v, want %v", r, want)
		}
	}
	if got := r.String(); got != "4 redactions (aws_access_key_id 1, github_token 1, private 1, url_password 1)" {
		t.Errorf("String() = %q", got)
	}
	if got := (Redactions{}).String(); got != "no redactions" {
		t.Errorf("String() of none = %q", got)
	}
}

// planted are secrets the fuzzer surrounds with arbitrary text; none may survive.
var planted = []string{
	fakeAWSKeyID, "aws_secret_access_key=" + fakeAWSSecret, fakeGoogleKey, fakeGitHubPAT,
	fakeFineGrained, fakeSlackBot, fakeSlackHook, fakeOpenAIProj, fakeOpenAILegacy,
	fakeAnthropic, fakeStripe, fakeJWT, fakePEM, "postgres://app:S3cretPassw0rd@db",
	"DB_PASSWORD=hunter22xyz",
}

// The part of each planted secret that must not appear in the output.
func sensitivePart(p string) string {
	if i := strings.Index(p, "="); i > 0 && !strings.Contains(p, "://") {
		return p[i+1:]
	}
	if strings.HasPrefix(p, "postgres://") {
		return "S3cretPassw0rd"
	}
	return p
}

func FuzzRedact(f *testing.F) {
	f.Add("", "")
	f.Add("<private>", "</private>")
	f.Add("password=", "x")
	f.Add("https://u:", "@h")
	f.Add("-----BEGIN PRIVATE KEY-----", "")
	f.Add("AKIA", "EXAMPLE")
	f.Add("</private>ghp_", "[REDACTED:")
	f.Fuzz(func(t *testing.T, prefix, suffix string) {
		in := prefix + " " + strings.Join(planted, "\n") + " " + suffix
		out, r := Redact(in)
		for _, p := range planted {
			if s := sensitivePart(p); strings.Contains(out, s) {
				t.Fatalf("secret %q survived in %q", s, out)
			}
		}
		if r.Total == 0 {
			t.Fatalf("nothing redacted in %q", in)
		}
		again, r2 := Redact(out)
		if again != out || r2.Total != 0 {
			t.Fatalf("not idempotent:\nonce  %q\ntwice %q (%v)", out, again, r2)
		}
	})
}

func FuzzRedact_Idempotent(f *testing.F) {
	for _, s := range []string{
		"", "<private>x", "a</private>b", "<pri<private>x</private>vate>",
		"password=abc123def", "https://u:p@q:w1@h", "sk-ant-" + strings.Repeat("a1", 15),
		fakeJWT + "." + fakeJWT, fakeGitHubPAT + "AIza" + strings.Repeat("b", 35),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once, _ := Redact(s)
		twice, r := Redact(once)
		if twice != once || r.Total != 0 {
			t.Fatalf("not idempotent for %q:\nonce  %q\ntwice %q (%v)", s, once, twice, r)
		}
	})
}

func BenchmarkRedact(b *testing.B) {
	text := strings.Repeat("The migration adds an index on tasks(parent_id); see postgres://app@db/x. ", 40) +
		"token=abc123def456 " + fakeGitHubPAT
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Redact(text)
	}
}

// BenchmarkRedact_Prose is the common case: a memory entry with no secret in it.
func BenchmarkRedact_Prose(b *testing.B) {
	text := strings.Repeat("Adding a NOT NULL column with a default held an exclusive lock on the invoices table; add it nullable, backfill in batches, then add the constraint. ", 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Redact(text)
	}
}
