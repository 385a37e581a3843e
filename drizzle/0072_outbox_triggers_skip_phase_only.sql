-- Hand-written. The outbox's report counters (newsletter_report_outbox_track, migration 0064) moved
-- nothing on most UPDATE statements of a send, yet each one grouped its old and new rows and ran an
-- upsert that found no change: the dispatcher's 'delivering' marks (about 0.03 a message, a few rows
-- each) change only the phase, and statement triggers with transition tables cannot take a column list.
-- Now an UPDATE first looks for one row whose campaign or state changed (one join that stops at the
-- first) and returns when there is none. The figures are the same: the full path runs whenever a row
-- moved. (outbox_user_figures_track already returns after one such pass: migration 0069.)
CREATE OR REPLACE FUNCTION newsletter_report_outbox_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH r AS MATERIALIZED (
      SELECT campaign_id, state, count(*) AS n FROM newsletter_report_outbox_new GROUP BY 1, 2
    )
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'outbox', r.state, pg_backend_pid(), r.n
    FROM r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    -- Most updates move no counter: the dispatcher's 'delivering' marks change only the phase. One join
    -- that stops at the first row whose campaign or state changed says so, without the grouping and the
    -- upsert below.
    PERFORM 1 FROM newsletter_report_outbox_new n JOIN newsletter_report_outbox_old o USING (id)
    WHERE n.state IS DISTINCT FROM o.state OR n.campaign_id IS DISTINCT FROM o.campaign_id
    LIMIT 1;
    IF NOT FOUND THEN RETURN NULL; END IF;
    WITH r AS MATERIALIZED (
      SELECT campaign_id, state, sum(d) AS n
      FROM (
        SELECT campaign_id, state, 1 AS d FROM newsletter_report_outbox_new
        UNION ALL
        SELECT campaign_id, state, -1 AS d FROM newsletter_report_outbox_old
      ) moved
      GROUP BY 1, 2
      HAVING sum(d) <> 0
    )
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'outbox', r.state, pg_backend_pid(), r.n
    FROM r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    WITH r AS MATERIALIZED (
      SELECT campaign_id, state, count(*) AS n FROM newsletter_report_outbox_old GROUP BY 1, 2
    )
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'outbox', r.state, pg_backend_pid(), -r.n
    FROM r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
