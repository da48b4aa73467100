package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/scaffold"
	"github.com/cairn-dev/cairn/internal/setup"
)

// runScaffold writes (or, on a dry run, lists) the knowledge folders of a
// scaffold level where the project's settings put them; level "" does
// nothing.
func runScaffold(w io.Writer, root, level string, dryRun bool, changes []setup.Change) error {
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
	// init's own changes (AGENTS.md's section) are said once, by init.
	said := func(path string) bool {
		return slices.ContainsFunc(changes, func(c setup.Change) bool { return c.Path == path })
	}
	for _, f := range res.Written {
		if said(f.Path) {
			continue
		}
		fmt.Fprintf(w, "%s %s: %s\n", verb, f.Path, f.What)
	}
	for _, s := range res.Skipped {
		if said(s.Path) {
			continue
		}
		fmt.Fprintf(w, "skipped  %s: %s\n", s.Path, s.Why)
	}
	return nil
}
