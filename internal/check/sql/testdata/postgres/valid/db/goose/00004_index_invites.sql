-- +goose NO TRANSACTION
-- +goose Up
CREATE INDEX CONCURRENTLY IF NOT EXISTS invites_email_idx ON invites (email);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS invites_email_idx;
