-- How far an upgrade's background re-index of memory search has come: the
-- last entry it indexed (0: none yet), or NULL when no re-index is under
-- way. Entries after it are not in the index yet (see rank.Resume).
ALTER TABLE memory_index ADD COLUMN rebuilt_to INTEGER;
