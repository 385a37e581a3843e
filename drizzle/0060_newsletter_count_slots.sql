ALTER TABLE "newsletter_report_counts" ADD COLUMN "slot" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_report_counts" DROP CONSTRAINT "newsletter_report_counts_campaign_id_metric_key_pk";--> statement-breakpoint
ALTER TABLE "newsletter_report_counts" ADD CONSTRAINT "newsletter_report_counts_campaign_id_metric_key_slot_pk" PRIMARY KEY("campaign_id","metric","key","slot");--> statement-breakpoint
-- Hand-written (drizzle-kit generated the three statements above in an order that cannot run: the key
-- before its column). A newsletter's outbox and recipients counters were one row each per state, moved by
-- every claim, allocation, record and queued batch of the send: each of those transactions held that row
-- from its trigger to its commit, so the two workers and the queueing job took turns on it (in
-- bench/newsletter-million, claims waited on the lock more than they worked). Now each backend adds to
-- its own row (slot = its pid): two transactions alive at once never share a pid, so they never wait on
-- each other; readers add the slots up. The event fold keeps slot 0 (one tracking batch at a time).
CREATE OR REPLACE FUNCTION newsletter_report_fold_sql() RETURNS text LANGUAGE sql IMMUTABLE AS $f$
SELECT $q$
  WITH ev AS MATERIALIZED (
    SELECT e.campaign_id, e.campaign_contact_id AS contact_id, e.type, e.machine, e.detail,
      floor(extract(epoch FROM (e.occurred_at - n.sent_at)) / 3600) AS hour
    FROM %s e
    JOIN newsletters n ON n.campaign_id = e.campaign_id AND n.user_id = e.user_id
    WHERE e.campaign_id IS NOT NULL
      AND e.type IN ('opened', 'clicked', 'bounced', 'unsubscribed', 'complained')
  ),
  firsts AS (
    INSERT INTO newsletter_report_seen AS s (campaign_id, campaign_contact_id, what)
    SELECT DISTINCT ev.campaign_id, ev.contact_id, w.what
    FROM ev CROSS JOIN LATERAL (VALUES
      (CASE
        WHEN ev.type = 'opened' AND NOT ev.machine THEN 'o'
        WHEN ev.type = 'clicked' AND NOT ev.machine THEN 'c'
        WHEN ev.type = 'bounced' THEN 'b'
        WHEN ev.type = 'unsubscribed' THEN 'u'
        WHEN ev.type = 'complained' THEN 'x'
      END),
      (CASE WHEN ev.type = 'clicked' AND NOT ev.machine AND ev.detail IS NOT NULL THEN 'l' || md5(ev.detail) END)
    ) AS w(what)
    WHERE ev.contact_id IS NOT NULL AND w.what IS NOT NULL
    ORDER BY 1, 2, 3
    ON CONFLICT DO NOTHING
    RETURNING s.campaign_id, s.what
  ),
  delta AS (
    SELECT d.campaign_id, d.metric, d.key, max(d.url) AS url, count(*) AS n
    FROM (
      SELECT ev.campaign_id, m.metric, m.key, m.url
      FROM ev CROSS JOIN LATERAL (VALUES
        (CASE
          WHEN ev.type = 'opened' AND ev.machine THEN 'machine_opens'
          WHEN ev.type = 'opened' THEN 'opens'
          WHEN ev.type = 'clicked' AND ev.machine THEN 'machine_clicks'
          WHEN ev.type = 'clicked' THEN 'clicks'
        END, ''::text, NULL::text),
        (CASE WHEN ev.type = 'clicked' AND NOT ev.machine AND ev.detail IS NOT NULL THEN 'link_clicks' END,
          md5(ev.detail), ev.detail),
        (CASE WHEN ev.type IN ('opened', 'clicked') AND NOT ev.machine AND ev.hour >= 0 AND ev.hour < 48
          THEN CASE ev.type WHEN 'opened' THEN 'hour_opens' ELSE 'hour_clicks' END END,
          ev.hour::int::text, NULL::text)
      ) AS m(metric, key, url)
      WHERE m.metric IS NOT NULL
      UNION ALL
      SELECT f.campaign_id,
        CASE left(f.what, 1)
          WHEN 'o' THEN 'unique_opens' WHEN 'c' THEN 'unique_clickers' WHEN 'b' THEN 'bounces'
          WHEN 'u' THEN 'unsubscribes' WHEN 'x' THEN 'complaints' ELSE 'link_unique'
        END,
        CASE WHEN left(f.what, 1) = 'l' THEN substr(f.what, 2) ELSE '' END, NULL::text
      FROM firsts f
    ) d
    GROUP BY 1, 2, 3
  )
  INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, url, n, slot)
  SELECT campaign_id, metric, key, url, n, 0 FROM delta ORDER BY 1, 2, 3
  ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n, url = coalesce(c.url, excluded.url)
$q$
$f$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION newsletter_report_outbox_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'outbox', r.state, pg_backend_pid(), count(*)
    FROM newsletter_report_outbox_new r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1, 3
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'outbox', r.state, pg_backend_pid(), sum(r.d)
    FROM (
      SELECT campaign_id, state, 1 AS d FROM newsletter_report_outbox_new
      UNION ALL
      SELECT campaign_id, state, -1 AS d FROM newsletter_report_outbox_old
    ) r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1, 3
    HAVING sum(r.d) <> 0
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'outbox', r.state, pg_backend_pid(), -count(*)
    FROM newsletter_report_outbox_old r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1, 3
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION newsletter_report_recipients_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'recipients', '', pg_backend_pid(), count(*)
    FROM newsletter_report_recipients_new r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, slot, n)
    SELECT r.campaign_id, 'recipients', '', pg_backend_pid(), -count(*)
    FROM newsletter_report_recipients_old r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (campaign_id, metric, key, slot) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
