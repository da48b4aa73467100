-- The imports of a task, found by its id: get_task shows them, and deleting
-- a task deletes them (the foreign key's ON DELETE CASCADE). The primary
-- key leads with the source, so both read every import of the project.
CREATE INDEX imports_by_task ON imports (project_id, task_id);
