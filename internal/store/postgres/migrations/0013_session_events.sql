-- A session's record becomes events, one row each, appended (or counted
-- again) instead of the whole session being rewritten by every hook. The
-- session's document keeps only its head (a versioned storage struct;
-- version 1 is the old whole session). Sessions are found by the client's
-- own session id (client_key) and by the client's process (pid, pstart).
ALTER TABLE sessions ADD COLUMN client_key text NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN pid integer NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN pstart bigint NOT NULL DEFAULT 0;
CREATE INDEX sessions_by_client ON sessions (project_id, client_key, id) WHERE client_key <> '';
CREATE INDEX sessions_by_proc ON sessions (project_id, pid, pstart) WHERE pid <> 0 AND ended_at IS NULL;
CREATE INDEX sessions_open ON sessions (project_id, agent, id) WHERE ended_at IS NULL;

CREATE TABLE session_events (
	project_id  bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	id          bigserial,
	session_id  bigint      NOT NULL,
	kind        text        NOT NULL,
	key         text        NOT NULL,
	subject     text        NOT NULL DEFAULT '',
	detail      text        NOT NULL DEFAULT '',
	data        text        NOT NULL DEFAULT '', -- what only some kinds have, JSON (store.EncodeEventData)
	count       integer     NOT NULL DEFAULT 1,
	first_at    timestamptz NOT NULL,
	at          timestamptz NOT NULL,
	resolved_at timestamptz,
	PRIMARY KEY (project_id, id),
	UNIQUE (project_id, session_id, kind, key)
);
CREATE INDEX session_events_by_time ON session_events (project_id, session_id, kind, at);
CREATE INDEX session_events_unresolved ON session_events (project_id, session_id, kind, subject) WHERE resolved_at IS NULL;

-- The lists version 1 kept in the document, as events of the session.
INSERT INTO session_events (project_id, session_id, kind, key, subject, detail, data, first_at, at)
SELECT s.project_id, s.id, l.kind, l.key, l.subject, l.detail, l.data, s.started_at, coalesce(s.ended_at, s.started_at)
FROM sessions s, LATERAL (
	SELECT 'file' AS kind, v AS key, v AS subject, '' AS detail, '' AS data FROM jsonb_array_elements_text(coalesce(s.doc::jsonb -> 'filesModified', '[]')) v
	UNION ALL SELECT 'task', v, v, '', '' FROM jsonb_array_elements_text(coalesce(s.doc::jsonb -> 'tasksCompleted', '[]')) v
	UNION ALL SELECT 'test', v, v, '', '' FROM jsonb_array_elements_text(coalesce(s.doc::jsonb -> 'testsRun', '[]')) v
	UNION ALL SELECT 'failure', v, v, v, '' FROM jsonb_array_elements_text(coalesce(s.doc::jsonb -> 'commandsFailed', '[]')) v
	UNION ALL SELECT 'decision', d ->> 'decision', '', d ->> 'decision',
		CASE WHEN coalesce(d ->> 'reasoning', '') = '' THEN '' ELSE jsonb_build_object('note', d ->> 'reasoning')::text END
		FROM jsonb_array_elements(coalesce(s.doc::jsonb -> 'decisions', '[]')) d WHERE d ->> 'decision' IS NOT NULL
	UNION ALL SELECT 'resolved', d ->> 'error', '', d ->> 'error',
		CASE WHEN coalesce(d ->> 'fix', '') = '' THEN '' ELSE jsonb_build_object('note', d ->> 'fix')::text END
		FROM jsonb_array_elements(coalesce(s.doc::jsonb -> 'errorsResolved', '[]')) d WHERE d ->> 'error' IS NOT NULL
) l
WHERE s.doc LIKE '{%'
ON CONFLICT DO NOTHING;
