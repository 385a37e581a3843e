CREATE TABLE "analytics_daily" (
	"user_id" text NOT NULL,
	"campaign_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"opened_human" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"replied" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"sent_last" integer DEFAULT 0 NOT NULL,
	"opened_last" integer DEFAULT 0 NOT NULL,
	"opened_human_last" integer DEFAULT 0 NOT NULL,
	"clicked_last" integer DEFAULT 0 NOT NULL,
	"replied_last" integer DEFAULT 0 NOT NULL,
	"bounced_last" integer DEFAULT 0 NOT NULL,
	"unsubscribed_last" integer DEFAULT 0 NOT NULL,
	"failed_last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_daily_user_id_day_campaign_id_pk" PRIMARY KEY("user_id","day","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_lasts" (
	"subject" uuid NOT NULL,
	"kind" smallint NOT NULL,
	"last_day" date NOT NULL,
	"prev_day" date,
	CONSTRAINT "analytics_lasts_subject_kind_pk" PRIMARY KEY("subject","kind")
);
--> statement-breakpoint
CREATE TABLE "analytics_marks" (
	"subject" uuid NOT NULL,
	"kind" smallint NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "analytics_marks_subject_kind_day_pk" PRIMARY KEY("subject","kind","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_user_daily" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"opened_human" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"replied" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"sent_last" integer DEFAULT 0 NOT NULL,
	"opened_last" integer DEFAULT 0 NOT NULL,
	"opened_human_last" integer DEFAULT 0 NOT NULL,
	"clicked_last" integer DEFAULT 0 NOT NULL,
	"replied_last" integer DEFAULT 0 NOT NULL,
	"bounced_last" integer DEFAULT 0 NOT NULL,
	"unsubscribed_last" integer DEFAULT 0 NOT NULL,
	"failed_last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_user_daily_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_weekly" (
	"user_id" text NOT NULL,
	"campaign_id" uuid NOT NULL,
	"week" date NOT NULL,
	"sent_last" integer DEFAULT 0 NOT NULL,
	"opened_last" integer DEFAULT 0 NOT NULL,
	"opened_human_last" integer DEFAULT 0 NOT NULL,
	"clicked_last" integer DEFAULT 0 NOT NULL,
	"replied_last" integer DEFAULT 0 NOT NULL,
	"bounced_last" integer DEFAULT 0 NOT NULL,
	"unsubscribed_last" integer DEFAULT 0 NOT NULL,
	"failed_last" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_weekly_user_id_week_campaign_id_pk" PRIMARY KEY("user_id","week","campaign_id")
);
--> statement-breakpoint
CREATE INDEX "analytics_daily_campaign_idx" ON "analytics_daily" USING btree ("campaign_id","day");--> statement-breakpoint
-- Hand-written: the roll-ups follow email_events (schema/analytics.ts explains the tables).
-- The kinds an event counts for, in COUNT_COLUMNS' terms (campaign-stats.service.ts).
CREATE FUNCTION analytics_kinds(event_type text, machine boolean) RETURNS smallint[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE event_type
    WHEN 'sent' THEN '{0}'::smallint[]
    WHEN 'opened' THEN CASE WHEN machine THEN '{1}'::smallint[] ELSE '{1,2}'::smallint[] END
    WHEN 'clicked' THEN CASE WHEN machine THEN '{}'::smallint[] ELSE '{3}'::smallint[] END
    WHEN 'replied' THEN '{4}'::smallint[]
    WHEN 'bounced' THEN '{5}'::smallint[]
    WHEN 'unsubscribed' THEN '{6}'::smallint[]
    WHEN 'complained' THEN '{6}'::smallint[]
    WHEN 'failed' THEN '{7}'::smallint[]
    ELSE '{}'::smallint[] END
$$;--> statement-breakpoint
-- Adds a batch of events: new marks count for their day; a subject whose last day moves forward is taken
-- from its old last day and counted on the new one. One statement; rows are taken in key order.
CREATE FUNCTION analytics_track_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH incoming AS (
    SELECT DISTINCT ON (subject, kind, day) subject, kind, day, user_id, campaign_id
    FROM (
      SELECT CASE WHEN k.kind IN (4, 6) THEN e.campaign_contact_id ELSE e.outbox_message_id END AS subject,
             k.kind, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.user_id,
             coalesce(e.campaign_id, '00000000-0000-0000-0000-000000000000'::uuid) AS campaign_id
      FROM new_events e CROSS JOIN LATERAL unnest(analytics_kinds(e.type, e.machine)) AS k(kind)
    ) x
    WHERE subject IS NOT NULL
    ORDER BY subject, kind, day
  ),
  marked AS (
    INSERT INTO analytics_marks (subject, kind, day)
    SELECT subject, kind, day FROM incoming ORDER BY subject, kind, day
    ON CONFLICT DO NOTHING
    RETURNING subject, kind, day
  ),
  fresh AS (
    SELECT i.* FROM marked m JOIN incoming i USING (subject, kind, day)
  ),
  moved AS (
    INSERT INTO analytics_lasts AS l (subject, kind, last_day)
    SELECT subject, kind, max(day) FROM fresh GROUP BY subject, kind ORDER BY subject, kind
    ON CONFLICT (subject, kind) DO UPDATE SET prev_day = l.last_day, last_day = excluded.last_day
      WHERE excluded.last_day > l.last_day
    RETURNING l.subject, l.kind, l.prev_day, l.last_day
  ),
  deltas AS (
    SELECT user_id, campaign_id, day, kind, 1 AS d_day, 0 AS d_last FROM fresh
    UNION ALL
    SELECT f.user_id, f.campaign_id, m.last_day, m.kind, 0, 1
    FROM moved m JOIN fresh f ON f.subject = m.subject AND f.kind = m.kind AND f.day = m.last_day
    UNION ALL
    SELECT f.user_id, f.campaign_id, m.prev_day, m.kind, 0, -1
    FROM moved m JOIN fresh f ON f.subject = m.subject AND f.kind = m.kind AND f.day = m.last_day
    WHERE m.prev_day IS NOT NULL
  ),
  per_day AS (
    SELECT user_id, campaign_id, day,
    coalesce(sum(d_day) FILTER (WHERE kind = 0), 0) AS sent,
    coalesce(sum(d_day) FILTER (WHERE kind = 1), 0) AS opened,
    coalesce(sum(d_day) FILTER (WHERE kind = 2), 0) AS opened_human,
    coalesce(sum(d_day) FILTER (WHERE kind = 3), 0) AS clicked,
    coalesce(sum(d_day) FILTER (WHERE kind = 4), 0) AS replied,
    coalesce(sum(d_day) FILTER (WHERE kind = 5), 0) AS bounced,
    coalesce(sum(d_day) FILTER (WHERE kind = 6), 0) AS unsubscribed,
    coalesce(sum(d_day) FILTER (WHERE kind = 7), 0) AS failed,
    coalesce(sum(d_last) FILTER (WHERE kind = 0), 0) AS sent_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 1), 0) AS opened_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 2), 0) AS opened_human_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 3), 0) AS clicked_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 4), 0) AS replied_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 5), 0) AS bounced_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 6), 0) AS unsubscribed_last,
    coalesce(sum(d_last) FILTER (WHERE kind = 7), 0) AS failed_last
    FROM deltas
    GROUP BY user_id, campaign_id, day
  ),
  daily AS (
    INSERT INTO analytics_daily AS d (user_id, campaign_id, day, sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
    SELECT user_id, campaign_id, day, sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last FROM per_day
    ORDER BY user_id, day, campaign_id
    ON CONFLICT (user_id, day, campaign_id) DO UPDATE SET
    sent = d.sent + excluded.sent,
    opened = d.opened + excluded.opened,
    opened_human = d.opened_human + excluded.opened_human,
    clicked = d.clicked + excluded.clicked,
    replied = d.replied + excluded.replied,
    bounced = d.bounced + excluded.bounced,
    unsubscribed = d.unsubscribed + excluded.unsubscribed,
    failed = d.failed + excluded.failed,
    sent_last = d.sent_last + excluded.sent_last,
    opened_last = d.opened_last + excluded.opened_last,
    opened_human_last = d.opened_human_last + excluded.opened_human_last,
    clicked_last = d.clicked_last + excluded.clicked_last,
    replied_last = d.replied_last + excluded.replied_last,
    bounced_last = d.bounced_last + excluded.bounced_last,
    unsubscribed_last = d.unsubscribed_last + excluded.unsubscribed_last,
    failed_last = d.failed_last + excluded.failed_last
    RETURNING 1
  ),
  user_daily AS (
    INSERT INTO analytics_user_daily AS u (user_id, day, sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
    SELECT user_id, day, sum(sent), sum(opened), sum(opened_human), sum(clicked), sum(replied), sum(bounced), sum(unsubscribed), sum(failed), sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last) FROM per_day
    GROUP BY user_id, day ORDER BY user_id, day
    ON CONFLICT (user_id, day) DO UPDATE SET
    sent = u.sent + excluded.sent,
    opened = u.opened + excluded.opened,
    opened_human = u.opened_human + excluded.opened_human,
    clicked = u.clicked + excluded.clicked,
    replied = u.replied + excluded.replied,
    bounced = u.bounced + excluded.bounced,
    unsubscribed = u.unsubscribed + excluded.unsubscribed,
    failed = u.failed + excluded.failed,
    sent_last = u.sent_last + excluded.sent_last,
    opened_last = u.opened_last + excluded.opened_last,
    opened_human_last = u.opened_human_last + excluded.opened_human_last,
    clicked_last = u.clicked_last + excluded.clicked_last,
    replied_last = u.replied_last + excluded.replied_last,
    bounced_last = u.bounced_last + excluded.bounced_last,
    unsubscribed_last = u.unsubscribed_last + excluded.unsubscribed_last,
    failed_last = u.failed_last + excluded.failed_last
    RETURNING 1
  )
  INSERT INTO analytics_weekly AS w (user_id, campaign_id, week, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT user_id, campaign_id, date_trunc('week', day)::date, sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM per_day
  WHERE sent_last <> 0 OR opened_last <> 0 OR opened_human_last <> 0 OR clicked_last <> 0 OR replied_last <> 0 OR bounced_last <> 0 OR unsubscribed_last <> 0 OR failed_last <> 0
  GROUP BY user_id, campaign_id, date_trunc('week', day)::date
  ORDER BY 1, 3, 2
  ON CONFLICT (user_id, week, campaign_id) DO UPDATE SET
    sent_last = w.sent_last + excluded.sent_last,
    opened_last = w.opened_last + excluded.opened_last,
    opened_human_last = w.opened_human_last + excluded.opened_human_last,
    clicked_last = w.clicked_last + excluded.clicked_last,
    replied_last = w.replied_last + excluded.replied_last,
    bounced_last = w.bounced_last + excluded.bounced_last,
    unsubscribed_last = w.unsubscribed_last + excluded.unsubscribed_last,
    failed_last = w.failed_last + excluded.failed_last;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER analytics_track_insert AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_track_insert();--> statement-breakpoint
-- Recomputes the roll-ups from email_events: of every user (NULL), or of the users given (their marks
-- and lasts are found through their remaining events plus `extra_subjects`, the subjects of deleted rows).
CREATE FUNCTION analytics_rebuild(only_users text[] DEFAULT NULL, extra_subjects uuid[] DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF only_users IS NULL THEN
    -- Writers wait for the rebuild (their triggers would otherwise count into tables being rebuilt).
    LOCK TABLE email_events IN SHARE MODE;
    TRUNCATE analytics_marks, analytics_lasts, analytics_daily, analytics_user_daily, analytics_weekly;
  ELSE
    DELETE FROM analytics_marks WHERE subject IN (
      SELECT unnest(extra_subjects)
      UNION SELECT outbox_message_id FROM email_events WHERE user_id = ANY(only_users)
      UNION SELECT campaign_contact_id FROM email_events WHERE user_id = ANY(only_users));
    DELETE FROM analytics_lasts WHERE subject IN (
      SELECT unnest(extra_subjects)
      UNION SELECT outbox_message_id FROM email_events WHERE user_id = ANY(only_users)
      UNION SELECT campaign_contact_id FROM email_events WHERE user_id = ANY(only_users));
    DELETE FROM analytics_daily WHERE user_id = ANY(only_users);
    DELETE FROM analytics_user_daily WHERE user_id = ANY(only_users);
    DELETE FROM analytics_weekly WHERE user_id = ANY(only_users);
  END IF;
  CREATE TEMP TABLE analytics_rebuild_marks ON COMMIT DROP AS
    SELECT DISTINCT ON (subject, kind, day) subject, kind, day, user_id, campaign_id
    FROM (
      SELECT CASE WHEN k.kind IN (4, 6) THEN e.campaign_contact_id ELSE e.outbox_message_id END AS subject,
             k.kind, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.user_id,
             coalesce(e.campaign_id, '00000000-0000-0000-0000-000000000000'::uuid) AS campaign_id
      FROM email_events e CROSS JOIN LATERAL unnest(analytics_kinds(e.type, e.machine)) AS k(kind)
      WHERE only_users IS NULL OR e.user_id = ANY(only_users)
    ) x
    WHERE subject IS NOT NULL
    ORDER BY subject, kind, day;
  INSERT INTO analytics_marks (subject, kind, day) SELECT subject, kind, day FROM analytics_rebuild_marks;
  INSERT INTO analytics_lasts (subject, kind, last_day)
    SELECT subject, kind, max(day) FROM analytics_rebuild_marks GROUP BY subject, kind;
  INSERT INTO analytics_daily (user_id, campaign_id, day, sent, opened, opened_human, clicked, replied,
    bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last,
    bounced_last, unsubscribed_last, failed_last)
  SELECT user_id, campaign_id, day,
    count(*) FILTER (WHERE kind = 0), count(*) FILTER (WHERE kind = 1),
    count(*) FILTER (WHERE kind = 2), count(*) FILTER (WHERE kind = 3),
    count(*) FILTER (WHERE kind = 4), count(*) FILTER (WHERE kind = 5),
    count(*) FILTER (WHERE kind = 6), count(*) FILTER (WHERE kind = 7),
    count(*) FILTER (WHERE kind = 0 AND last), count(*) FILTER (WHERE kind = 1 AND last),
    count(*) FILTER (WHERE kind = 2 AND last), count(*) FILTER (WHERE kind = 3 AND last),
    count(*) FILTER (WHERE kind = 4 AND last), count(*) FILTER (WHERE kind = 5 AND last),
    count(*) FILTER (WHERE kind = 6 AND last), count(*) FILTER (WHERE kind = 7 AND last)
  FROM (
    SELECT user_id, campaign_id, day, kind,
           day = max(day) OVER (PARTITION BY subject, kind) AS last
    FROM analytics_rebuild_marks
  ) m
  GROUP BY user_id, campaign_id, day;
  INSERT INTO analytics_user_daily (user_id, day, sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT user_id, day, sum(sent), sum(opened), sum(opened_human), sum(clicked), sum(replied), sum(bounced), sum(unsubscribed), sum(failed), sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM analytics_daily WHERE only_users IS NULL OR user_id = ANY(only_users)
  GROUP BY user_id, day;
  INSERT INTO analytics_weekly (user_id, campaign_id, week, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT user_id, campaign_id, date_trunc('week', day)::date, sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM analytics_daily WHERE only_users IS NULL OR user_id = ANY(only_users)
  GROUP BY user_id, campaign_id, date_trunc('week', day)::date
  HAVING sum(sent_last) <> 0 OR sum(opened_last) <> 0 OR sum(opened_human_last) <> 0 OR sum(clicked_last) <> 0 OR sum(replied_last) <> 0 OR sum(bounced_last) <> 0 OR sum(unsubscribed_last) <> 0 OR sum(failed_last) <> 0;
  DROP TABLE analytics_rebuild_marks;
END $$;--> statement-breakpoint
-- Rows deleted (an account's events, the purge job) or their counted columns changed (no code does it
-- today): the users concerned are recomputed from what remains. Rare, so exact beats clever.
CREATE FUNCTION analytics_track_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  users text[];
  subjects uuid[];
BEGIN
  SELECT array_agg(DISTINCT user_id) INTO users FROM old_events;
  IF users IS NULL THEN RETURN NULL; END IF;
  SELECT array_agg(DISTINCT s) INTO subjects FROM (
    SELECT outbox_message_id AS s FROM old_events WHERE outbox_message_id IS NOT NULL
    UNION SELECT campaign_contact_id FROM old_events WHERE campaign_contact_id IS NOT NULL) x;
  PERFORM analytics_rebuild(users, coalesce(subjects, '{}'::uuid[]));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER analytics_track_delete AFTER DELETE ON email_events
  REFERENCING OLD TABLE AS old_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_track_change();--> statement-breakpoint
-- An update recounts only when a counted column changed (erasure clears details, which counts nothing).
CREATE FUNCTION analytics_track_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_events o JOIN new_events n USING (id)
    WHERE (o.user_id, o.campaign_id, o.campaign_contact_id, o.outbox_message_id, o.type, o.machine, o.occurred_at)
      IS DISTINCT FROM
          (n.user_id, n.campaign_id, n.campaign_contact_id, n.outbox_message_id, n.type, n.machine, n.occurred_at)
  ) THEN
    PERFORM analytics_rebuild(
      (SELECT array_agg(DISTINCT user_id) FROM (SELECT user_id FROM old_events UNION SELECT user_id FROM new_events) u),
      (SELECT coalesce(array_agg(DISTINCT s), '{}'::uuid[]) FROM (
        SELECT outbox_message_id AS s FROM old_events WHERE outbox_message_id IS NOT NULL
        UNION SELECT campaign_contact_id FROM old_events WHERE campaign_contact_id IS NOT NULL) x));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER analytics_track_update AFTER UPDATE ON email_events
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_track_update();--> statement-breakpoint
-- Existing events are folded in once.
SELECT analytics_rebuild();
