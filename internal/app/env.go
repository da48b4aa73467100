package app

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
)

// EnvDefault returns the environment variable's value, or def when unset:
// a flag's default that the environment may set.
func EnvDefault(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// NewLogger logs to stderr at level (debug, info, warn or error): in stdio
// mode stdout is the protocol.
func NewLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}
