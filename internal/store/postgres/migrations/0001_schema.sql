-- Many projects share one database: every row is keyed by its project, and
-- every query names one. A project's task ids count from 1 on their own
-- (next_task_id), as in the embedded store, so "task 12" means the same in
-- both. version is bumped by every transaction that changes the project;
-- Store.Version reads it.
CREATE TABLE projects (
	id           bigserial PRIMARY KEY,
	name         text      NOT NULL UNIQUE,
	version      bigint    NOT NULL DEFAULT 0,
	next_task_id bigint    NOT NULL DEFAULT 1,
	created_at   timestamptz NOT NULL DEFAULT now()
);

-- The task tree (parent_id 0 for roots, so that sibling lookups are plain
-- equalities an index serves), the plan's fields and loop state. Removed tasks
-- stay, hidden, for history.
CREATE TABLE tasks (
	project_id   bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	id           bigint      NOT NULL,
	parent_id    bigint      NOT NULL DEFAULT 0,
	position     integer     NOT NULL,
	num          integer     NOT NULL,
	title        text        NOT NULL,
	body         text        NOT NULL DEFAULT '',
	status       text        NOT NULL DEFAULT 'pending',
	priority     text        NOT NULL DEFAULT 'medium',
	created_at   timestamptz NOT NULL,
	updated_at   timestamptz NOT NULL,
	completed_at timestamptz,
	removed_at   timestamptz,
	loop         text,       -- loop state as JSON text, byte for byte as written
	PRIMARY KEY (project_id, id)
);
CREATE INDEX tasks_by_parent ON tasks (project_id, parent_id, position);
CREATE INDEX tasks_by_num ON tasks (project_id, parent_id, num);
CREATE INDEX tasks_loops ON tasks (project_id, id) WHERE loop IS NOT NULL;
CREATE INDEX tasks_removed ON tasks (project_id, id) WHERE removed_at IS NOT NULL;

CREATE TABLE task_deps (
	project_id bigint NOT NULL,
	task_id    bigint NOT NULL,
	depends_on bigint NOT NULL,
	PRIMARY KEY (project_id, task_id, depends_on),
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE,
	FOREIGN KEY (project_id, depends_on) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);
CREATE INDEX task_deps_reverse ON task_deps (project_id, depends_on);

-- Focus is a pointer per agent: each agent has its own YOU ARE HERE.
CREATE TABLE focus (
	project_id bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	agent      text        NOT NULL,
	task_id    bigint,     -- NULL: zen
	updated_at timestamptz NOT NULL,
	PRIMARY KEY (project_id, agent),
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);

-- The completion archive: each task as it was when completed. It outlives removal.
CREATE TABLE completions (
	seq          bigserial   PRIMARY KEY,
	project_id   bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	task_id      bigint      NOT NULL,
	parent_id    bigint      NOT NULL DEFAULT 0,
	title        text        NOT NULL,
	body         text        NOT NULL,
	created_at   timestamptz NOT NULL,
	completed_at timestamptz NOT NULL
);
CREATE INDEX completions_by_project ON completions (project_id, seq);

-- Which external task became which task, per import source.
CREATE TABLE imports (
	project_id  bigint NOT NULL,
	source      text   NOT NULL,
	external_id text   NOT NULL,
	task_id     bigint NOT NULL,
	PRIMARY KEY (project_id, source, external_id),
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);

-- A loop's immutable snapshots and its history.
CREATE TABLE loop_checkpoints (
	id         bigserial   PRIMARY KEY,
	project_id bigint      NOT NULL,
	task_id    bigint      NOT NULL,
	note       text        NOT NULL DEFAULT '',
	state      text        NOT NULL,
	created_at timestamptz NOT NULL,
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);
CREATE INDEX loop_checkpoints_by_task ON loop_checkpoints (project_id, task_id, id);

CREATE TABLE loop_events (
	seq        bigserial   PRIMARY KEY,
	project_id bigint      NOT NULL,
	task_id    bigint      NOT NULL,
	kind       text        NOT NULL,
	detail     text        NOT NULL DEFAULT '',
	at         timestamptz NOT NULL,
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);
CREATE INDEX loop_events_by_task ON loop_events (project_id, task_id, seq);
