CREATE TABLE audit_events (
    id         bigserial PRIMARY KEY,
    account_id bigint NOT NULL,
    actor      uuid,
    action     text NOT NULL,
    payload    jsonb NOT NULL DEFAULT '{}'::jsonb,
    at         timestamptz NOT NULL DEFAULT clock_timestamp()
) PARTITION BY RANGE (id);

CREATE TABLE audit_events_p0 PARTITION OF audit_events FOR VALUES FROM (MINVALUE) TO (10000000);

CREATE OR REPLACE FUNCTION audit_touch() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    NEW.at := clock_timestamp();
    IF NEW.payload IS NULL THEN
        NEW.payload := '{}';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER audit_events_touch BEFORE INSERT ON audit_events
    FOR EACH ROW EXECUTE FUNCTION audit_touch();

CREATE FUNCTION account_event_count(acc bigint) RETURNS bigint
LANGUAGE sql STABLE
BEGIN ATOMIC
    SELECT count(*) FROM audit_events WHERE account_id = acc;
END;

CREATE VIEW recent_events AS
    SELECT id, account_id, action, at FROM audit_events WHERE at > now() - interval '7 days';

GRANT SELECT ON recent_events TO reporting;
