-- The Members search (a case-insensitive substring of names and e-mail: search_text like '%...%') answered from a
-- trigram index where the pg_trgm extension can be had: PGlite loads it (db/client.ts); a PostgreSQL server has it
-- with its contrib modules (trusted: the database's owner may create it). Where it cannot be created, nothing
-- changes: the search scans the members, as before, with the same answers.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN insufficient_privilege OR feature_not_supported OR undefined_file THEN
      RAISE NOTICE 'pg_trgm not created (%): the Members search scans', SQLERRM;
    END;
  END IF;
  SELECT n.nspname INTO trgm_schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS slack_members_search_trgm_idx ON slack_members USING gin (search_text %I.gin_trgm_ops)', trgm_schema);
  END IF;
END $$;
