-- Memory entries become fixed core columns plus a details document: the
-- type-specific fields (a decision's rationale, a mistake's analysis, a
-- convention's examples, discovery tokens, ...) move into one JSON object,
-- empty fields left out, so a type with fields of its own needs no column.
ALTER TABLE memory_entries ADD COLUMN details TEXT; -- JSON object, NULL when empty
UPDATE memory_entries SET details = nullif(json_patch('{}', json_object(
	'rationale', nullif(rationale, ''),
	'alternatives', json(alternatives),
	'root_cause', nullif(root_cause, ''),
	'fix', nullif(fix, ''),
	'prevention', nullif(prevention, ''),
	'examples', json(examples),
	'discovery_tokens', nullif(discovery_tokens, 0))), '{}');
ALTER TABLE memory_entries DROP COLUMN rationale;
ALTER TABLE memory_entries DROP COLUMN alternatives;
ALTER TABLE memory_entries DROP COLUMN root_cause;
ALTER TABLE memory_entries DROP COLUMN fix;
ALTER TABLE memory_entries DROP COLUMN prevention;
ALTER TABLE memory_entries DROP COLUMN examples;
ALTER TABLE memory_entries DROP COLUMN discovery_tokens;

-- Memory that stays true: the content hash of each named file when the
-- entry was stored (JSON object path → hash), the entry that replaced this
-- one, and when an observation stops being searched.
ALTER TABLE memory_entries ADD COLUMN file_hashes TEXT;
ALTER TABLE memory_entries ADD COLUMN superseded_by INTEGER;
ALTER TABLE memory_entries ADD COLUMN expires_at INTEGER;
CREATE INDEX memory_superseding ON memory_entries (superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX memory_expiring ON memory_entries (expires_at) WHERE expires_at IS NOT NULL;

-- Each recording of a known mistake, with its own words: a mistake met
-- again never overwrites what was recorded. An entry migrated from before
-- kept only its latest content, recorded here as its latest occurrence.
CREATE TABLE memory_occurrences (
	entry_id   INTEGER NOT NULL REFERENCES memory_entries (id) ON DELETE CASCADE,
	n          INTEGER NOT NULL, -- 1 for the first recording
	at         INTEGER NOT NULL,
	session_id TEXT    NOT NULL DEFAULT '',
	branch     TEXT    NOT NULL DEFAULT '',
	title      TEXT    NOT NULL, -- the error as that run worded it
	content    TEXT    NOT NULL DEFAULT '',
	extra      TEXT,             -- JSON: analysis that run gave and the entry did not keep
	PRIMARY KEY (entry_id, n)
) WITHOUT ROWID;
INSERT INTO memory_occurrences (entry_id, n, at, session_id, branch, title, content)
SELECT id, max(occurrences, 1), updated_at, session_id, branch, title, content FROM memory_entries WHERE type = 'mistake';
-- The fingerprints are recomputed by the migrator (fingerprint rules changed).
