-- Memory search ranks from its own postings (0004, internal/store/rank);
-- the tsvector it replaced was still computed on every write and read by
-- nothing. It goes.
ALTER TABLE memory_entries DROP COLUMN fts;
