// Package queue is a first-in first-out queue safe for concurrent use.
package queue

import "sync"

// Queue is a FIFO of values of type T. The zero value is an empty queue
// ready to use; a Queue must not be copied after first use.
type Queue[T any] struct {
	mu    sync.Mutex
	items []T
}

// Push adds v at the back of the queue.
func (q *Queue[T]) Push(v T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, v)
}

// Pop removes the value at the front of the queue and returns it, or
// returns the zero value and false when the queue is empty.
func (q *Queue[T]) Pop() (T, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	var zero T
	if len(q.items) == 0 {
		return zero, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}
