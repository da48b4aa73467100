package memories

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/internal/store"
)

// IndexProgress is how far an upgrade's re-index of memory search has
// come (rank.Resume runs it in the background): Indexed of Entries
// entries are searchable. Rebuilding is false when no re-index is under
// way; Entries is then not counted.
type IndexProgress struct {
	Rebuilding bool
	Indexed    int
	Entries    int
}

// String says it the way get_config and `cairn memory status` show it:
// "rebuilding, 1200 of 3000 entries".
func (p IndexProgress) String() string {
	if !p.Rebuilding {
		return "up to date"
	}
	return fmt.Sprintf("rebuilding, %d of %d entries", p.Indexed, p.Entries)
}

// IndexProgress reads how far a re-index under way has come, from the
// reads every store has: the entries the index has not reached, and the
// entries in all (counted only while a re-index runs).
func (m *Memory) IndexProgress(ctx context.Context) (IndexProgress, error) {
	var p IndexProgress
	err := m.store.View(ctx, func(tx store.Tx) error {
		unindexed, err := unindexedCount(ctx, tx)
		if err != nil || unindexed == 0 {
			return err
		}
		p, err = progressOf(ctx, tx, unindexed)
		return err
	})
	if err != nil {
		return IndexProgress{}, fmt.Errorf("read the memory index's progress: %w", err)
	}
	return p, nil
}

// unindexedCount counts the entries a re-index under way has not reached.
func unindexedCount(ctx context.Context, tx store.Tx) (int, error) {
	idx, err := tx.MemoryIndex(ctx, store.MemorySelector{})
	if err != nil {
		return 0, err
	}
	return idx.Unindexed(ctx)
}

// progressOf is the progress of a re-index that has not reached unindexed
// entries (more than zero), read in the same transaction.
func progressOf(ctx context.Context, tx store.Tx, unindexed int) (IndexProgress, error) {
	entries, err := store.CountMemories(ctx, tx, store.MemorySelector{})
	if err != nil {
		return IndexProgress{}, err
	}
	entries = max(entries, unindexed)
	return IndexProgress{Rebuilding: true, Indexed: entries - unindexed, Entries: entries}, nil
}

// rebuildingNote says that a search answered from the entries indexed so
// far, if a re-index is under way; "" when none is.
func rebuildingNote(p IndexProgress) string {
	if !p.Rebuilding {
		return ""
	}
	return fmt.Sprintf("the search index is being rebuilt after an upgrade: results come from the %d of %d entries indexed so far; a running Cairn server completes it in the background", p.Indexed, p.Entries)
}
