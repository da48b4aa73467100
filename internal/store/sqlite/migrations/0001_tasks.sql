-- The one task table: the tree (parent, position), the plan's graph fields
-- (status, priority, dependencies in task_deps) and room for loop state.
-- Times are Unix microseconds (UTC).
CREATE TABLE tasks (
	id           INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused
	parent_id    INTEGER REFERENCES tasks (id) ON DELETE CASCADE,
	position     INTEGER NOT NULL,
	title        TEXT    NOT NULL,
	body         TEXT    NOT NULL DEFAULT '',
	status       TEXT    NOT NULL DEFAULT 'pending',
	priority     TEXT    NOT NULL DEFAULT 'medium',
	created_at   INTEGER NOT NULL,
	updated_at   INTEGER NOT NULL,
	completed_at INTEGER,
	removed_at   INTEGER,          -- hidden from the structure, kept for history
	loop         TEXT              -- loop state as JSON, for tasks that are loops
);
CREATE INDEX tasks_children ON tasks (parent_id, position) WHERE removed_at IS NULL;

CREATE TABLE task_deps (
	task_id    INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
	depends_on INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
	PRIMARY KEY (task_id, depends_on)
) WITHOUT ROWID;
CREATE INDEX task_deps_reverse ON task_deps (depends_on);

-- Focus is a pointer per agent, not a status: each agent has its own YOU ARE HERE.
CREATE TABLE focus (
	agent      TEXT    PRIMARY KEY,
	task_id    INTEGER REFERENCES tasks (id) ON DELETE SET NULL,
	updated_at INTEGER NOT NULL
) WITHOUT ROWID;

-- The completion archive: each task as it was when completed. It outlives removal.
CREATE TABLE completions (
	seq          INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id      INTEGER NOT NULL,
	parent_id    INTEGER,
	title        TEXT    NOT NULL,
	body         TEXT    NOT NULL,
	created_at   INTEGER NOT NULL,
	completed_at INTEGER NOT NULL
);
