-- +goose Up
-- +goose StatementBegin
CREATE TABLE invites (
    token      text PRIMARY KEY,
    account_id bigint NOT NULL REFERENCES accounts (id),
    email      citext NOT NULL,
    expires_at timestamptz NOT NULL DEFAULT now() + interval '7 days'
);
-- +goose StatementEnd
CREATE INDEX invites_account_idx ON invites (account_id);

-- +goose Down
DROP TABLE invites;
