-- A revision counter for the plan's tasks and dependencies, so that a cached
-- plan board can be refreshed by reading what changed since it was built
-- rather than every task. Every change to a task row (except its body and
-- loop state, which the board does not hold) or to a task's dependencies
-- takes the next revision and stamps it on the task's rev. Triggers do it,
-- so every writer (any code path, any process) keeps it right.
CREATE TABLE plan_rev (
	id    INTEGER PRIMARY KEY CHECK (id = 1),
	n     INTEGER NOT NULL, -- the latest revision
	reset INTEGER NOT NULL  -- the latest revision that only a full reload can follow
);
-- Rows already here keep rev 0, older than the first revision a reader sees.
INSERT INTO plan_rev (id, n, reset) VALUES (1, 1, 1);
ALTER TABLE tasks ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tasks_by_rev ON tasks (rev);

CREATE TRIGGER tasks_rev_insert AFTER INSERT ON tasks BEGIN
	UPDATE plan_rev SET n = n + 1 WHERE id = 1;
	UPDATE tasks SET rev = (SELECT n FROM plan_rev WHERE id = 1) WHERE id = NEW.id;
END;
CREATE TRIGGER tasks_rev_update AFTER UPDATE OF parent_id, position, num, title, status, priority,
	created_at, updated_at, completed_at, removed_at ON tasks BEGIN
	UPDATE plan_rev SET n = n + 1 WHERE id = 1;
	UPDATE tasks SET rev = (SELECT n FROM plan_rev WHERE id = 1) WHERE id = NEW.id;
END;
-- Tasks are hidden, never deleted; should a row go anyway, readers reload.
CREATE TRIGGER tasks_rev_delete AFTER DELETE ON tasks BEGIN
	UPDATE plan_rev SET n = n + 1, reset = n + 1 WHERE id = 1;
END;
CREATE TRIGGER task_deps_rev_insert AFTER INSERT ON task_deps BEGIN
	UPDATE plan_rev SET n = n + 1 WHERE id = 1;
	UPDATE tasks SET rev = (SELECT n FROM plan_rev WHERE id = 1) WHERE id = NEW.task_id;
END;
CREATE TRIGGER task_deps_rev_delete AFTER DELETE ON task_deps BEGIN
	UPDATE plan_rev SET n = n + 1 WHERE id = 1;
	UPDATE tasks SET rev = (SELECT n FROM plan_rev WHERE id = 1) WHERE id = OLD.task_id;
END;

-- get_tasks filters by status and counts the matches: this answers both
-- from the index, in id order for a single status, instead of scanning
-- every task twice.
CREATE INDEX tasks_by_status ON tasks (status) WHERE removed_at IS NULL;
