-- Claims and lifecycles; see the SQLite store's 0009 for what they hold.
CREATE TABLE claims (
	project_id bigint      NOT NULL,
	task_id    bigint      NOT NULL,
	agent      text        NOT NULL,
	claimed_at timestamptz NOT NULL,
	expires_at timestamptz NOT NULL,
	PRIMARY KEY (project_id, task_id),
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);

CREATE TABLE lifecycles (
	project_id  bigint      NOT NULL,
	id          bigint      NOT NULL, -- per project, never reused
	task_id     bigint      NOT NULL,
	definition  text        NOT NULL,
	phase       text        NOT NULL,
	status      text        NOT NULL,
	started_at  timestamptz NOT NULL,
	phase_since timestamptz NOT NULL,
	updated_at  timestamptz NOT NULL,
	state       text        NOT NULL,
	PRIMARY KEY (project_id, id),
	FOREIGN KEY (project_id, task_id) REFERENCES tasks (project_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX lifecycles_open_task ON lifecycles (project_id, task_id) WHERE status = 'open';
CREATE INDEX lifecycles_by_status ON lifecycles (project_id, status, phase, id);
