-- Subtask numbers: a task's number among its parent's children (or among the
-- roots), assigned at creation and never reused, so that "12.3" keeps naming
-- the same subtask after its siblings move or go.
ALTER TABLE tasks ADD COLUMN num INTEGER NOT NULL DEFAULT 0;
UPDATE tasks SET num = (SELECT count(*) FROM tasks s WHERE s.parent_id IS tasks.parent_id AND s.id <= tasks.id);
CREATE INDEX tasks_by_num ON tasks (parent_id, num);

-- Which external task became which task, per import source, so that a
-- re-import updates what it imported before instead of duplicating it.
CREATE TABLE imports (
	source      TEXT    NOT NULL,
	external_id TEXT    NOT NULL,
	task_id     INTEGER NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
	PRIMARY KEY (source, external_id)
) WITHOUT ROWID;
