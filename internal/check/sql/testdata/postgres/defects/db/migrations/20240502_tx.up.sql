BEGIN;
ALTER TABLE orders ADD COLUMN priority int NOT NULL DEFAULT 0;
CREATE INDEX CONCURRENTLY orders_priority_idx ON orders (priority);
COMMIT;
CREATE INDEX CONCURRENTLY orders_priority2_idx ON orders (priority, id);
