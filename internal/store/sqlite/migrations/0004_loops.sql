-- Loops are tasks whose loop column holds their state (see 0001). A
-- checkpoint is an immutable snapshot of that state; events are a loop's
-- history (starts, iterations, pauses, resumes, …), paged when read.
CREATE TABLE loop_checkpoints (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id    INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
	note       TEXT    NOT NULL DEFAULT '',
	state      TEXT    NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE INDEX loop_checkpoints_by_task ON loop_checkpoints (task_id, id);

CREATE TABLE loop_events (
	seq     INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
	kind    TEXT    NOT NULL,
	detail  TEXT    NOT NULL DEFAULT '',
	at      INTEGER NOT NULL
);
CREATE INDEX loop_events_by_task ON loop_events (task_id, seq);

CREATE INDEX tasks_loops ON tasks (id) WHERE loop IS NOT NULL;
