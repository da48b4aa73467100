DROP TABLE IF EXISTS loyalty_events;
ALTER TABLE customers DROP COLUMN loyalty_points;
