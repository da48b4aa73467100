-- Flyway fills ${schema} in at migration time.
CREATE TABLE ${schema}.tenant_settings (
    tenant_id bigint PRIMARY KEY,
    settings  jsonb NOT NULL DEFAULT '{}'
);
INSERT INTO ${schema}.tenant_settings (tenant_id) SELECT id FROM ${schema}.accounts ON CONFLICT DO NOTHING;
