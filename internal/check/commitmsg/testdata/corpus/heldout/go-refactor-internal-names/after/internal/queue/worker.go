package queue

import "context"

type job func(context.Context) error

type pool struct {
	jobs    chan job
	workers int
	errs    chan error
}

func newPool(workers int) *pool {
	return &pool{jobs: make(chan job), workers: workers, errs: make(chan error, workers)}
}

func (p *pool) run(ctx context.Context) {
	for i := 0; i < p.workers; i++ {
		go func() {
			for j := range p.jobs {
				if err := j(ctx); err != nil {
					p.errs <- err
				}
			}
		}()
	}
}
