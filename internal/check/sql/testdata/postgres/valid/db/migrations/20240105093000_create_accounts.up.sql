-- Accounts and their members. The tables are new, so indexes and
-- constraints on them need no CONCURRENTLY or NOT VALID.
CREATE TABLE accounts (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug        text        NOT NULL UNIQUE,
    name        text        NOT NULL,
    plan        text        NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'team', 'enterprise')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    deleted_at  timestamptz
);

CREATE TABLE members (
    account_id  bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id     uuid   NOT NULL,
    role        text   NOT NULL DEFAULT 'member',
    invited_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, user_id)
);

CREATE INDEX members_user_idx ON members (user_id);
CREATE UNIQUE INDEX accounts_live_slug_idx ON accounts (lower(slug)) WHERE deleted_at IS NULL;

ALTER TABLE members ADD CONSTRAINT members_role_check CHECK (role IN ('owner', 'admin', 'member'));

COMMENT ON TABLE accounts IS 'A paying customer; members belong to one.';
