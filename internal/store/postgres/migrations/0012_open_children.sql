-- Index a project's open tasks (visible, neither done nor cancelled: the
-- statuses task.Status.Open refuses) under their parent by position. A
-- completion's check of the task's children and the focus rules after it
-- look at the open ones only (OpenChildren), and on a level of hundreds of
-- finished steps tasks_by_parent made them read every finished one too:
-- each completion cost more than the one before. The WHERE is
-- qOpenChildren's, word for word, so that every plan of it may use the
-- index.
CREATE INDEX tasks_open_children ON tasks (project_id, parent_id, position)
	WHERE removed_at IS NULL AND status NOT IN ('done', 'cancelled');
