-- Claims: an agent's hold on a task for a lease. One row per task; a row
-- whose lease has run out is a claim anyone may take over. Taking one is a
-- single compare-and-set (an upsert whose update is guarded by the holder
-- and the lease), so two agents can never both hold a task.
CREATE TABLE claims (
	task_id    INTEGER PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
	agent      TEXT    NOT NULL,
	claimed_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL
);

-- Lifecycles: a task (a story) walking a definition's phases. state holds
-- the evidence given for the current phase's exit criteria and the history
-- of phase changes (durations, loop-backs and their reasons) as JSON.
CREATE TABLE lifecycles (
	id          INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused
	task_id     INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
	definition  TEXT    NOT NULL,
	phase       TEXT    NOT NULL,
	status      TEXT    NOT NULL, -- open or done
	started_at  INTEGER NOT NULL,
	phase_since INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL,
	state       TEXT    NOT NULL
);
-- One open lifecycle per task.
CREATE UNIQUE INDEX lifecycles_open_task ON lifecycles (task_id) WHERE status = 'open';
CREATE INDEX lifecycles_by_status ON lifecycles (status, phase, id);
