package cli

import (
	"fmt"
	"io"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/scaffold"
)

// runScaffold writes (or, on a dry run, lists) the knowledge folders of a
// scaffold level where the project's settings put them; level "" does
// nothing.
func runScaffold(w io.Writer, root, level string, dryRun bool) error {
	if level == "" {
		return nil
	}
	rs, _, problems := project.Settings(root, nil)
	for _, p := range problems {
		fmt.Fprintln(w, "warning: configuration refused: "+p)
	}
	paths := projectinfo.KnowledgePaths
	if p := app.KnowledgePaths(rs); p != nil {
		paths = *p
	}
	res, err := scaffold.New(root, paths).Scaffold(scaffold.Request{Level: level, DryRun: dryRun})
	if err != nil {
		return err
	}
	verb := "created  "
	if dryRun {
		verb = "would create"
	}
	for _, f := range res.Written {
		fmt.Fprintf(w, "%s %s: %s\n", verb, f.Path, f.What)
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "skipped  %s: %s\n", s.Path, s.Why)
	}
	return nil
}
