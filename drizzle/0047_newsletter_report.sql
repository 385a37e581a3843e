CREATE TABLE "newsletter_report_counts" (
	"campaign_id" uuid NOT NULL,
	"metric" text NOT NULL,
	"key" text DEFAULT '' NOT NULL,
	"url" text,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "newsletter_report_counts_campaign_id_metric_key_pk" PRIMARY KEY("campaign_id","metric","key")
);
--> statement-breakpoint
CREATE TABLE "newsletter_report_seen" (
	"campaign_id" uuid NOT NULL,
	"campaign_contact_id" uuid NOT NULL,
	"what" text NOT NULL,
	CONSTRAINT "newsletter_report_seen_campaign_id_campaign_contact_id_what_pk" PRIMARY KEY("campaign_id","campaign_contact_id","what")
);
--> statement-breakpoint
ALTER TABLE "newsletter_report_counts" ADD CONSTRAINT "newsletter_report_counts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletter_report_seen" ADD CONSTRAINT "newsletter_report_seen_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "newsletters_campaign_idx" ON "newsletters" USING btree ("campaign_id") WHERE "newsletters"."campaign_id" is not null;
--> statement-breakpoint
-- Hand-written: newsletter_report_counts and newsletter_report_seen follow email_events through a
-- statement-level trigger, so a tracking COPY batch or a bulk INSERT … SELECT of delivery outcomes folds
-- in once. Only a newsletter's own events count (its engine campaign and its owner, as the report read
-- them before). First times come from INSERT … ON CONFLICT DO NOTHING RETURNING on the seen rows, safe
-- between concurrent writers; counters are upserted in key order so writers lock them in the same order.
-- The query is one text with the source relation as %s, run on the trigger's transition table and, to
-- build the figures from scratch, on email_events itself.
CREATE FUNCTION newsletter_report_fold_sql() RETURNS text LANGUAGE sql IMMUTABLE AS $f$
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
  INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, url, n)
  SELECT campaign_id, metric, key, url, n FROM delta ORDER BY 1, 2, 3
  ON CONFLICT (campaign_id, metric, key) DO UPDATE SET n = c.n + excluded.n, url = coalesce(c.url, excluded.url)
$q$
$f$;--> statement-breakpoint
-- Most statements carry no newsletter event (a send's 'sent' row, another campaign's opens): a cached
-- static query says so before the fold's text is planned.
CREATE FUNCTION newsletter_report_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM newsletter_report_new e
  WHERE e.campaign_id IS NOT NULL
    AND e.type IN ('opened', 'clicked', 'bounced', 'unsubscribed', 'complained')
    AND EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = e.campaign_id)
  LIMIT 1;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  EXECUTE format(newsletter_report_fold_sql(), 'newsletter_report_new');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER newsletter_report_insert AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS newsletter_report_new
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_track();--> statement-breakpoint
-- The send's own figures follow the same way: the outbox's messages by state (metric `outbox`, key = the
-- state) and the recipients (metric `recipients`), so progress and the report count nothing at read time.
-- Static SQL (plans cached per connection): an outbox UPDATE runs for every message the dispatcher moves.
-- A campaign deleted in the same statement (its rows cascading away) is skipped, its counters go with it.
CREATE FUNCTION newsletter_report_outbox_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, n)
    SELECT r.campaign_id, 'outbox', r.state, count(*)
    FROM newsletter_report_outbox_new r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1, 3
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, n)
    SELECT r.campaign_id, 'outbox', r.state, sum(r.d)
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
    ON CONFLICT (campaign_id, metric, key) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, n)
    SELECT r.campaign_id, 'outbox', r.state, -count(*)
    FROM newsletter_report_outbox_old r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1, 3
    ORDER BY 1, 3
    ON CONFLICT (campaign_id, metric, key) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER newsletter_report_outbox_insert AFTER INSERT ON outbox_messages
  REFERENCING NEW TABLE AS newsletter_report_outbox_new
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_outbox_track();--> statement-breakpoint
CREATE TRIGGER newsletter_report_outbox_update AFTER UPDATE ON outbox_messages
  REFERENCING OLD TABLE AS newsletter_report_outbox_old NEW TABLE AS newsletter_report_outbox_new
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_outbox_track();--> statement-breakpoint
CREATE TRIGGER newsletter_report_outbox_delete AFTER DELETE ON outbox_messages
  REFERENCING OLD TABLE AS newsletter_report_outbox_old
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_outbox_track();--> statement-breakpoint
CREATE FUNCTION newsletter_report_recipients_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, n)
    SELECT r.campaign_id, 'recipients', '', count(*)
    FROM newsletter_report_recipients_new r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (campaign_id, metric, key) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO newsletter_report_counts AS c (campaign_id, metric, key, n)
    SELECT r.campaign_id, 'recipients', '', -count(*)
    FROM newsletter_report_recipients_old r
    WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
      AND EXISTS (SELECT 1 FROM campaigns k WHERE k.id = r.campaign_id)
    GROUP BY 1
    ORDER BY 1
    ON CONFLICT (campaign_id, metric, key) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER newsletter_report_recipients_insert AFTER INSERT ON campaign_contacts
  REFERENCING NEW TABLE AS newsletter_report_recipients_new
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_recipients_track();--> statement-breakpoint
CREATE TRIGGER newsletter_report_recipients_delete AFTER DELETE ON campaign_contacts
  REFERENCING OLD TABLE AS newsletter_report_recipients_old
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_recipients_track();--> statement-breakpoint
-- Builds the figures from scratch out of every event, message and recipient on record (here for the
-- newsletters already sent; later to repair drift). The lock makes writers wait in their trigger until
-- the new figures are committed, so their deltas land on top of a consistent base.
CREATE FUNCTION newsletter_report_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE newsletter_report_counts, newsletter_report_seen IN ACCESS EXCLUSIVE MODE;
  TRUNCATE newsletter_report_counts, newsletter_report_seen;
  EXECUTE format(newsletter_report_fold_sql(), 'email_events');
  INSERT INTO newsletter_report_counts (campaign_id, metric, key, n)
  SELECT o.campaign_id, 'outbox', o.state, count(*)
  FROM outbox_messages o
  WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = o.campaign_id)
  GROUP BY 1, 3;
  INSERT INTO newsletter_report_counts (campaign_id, metric, key, n)
  SELECT r.campaign_id, 'recipients', '', count(*)
  FROM campaign_contacts r
  WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
  GROUP BY 1;
END $$;--> statement-breakpoint
SELECT newsletter_report_rebuild();
