package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/project"
)

// hookBudget is the session-start hook's bootstrap budget: --budget, else
// [hooks] session_start_tokens of the project's or the user's file, else
// the flag's default.
func hookBudget(cmd *cobra.Command, budget int, root string) int {
	if cmd.Flags().Changed("budget") {
		return budget
	}
	rs, _, _ := project.Settings(root, nil)
	if r, ok := project.Lookup(rs, "hooks.session_start_tokens"); ok && r.Source != "default" {
		if n, err := strconv.Atoi(r.Value); err == nil {
			return n
		}
	}
	return budget
}
