package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/importer"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/words"
)

func importCmd() *cobra.Command {
	var (
		format string
		tags   []string
		asJSON bool
		dryRun bool
	)
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Import tasks from Taskmaster (tasks.json) or Todori (tasks.yaml) into the project",
		Long: `Import another tool's tasks into the project's plan, in one transaction: a refused
import changes nothing.

FILE is Taskmaster's .taskmaster/tasks/tasks.json (tagged or legacy) or Todori's
.todori/tasks.yaml, or a directory holding one. The format is told from the
file's name, else its content; --format forces it.

Each task gets a Cairn id of its own: Cairn numbers every task, subtasks
included, in one sequence that is never reused, so file task 3 may become
Cairn task 5. The import prints the mapping (file id → Cairn id), and
` + "`cairn show ID`" + ` and get_task say which file and file id a task came from.
Subtasks (as children, in order), dependencies and statuses are kept; done
tasks are archived as completed, unless a task they depend on is open (then
they are made in-progress, and the import says so).

Importing the same file again (the same path, relative to the project root)
updates what the last import created instead of duplicating it: titles,
descriptions, priorities and dependencies follow the file, and statuses move
forward only (done stays done). Another file gets tasks of its own, even with
the same tags and ids. Dependencies on tasks missing from the file are skipped
and reported, in the file's numbering; a dependency cycle, or a task with a
bad title, refuses the import.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := importer.Locate(args[0])
			if err != nil {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if format == "" {
				if format, err = importer.Detect(path, data); err != nil {
					return err
				}
			} else if format = strings.ToLower(format); !slices.Contains(importer.Formats, format) {
				return fmt.Errorf("--format %q: use %s", format, strings.Join(importer.Formats, " or "))
			}
			parsed, err := importer.Parse(format, data, importer.Options{Tags: tags})
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			s, err := app.Open(cmd.Context(), app.Config{})
			if err != nil {
				return err
			}
			defer s.Close()
			file := fileIdentity(path, s.Root)
			for i := range parsed.Sets {
				parsed.Sets[i].File = file
			}
			rep, err := plan.NewImporter(s.Store).Import(cmd.Context(), parsed.Sets, plan.ImportOptions{DryRun: dryRun})
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if asJSON {
				return writeImportJSON(cmd.OutOrStdout(), path, s.Root, parsed, rep)
			}
			writeImportText(cmd.OutOrStdout(), path, s.Root, parsed, rep)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", "", "the file's format: "+strings.Join(importer.Formats, " or ")+" (default: from the file)")
	f.StringSliceVar(&tags, "tag", nil, "Taskmaster tags to import, repeatable or comma-separated (default: every tag)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.BoolVar(&dryRun, "dry-run", false, "report what an import would do and change nothing")
	return cmd
}

// fileIdentity names an imported file for the import mapping: its path
// relative to the project root (absolute when outside it), with symbolic
// links resolved, so that the same file is the same however it is named.
func fileIdentity(path, root string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(path))
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

type importJSON struct {
	File         string           `json:"file"`
	FileID       string           `json:"fileIdentity"` // what re-imports are matched by, with the tag and id
	Format       string           `json:"format"`
	Project      string           `json:"project"`
	Sources      []string         `json:"sources"`
	DryRun       bool             `json:"dryRun,omitempty"`
	Created      int              `json:"created"`
	Updated      int              `json:"updated"`
	Unchanged    int              `json:"unchanged"`
	Tasks        []importTaskJSON `json:"tasks"`
	SkippedDeps  []importSkipJSON `json:"skippedDependencies,omitempty"`
	SkippedTasks []importSkipJSON `json:"skippedTasks,omitempty"`
	Notes        []string         `json:"notes,omitempty"`
}

type importTaskJSON struct {
	Source     string   `json:"source"`
	ExternalID string   `json:"externalId"`
	ID         string   `json:"id"`
	Ref        string   `json:"ref,omitempty"`
	Action     string   `json:"action"`
	Changes    []string `json:"changes,omitempty"`
}

type importSkipJSON struct {
	Source     string `json:"source"`
	Task       string `json:"task"`
	Dependency string `json:"dependency,omitempty"`
	Reason     string `json:"reason"`
}

func writeImportJSON(w io.Writer, path, root string, parsed importer.Result, rep plan.ImportReport) error {
	out := importJSON{File: path, Format: parsed.Format, Project: root, DryRun: rep.DryRun,
		Created: rep.Created, Updated: rep.Updated, Unchanged: rep.Unchanged,
		Sources: []string{}, Tasks: []importTaskJSON{}, Notes: append(slices.Clone(parsed.Notes), rep.Notes...)}
	for _, s := range parsed.Sets {
		out.Sources = append(out.Sources, s.Source)
		out.FileID = s.File
	}
	for _, t := range rep.Tasks {
		it := importTaskJSON{Source: t.Source, ExternalID: t.ExternalID, ID: t.ID.String(), Action: t.Action, Changes: t.Changes}
		if t.Ref != it.ID {
			it.Ref = t.Ref
		}
		out.Tasks = append(out.Tasks, it)
	}
	for _, d := range rep.SkippedDeps {
		out.SkippedDeps = append(out.SkippedDeps, importSkipJSON{Source: d.Source, Task: d.Task, Dependency: d.Dep, Reason: d.Reason})
	}
	for _, t := range rep.SkippedTasks {
		out.SkippedTasks = append(out.SkippedTasks, importSkipJSON{Source: t.Source, Task: t.Task, Reason: t.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// maxLines bounds each list of the text summary; --json has everything.
const maxLines = 20

func writeImportText(w io.Writer, path, root string, parsed importer.Result, rep plan.ImportReport) {
	var sources []string
	for _, s := range parsed.Sets {
		sources = append(sources, s.Source)
	}
	verb := "Imported"
	if rep.DryRun {
		verb = "Dry run, nothing changed: would import"
	}
	fmt.Fprintf(w, "%s %s (%s) into %s\n", verb, path, strings.Join(sources, ", "), root)
	fmt.Fprintf(w, "  created %d, updated %d, unchanged %d", rep.Created, rep.Updated, rep.Unchanged)
	if n := len(rep.SkippedTasks); n > 0 {
		fmt.Fprintf(w, ", skipped %d", n)
	}
	if n := len(rep.SkippedDeps); n > 0 {
		fmt.Fprintf(w, "; %s skipped", words.Plural(n, "dependency", "dependencies"))
	}
	fmt.Fprintln(w)
	multi := len(parsed.Sets) > 1
	name := func(source, ext string) string {
		if multi {
			return source + " " + ext
		}
		return ext
	}
	list := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(w, "%s:\n", title)
		for i, l := range lines {
			if i == maxLines {
				fmt.Fprintf(w, "  … and %d more (--json lists them all)\n", len(lines)-maxLines)
				break
			}
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	writeMapping(w, rep, multi)
	var updated []string
	for _, t := range rep.Tasks {
		if t.Action == plan.ImportUpdated {
			updated = append(updated, fmt.Sprintf("%s → [%s]: %s", name(t.Source, t.ExternalID), t.Ref, strings.Join(t.Changes, ", ")))
		}
	}
	list("Updated", updated)
	var skipped []string
	for _, t := range rep.SkippedTasks {
		skipped = append(skipped, fmt.Sprintf("%s: %s", name(t.Source, t.Task), t.Reason))
	}
	list("Skipped tasks", skipped)
	var deps []string
	for _, d := range rep.SkippedDeps {
		deps = append(deps, fmt.Sprintf("%s depends on file task %s: %s", name(d.Source, "file task "+d.Task), d.Dep, d.Reason))
	}
	list("Skipped dependencies (the file's ids)", deps)
	list("Notes", append(slices.Clone(parsed.Notes), rep.Notes...))
}

// writeMapping prints which Cairn id each task of the file became, several
// to a line, per set; --json has the same as tasks[].
func writeMapping(w io.Writer, rep plan.ImportReport, multi bool) {
	if len(rep.Tasks) == 0 {
		return
	}
	const perLine, maxPairs = 8, 400
	head := "Ids (file id → Cairn id; cairn show ID shows a task):"
	if rep.DryRun {
		head = "Ids it would get (file id → Cairn id):"
	}
	fmt.Fprintln(w, head)
	source, n := "", 0
	var line []string
	flush := func() {
		if len(line) > 0 {
			fmt.Fprintf(w, "  %s\n", strings.Join(line, ", "))
			line = line[:0]
		}
	}
	for _, t := range rep.Tasks {
		if multi && t.Source != source {
			flush()
			source = t.Source
			fmt.Fprintf(w, " %s:\n", source)
		}
		if n == maxPairs {
			flush()
			fmt.Fprintf(w, "  … and %d more (--json lists them all)\n", len(rep.Tasks)-n)
			return
		}
		line = append(line, fmt.Sprintf("%s → %s", t.ExternalID, t.ID))
		if n++; len(line) == perLine {
			flush()
		}
	}
	flush()
}
