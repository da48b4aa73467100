package importer

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/service/plan"
	"go.yaml.in/yaml/v3"
)

// todoriSource is the mapping namespace of Todori imports.
const todoriSource = Todori

type tdMeta struct {
	Created string `yaml:"created"`
	Updated string `yaml:"updated"`
}

type tdTask struct {
	ID           string   `yaml:"id"`
	Title        string   `yaml:"title"`
	Description  string   `yaml:"description"`
	Status       string   `yaml:"status"`
	Priority     string   `yaml:"priority"`
	Dependencies []string `yaml:"dependencies"`
	Subtasks     []tdTask `yaml:"subtasks"`
	Metadata     tdMeta   `yaml:"metadata"`
	CreatedAt    string   `yaml:"createdAt"`
	UpdatedAt    string   `yaml:"updatedAt"`
}

// ParseTodori reads a Todori .todori/tasks.yaml: a list of tasks, or an
// object with a tasks list. A task has id (a UUID), title, description,
// status, priority, dependencies (ids) and subtasks (ids "uuid.N"), and its
// timestamps under metadata (created, updated) or as createdAt/updatedAt.
// The file is one set, with source "todori".
func ParseTodori(data []byte) (Result, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Result{}, errSyntax("Todori", err)
	}
	if len(root.Content) == 0 {
		return Result{Format: Todori, Sets: []plan.ImportSet{{Source: todoriSource}}}, nil
	}
	doc := root.Content[0]
	var list []tdTask
	switch doc.Kind {
	case yaml.SequenceNode:
		if err := doc.Decode(&list); err != nil {
			return Result{}, errSyntax("Todori", err)
		}
	case yaml.MappingNode:
		var wrapped struct {
			Tasks *[]tdTask `yaml:"tasks"`
		}
		if err := doc.Decode(&wrapped); err != nil {
			return Result{}, errSyntax("Todori", err)
		}
		if wrapped.Tasks == nil {
			return Result{}, fmt.Errorf("not a Todori tasks.yaml: expected a list of tasks or an object with a tasks list")
		}
		list = *wrapped.Tasks
	default:
		return Result{}, fmt.Errorf("not a Todori tasks.yaml: expected a list of tasks or an object with a tasks list")
	}
	var n notes
	set := plan.ImportSet{Source: todoriSource}
	for i, t := range list {
		set.Tasks = append(set.Tasks, tdConvert(t, "", i+1, &n))
	}
	resolveDeps(set.Tasks)
	return Result{Format: Todori, Sets: []plan.ImportSet{set}, Notes: n.list()}, nil
}

func tdConvert(t tdTask, parent string, pos int, n *notes) plan.ImportTask {
	id := strings.TrimSpace(t.ID)
	if parent != "" {
		id = subtaskID(parent, id, pos)
	}
	created, updated := t.Metadata.Created, t.Metadata.Updated
	if created == "" {
		created = t.CreatedAt
	}
	if updated == "" {
		updated = t.UpdatedAt
	}
	out := plan.ImportTask{
		ExternalID:  id,
		Title:       t.Title,
		Description: strings.TrimSpace(t.Description),
		Status:      mapStatus(t.Status, id, n),
		Priority:    mapPriority(t.Priority, id, n),
		CreatedAt:   parseTime(created, "created", id, n),
		UpdatedAt:   parseTime(updated, "updated", id, n),
	}
	for _, d := range t.Dependencies {
		if d = strings.TrimSpace(d); d != "" {
			out.Deps = append(out.Deps, d)
		}
	}
	for i, s := range t.Subtasks {
		out.Subtasks = append(out.Subtasks, tdConvert(s, id, i+1, n))
	}
	return out
}
