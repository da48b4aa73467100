-- Memory entries become fixed core columns plus a details document: the
-- type-specific fields (a decision's rationale, a mistake's analysis, a
-- convention's examples, discovery tokens, ...) move into one jsonb object,
-- empty fields left out, so a type with fields of its own needs no column.
ALTER TABLE memory_entries ADD COLUMN details jsonb;
UPDATE memory_entries SET details = nullif(jsonb_strip_nulls(jsonb_build_object(
	'rationale', nullif(rationale, ''),
	'alternatives', to_jsonb(alternatives),
	'root_cause', nullif(root_cause, ''),
	'fix', nullif(fix, ''),
	'prevention', nullif(prevention, ''),
	'examples', to_jsonb(examples),
	'discovery_tokens', nullif(discovery_tokens, 0))), '{}'::jsonb);
ALTER TABLE memory_entries
	DROP COLUMN rationale, DROP COLUMN alternatives, DROP COLUMN root_cause, DROP COLUMN fix,
	DROP COLUMN prevention, DROP COLUMN examples, DROP COLUMN discovery_tokens,
	-- Memory that stays true: the content hash of each named file when the
	-- entry was stored, the entry that replaced this one, and when an
	-- observation stops being searched.
	ADD COLUMN file_hashes jsonb,
	ADD COLUMN superseded_by bigint,
	ADD COLUMN expires_at timestamptz;
CREATE INDEX memory_superseding ON memory_entries (project_id, superseded_by) WHERE superseded_by IS NOT NULL;
CREATE INDEX memory_expiring ON memory_entries (project_id, expires_at) WHERE expires_at IS NOT NULL;

-- Each recording of a known mistake, with its own words: a mistake met
-- again never overwrites what was recorded. An entry migrated from before
-- kept only its latest content, recorded here as its latest occurrence.
CREATE TABLE memory_occurrences (
	project_id bigint      NOT NULL,
	entry_id   bigint      NOT NULL,
	n          integer     NOT NULL, -- 1 for the first recording
	at         timestamptz NOT NULL,
	session_id text        NOT NULL DEFAULT '',
	branch     text        NOT NULL DEFAULT '',
	title      text        NOT NULL, -- the error as that run worded it
	content    text        NOT NULL DEFAULT '',
	extra      jsonb,                -- analysis that run gave and the entry did not keep
	PRIMARY KEY (project_id, entry_id, n),
	FOREIGN KEY (project_id, entry_id) REFERENCES memory_entries (project_id, id) ON DELETE CASCADE
);
INSERT INTO memory_occurrences (project_id, entry_id, n, at, session_id, branch, title, content)
SELECT project_id, id, greatest(occurrences, 1), updated_at, session_id, branch, title, content FROM memory_entries WHERE type = 'mistake';
-- The fingerprints are recomputed by the migrator (fingerprint rules changed).
