package queue

import "context"

type jobFn func(context.Context) error

type wrk struct {
	ch  chan jobFn
	n   int
	err chan error
}

func newWrk(n int) *wrk {
	return &wrk{ch: make(chan jobFn), n: n, err: make(chan error, n)}
}

func (w *wrk) run(ctx context.Context) {
	for i := 0; i < w.n; i++ {
		go func() {
			for f := range w.ch {
				if e := f(ctx); e != nil {
					w.err <- e
				}
			}
		}()
	}
}
