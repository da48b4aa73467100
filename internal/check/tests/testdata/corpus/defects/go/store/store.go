// Package store keeps values in memory.
package store

import "sync"

// Store is a map safe for concurrent use.
type Store struct {
	mu sync.Mutex
	m  map[string]string
}

// Put sets a value.
func (s *Store) Put(k, v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[k] = v
}

// Get reads a value.
func (s *Store) Get(k string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}
