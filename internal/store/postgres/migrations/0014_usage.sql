-- What Cairn measures of its own use (package usage): a row per tool call,
-- hook, knowledge read or check run, appended in batches off the request
-- path, and the daily aggregates rows older than the retention roll up
-- into, so a year of use stays small.
CREATE TABLE usage_events (
	project_id     bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	id             bigserial,
	at             timestamptz NOT NULL,
	kind           text        NOT NULL,
	name           text        NOT NULL,
	toolset        text        NOT NULL DEFAULT '',
	agent          text        NOT NULL DEFAULT '',
	session_id     bigint      NOT NULL DEFAULT 0,
	client         text        NOT NULL DEFAULT '',
	client_version text        NOT NULL DEFAULT '',
	model          text        NOT NULL DEFAULT '',
	duration_us    bigint      NOT NULL DEFAULT 0,
	outcome        text        NOT NULL,
	bytes          bigint      NOT NULL DEFAULT 0,
	subject        text        NOT NULL DEFAULT '',
	PRIMARY KEY (project_id, id)
);
CREATE INDEX usage_events_by_time ON usage_events (project_id, at, id);

CREATE TABLE usage_days (
	project_id  bigint      NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
	day         timestamptz NOT NULL, -- midnight UTC
	kind        text        NOT NULL,
	name        text        NOT NULL,
	toolset     text        NOT NULL,
	agent       text        NOT NULL,
	client      text        NOT NULL,
	model       text        NOT NULL,
	outcome     text        NOT NULL,
	count       bigint      NOT NULL,
	duration_us bigint      NOT NULL,
	bytes       bigint      NOT NULL,
	hist        text        NOT NULL, -- usage.Hist.String
	PRIMARY KEY (project_id, day, kind, name, toolset, agent, client, model, outcome)
);
