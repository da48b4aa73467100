package mcpserver

import (
	"reflect"
	"strings"
	"testing"

	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestListDocsFollowTheDomain: the argument descriptions that spell out a
// list (struct tags cannot compute it) say what the domain's list says.
func TestListDocsFollowTheDomain(t *testing.T) {
	doc := func(field string) string {
		f, _ := reflect.TypeFor[plantools.FilterArgs]().FieldByName(field)
		return f.Tag.Get("jsonschema")
	}
	for _, tc := range []struct {
		field string
		list  []string
	}{
		{"Status", strs(task.Statuses)},
		{"Priority", strs(task.Priorities)},
	} {
		if want := strings.Join(tc.list, ", "); doc(tc.field) != want {
			t.Errorf("filterArgs.%s says %q; the domain's list is %q", tc.field, doc(tc.field), want)
		}
	}
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}
