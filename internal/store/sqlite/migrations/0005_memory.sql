-- Project memory: typed entries, their full-text index and embeddings,
-- sessions and branch contexts. Times are Unix microseconds (UTC).
CREATE TABLE memory_entries (
	id               INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused
	uid              TEXT    NOT NULL UNIQUE,           -- stable across export and import
	type             TEXT    NOT NULL,
	title            TEXT    NOT NULL,
	content          TEXT    NOT NULL DEFAULT '',
	facts            TEXT,                              -- JSON arrays, NULL when empty
	tags             TEXT,
	files            TEXT,
	session_id       TEXT    NOT NULL DEFAULT '',
	branch           TEXT    NOT NULL DEFAULT '',
	rationale        TEXT    NOT NULL DEFAULT '',
	alternatives     TEXT,
	root_cause       TEXT    NOT NULL DEFAULT '',
	fix              TEXT    NOT NULL DEFAULT '',
	prevention       TEXT    NOT NULL DEFAULT '',
	occurrences      INTEGER NOT NULL DEFAULT 0,
	examples         TEXT,
	discovery_tokens INTEGER NOT NULL DEFAULT 0,
	fingerprint      TEXT,                              -- mistakes only: what makes two the same
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL
);
CREATE INDEX memory_by_type ON memory_entries (type, id);
CREATE INDEX memory_by_session ON memory_entries (session_id, id) WHERE session_id <> '';
CREATE INDEX memory_by_branch ON memory_entries (branch, id) WHERE branch <> '';
CREATE INDEX memory_by_created ON memory_entries (created_at);
CREATE UNIQUE INDEX memory_mistakes ON memory_entries (fingerprint) WHERE fingerprint IS NOT NULL;

CREATE TABLE memory_tags (
	tag      TEXT    NOT NULL,
	entry_id INTEGER NOT NULL REFERENCES memory_entries (id) ON DELETE CASCADE,
	PRIMARY KEY (tag, entry_id)
) WITHOUT ROWID;
CREATE INDEX memory_tags_by_entry ON memory_tags (entry_id);

-- The full-text index, rowid = memory_entries.id, kept in step by the store.
CREATE VIRTUAL TABLE memory_fts USING fts5(title, body, tags, tokenize = 'porter unicode61 remove_diacritics 2');
-- Its rank is BM25 with a word in the title counting most, then in the
-- tags, then in the body; ORDER BY rank lets FTS5 rank without the SQL layer.
INSERT INTO memory_fts (memory_fts, rank) VALUES ('rank', 'bm25(8.0, 1.0, 4.0)');

-- Embeddings, little-endian float32 blobs as sqlite-vec reads them, one per
-- entry and model.
CREATE TABLE memory_vectors (
	model    TEXT    NOT NULL,
	entry_id INTEGER NOT NULL REFERENCES memory_entries (id) ON DELETE CASCADE,
	vec      BLOB    NOT NULL,
	PRIMARY KEY (model, entry_id)
) WITHOUT ROWID;
CREATE INDEX memory_vectors_by_entry ON memory_vectors (entry_id);

CREATE TABLE sessions (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	thread_id  INTEGER NOT NULL,
	agent      TEXT    NOT NULL DEFAULT '',
	branch     TEXT    NOT NULL DEFAULT '',
	started_at INTEGER NOT NULL,
	ended_at   INTEGER,
	doc        TEXT    NOT NULL -- the whole session as JSON
);
CREATE INDEX sessions_by_thread ON sessions (thread_id, id);
CREATE INDEX sessions_open ON sessions (agent, id) WHERE ended_at IS NULL;

CREATE TABLE branch_contexts (
	branch     TEXT    PRIMARY KEY,
	updated_at INTEGER NOT NULL,
	doc        TEXT    NOT NULL
) WITHOUT ROWID;
