-- Index a parent's open children (visible, neither done nor cancelled: the
-- statuses task.Status.Open refuses) by position. A completion's check of
-- the task's children and the focus rules after it look at the open ones
-- only (OpenChildren), and on a level of hundreds of finished steps
-- tasks_by_parent made them read every finished one too: each completion
-- cost more than the one before. The WHERE is qOpenChildren's, word for
-- word, so that the planner sees that the index covers it.
CREATE INDEX tasks_open_children ON tasks (parent_id, position)
	WHERE removed_at IS NULL AND status NOT IN ('done', 'cancelled');
