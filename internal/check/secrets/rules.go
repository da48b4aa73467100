package secrets

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/redact"
)

const gitleaksRules = "https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml"

// cairnKinds maps Cairn's redaction kinds to this checker's rules. The
// credential kind is not among them: the scanner reads assignments with its
// own entropy test (generic-secret, password-assignment), since a memory
// entry is redacted at a lower bar than a file is reported at.
var cairnKinds = map[redact.Kind]check.Rule{
	redact.KindPrivateKey: {ID: "secrets/private-key", Severity: check.Error, Title: "private key",
		Why: "A private key in the repository lets anyone with a copy sign, decrypt or log in as its owner.",
		Bad: "-----BEGIN RSA PRIVATE KEY-----\nMIIEow…\n-----END RSA PRIVATE KEY-----", Good: "key_file = /run/secrets/tls.key   # mounted at deploy time"},
	redact.KindAWSAccessKeyID: {ID: "secrets/aws-access-key-id", Severity: check.Error, Title: "AWS access key id",
		Why: "An AWS access key id (AKIA…, ASIA…) is half of an AWS credential and is usually committed beside the other half.",
		Bad: "aws_access_key_id = AKIA" + "Q3EGRD5TNIVQ7XJN", Good: "# credentials come from the instance role or ~/.aws/credentials"},
	redact.KindAWSSecretAccessKey: {ID: "secrets/aws-secret-access-key", Severity: check.Error, Title: "AWS secret access key",
		Why: "The AWS secret access key signs requests as its user: whoever has it has that user's permissions.",
		Bad: "aws_secret_access_key = \"wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYq8Zr3Tn2\"", Good: "aws_secret_access_key = os.environ[\"AWS_SECRET_ACCESS_KEY\"]"},
	redact.KindGoogleAPIKey: {ID: "secrets/google-api-key", Severity: check.Error, Title: "Google API key",
		Why: "A Google API key (AIza…) bills its project for every call made with it; unrestricted keys reach many APIs.",
		Bad: "const key = \"AIza" + "SyD3kR8vQm2LpX9tN4wJ7cB1zF6hG0aE5iU\"", Good: "const key = process.env.MAPS_API_KEY"},
	redact.KindGitHubToken: {ID: "secrets/github-token", Severity: check.Error, Title: "GitHub token",
		Why: "A GitHub token (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_) acts as its owner on every repository it can reach.",
		Bad: "GITHUB_TOKEN=ghp_" + "R8vQm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDq", Good: "GITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}"},
	redact.KindSlackToken: {ID: "secrets/slack-token", Severity: check.Error, Title: "Slack token",
		Why: "A Slack token (xoxb-, xoxp-, …) reads and posts in the workspace as its bot or user.",
		Bad: "SLACK_TOKEN=xoxb-" + "2846193057-7294018365-Qm2LpX9tN4wJ7cB1zF6hG0aE", Good: "SLACK_TOKEN=  # set in the deployment's secret store"},
	redact.KindSlackWebhook: {ID: "secrets/slack-webhook", Severity: check.Error, Title: "Slack webhook URL",
		Why: "Anyone with an incoming-webhook URL can post into its channel.",
		Bad: "url: https://hooks.slack.com/services/" + "T0ABC1234/B0DEF5678/Qm2LpX9tN4wJ7cB1zF6hG0aE", Good: "url: ${SLACK_WEBHOOK_URL}"},
	redact.KindAnthropicKey: {ID: "secrets/anthropic-key", Severity: check.Error, Title: "Anthropic API key",
		Why: "An Anthropic API key (sk-ant-…) bills its organization for every call.",
		Bad: "ANTHROPIC_API_KEY=sk-ant-" + "api03-Qm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDqR8v", Good: "ANTHROPIC_API_KEY=  # from the environment"},
	redact.KindOpenAIKey: {ID: "secrets/openai-key", Severity: check.Error, Title: "OpenAI API key",
		Why: "An OpenAI API key (sk-…, sk-proj-…) bills its organization for every call.",
		Bad: "openai.api_key = \"sk-" + "proj-Qm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDqR8v\"", Good: "openai.api_key = os.environ[\"OPENAI_API_KEY\"]"},
	redact.KindStripeKey: {ID: "secrets/stripe-key", Severity: check.Error, Title: "Stripe secret key",
		Why: "A Stripe secret or restricted key (sk_live_, rk_live_, and their test-mode forms) moves money or reads customers.",
		Bad: "stripe.api_key = 'sk_live_" + "51Qm2LpX9tN4wJ7cB1zF6hG0a'", Good: "stripe.api_key = ENV.fetch('STRIPE_SECRET_KEY')"},
	redact.KindJWT: {ID: "secrets/jwt", Severity: check.Warning, Title: "JSON Web Token",
		Why: "A signed JWT is a bearer credential until it expires; long-lived ones are often committed from a debugging session.",
		Bad: "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiJhZG1pbiJ9.Qm2LpX9tN4wJ7cB1zF6hG0aE", Good: "Authorization: Bearer $TOKEN"},
	redact.KindURLPassword: {ID: "secrets/url-password", Severity: check.Warning, Title: "password in a URL",
		Why: "user:password@host in a URL puts the password wherever the URL goes: logs, error messages, the repository.",
		Bad: "DATABASE_URL=postgres://app:" + "S3cr3tPassw0rd@db.internal/app", Good: "DATABASE_URL=postgres://app@db.internal/app  # password from PGPASSWORD"},
	redact.KindBearerToken: {ID: "secrets/bearer-token", Severity: check.Warning, Title: "bearer token",
		Why: "An Authorization: Bearer header with a literal token is a credential copied from a live request.",
		Bad: "curl -H 'Authorization: Bearer 4f9a8c7e6d5b" + "4a3c2e1f0a9b8c7d6e5f' …", Good: "curl -H \"Authorization: Bearer $API_TOKEN\" …"},
	redact.KindGitLabToken: {ID: "secrets/gitlab-token", Severity: check.Error, Title: "GitLab token",
		Why: "A GitLab personal, deploy, runner or trigger token (glpat-, gldt-, glrt-, glptt-) acts on the projects it can reach.",
		Bad: "GITLAB_TOKEN=glpat-" + "Qm2LpX9tN4wJ7cB1zF6h", Good: "GITLAB_TOKEN=$CI_JOB_TOKEN"},
	redact.KindNPMToken: {ID: "secrets/npm-token", Severity: check.Error, Title: "npm token",
		Why: "An npm access token (npm_…) publishes packages as its owner: a supply-chain attack waiting to happen.",
		Bad: "//registry.npmjs.org/:_authToken=npm_" + "Qm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDqR8v", Good: "//registry.npmjs.org/:_authToken=${NPM_TOKEN}"},
	redact.KindHuggingFaceToken: {ID: "secrets/huggingface-token", Severity: check.Error, Title: "Hugging Face token",
		Why: "A Hugging Face token (hf_…) reads private models and data sets, or writes to them.",
		Bad: "HF_TOKEN=hf_" + "QmLpXtNwJcBzFhGaEiUkYsDqRvAbCdEfGh", Good: "HF_TOKEN=  # huggingface-cli login stores it outside the repository"},
	redact.KindSendGridKey: {ID: "secrets/sendgrid-key", Severity: check.Error, Title: "SendGrid API key",
		Why: "A SendGrid key (SG.…) sends mail as the account: phishing from a trusted domain.",
		Bad: "SENDGRID_API_KEY=SG." + "Qm2LpX9tN4wJ7cB1zF6hG0.aE5iUkY3sDqR8vAbCdEfGhIjKlMnOpQrStUvWxYz012", Good: "SENDGRID_API_KEY=${SENDGRID_API_KEY}"},
	redact.KindTwilioKey: {ID: "secrets/twilio-key", Severity: check.Warning, Title: "Twilio account or key SID",
		Why: "A Twilio account SID (AC…) or API key SID (SK…) is usually committed beside its secret.",
		Bad: "TWILIO_API_KEY=SK" + "0123456789abcdef0123456789abcdef", Good: "TWILIO_API_KEY=  # from the environment"},
	redact.KindAzureStorageKey: {ID: "secrets/azure-storage-key", Severity: check.Error, Title: "Azure storage account key",
		Why: "An Azure storage AccountKey or SharedAccessKey in a connection string gives full access to the account's data.",
		Bad: "DefaultEndpointsProtocol=https;AccountName=app;AccountKey=" + "Qm2LpX9tN4wJ7cB1zF6hG0aE5iUkY3sDqR8v==", Good: "use a managed identity, or read the connection string from Key Vault"},
	redact.KindBasicAuth: {ID: "secrets/basic-auth", Severity: check.Warning, Title: "HTTP Basic credentials",
		Why: "Authorization: Basic carries user:password in base64, which anyone can decode.",
		Bad: "Authorization: Basic " + "YWRtaW46czNjcjN0UGFzcw==", Good: "Authorization: Basic $(printf %s \"$USER:$PASS\" | base64)"},
	redact.KindShopifyToken: {ID: "secrets/shopify-token", Severity: check.Error, Title: "Shopify token",
		Why: "A Shopify access token or shared secret (shpat_, shpss_, shpca_, shppa_) acts on the store.",
		Bad: "SHOPIFY_TOKEN=shpat_" + "0123456789abcdef0123456789abcdef", Good: "SHOPIFY_TOKEN=  # from the environment"},
	redact.KindDigitalOceanToken: {ID: "secrets/digitalocean-token", Severity: check.Error, Title: "DigitalOcean token",
		Why: "A DigitalOcean token (dop_v1_, doo_v1_, dor_v1_) creates and deletes droplets and reads their data.",
		Bad: "DO_TOKEN=dop_v1_" + strings.Repeat("0123456789abcdef", 4), Good: "DO_TOKEN=  # from the environment"},
	redact.KindPyPIToken: {ID: "secrets/pypi-token", Severity: check.Error, Title: "PyPI upload token",
		Why: "A PyPI token (pypi-…) uploads releases of the projects it is scoped to.",
		Bad: "password = pypi-" + "AgEIcHlwaS5vcmcCJDU2Y2M1ZjI0LWE0NjQtNDk5Ny1hOTQ4LTI4YTdi", Good: "password = __token__ from the keyring, or trusted publishing"},
}

const fixGeneral = "Revoke or rotate it where it was issued (removing it from the file does not: it stays in the history and in every clone), then read it from the environment or a secret store; a known test fixture can be allowed with `cairn:ignore <rule> reason` or the allow param."

// Rule ids of the assignment rules.
const (
	ruleGeneric  = "secrets/generic-secret"
	rulePassword = "secrets/password-assignment"
)

func buildRules() []check.Rule {
	var out []check.Rule
	for _, k := range kindOrder {
		r := cairnKinds[k]
		r.Fix = fixGeneral
		r.Link = gitleaksRules
		out = append(out, r)
	}
	for _, sh := range redact.ProviderShapes() {
		out = append(out, check.Rule{
			ID: "secrets/" + sh.Rule, Severity: check.Error, Title: sh.Title(),
			Why:  "A " + sh.Provider + " credential in the repository acts as its owner for whoever has a copy of the code.",
			Fix:  fixGeneral,
			Bad:  "TOKEN=" + strings.Join(sh.Prefixes[:1], "") + "… (a live " + sh.Provider + " token)",
			Good: "TOKEN=${" + strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(sh.Rule)) + "}",
			Link: cmpOr(sh.Docs, gitleaksRules),
		})
	}
	out = append(out,
		check.Rule{ID: ruleGeneric, Severity: check.Warning, Title: "high-entropy value assigned to a secret name",
			Why:  "A value that looks machine-generated (high Shannon entropy over the base64 or hex alphabet) assigned to a name like api_key, secret or token is most likely a live credential of a provider without a recognisable prefix.",
			Fix:  fixGeneral,
			Bad:  `const apiKey = "` + "q8W2e4R6t8Y0u2I4o6P8a0S2d4F6" + `"`,
			Good: `const apiKey = process.env.API_KEY`,
			Link: gitleaksRules},
		check.Rule{ID: rulePassword, Severity: check.Warning, Title: "literal password",
			Why:  "A password written into a file is shared with everyone who can read the repository, and is rarely rotated afterwards.",
			Fix:  fixGeneral,
			Bad:  "DB_PASSWORD=" + "Tr0ub4dor&3x",
			Good: "DB_PASSWORD_FILE=/run/secrets/db_password",
			Link: "https://cwe.mitre.org/data/definitions/798.html"},
	)
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// kindOrder is the order the Cairn kinds' rules are listed in.
var kindOrder = []redact.Kind{
	redact.KindPrivateKey, redact.KindAWSAccessKeyID, redact.KindAWSSecretAccessKey, redact.KindGoogleAPIKey,
	redact.KindGitHubToken, redact.KindGitLabToken, redact.KindSlackToken, redact.KindSlackWebhook,
	redact.KindAnthropicKey, redact.KindOpenAIKey, redact.KindStripeKey, redact.KindNPMToken,
	redact.KindHuggingFaceToken, redact.KindSendGridKey, redact.KindTwilioKey, redact.KindAzureStorageKey,
	redact.KindShopifyToken, redact.KindDigitalOceanToken, redact.KindPyPIToken, redact.KindJWT,
	redact.KindURLPassword, redact.KindBearerToken, redact.KindBasicAuth,
}
