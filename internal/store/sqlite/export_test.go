package sqlite

// UpkeepDone is closed when the store's background re-index has ended
// (nil: none was started).
func (s *Store) UpkeepDone() <-chan struct{} { return s.upkeepDone }

// CountStatements has every statement a transaction runs counted by its
// text, until the returned stop is called; each transaction counts as
// "BEGIN" (View) or "BEGIN IMMEDIATE" (Update). Tests that use it must not
// run in parallel with others that run transactions.
func CountStatements(count func(query string)) (stop func()) {
	statementHook.Store(&count)
	return func() { statementHook.Store(nil) }
}

// Prepared is how many statements the store's pools have prepared.
func (s *Store) Prepared() int {
	n := 0
	for _, l := range []*lazyStatements{s.ws, s.rs} {
		l.mu.Lock()
		n += l.made
		l.mu.Unlock()
	}
	return n
}
