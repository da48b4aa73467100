package tool

import (
	"context"

	"github.com/cairn-dev/cairn/internal/service"
)

// measureKey carries a call's measure in its context.
type measureKey struct{}

// Measure is what the handler tells the measure: the project's
// services, once it has them (a call refused before, for its arguments or
// an unopened project, has none and is not recorded).
type Measure struct {
	Svc *service.Set
	// Class is what a classify_task call matched best, if anything.
	Class string
}

// Measuring returns ctx carrying m, which the handler fills in.
func Measuring(ctx context.Context, m *Measure) context.Context {
	return context.WithValue(ctx, measureKey{}, m)
}

// NoteServices tells the call's measure its services.
func NoteServices(ctx context.Context, svc *service.Set) {
	if m, ok := ctx.Value(measureKey{}).(*Measure); ok {
		m.Svc = svc
	}
}

// NoteClass tells the call's measure what the task it classified matched.
func NoteClass(ctx context.Context, class string) {
	if m, ok := ctx.Value(measureKey{}).(*Measure); ok {
		m.Class = class
	}
}
