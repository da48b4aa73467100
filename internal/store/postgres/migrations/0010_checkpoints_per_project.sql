-- Loop checkpoints are numbered within their project, as on SQLite, where
-- a project's first checkpoint is 1: a shared sequence numbered them
-- across every project in the database, so an agent's first checkpoint
-- could be 37 and told how many other projects had made. The numbers
-- already given stay (they are unique within each project too); a new one
-- is the project's highest plus one, taken under the project's write lock.
ALTER TABLE loop_checkpoints DROP CONSTRAINT loop_checkpoints_pkey;
ALTER TABLE loop_checkpoints ALTER COLUMN id DROP DEFAULT;
DROP SEQUENCE IF EXISTS loop_checkpoints_id_seq;
ALTER TABLE loop_checkpoints ADD PRIMARY KEY (project_id, id);

-- A cairn started before this migration, still running while another
-- applies it, inserts no number: give it the project's next, so that its
-- checkpoints are saved until it is restarted.
CREATE FUNCTION cairn_checkpoint_number() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF NEW.id IS NULL THEN
		SELECT coalesce(max(id), 0) + 1 INTO NEW.id FROM loop_checkpoints WHERE project_id = NEW.project_id;
	END IF;
	RETURN NEW;
END $$;
CREATE TRIGGER loop_checkpoints_number BEFORE INSERT ON loop_checkpoints
	FOR EACH ROW EXECUTE FUNCTION cairn_checkpoint_number();
