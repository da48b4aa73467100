-- Project memory: typed entries with their full-text vector and embeddings,
-- sessions and branch contexts, every row keyed by its project. Entry and
-- session ids count from 1 in each project, as task ids do.
ALTER TABLE projects ADD COLUMN next_memory_id bigint NOT NULL DEFAULT 1,
	ADD COLUMN next_session_id bigint NOT NULL DEFAULT 1;

CREATE TABLE memory_entries (
	project_id       bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	id               bigint      NOT NULL,     -- never reused
	uid              text        NOT NULL,     -- stable across export and import
	type             text        NOT NULL,
	title            text        NOT NULL,
	content          text        NOT NULL DEFAULT '',
	facts            text[],                   -- NULL when empty
	tags             text[],
	files            text[],
	session_id       text        NOT NULL DEFAULT '',
	branch           text        NOT NULL DEFAULT '',
	rationale        text        NOT NULL DEFAULT '',
	alternatives     text[],
	root_cause       text        NOT NULL DEFAULT '',
	fix              text        NOT NULL DEFAULT '',
	prevention       text        NOT NULL DEFAULT '',
	occurrences      integer     NOT NULL DEFAULT 0,
	examples         text[],
	discovery_tokens integer     NOT NULL DEFAULT 0,
	fingerprint      text,                     -- mistakes only: what makes two the same
	search_body      text        NOT NULL DEFAULT '', -- the text beside title and tags that search reads
	fts              tsvector    NOT NULL,     -- title (A), tags (B), search_body (C)
	created_at       timestamptz NOT NULL,
	updated_at       timestamptz NOT NULL,
	PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX memory_uid ON memory_entries (project_id, uid);
CREATE UNIQUE INDEX memory_mistakes ON memory_entries (project_id, fingerprint) WHERE fingerprint IS NOT NULL;
CREATE INDEX memory_by_type ON memory_entries (project_id, type, id);
CREATE INDEX memory_by_session ON memory_entries (project_id, session_id, id) WHERE session_id <> '';
CREATE INDEX memory_by_tags ON memory_entries USING gin (tags);
CREATE INDEX memory_fts ON memory_entries USING gin (fts);

-- Embeddings, one per entry and model.
CREATE TABLE memory_vectors (
	project_id bigint NOT NULL,
	entry_id   bigint NOT NULL,
	model      text   NOT NULL,
	vec        real[] NOT NULL,
	PRIMARY KEY (project_id, entry_id, model),
	FOREIGN KEY (project_id, entry_id) REFERENCES memory_entries (project_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_vectors_by_model ON memory_vectors (project_id, model, entry_id);

CREATE TABLE sessions (
	project_id bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	id         bigint      NOT NULL,
	thread_id  bigint      NOT NULL,
	agent      text        NOT NULL DEFAULT '',
	branch     text        NOT NULL DEFAULT '',
	started_at timestamptz NOT NULL,
	ended_at   timestamptz,
	doc        text        NOT NULL, -- the whole session as JSON
	PRIMARY KEY (project_id, id)
);
CREATE INDEX sessions_by_thread ON sessions (project_id, thread_id, id);

CREATE TABLE branch_contexts (
	project_id bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	branch     text        NOT NULL,
	updated_at timestamptz NOT NULL,
	doc        text        NOT NULL,
	PRIMARY KEY (project_id, branch)
);
