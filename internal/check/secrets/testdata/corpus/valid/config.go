package config

import (
	"os"
	"time"
)

// Config is read from the environment; nothing secret is written here.
type Config struct {
	APIKey        string
	TokenURL      string
	TokenTTL      time.Duration
	PasswordMin   int
	SigningKeyEnv string
}

// Load reads the configuration.
func Load() Config {
	return Config{
		APIKey:        os.Getenv("API_KEY"),
		TokenURL:      "https://auth.example.com/oauth/token",
		TokenTTL:      15 * time.Minute,
		PasswordMin:   12,
		SigningKeyEnv: "JWT_SIGNING_KEY",
	}
}

// cacheKey is a map key, not a credential.
func cacheKey(user, page string) string {
	key := user + ":" + page
	return key
}

const nextToken = "eyJwYWdlIjoyfQ" // a pagination cursor in an example response
