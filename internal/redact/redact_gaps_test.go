package redact

import (
	"strings"
	"testing"
)

// TestRedactSecondAttackRound: each secret the second attack round found
// stored raw (issue 34, attack 9) is redacted, and the secret's text is
// gone; the commands and prose around it stay readable.
func TestRedactSecondAttackRound(t *testing.T) {
	hex40 := "0123456789abcdef0123456789abcdef01234567"
	for _, c := range []struct {
		name, in, secret string
		kind             Kind
	}{
		{"mysql attached -p", "mysql -uroot -pS3cretPass1 -h db app", "S3cretPass1", KindCommandPassword},
		{"mysqldump attached -p", "mysqldump -u admin -phunter22 app > dump.sql", "hunter22", KindCommandPassword},
		{"curl -u", "curl -u admin:pa55word https://api.example.com/x", "pa55word", KindCommandPassword},
		{"curl --user", "curl -s --user deploy:Tr0ub4dor https://x", "Tr0ub4dor", KindCommandPassword},
		{"docker login -p", "docker login -u bot -p dckr9secret registry.example.com", "dckr9secret", KindCommandPassword},
		{"--password=", "wget --password=hunter22x https://x/y", "hunter22x", KindCommandPassword},
		{"az login --password", "az login --service-principal -u app --password Zq8~secret.Value -t tenant", "Zq8~secret.Value", KindCommandPassword},
		{"sshpass -p", "sshpass -p 'rootpw99' ssh root@host", "rootpw99", KindCommandPassword},
		{"redis-cli -a", "redis-cli -h cache -a r3disPass info", "r3disPass", KindCommandPassword},
		{"openssl enc -k", "openssl enc -aes-256-cbc -k encPass77 -in a -out b", "encPass77", KindCommandPassword},
		{"heroku config:set", "heroku config:set API_TOKEN 3f2b9c1e-8a4d-4f6b-9e2a-7c5d1b0a9f3e", "3f2b9c1e-8a4d-4f6b-9e2a-7c5d1b0a9f3e", KindCommandPassword},
		{"X-API-Key header", "curl -H 'X-API-Key: k3yV4lue9876' https://x", "k3yV4lue9876", KindHeaderToken},
		{"Authorization: token", "Authorization: token " + hex40, hex40, KindHeaderToken},
		{"Telegram bot token", "BOT=123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 run", "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1", KindTelegramToken},
		{"Google OAuth", "token ya29.a0AfH6SMBx3kP9qLw2Zr7YtUvN5mOpQ8 expired", "ya29.a0AfH6SMBx3kP9qLw2Zr7YtUvN5mOpQ8", KindGoogleOAuthToken},
		{"Vault", "VAULT_TOKEN=hvs.CAESIJx8Kp2mQ9rT4vW7yZ1aB3cD5eF", "hvs.CAESIJx8Kp2mQ9rT4vW7yZ1aB3cD5eF", KindVaultToken},
		{"age secret key", "AGE-SECRET-KEY-1QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHCE", "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", "age_secret_key"},
		{"Sentry DSN", "SENTRY_DSN=https://0123456789abcdef0123456789abcdef@o123.ingest.sentry.io/456", "0123456789abcdef0123456789abcdef", KindSentryDSN},
		{"Discord webhook", "https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdEfGhIjKlMnOpQrStUvWxYz01234", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "discord_webhook"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, r := Redact(c.in)
			if strings.Contains(out, c.secret) {
				t.Fatalf("the secret stayed: %q", out)
			}
			if r.ByKind[c.kind] == 0 {
				t.Fatalf("redacted as %v, want %s: %q", r.ByKind, c.kind, out)
			}
			if again, r2 := Redact(out); again != out || r2.Total != 0 {
				t.Fatalf("not idempotent: %q -> %q", out, again)
			}
		})
	}
}

// TestRedactLeavesCommandsAlone: the command rules need the secret's place,
// not the command's name; these stay as they are.
func TestRedactLeavesCommandsAlone(t *testing.T) {
	for _, in := range []string{
		"mysql -u root -p app",                  // -p alone: mysql asks for it
		"mysql -u root -p -h db app",            // the same, with more flags
		"docker run -u 1000:1000 alpine",        // not curl
		"curl -u \"$USER:$PASS\" https://x",     // references
		"git push -u origin main",               // -u is not curl's
		"docker login -u bot --password-stdin",  // from stdin
		"openssl enc -aes-256-cbc -pass env:PW", // a reference
		"heroku config:set DEBUG=1",             // too short to be a secret
		"Authorization: Bearer",                 // a header's name and scheme
		"set the X-API-Key header from the env",
		"redis-cli -a $REDIS_PASSWORD ping",
		"the login page asks for the password",
	} {
		if out, r := Redact(in); r.Total != 0 {
			t.Errorf("%q became %q (%v)", in, out, r)
		}
	}
}
