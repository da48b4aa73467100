ALTER TABLE customers ADD COLUMN loyalty_points int NOT NULL DEFAULT 0, ALGORITHM=INSTANT;
ALTER TABLE customers MODIFY COLUMN name varchar(320) NULL, ALGORITHM=INPLACE, LOCK=NONE;
CREATE INDEX customers_loyalty_idx ON customers (loyalty_points);
CREATE TABLE IF NOT EXISTS loyalty_events (
  id bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id int unsigned NOT NULL,
  points int NOT NULL,
  reason varchar(64) NOT NULL,
  created_at timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
  INDEX loyalty_events_customer_idx (customer_id, created_at)
) ENGINE=InnoDB;
INSERT INTO loyalty_events (customer_id, points, reason)
SELECT id, 100, 'welcome' FROM customers WHERE status = 'active';
