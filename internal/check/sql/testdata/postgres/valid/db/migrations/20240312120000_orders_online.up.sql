-- Orders grow past a million rows: every change here keeps writes flowing.
ALTER TABLE orders ADD COLUMN currency char(3) NOT NULL DEFAULT 'EUR';
ALTER TABLE orders ADD COLUMN shipped_at timestamptz;
ALTER TABLE orders ADD COLUMN note text DEFAULT '';

ALTER TABLE orders
    ADD CONSTRAINT orders_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id) NOT VALID;
ALTER TABLE orders VALIDATE CONSTRAINT orders_account_fk;

ALTER TABLE orders ADD CONSTRAINT orders_total_positive CHECK (total_cents >= 0) NOT VALID;

CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_account_created_idx ON orders (account_id, created_at DESC);
DROP INDEX CONCURRENTLY IF EXISTS orders_old_idx;

ALTER TABLE orders ALTER COLUMN note SET DEFAULT 'none';
UPDATE orders SET currency = 'USD' WHERE account_id IN (SELECT id FROM accounts WHERE plan = 'enterprise');
