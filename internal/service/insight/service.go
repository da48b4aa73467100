package insight

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Options configure the insight service.
type Options struct {
	Recorder RecorderOptions
	// MinSample is the fewest sessions (or runs) a measure needs before it
	// is compared or ranked; below it the answer is "not enough data" with
	// the counts. Default DefaultMinSample.
	MinSample int
	// Weights weigh project_health's components by name (HealthComponents);
	// a component not named keeps its default weight, zero leaves it out.
	Weights map[string]float64
	Now     func() time.Time
}

// DefaultMinSample is the default of Options.MinSample.
const DefaultMinSample = 10

// Service records usage and reads it back with the session records.
type Service struct {
	st   store.Store
	rec  *Recorder
	opts Options
}

// New returns the insight service over st.
func New(st store.Store, opts Options) *Service {
	if opts.MinSample <= 0 {
		opts.MinSample = DefaultMinSample
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return time.Now().UTC() }
	}
	if opts.Recorder.Now == nil {
		opts.Recorder.Now = opts.Now
	}
	return &Service{st: st, rec: NewRecorder(st, opts.Recorder), opts: opts}
}

// Record takes an event to be written off the caller's path (see
// Recorder.Record); a nil Service records nothing.
func (s *Service) Record(e usage.Event) {
	if s != nil {
		s.rec.Record(e)
	}
}

// Enabled reports whether usage is recorded.
func (s *Service) Enabled() bool { return s != nil && s.rec.Enabled() }

// Counts reports the recorder's counters.
func (s *Service) Counts() Counts { return s.rec.Counts() }

// Flush writes the events held now.
func (s *Service) Flush(ctx context.Context) error { return s.rec.Flush(ctx) }

// Close writes the events held and stops recording.
func (s *Service) Close() { s.rec.Close() }

// RollUp folds the raw usage events before cutoff into daily aggregates
// now (the recorder does it on its own every few hours) and returns how
// many it folded.
func (s *Service) RollUp(ctx context.Context, cutoff time.Time) (int, error) {
	if err := s.Flush(ctx); err != nil {
		return 0, err
	}
	return rollUpBefore(ctx, s.st, cutoff)
}

// MinSample is the fewest sessions a measure needs to be compared.
func (s *Service) MinSample() int { return s.opts.MinSample }
