-- +goose Up
ALTER TABLE notes ADD COLUMN owner TEXT NOT NULL;
ALTER TABLE notes RENAME COLUMN body TO content;
ALTER TABLE tags RENAME TO labels;
ALTER TABLE notes DROP COLUMN color;
DROP TABLE old_notes;
UPDATE notes SET pinned = 0;
DELETE FROM labels;
CREATE TABLE drafts (id INTEGER PRIMARY KEY, title TEXT NOT NULL,);
