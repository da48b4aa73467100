// Package store keeps key-value pairs in a file.
package store

import (
	"context"
	"encoding/json"
	"os"
	"sync"
)

// Store is a JSON file of string pairs.
type Store struct {
	mu   sync.Mutex
	path string
	data map[string]string
}

// Open reads the store at path, creating it when absent. It gives up
// when ctx is done before the file is read.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &Store{path: path, data: map[string]string{}}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	return s, json.Unmarshal(b, &s.data)
}

// Get returns the value of key.
func (s *Store) Get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.data[key]
	return v, ok
}

// Put sets key and writes the file.
func (s *Store) Put(ctx context.Context, key, value string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[key] = value
	b, err := json.Marshal(s.data)
	if err != nil {
		return err
	}
	return os.WriteFile(s.path, b, 0o600)
}
