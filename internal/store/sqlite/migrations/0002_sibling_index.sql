-- Index every task under its parent by position, removed or not. The partial
-- index of 0001 (visible tasks only) could not serve the two statements that
-- look at all siblings: the next position for a new last child, which is the
-- maximum over removed siblings too, and the shift of the siblings right of
-- an insertion. Both scanned the whole table; with this index they seek.
-- Reads of visible children use it as they used the partial one.
DROP INDEX tasks_children;
CREATE INDEX tasks_by_parent ON tasks (parent_id, position);
