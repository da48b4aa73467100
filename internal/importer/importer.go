// Package importer reads other task tools' files, Taskmaster's tasks.json
// and Todori's tasks.yaml, into the service's format-neutral import sets.
// It only parses: the service does the import.
package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// The formats.
const (
	Taskmaster = "taskmaster"
	Todori     = "todori"
)

// Formats lists the formats by name.
var Formats = []string{Taskmaster, Todori}

// Result is a parsed file.
type Result struct {
	Format string
	Sets   []plan.ImportSet
	// Notes say what the parser had to interpret: statuses and priorities
	// that are not Cairn's, timestamps it could not read.
	Notes []string
}

// Count returns how many tasks the result holds, subtasks included.
func (r Result) Count() int {
	n := 0
	var walk func([]plan.ImportTask)
	walk = func(ts []plan.ImportTask) {
		for _, t := range ts {
			n++
			walk(t.Subtasks)
		}
	}
	for _, s := range r.Sets {
		walk(s.Tasks)
	}
	return n
}

// Options change how a file is parsed.
type Options struct {
	// Tags selects Taskmaster tags; empty: every tag in the file.
	Tags []string
}

// Parse parses data in the named format.
func Parse(format string, data []byte, opts Options) (Result, error) {
	switch format {
	case Taskmaster:
		return ParseTaskmaster(data, opts)
	case Todori:
		if len(opts.Tags) > 0 {
			return Result{}, fmt.Errorf("tags are Taskmaster's; a Todori file has none")
		}
		return ParseTodori(data)
	}
	return Result{}, fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats, " or "))
}

// Detect tells the format of a file from its name, else from its content:
// JSON is Taskmaster's, YAML Todori's.
func Detect(path string, data []byte) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return Taskmaster, nil
	case ".yaml", ".yml":
		return Todori, nil
	}
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	switch {
	case len(trimmed) == 0:
		return "", fmt.Errorf("%s is empty", path)
	case trimmed[0] == '{':
		return Taskmaster, nil
	case trimmed[0] == '-' || bytes.Contains(trimmed, []byte("tasks:")):
		return Todori, nil
	}
	return "", fmt.Errorf("cannot tell the format of %s: pass --format %s", path, strings.Join(Formats, "|"))
}

// Locate resolves what the user named: a file as is, or a directory holding
// one of the known files (a project root, .taskmaster or .todori).
func Locate(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return path, nil
	}
	for _, c := range []string{
		filepath.Join(".taskmaster", "tasks", "tasks.json"),
		filepath.Join("tasks", "tasks.json"),
		"tasks.json",
		filepath.Join(".todori", "tasks.yaml"),
		"tasks.yaml",
	} {
		p := filepath.Join(path, c)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is a directory with no .taskmaster/tasks/tasks.json or .todori/tasks.yaml in it", path)
}

// notes gathers what a parser interpreted, one note per kind of thing, with
// the tasks it applied to.
type notes struct {
	order []string
	ids   map[string][]string
}

func (n *notes) add(note, id string) {
	if n.ids == nil {
		n.ids = map[string][]string{}
	}
	if _, ok := n.ids[note]; !ok {
		n.order = append(n.order, note)
	}
	n.ids[note] = append(n.ids[note], id)
}

func (n *notes) list() []string {
	out := make([]string, 0, len(n.order))
	for _, note := range n.order {
		ids := n.ids[note]
		shown := ids
		if len(shown) > 10 {
			shown = shown[:10]
		}
		s := note + " (" + strings.Join(shown, ", ")
		if len(ids) > len(shown) {
			s += fmt.Sprintf(" and %d more", len(ids)-len(shown))
		}
		out = append(out, s+")")
	}
	return out
}

// statusAliases are other tools' spellings of Cairn's statuses.
var statusAliases = map[string]task.Status{
	"todo": task.StatusPending, "to-do": task.StatusPending, "open": task.StatusPending, "new": task.StatusPending,
	"in_progress": task.StatusInProgress, "inprogress": task.StatusInProgress, "in progress": task.StatusInProgress,
	"active": task.StatusInProgress, "started": task.StatusInProgress, "doing": task.StatusInProgress,
	// Review: the work exists but is not accepted yet, so still open.
	"review": task.StatusInProgress, "in-review": task.StatusInProgress, "in review": task.StatusInProgress,
	"completed": task.StatusDone, "complete": task.StatusDone, "finished": task.StatusDone, "closed": task.StatusDone,
	"postponed": task.StatusDeferred, "on-hold": task.StatusDeferred,
	"canceled": task.StatusCancelled, "wontfix": task.StatusCancelled,
}

// mapStatus maps a tool's status to Cairn's. Empty is pending; a status
// Cairn does not have is noted with the one it became (unknown: pending).
func mapStatus(raw, id string, n *notes) task.Status {
	s := strings.ToLower(strings.TrimSpace(raw))
	if s == "" {
		return task.StatusPending
	}
	if st := task.Status(s); st.Valid() {
		return st
	}
	if st, ok := statusAliases[s]; ok {
		n.add(fmt.Sprintf("status %q is not a Cairn status: imported as %s", raw, st), id)
		return st
	}
	n.add(fmt.Sprintf("status %q is unknown: imported as pending", raw), id)
	return task.StatusPending
}

// mapPriority maps a tool's priority to Cairn's; empty or unknown is
// medium (unknown is noted).
func mapPriority(raw, id string, n *notes) task.Priority {
	p := strings.ToLower(strings.TrimSpace(raw))
	switch p {
	case "":
		return task.PriorityMedium
	case "urgent", "highest", "p0":
		n.add(fmt.Sprintf("priority %q imported as critical", raw), id)
		return task.PriorityCritical
	case "normal":
		return task.PriorityMedium
	}
	if pr := task.Priority(p); pr.Valid() {
		return pr
	}
	n.add(fmt.Sprintf("priority %q is unknown: imported as medium", raw), id)
	return task.PriorityMedium
}

var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05", "2006-01-02"}

// parseTime reads a timestamp in the usual layouts; an unreadable one is
// noted and ignored.
func parseTime(raw, field, id string, n *notes) time.Time {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return time.Time{}
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, raw); err == nil {
			return t.UTC()
		}
	}
	n.add(fmt.Sprintf("%s is not a timestamp Cairn reads; ignored", field), id)
	return time.Time{}
}

// body lays out a task's texts as one Cairn body: the description, then
// each further section under a Markdown heading. Empty sections are left
// out, as is a section that repeats the description.
func body(description string, sections ...[2]string) string {
	var parts []string
	desc := strings.TrimSpace(description)
	if desc != "" {
		parts = append(parts, desc)
	}
	for _, s := range sections {
		text := strings.TrimSpace(s[1])
		if text == "" || text == desc {
			continue
		}
		parts = append(parts, "## "+s[0]+"\n"+text)
	}
	return strings.Join(parts, "\n\n")
}

// resolveDeps rewrites the dependencies of subtasks that name a sibling by
// its number alone ("2" for "5.2") to the sibling's full id, as Taskmaster
// (and hierarchical ids generally) mean them. A plain number with no such
// sibling, or naming the subtask itself, stays as it is: a top-level task.
func resolveDeps(ts []plan.ImportTask) {
	ids := map[string]bool{}
	var collect func([]plan.ImportTask)
	collect = func(ts []plan.ImportTask) {
		for _, t := range ts {
			ids[t.ExternalID] = true
			collect(t.Subtasks)
		}
	}
	collect(ts)
	var walk func(ts []plan.ImportTask, parent string)
	walk = func(ts []plan.ImportTask, parent string) {
		for i := range ts {
			t := &ts[i]
			for j, d := range t.Deps {
				if sib := parent + "." + d; parent != "" && !strings.Contains(d, ".") && ids[sib] && sib != t.ExternalID {
					t.Deps[j] = sib
				}
			}
			walk(t.Subtasks, t.ExternalID)
		}
	}
	walk(ts, "")
}

// subtaskID names a subtask by its parent: "5.2" from "2", or the id as
// given when it already is "5.2"; the position (from 1) when it has none.
func subtaskID(parent, raw string, pos int) string {
	raw = strings.TrimSpace(raw)
	switch {
	case raw == "":
		return fmt.Sprintf("%s.%d", parent, pos)
	case strings.HasPrefix(raw, parent+"."):
		return raw
	}
	return parent + "." + raw
}

// errSyntax wraps a decoding error with the file's format.
func errSyntax(format string, err error) error {
	return fmt.Errorf("not a valid %s file: %w", format, err)
}
