package metrics

import (
	"sort"
	"strings"
	"sync"
)

// Registry holds counters by name and labels.
type Registry struct {
	mu       sync.Mutex
	counters map[string]int64
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{counters: map[string]int64{}}
}

// Inc adds one to the counter name{labels}.
func (r *Registry) Inc(name string, labels map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counters[key(name, labels)]++
}

func key(name string, labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(name)
	for _, k := range keys {
		b.WriteString("," + k + "=" + labels[k])
	}
	return b.String()
}

// Value returns a counter's value.
func (r *Registry) Value(name string, labels map[string]string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.counters[key(name, labels)]
}
