// Package config loads the service configuration.
package config

import (
	"encoding/json"
	"os"
)

// DefaultTimeoutSeconds is used when the file sets no timeout.
const DefaultTimeoutSeconds = 30

// Config is the service configuration.
type Config struct {
	Addr           string `json:"addr"`
	TimeoutSeconds int    `json:"timeout_seconds"`
}

// Load reads the configuration file at path.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Config{TimeoutSeconds: DefaultTimeoutSeconds}
	return c, json.Unmarshal(b, c)
}
