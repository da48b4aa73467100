// Package agent is who works on a project: the name each agent's focus,
// claims and sessions are kept under, and the rules such a name follows.
// Surfaces learn it from where they can (a flag, the client's name at
// initialize, an HTTP header) and check it here.
package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/redact"
)

// Default is the agent of a session whose client gave no usable name.
const Default = "default"

// MaxLen bounds an agent's name, in bytes.
const MaxLen = 128

// Check says what is wrong with an agent name, or nil: 1 to MaxLen bytes,
// not blank, no control characters, nothing redaction would remove (a
// name is stored with every session, focus and claim, and shown to every
// agent on the project).
func Check(a string) error {
	if len(a) > MaxLen {
		return fmt.Errorf("%d bytes is too long", len(a))
	}
	for _, r := range a {
		if r < 0x20 || r == 0x7f {
			return errors.New("contains a control character")
		}
	}
	if strings.TrimSpace(a) == "" {
		return errors.New("is blank")
	}
	if _, r := redact.Redact(a); r.Total > 0 {
		return fmt.Errorf("holds what looks like a secret (%s); name the agent without it", r)
	}
	return nil
}

// FromClient is the agent a client's own name makes (its name trimmed),
// or "" when the name is not one Check accepts: two editors on one
// project thus keep their own focus without configuration.
func FromClient(name string) string {
	if n := strings.TrimSpace(name); n != "" && Check(n) == nil {
		return n
	}
	return ""
}
