-- name: GetAccount :one
SELECT * FROM accounts WHERE id = $1 AND deleted_at IS NULL;

-- name: ListMembers :many
SELECT m.user_id, m.role, m.invited_at
FROM members m
WHERE m.account_id = sqlc.arg(account_id)
ORDER BY m.invited_at
LIMIT sqlc.arg(page_size) OFFSET sqlc.arg(page_offset);

-- name: CreateAccount :one
INSERT INTO accounts (slug, name) VALUES ($1, $2) RETURNING *;

-- name: SoftDeleteAccount :exec
UPDATE accounts SET deleted_at = now() WHERE id = $1;

-- name: PurgeExpiredInvites :execrows
DELETE FROM invites WHERE expires_at < now();
