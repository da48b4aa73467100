-- A revision counter per project for the plan's tasks and dependencies, so
-- that a cached plan board is refreshed by reading what changed since it
-- was built rather than every task (as the SQLite store's 0006 does).
--
-- A transaction that changes a task's board fields (not its body or loop
-- state, which the board does not hold) or a task's dependencies takes the
-- project's next revision once, by updating its projects row, and stamps it
-- on every task it touches (tasks.rev). The row update holds the projects
-- row's lock until the transaction ends, so no other transaction can take a
-- revision in between: revisions are committed in the order they are
-- taken, and a reader whose snapshot shows revision N has every change with
-- a revision up to N (under READ COMMITTED too, and whether or not the
-- writer holds the project's advisory lock). Triggers do it, so every writer
-- keeps it right.
ALTER TABLE projects
	ADD COLUMN plan_rev   bigint NOT NULL DEFAULT 1, -- the latest revision
	ADD COLUMN plan_reset bigint NOT NULL DEFAULT 1; -- the latest revision only a full reload can follow
-- Rows already here keep rev 0, older than the first revision a reader sees.
ALTER TABLE tasks ADD COLUMN rev bigint NOT NULL DEFAULT 0;
CREATE INDEX tasks_by_rev ON tasks (project_id, rev);

-- cairn_plan_rev returns the current transaction's revision of project p's
-- plan, taking the next one on its first call. The revision is remembered
-- in a transaction-local setting, as "project:revision".
CREATE FUNCTION cairn_plan_rev(p bigint) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	cur text := current_setting('cairn.plan_rev', true);
	n   bigint;
BEGIN
	IF cur IS NOT NULL AND cur <> '' AND split_part(cur, ':', 1) = p::text THEN
		RETURN split_part(cur, ':', 2)::bigint;
	END IF;
	UPDATE projects SET plan_rev = plan_rev + 1 WHERE id = p RETURNING plan_rev INTO n;
	IF n IS NULL THEN
		RETURN 0; -- the project is being deleted
	END IF;
	PERFORM set_config('cairn.plan_rev', p::text || ':' || n::text, true);
	RETURN n;
END $$;

CREATE FUNCTION cairn_tasks_rev() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW.rev := cairn_plan_rev(NEW.project_id);
	RETURN NEW;
END $$;
CREATE TRIGGER tasks_rev_insert BEFORE INSERT ON tasks
	FOR EACH ROW EXECUTE FUNCTION cairn_tasks_rev();
CREATE TRIGGER tasks_rev_update BEFORE UPDATE OF parent_id, position, num, title, status, priority,
	created_at, updated_at, completed_at, removed_at, rev ON tasks
	FOR EACH ROW EXECUTE FUNCTION cairn_tasks_rev();

-- A dependency added or dropped stamps the task that depends.
CREATE FUNCTION cairn_task_deps_rev() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	p bigint;
	t bigint;
BEGIN
	IF TG_OP = 'DELETE' THEN
		p := OLD.project_id; t := OLD.task_id;
	ELSE
		p := NEW.project_id; t := NEW.task_id;
	END IF;
	UPDATE tasks SET rev = cairn_plan_rev(p) WHERE project_id = p AND id = t;
	RETURN NULL;
END $$;
CREATE TRIGGER task_deps_rev AFTER INSERT OR DELETE ON task_deps
	FOR EACH ROW EXECUTE FUNCTION cairn_task_deps_rev();

-- Tasks are hidden, never deleted; should a row go anyway, readers reload.
CREATE FUNCTION cairn_tasks_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM cairn_plan_rev(OLD.project_id);
	UPDATE projects SET plan_reset = plan_rev WHERE id = OLD.project_id;
	RETURN NULL;
END $$;
CREATE TRIGGER tasks_rev_delete AFTER DELETE ON tasks
	FOR EACH ROW EXECUTE FUNCTION cairn_tasks_deleted();
