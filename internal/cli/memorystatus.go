package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
)

// memoryStatusCmd says how far an upgrade's re-index of memory search has
// come, as get_config does: "memory index: rebuilding, N of M entries".
func memoryStatusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Whether memory search's index is up to date or being rebuilt after an upgrade (N of M entries)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				p, err := s.Memory.IndexProgress(cmd.Context())
				if err != nil {
					return err
				}
				line := "memory index: " + p.String()
				if p.Rebuilding {
					line += " (a running cairn server completes it in the background; searches find the entries indexed so far)"
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), line)
				return err
			})
		},
	}
}
