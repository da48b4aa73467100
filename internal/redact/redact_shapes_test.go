package redact

import (
	"strings"
	"testing"
)

// TestRedact_MoreShapes: the shapes the hardening review found kept
// verbatim, each beside near misses that ordinary text contains (commit
// hashes, UUIDs, base64 test data, prose) and that must survive.
func TestRedact_MoreShapes(t *testing.T) {
	hex32 := "0123456789abcdef0123456789abcdef"
	hex64 := hex32 + hex32
	for _, tc := range []struct {
		kind Kind
		hit  string   // the secret, in a sentence; the secret part is between « »
		miss []string // near misses left alone
	}{
		{KindGitLabToken, "export GL=«glpat-" + "Xy12Ab34Cd56Ef78Gh90»", []string{"glpat-example", "see gitlab glpat- tokens docs"}},
		{KindNPMToken, "//registry.npmjs.org/:_authToken «npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8»", []string{"npm_modules", "run npm_config_cache_dir_for_the_build_step_now"}},
		{KindHuggingFaceToken, "token «hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGhIj»", []string{"hf_hub_download", "hf_" + "abcdefghijklmnopqrstuvwxyzabcdefghij"}},
		{KindSendGridKey, "key «SG." + "aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ012»", []string{"SG.example.com", "use SG.send for mail"}},
		{KindTwilioKey, "sid «AC" + hex32 + "» and «SK" + hex32 + "»", []string{"ACK " + hex32, "commit " + hex32 + "ab"}},
		{KindAzureStorageKey, "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=«" + strings.Repeat("Ab3+/xYz", 11) + "==»;EndpointSuffix=core", []string{"AccountKey=<your key>"}},
		{KindBasicAuth, "Authorization: Basic «dXNlcjpzM2NyZXQ=»", []string{"basic usage of the API", "Basic authentication is off", "Basic dGVzdGRhdGE="}},
		{KindShopifyToken, "X-Shopify-Access-Token: «shpat_" + hex32 + "»", []string{"shpat_example"}},
		{KindDigitalOceanToken, "DO_TOKEN «dop_v1_" + hex64 + "»", []string{"dop_v1_ is the prefix"}},
		{KindPyPIToken, "password = «pypi-" + "AgEIcHlwaS5vcmcCJDU2Y2M1ZjI0LWE0NjQtNDk5Ny1hOTQ4LTI4YTdiZDQ5ZmM3OQ»", []string{"pypi-server", "pip install from pypi-mirror-for-the-team-builds"}},
		{KindAWSSecretAccessKey, "the AWS secret is «wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY» for prod", []string{
			"aws commit " + "3f786850e387550fdab836ed7e6dc881de23001b",                            // a SHA-1
			"aws test data " + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2", // base64 longer than 40
			"aws id 123e4567-e89b-12d3-a456-426614174000",                                         // a UUID
		}},
		{KindCredentialAssignment, "STRIPE_KEY=«rk9Fz2QmX8pL4wT7»", []string{"SORT_KEY=created_at", "primary_key: id"}},
		{KindCredentialAssignment, "SMTP_PASS=«Tr0ub4dor3x»", []string{"bypass: the cache"}},
		{KindCredentialAssignment, "AUTH=«Zm9vYmFyMTIzNDU2»", []string{"author: Ada Lovelace", "AUTH=none"}},
		{KindCredentialAssignment, "DB_PASSWORD=«correcthorsebatterystaple»", []string{"password: required", "DB_PASSWORD=$DB_PASSWORD", "password reset flow"}},
		{KindCredentialAssignment, "PASSWORD=«hunter2»", []string{"PASSWORD=/run/secrets/db", "PASSWORD=changeme"}},
		{KindURLPassword, "postgres://app:«pa/ss-w0rd»@db.internal:5432/app", []string{"http://localhost:8080/health@x", "https://example.com:443/a@b", "https://example.com/a@b"}},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			in := strings.NewReplacer("«", "", "»", "").Replace(tc.hit)
			want := tc.hit
			for strings.Contains(want, "«") {
				i, j := strings.Index(want, "«"), strings.Index(want, "»")
				want = want[:i] + marker(tc.kind) + want[j+len("»"):]
			}
			got, r := Redact(in)
			if got != want || r.ByKind[tc.kind] == 0 {
				t.Errorf("Redact(%q)\n got %q (%v)\nwant %q", in, got, r, want)
			}
			for _, m := range tc.miss {
				if got, r := Redact(m); got != m {
					t.Errorf("near miss %q was changed: %q (%v)", m, got, r)
				}
			}
		})
	}
}
