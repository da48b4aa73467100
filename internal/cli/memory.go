package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

func memoryCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "Search, read, export and import the project's memory",
	}
	cmd.AddCommand(memorySearchCmd(), memoryShowCmd(), memoryExportCmd(), memoryImportCmd(), memoryBackfillCmd(), memoryStatusCmd())
	return cmd
}

func memorySearchCmd() *cobra.Command {
	var (
		types, tags, branch string
		limit, offset       int
		asJSON              bool
	)
	cmd := &cobra.Command{
		Use:   "search [QUERY]",
		Short: "Search memory (newest first without a query)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q := memories.SearchQuery{Types: splitList(types), Tags: splitList(tags), Branch: branch, Page: page.Page{Offset: offset, Limit: limit}}
			if len(args) == 1 {
				q.Text = args[0]
			}
			return withProject(cmd, func(s *app.Services) error {
				res, err := s.Memory.Search(cmd.Context(), q)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if asJSON {
					return printJSON(w, render.Search(res))
				}
				if res.Total == 0 {
					fmt.Fprintln(w, "No entries match.")
					return nil
				}
				fmt.Fprintf(w, "%d-%d of %d (%s)\n", res.Offset+1, res.Offset+len(res.Hits), res.Total, res.Mode)
				if res.Note != "" {
					fmt.Fprintln(w, "note: "+res.Note)
				}
				for _, h := range res.Hits {
					fmt.Fprintf(w, "%-6s %-16s %s  %s\n", h.ID, h.Type, h.CreatedAt.Local().Format(time.DateOnly), h.Title)
					if h.Snippet != "" && h.Snippet != h.Title {
						fmt.Fprintf(w, "       %s\n", h.Snippet)
					}
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&types, "type", "", "entry types, comma-separated")
	f.StringVar(&tags, "tag", "", "tags, comma-separated (any)")
	f.StringVar(&branch, "branch", "", "git branch the entries were recorded on")
	f.IntVar(&limit, "limit", 0, fmt.Sprintf("entries to show, 1 to %d (default %d)", page.Memory.Max, page.Memory.Default))
	f.IntVar(&offset, "offset", 0, "entries to skip")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func memoryShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID...",
		Short: "Show memory entries in full",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				es, missing, err := s.Memory.Get(cmd.Context(), args)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if asJSON {
					if err := printJSON(w, render.Entries(es, missing)); err != nil {
						return err
					}
				} else {
					for i, e := range es {
						if i > 0 {
							fmt.Fprintln(w)
						}
						fmt.Fprintln(w, render.Entry(e))
					}
				}
				if len(missing) > 0 {
					names := make([]string, len(missing))
					for i, id := range missing {
						names[i] = id.String()
					}
					return fmt.Errorf("not found: %s", strings.Join(names, ", "))
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// memoryDir is where exported memory lives: <root>/.cairn/memory.
func memoryDir(s *app.Services, dir string) string {
	if dir != "" {
		return dir
	}
	return filepath.Join(s.Root, project.DirName, "memory")
}

func memoryExportCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write decisions, conventions and mistakes to .cairn/memory/ for review in git",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				d := memoryDir(s, dir)
				ex, err := s.Memory.Export(cmd.Context(), d)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				fmt.Fprintf(w, "Exported to %s: %d written, %d unchanged\n", d, ex.Written, ex.Unchanged)
				for _, o := range ex.Orphans {
					fmt.Fprintf(w, "no longer in memory (delete it if that is intended): %s\n", o)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory (default <root>/.cairn/memory)")
	return cmd
}

func memoryImportCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Merge exported memory files (from teammates, via git) into memory by uid",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				d := memoryDir(s, dir)
				im, err := s.Memory.Import(cmd.Context(), d)
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				fmt.Fprintf(w, "Imported from %s: %d added, %d updated, %d unchanged", d, im.Added, im.Updated, im.Unchanged)
				if im.Superseded > 0 {
					fmt.Fprintf(w, ", %d marked superseded", im.Superseded)
				}
				fmt.Fprintln(w)
				for _, n := range im.Notes {
					fmt.Fprintln(w, "note: "+n)
				}
				if im.Redacted > 0 {
					fmt.Fprintln(w, "redacted "+words.Plural(im.Redacted, "private span or secret", "private spans or secrets"))
				}
				for _, p := range im.Problems {
					fmt.Fprintln(w, "skipped "+p)
				}
				if len(im.Problems) > 0 {
					return fmt.Errorf("%s skipped", words.Plural(len(im.Problems), "file", "files"))
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "directory (default <root>/.cairn/memory)")
	return cmd
}

func memoryBackfillCmd() *cobra.Command {
	var batch, limit int
	cmd := &cobra.Command{
		Use:   "backfill",
		Short: "Embed entries that have no vector yet (needs CAIRN_EMBED_URL and CAIRN_EMBED_MODEL)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				done, missing, err := s.Memory.Backfill(cmd.Context(), batch, limit)
				fmt.Fprintf(cmd.OutOrStdout(), "Embedded %s; %d still without a vector\n", words.Plural(done, "entry", "entries"), missing)
				return err
			})
		},
	}
	cmd.Flags().IntVar(&batch, "batch", 32, "entries per request to the provider")
	cmd.Flags().IntVar(&limit, "limit", 0, "stop after this many (0: all)")
	return cmd
}
