package sqlcheck

import "github.com/cairn-dev/cairn/internal/check"

// The rule ids.
const (
	ruleSyntax            = "sql/syntax"
	ruleUpdateNoWhere     = "sql/update-without-where"
	ruleDeleteNoWhere     = "sql/delete-without-where"
	ruleSelectStar        = "sql/select-star"
	ruleIndexConcurrently = "sql/create-index-not-concurrently"
	ruleDropIndexConc     = "sql/drop-index-not-concurrently"
	ruleNotNullNoDefault  = "sql/add-column-not-null-without-default"
	ruleVolatileDefault   = "sql/add-column-volatile-default"
	ruleColumnType        = "sql/change-column-type"
	ruleNotValid          = "sql/constraint-not-valid"
	ruleSetNotNull        = "sql/set-not-null"
	ruleRename            = "sql/rename"
	ruleDropIfExists      = "sql/drop-without-if-exists"
	ruleDropTable         = "sql/drop-table"
	ruleDropColumn        = "sql/drop-column"
	ruleTruncate          = "sql/truncate"
	ruleNoPrimaryKey      = "sql/create-table-without-primary-key"
	ruleUniqueConstraint  = "sql/add-unique-constraint"
	ruleConcurrentlyInTx  = "sql/concurrently-in-transaction"
)

// migrationScope is the sentence every migration rule's Why ends with.
const migrationScope = " Checked in migrations only: files under a migrations/, migration/, migrate/ or db/migrate/ " +
	"directory, golang-migrate's *.up.sql/*.down.sql, Flyway's V1__name.sql, and files with goose, dbmate or " +
	"sql-migrate section markers (or any file when the param kind=migration)."

var rules = []check.Rule{
	{
		ID: ruleSyntax, Severity: check.Error, Title: "SQL syntax error",
		Why: "The statement does not parse in the dialect's own parser (PostgreSQL's parser through libpg_query, and " +
			"its PL/pgSQL parser for function bodies; MySQL through Vitess's parser; SQLite through SQLite itself), so " +
			"the database will refuse it. The dialect is the param dialect, else guessed from the project and stated " +
			"in the notes.",
		Fix:  "Correct the statement at the position given; if the dialect guess is wrong, pass dialect=postgres|mysql|sqlite.",
		Bad:  "SELECT id, FROM users;",
		Good: "SELECT id FROM users;",
	},
	{
		ID: ruleUpdateNoWhere, Severity: check.Warning, Title: "UPDATE without WHERE",
		Why: "An UPDATE without a WHERE clause changes every row of the table; it is rarely what was meant " +
			"outside a deliberate backfill.",
		Fix:  "Add the WHERE clause that selects the rows to change; for a deliberate whole-table update, suppress with cairn:ignore sql/update-without-where and say why.",
		Bad:  "UPDATE accounts SET balance = 0;",
		Good: "UPDATE accounts SET balance = 0 WHERE id = $1;",
	},
	{
		ID: ruleDeleteNoWhere, Severity: check.Warning, Title: "DELETE without WHERE",
		Why:  "A DELETE without a WHERE clause removes every row of the table.",
		Fix:  "Add the WHERE clause that selects the rows to delete; to empty a table on purpose, say so with a suppression.",
		Bad:  "DELETE FROM sessions;",
		Good: "DELETE FROM sessions WHERE expires_at < now();",
	},
	{
		ID: ruleSelectStar, Severity: check.Warning, Title: "SELECT * in application code",
		Why: "A query that selects * returns whatever columns the table has today: adding, dropping or reordering a " +
			"column silently changes what the application reads, and it fetches columns nobody uses. Checked in .sql " +
			"files outside migrations; the outermost select list only (EXISTS (SELECT * …) and count(*) are fine). " +
			"Files annotated for sqlc (-- name: Foo :one) are not flagged: sqlc expands * when it generates code. " +
			"SQL embedded in Go, JavaScript or other source files is not scanned.",
		Fix:  "List the columns the code reads.",
		Bad:  "SELECT * FROM users WHERE id = $1;",
		Good: "SELECT id, email, created_at FROM users WHERE id = $1;",
		Link: "https://docs.sqlfluff.com/en/stable/reference/rules.html#rule-ambiguous.column_count",
	},
	{
		ID: ruleIndexConcurrently, Severity: check.Warning, Title: "CREATE INDEX without CONCURRENTLY",
		Why: "PostgreSQL's CREATE INDEX holds a SHARE lock on the table until the index is built, blocking every " +
			"INSERT, UPDATE and DELETE meanwhile; CONCURRENTLY builds it without blocking writes. Not flagged when the " +
			"table is created earlier in the same file." + migrationScope,
		Fix:  "Use CREATE INDEX CONCURRENTLY, in a migration that does not run inside a transaction.",
		Bad:  "CREATE INDEX users_email_idx ON users (email);",
		Good: "CREATE INDEX CONCURRENTLY users_email_idx ON users (email);",
		Link: "https://squawkhq.com/docs/require-concurrent-index-creation",
	},
	{
		ID: ruleConcurrentlyInTx, Severity: check.Error, Title: "CONCURRENTLY inside a transaction",
		Why: "PostgreSQL refuses CREATE INDEX CONCURRENTLY and DROP INDEX CONCURRENTLY inside a transaction block " +
			"(\"cannot run inside a transaction block\"), so the migration fails. Flagged between an explicit BEGIN and " +
			"COMMIT, and in migrations whose tool wraps each one in a transaction unless told otherwise: goose (without " +
			"-- +goose NO TRANSACTION), dbmate (without transaction:false), sql-migrate (without notransaction)." + migrationScope,
		Fix:  "Run the statement outside a transaction: its own migration, marked non-transactional for the tool.",
		Bad:  "-- +goose Up\nCREATE INDEX CONCURRENTLY orders_status_idx ON orders (status);",
		Good: "-- +goose NO TRANSACTION\n-- +goose Up\nCREATE INDEX CONCURRENTLY orders_status_idx ON orders (status);",
		Link: "https://squawkhq.com/docs/ban-concurrent-index-creation-in-transaction",
	},
	{
		ID: ruleDropIndexConc, Severity: check.Warning, Title: "DROP INDEX without CONCURRENTLY",
		Why: "PostgreSQL's DROP INDEX takes an ACCESS EXCLUSIVE lock on the index's table, blocking reads and " +
			"writes; DROP INDEX CONCURRENTLY waits for them instead." + migrationScope,
		Fix:  "Use DROP INDEX CONCURRENTLY, outside a transaction.",
		Bad:  "DROP INDEX users_email_idx;",
		Good: "DROP INDEX CONCURRENTLY IF EXISTS users_email_idx;",
		Link: "https://squawkhq.com/docs/require-concurrent-index-deletion",
	},
	{
		ID: ruleNotNullNoDefault, Severity: check.Error, Title: "NOT NULL column added without a default",
		Why: "Adding a NOT NULL column with no default fails on any table that has rows (PostgreSQL: \"column contains " +
			"null values\"; SQLite: \"Cannot add a NOT NULL column with default value NULL\"), so the migration works " +
			"on an empty development database and breaks in production. Serial, identity and generated columns fill " +
			"themselves and are not flagged, nor are tables created earlier in the same file. MySQL fills an implicit " +
			"default and is not checked." + migrationScope,
		Fix:  "Add the column with a DEFAULT (PostgreSQL 11+ does it without rewriting the table), or add it nullable, backfill, then SET NOT NULL.",
		Bad:  "ALTER TABLE users ADD COLUMN plan text NOT NULL;",
		Good: "ALTER TABLE users ADD COLUMN plan text NOT NULL DEFAULT 'free';",
		Link: "https://squawkhq.com/docs/adding-required-field",
	},
	{
		ID: ruleVolatileDefault, Severity: check.Warning, Title: "Column added with a volatile default",
		Why: "Since PostgreSQL 11 a column added with a constant default is instant, but a volatile default " +
			"(random(), gen_random_uuid(), clock_timestamp(), nextval(), a serial type) is evaluated for every " +
			"existing row: the table is rewritten under an ACCESS EXCLUSIVE lock. now() and other stable functions " +
			"are fine." + migrationScope,
		Fix:  "Add the column without the default (or with a constant one), set the default afterwards for new rows, and backfill existing rows in batches.",
		Bad:  "ALTER TABLE orders ADD COLUMN token uuid DEFAULT gen_random_uuid();",
		Good: "ALTER TABLE orders ADD COLUMN token uuid;\nALTER TABLE orders ALTER COLUMN token SET DEFAULT gen_random_uuid();",
		Link: "https://squawkhq.com/docs/adding-field-with-default",
	},
	{
		ID: ruleColumnType, Severity: check.Warning, Title: "Column type changed",
		Why: "Changing a column's type usually rewrites the table and its indexes under an ACCESS EXCLUSIVE lock " +
			"(PostgreSQL), or copies the table and blocks writes (MySQL's MODIFY/CHANGE COLUMN without " +
			"ALGORITHM=INPLACE or INSTANT). Not flagged for tables created earlier in the same file." + migrationScope,
		Fix:  "Add a new column of the new type, backfill it in batches, switch the code over, then drop the old column.",
		Bad:  "ALTER TABLE events ALTER COLUMN id TYPE bigint;",
		Good: "ALTER TABLE events ADD COLUMN id_new bigint; -- backfill, swap, drop",
		Link: "https://squawkhq.com/docs/changing-column-type",
	},
	{
		ID: ruleNotValid, Severity: check.Warning, Title: "Constraint added without NOT VALID",
		Why: "Adding a FOREIGN KEY or CHECK constraint to an existing PostgreSQL table scans the whole table to " +
			"validate it while holding a lock that blocks writes (both tables, for a foreign key). Adding it NOT VALID " +
			"is instant; VALIDATE CONSTRAINT later takes only a light lock." + migrationScope,
		Fix:  "Add the constraint with NOT VALID, then run ALTER TABLE … VALIDATE CONSTRAINT … in a later migration.",
		Bad:  "ALTER TABLE orders ADD CONSTRAINT orders_user_fk FOREIGN KEY (user_id) REFERENCES users (id);",
		Good: "ALTER TABLE orders ADD CONSTRAINT orders_user_fk FOREIGN KEY (user_id) REFERENCES users (id) NOT VALID;\nALTER TABLE orders VALIDATE CONSTRAINT orders_user_fk;",
		Link: "https://squawkhq.com/docs/constraint-missing-not-valid",
	},
	{
		ID: ruleUniqueConstraint, Severity: check.Warning, Title: "UNIQUE or PRIMARY KEY constraint added without an index",
		Why: "ALTER TABLE … ADD CONSTRAINT … UNIQUE (or PRIMARY KEY) builds its index while holding an ACCESS EXCLUSIVE " +
			"lock on the PostgreSQL table: no reads, no writes until it is done. Building the index CONCURRENTLY first and " +
			"adding the constraint USING INDEX takes the lock only for an instant." + migrationScope,
		Fix:  "CREATE UNIQUE INDEX CONCURRENTLY the index, then ADD CONSTRAINT … UNIQUE USING INDEX (or PRIMARY KEY USING INDEX).",
		Bad:  "ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email);",
		Good: "CREATE UNIQUE INDEX CONCURRENTLY users_email_key ON users (email);\nALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE USING INDEX users_email_key;",
		Link: "https://squawkhq.com/docs/disallowed-unique-constraint",
	},
	{
		ID: ruleSetNotNull, Severity: check.Warning, Title: "SET NOT NULL on an existing column",
		Why: "ALTER COLUMN … SET NOT NULL scans the whole PostgreSQL table under an ACCESS EXCLUSIVE lock, unless a " +
			"valid CHECK (col IS NOT NULL) constraint already proves it (PostgreSQL 12+)." + migrationScope,
		Fix:  "Add CHECK (col IS NOT NULL) NOT VALID, VALIDATE it, then SET NOT NULL (which then skips the scan) and drop the check.",
		Bad:  "ALTER TABLE users ALTER COLUMN email SET NOT NULL;",
		Good: "ALTER TABLE users ADD CONSTRAINT users_email_nn CHECK (email IS NOT NULL) NOT VALID;\nALTER TABLE users VALIDATE CONSTRAINT users_email_nn;\nALTER TABLE users ALTER COLUMN email SET NOT NULL;",
		Link: "https://squawkhq.com/docs/adding-not-nullable-field",
	},
	{
		ID: ruleRename, Severity: check.Warning, Title: "Table or column renamed",
		Why: "Renaming a table or column breaks every running copy of the application that still uses the old name, " +
			"from the moment the migration commits until the new code is deployed everywhere." + migrationScope,
		Fix:  "Expand and contract: add the new name (a new column kept in sync, or a view), move the code over, then drop the old name.",
		Bad:  "ALTER TABLE users RENAME COLUMN name TO full_name;",
		Good: "ALTER TABLE users ADD COLUMN full_name text; -- backfill, deploy, then drop name",
		Link: "https://squawkhq.com/docs/renaming-column",
	},
	{
		ID: ruleDropIfExists, Severity: check.Warning, Title: "DROP without IF EXISTS",
		Why: "A DROP without IF EXISTS fails when the object is already gone, so a migration that was partly applied, " +
			"or a down migration run twice, cannot be re-run." + migrationScope,
		Fix:  "Write DROP … IF EXISTS.",
		Bad:  "DROP TABLE legacy_sessions;",
		Good: "DROP TABLE IF EXISTS legacy_sessions;",
		Link: "https://squawkhq.com/docs/prefer-robust-stmts",
	},
	{
		ID: ruleDropTable, Severity: check.Warning, Title: "DROP TABLE in a migration",
		Why: "Dropping a table destroys its data, and the application still running the previous release fails " +
			"on it. Not flagged in down migrations (*.down.sql, down.sql, goose/dbmate/sql-migrate down sections)." + migrationScope,
		Fix:  "Make sure no deployed code reads the table and the data is not needed (or backed up); then suppress with a reason.",
		Bad:  "DROP TABLE IF EXISTS invoices;",
		Good: "-- cairn:ignore sql/drop-table invoices moved to billing service in #412\nDROP TABLE IF EXISTS invoices;",
		Link: "https://squawkhq.com/docs/ban-drop-table",
	},
	{
		ID: ruleDropColumn, Severity: check.Warning, Title: "DROP COLUMN in a migration",
		Why: "Dropping a column destroys its data, and the previous release still running reads or writes it " +
			"until the deploy finishes. Not flagged in down migrations." + migrationScope,
		Fix:  "Stop using the column in a release first; drop it in a later migration, and suppress with the reason.",
		Bad:  "ALTER TABLE users DROP COLUMN legacy_id;",
		Good: "-- cairn:ignore sql/drop-column unused since release 41\nALTER TABLE users DROP COLUMN legacy_id;",
		Link: "https://squawkhq.com/docs/ban-drop-column",
	},
	{
		ID: ruleTruncate, Severity: check.Warning, Title: "TRUNCATE in a migration",
		Why:  "TRUNCATE removes every row at once under an ACCESS EXCLUSIVE lock and cannot be filtered; in a migration it runs against production data." + migrationScope,
		Fix:  "Delete the rows you mean with a WHERE clause, or suppress with the reason the table must be emptied.",
		Bad:  "TRUNCATE audit_log;",
		Good: "DELETE FROM audit_log WHERE created_at < now() - interval '1 year';",
	},
	{
		ID: ruleNoPrimaryKey, Severity: check.Warning, Title: "CREATE TABLE without a primary key",
		Why: "A table without a primary key cannot have a row addressed reliably, breaks logical replication of " +
			"UPDATE/DELETE in PostgreSQL, and makes InnoDB invent a hidden one. Checked for PostgreSQL and MySQL " +
			"(SQLite tables have a rowid); temporary, partition and inheriting tables are not flagged.",
		Fix:  "Declare a PRIMARY KEY (a column or a composite key).",
		Bad:  "CREATE TABLE tags (name text NOT NULL);",
		Good: "CREATE TABLE tags (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL);",
	},
}
