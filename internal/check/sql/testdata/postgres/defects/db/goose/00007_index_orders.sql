-- +goose Up
CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_region_idx ON orders (region);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS orders_region_idx;
