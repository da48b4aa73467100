package store

import "testing"

func TestBroken(t *testing.T) {
	var s Store
	s.Put("a", "1"
}
