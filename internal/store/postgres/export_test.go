package postgres

// UpkeepDone is closed when the store's background re-index has ended
// (nil: none was started).
func (s *Store) UpkeepDone() <-chan struct{} { return s.upkeepDone }
