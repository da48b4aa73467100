-- The imports of a task, found by its id: get_task shows them, and deleting
-- a task deletes them (ON DELETE CASCADE). Without this index both read
-- every import: in a project of thousands of imported tasks, every
-- get_task and every deletion scanned them all.
CREATE INDEX imports_by_task ON imports (task_id);
