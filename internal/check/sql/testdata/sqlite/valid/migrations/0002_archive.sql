-- +goose Up
ALTER TABLE notes ADD COLUMN archived_at TEXT;
ALTER TABLE notes ADD COLUMN color TEXT NOT NULL DEFAULT 'yellow';
CREATE INDEX notes_archived_idx ON notes (archived_at) WHERE archived_at IS NOT NULL;
UPDATE notes SET color = 'blue' WHERE pinned = 1;

-- +goose Down
DROP INDEX IF EXISTS notes_archived_idx;
ALTER TABLE notes DROP COLUMN color;
ALTER TABLE notes DROP COLUMN archived_at;
