PRAGMA foreign_keys = ON;

CREATE TABLE IF NOT EXISTS notes (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    title      TEXT    NOT NULL,
    body       TEXT    NOT NULL DEFAULT '',
    pinned     INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    created_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT
) STRICT;

CREATE TABLE IF NOT EXISTS tags (
    note_id INTEGER NOT NULL REFERENCES notes (id) ON DELETE CASCADE,
    tag     TEXT    NOT NULL COLLATE NOCASE,
    PRIMARY KEY (note_id, tag)
) WITHOUT ROWID;

CREATE INDEX IF NOT EXISTS tags_tag_idx ON tags (tag);
CREATE VIRTUAL TABLE IF NOT EXISTS notes_fts USING fts5 (title, body, content='notes', content_rowid='id');

CREATE TRIGGER IF NOT EXISTS notes_ai AFTER INSERT ON notes BEGIN
    INSERT INTO notes_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;

CREATE TRIGGER IF NOT EXISTS notes_au AFTER UPDATE ON notes BEGIN
    UPDATE notes SET updated_at = CASE WHEN new.updated_at IS NULL THEN datetime('now') ELSE new.updated_at END
    WHERE id = new.id;
    INSERT INTO notes_fts (notes_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.body);
    INSERT INTO notes_fts (rowid, title, body) VALUES (new.id, new.title, new.body);
END;

CREATE VIEW IF NOT EXISTS pinned_notes AS
    SELECT id, title, created_at FROM notes WHERE pinned = 1;
