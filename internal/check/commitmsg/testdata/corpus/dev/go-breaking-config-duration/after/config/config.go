// Package config loads the service configuration.
package config

import (
	"encoding/json"
	"os"
	"time"
)

// Config is the service configuration.
type Config struct {
	Addr    string        `json:"addr"`
	Timeout time.Duration `json:"timeout"`
}

// Load reads the configuration file at path.
func Load(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &Config{Timeout: 30 * time.Second}
	return c, json.Unmarshal(b, c)
}
