package importer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/service/plan"
)

// tmID is a Taskmaster id or dependency: a number, or a string such as "3"
// or "3.2".
type tmID string

func (id *tmID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*id = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = tmID(strings.TrimSpace(s))
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("an id must be a number or a string, not %s", b)
		}
		*id = tmID(n.String())
	}
	return nil
}

type tmTask struct {
	ID           tmID     `json:"id"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	Details      string   `json:"details"`
	TestStrategy string   `json:"testStrategy"`
	Status       string   `json:"status"`
	Priority     string   `json:"priority"`
	Dependencies []tmID   `json:"dependencies"`
	Subtasks     []tmTask `json:"subtasks"`
	CreatedAt    string   `json:"createdAt"`
	UpdatedAt    string   `json:"updatedAt"`
}

type tmTag struct {
	Tasks []tmTask `json:"tasks"`
}

// legacyTag is the tag Taskmaster moves an untagged file's tasks to, so a
// file imported before and after that migration maps to the same tasks.
const legacyTag = "master"

// ParseTaskmaster reads a Taskmaster tasks.json: the tagged format, an
// object of tags each holding {"tasks": [...], "metadata": {...}}, or the
// legacy {"tasks": [...]}, taken as the tag "master". Each tag is its own
// set, with source "taskmaster:<tag>"; a task's external id is its id, a
// subtask's "parent.sub".
func ParseTaskmaster(data []byte, opts Options) (Result, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	tags, order, err := taskmasterTags(data)
	if err != nil {
		return Result{}, err
	}
	for _, want := range opts.Tags {
		if _, ok := tags[want]; !ok {
			return Result{}, fmt.Errorf("tag %q is not in the file; it has %s", want, strings.Join(order, ", "))
		}
	}
	r := Result{Format: Taskmaster}
	var n notes
	for _, name := range order {
		if len(opts.Tags) > 0 && !slices.Contains(opts.Tags, name) {
			continue
		}
		var tag tmTag
		if err := json.Unmarshal(tags[name], &tag); err != nil {
			return Result{}, errSyntax("Taskmaster", fmt.Errorf("tag %q: %w", name, err))
		}
		set := plan.ImportSet{Source: Taskmaster + ":" + name}
		for i, t := range tag.Tasks {
			set.Tasks = append(set.Tasks, tmConvert(t, "", i+1, &n))
		}
		resolveDeps(set.Tasks)
		r.Sets = append(r.Sets, set)
	}
	r.Notes = n.list()
	return r, nil
}

// taskmasterTags splits the file into its tags' raw JSON, in file order.
func taskmasterTags(data []byte) (map[string]json.RawMessage, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		if err == nil {
			err = fmt.Errorf("the top level is not an object")
		}
		return nil, nil, errSyntax("Taskmaster", err)
	}
	tags := map[string]json.RawMessage{}
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, errSyntax("Taskmaster", err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, errSyntax("Taskmaster", err)
		}
		if key == "tasks" && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
			// The legacy format: the whole file is one tag.
			var whole json.RawMessage = data
			return map[string]json.RawMessage{legacyTag: whole}, []string{legacyTag}, nil
		}
		var probe struct {
			Tasks json.RawMessage `json:"tasks"`
		}
		if json.Unmarshal(raw, &probe) != nil || !bytes.HasPrefix(bytes.TrimSpace(probe.Tasks), []byte("[")) {
			continue // not a tag
		}
		if _, dup := tags[key]; !dup {
			order = append(order, key)
		}
		tags[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, errSyntax("Taskmaster", err)
	}
	if len(order) == 0 {
		return nil, nil, fmt.Errorf(`not a Taskmaster tasks.json: expected {"master": {"tasks": [...]}} or {"tasks": [...]}`)
	}
	return tags, order, nil
}

func tmConvert(t tmTask, parent string, pos int, n *notes) plan.ImportTask {
	id := string(t.ID)
	if parent != "" {
		id = subtaskID(parent, id, pos)
	}
	out := plan.ImportTask{
		ExternalID:  id,
		Title:       t.Title,
		Description: body(t.Description, [2]string{"Details", t.Details}, [2]string{"Test strategy", t.TestStrategy}),
		Status:      mapStatus(t.Status, id, n),
		Priority:    mapPriority(t.Priority, id, n),
		CreatedAt:   parseTime(t.CreatedAt, "createdAt", id, n),
		UpdatedAt:   parseTime(t.UpdatedAt, "updatedAt", id, n),
	}
	for _, d := range t.Dependencies {
		if d != "" {
			out.Deps = append(out.Deps, string(d))
		}
	}
	for i, s := range t.Subtasks {
		out.Subtasks = append(out.Subtasks, tmConvert(s, id, i+1, n))
	}
	return out
}
