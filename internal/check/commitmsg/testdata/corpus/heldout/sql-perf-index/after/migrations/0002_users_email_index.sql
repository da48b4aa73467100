-- Login looks users up by email; without an index every login scans the
-- table.
CREATE UNIQUE INDEX CONCURRENTLY users_email_key ON users (lower(email));
