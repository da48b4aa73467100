-- A statement that writes tasks may take the plan's revision itself (see
-- takeRev in tx.go) and stamp its rows with it: its UPDATE of the projects
-- row is the one cairn_plan_rev would make, and it records the revision in
-- cairn.plan_rev as cairn_plan_rev does, so the rest of the transaction
-- reuses it; the same UPDATE bumps the version. The triggers of 0006 then
-- skip the rows so stamped: a PL/pgSQL call, and the UPDATE it runs, saved
-- on every task written.
--
-- A row is stamped by its statement when its revision moved: an INSERT
-- that gives one (the column's default is 0), an UPDATE that sets a new
-- one. Every other write, an older cairn's included (none sets rev, but
-- for cairn_task_deps_rev, which stamps it rightly), fires the trigger as
-- before, so every writer still keeps the change feed right.
DROP TRIGGER tasks_rev_insert ON tasks;
CREATE TRIGGER tasks_rev_insert BEFORE INSERT ON tasks
	FOR EACH ROW WHEN (NEW.rev = 0) EXECUTE FUNCTION cairn_tasks_rev();
DROP TRIGGER tasks_rev_update ON tasks;
CREATE TRIGGER tasks_rev_update BEFORE UPDATE OF parent_id, position, num, title, status, priority,
	created_at, updated_at, completed_at, removed_at, rev ON tasks
	FOR EACH ROW WHEN (NEW.rev = OLD.rev) EXECUTE FUNCTION cairn_tasks_rev();
-- A dependency added or dropped stamps the task that depends, unless the
-- transaction stamped it already (a task created with its dependencies in
-- one statement): a row version, and the trigger above, fewer.
CREATE OR REPLACE FUNCTION cairn_task_deps_rev() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	p bigint;
	t bigint;
	r bigint;
BEGIN
	IF TG_OP = 'DELETE' THEN
		p := OLD.project_id; t := OLD.task_id;
	ELSE
		p := NEW.project_id; t := NEW.task_id;
	END IF;
	r := cairn_plan_rev(p);
	UPDATE tasks SET rev = r WHERE project_id = p AND id = t AND rev <> r;
	RETURN NULL;
END $$;
