-- A session's record becomes events, one row each, appended (or counted
-- again) by each hook instead of the whole session being rewritten: the
-- write-ahead log grew with the square of a session's length. The session's
-- document keeps only its head (a versioned storage struct; version 1 is
-- the old whole session). Sessions are found by the client's own session id
-- (client_key) and by the client's process (pid, pstart).
ALTER TABLE sessions ADD COLUMN client_key TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN pstart INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sessions_by_client ON sessions (client_key, id) WHERE client_key <> '';
CREATE INDEX sessions_by_proc ON sessions (pid, pstart) WHERE pid <> 0 AND ended_at IS NULL;

CREATE TABLE session_events (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	session_id  INTEGER NOT NULL,
	kind        TEXT    NOT NULL,
	key         TEXT    NOT NULL,
	subject     TEXT    NOT NULL DEFAULT '',
	detail      TEXT    NOT NULL DEFAULT '',
	data        TEXT    NOT NULL DEFAULT '', -- what only some kinds have, JSON (store.EncodeEventData)
	count       INTEGER NOT NULL DEFAULT 1,
	first_at    INTEGER NOT NULL,
	at          INTEGER NOT NULL,
	resolved_at INTEGER,
	UNIQUE (session_id, kind, key)
);
CREATE INDEX session_events_by_time ON session_events (session_id, kind, at);
CREATE INDEX session_events_unresolved ON session_events (session_id, kind, subject) WHERE resolved_at IS NULL;

-- The lists version 1 kept in the document, as events of the session.
INSERT OR IGNORE INTO session_events (session_id, kind, key, subject, first_at, at)
	SELECT s.id, 'file', f.value, f.value, s.started_at, coalesce(s.ended_at, s.started_at)
	FROM sessions s, json_each(s.doc, '$.filesModified') f WHERE json_valid(s.doc);
INSERT OR IGNORE INTO session_events (session_id, kind, key, subject, first_at, at)
	SELECT s.id, 'task', f.value, f.value, s.started_at, coalesce(s.ended_at, s.started_at)
	FROM sessions s, json_each(s.doc, '$.tasksCompleted') f WHERE json_valid(s.doc);
INSERT OR IGNORE INTO session_events (session_id, kind, key, subject, first_at, at)
	SELECT s.id, 'test', f.value, f.value, s.started_at, coalesce(s.ended_at, s.started_at)
	FROM sessions s, json_each(s.doc, '$.testsRun') f WHERE json_valid(s.doc);
INSERT OR IGNORE INTO session_events (session_id, kind, key, subject, detail, first_at, at)
	SELECT s.id, 'failure', f.value, f.value, f.value, s.started_at, coalesce(s.ended_at, s.started_at)
	FROM sessions s, json_each(s.doc, '$.commandsFailed') f WHERE json_valid(s.doc);
INSERT OR IGNORE INTO session_events (session_id, kind, key, detail, data, first_at, at)
	SELECT s.id, 'decision', json_extract(f.value, '$.decision'), json_extract(f.value, '$.decision'),
		CASE WHEN coalesce(json_extract(f.value, '$.reasoning'), '') = '' THEN '' ELSE json_object('note', json_extract(f.value, '$.reasoning')) END,
		s.started_at, coalesce(s.ended_at, s.started_at)
	FROM sessions s, json_each(s.doc, '$.decisions') f WHERE json_valid(s.doc) AND json_extract(f.value, '$.decision') IS NOT NULL;
INSERT OR IGNORE INTO session_events (session_id, kind, key, detail, data, first_at, at)
	SELECT s.id, 'resolved', json_extract(f.value, '$.error'), json_extract(f.value, '$.error'),
		CASE WHEN coalesce(json_extract(f.value, '$.fix'), '') = '' THEN '' ELSE json_object('note', json_extract(f.value, '$.fix')) END,
		s.started_at, coalesce(s.ended_at, s.started_at)
	FROM sessions s, json_each(s.doc, '$.errorsResolved') f WHERE json_valid(s.doc) AND json_extract(f.value, '$.error') IS NOT NULL;
