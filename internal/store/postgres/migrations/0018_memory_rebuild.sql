-- How far an upgrade's background re-index of a project's memory search has
-- come: the last entry it indexed (0: none yet), or NULL when no re-index
-- is under way. Entries after it are not in the index yet (see rank.Resume).
ALTER TABLE projects ADD COLUMN memory_rebuilt_to bigint;
