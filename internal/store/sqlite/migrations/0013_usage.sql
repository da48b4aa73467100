-- What Cairn measures of its own use (package usage): a row per tool call,
-- hook, knowledge read or check run, appended in batches off the request
-- path, and the daily aggregates rows older than the retention roll up
-- into, so a year of use stays small.
CREATE TABLE usage_events (
	id             INTEGER PRIMARY KEY AUTOINCREMENT,
	at             INTEGER NOT NULL,
	kind           TEXT    NOT NULL,
	name           TEXT    NOT NULL,
	toolset        TEXT    NOT NULL DEFAULT '',
	agent          TEXT    NOT NULL DEFAULT '',
	session_id     INTEGER NOT NULL DEFAULT 0,
	client         TEXT    NOT NULL DEFAULT '',
	client_version TEXT    NOT NULL DEFAULT '',
	model          TEXT    NOT NULL DEFAULT '',
	duration_us    INTEGER NOT NULL DEFAULT 0,
	outcome        TEXT    NOT NULL,
	bytes          INTEGER NOT NULL DEFAULT 0,
	subject        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX usage_events_by_time ON usage_events (at, id);

CREATE TABLE usage_days (
	day         INTEGER NOT NULL, -- midnight UTC, unix microseconds
	kind        TEXT    NOT NULL,
	name        TEXT    NOT NULL,
	toolset     TEXT    NOT NULL,
	agent       TEXT    NOT NULL,
	client      TEXT    NOT NULL,
	model       TEXT    NOT NULL,
	outcome     TEXT    NOT NULL,
	count       INTEGER NOT NULL,
	duration_us INTEGER NOT NULL,
	bytes       INTEGER NOT NULL,
	hist        TEXT    NOT NULL, -- usage.Hist.String
	PRIMARY KEY (day, kind, name, toolset, agent, client, model, outcome)
);
