-- A migration that locks a busy table in every way there is.
CREATE INDEX orders_status_idx ON orders (status);
ALTER TABLE orders ADD COLUMN region text NOT NULL;
ALTER TABLE orders ADD COLUMN public_id uuid DEFAULT gen_random_uuid();
ALTER TABLE orders ALTER COLUMN total_cents TYPE bigint;
ALTER TABLE orders ADD CONSTRAINT orders_account_fk FOREIGN KEY (account_id) REFERENCES accounts (id);
ALTER TABLE orders ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE accounts RENAME COLUMN name TO display_name;
ALTER TABLE accounts DROP COLUMN legacy_code;
DROP INDEX orders_old_idx;
DROP TABLE legacy_orders;
TRUNCATE order_events;
UPDATE orders SET region = 'eu';
CREATE TABLE order_notes (order_id bigint, body text);
SELECT id,
    FROM orders;
DELETE FROM order_events;
ALTER TABLE accounts ADD CONSTRAINT accounts_slug_key UNIQUE (slug);
