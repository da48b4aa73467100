package render

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/service/brief"
)

// BootstrapHint words, as the tool calls an agent makes, how to fetch what a bootstrap section
// left out.
func BootstrapHint(section string) string {
	switch section {
	case brief.SecInstructions:
		return "read the files"
	case brief.SecConventions, brief.SecMistakes, brief.SecDecisions:
		return "memory_search type=" + strings.TrimSuffix(section, "s")
	case brief.SecLoops:
		return "loop_list"
	case brief.SecProject:
		return "detect_project"
	case brief.SecSession:
		return "session action=get"
	case brief.SecBranch:
		return "branch action=get"
	}
	return brief.NeutralHint(section)
}
