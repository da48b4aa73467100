-- cairn_found(n) returns n, or fails the statement (no_data_found) when n
-- is 0: an update of a task that is not there fails in PostgreSQL, not
-- only in the store's reading of its row count, so the store can send it in
-- one batch with COMMIT, which the failure then stops (the transaction
-- commits nothing).
CREATE FUNCTION cairn_found(n bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	IF n = 0 THEN
		RAISE EXCEPTION 'no row matched' USING ERRCODE = 'no_data_found';
	END IF;
	RETURN n;
END $$;
