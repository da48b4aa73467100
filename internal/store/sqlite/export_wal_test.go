package sqlite

import "context"

// SetCheckpointAt sets the size of the log past which s's commits
// checkpoint it (checkpointAt).
func SetCheckpointAt(s *Store, n int64) { s.ck.at.Store(n) }

// Checkpoints returns how many checkpoints s ran, and how many of them
// emptied the log.
func Checkpoints(s *Store) (ran, emptied uint64) { return s.ck.n.Load(), s.ck.full.Load() }

// CheckpointAt is checkpointAt.
const CheckpointAt = checkpointAt

// CheckpointNow does what a commit does after it: checkpoints the log if
// it has passed s's threshold.
func CheckpointNow(s *Store) { s.ck.afterCommit(context.Background()) }
