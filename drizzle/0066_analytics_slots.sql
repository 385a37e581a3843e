ALTER TABLE "analytics_daily" ADD COLUMN "slot" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_user_daily" ADD COLUMN "slot" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_weekly" ADD COLUMN "slot" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "analytics_daily" DROP CONSTRAINT "analytics_daily_user_id_day_campaign_id_pk";--> statement-breakpoint
ALTER TABLE "analytics_user_daily" DROP CONSTRAINT "analytics_user_daily_user_id_day_pk";--> statement-breakpoint
ALTER TABLE "analytics_weekly" DROP CONSTRAINT "analytics_weekly_user_id_week_campaign_id_pk";--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_user_id_day_campaign_id_slot_pk" PRIMARY KEY("user_id","day","campaign_id","slot");--> statement-breakpoint
ALTER TABLE "analytics_user_daily" ADD CONSTRAINT "analytics_user_daily_user_id_day_slot_pk" PRIMARY KEY("user_id","day","slot");--> statement-breakpoint
ALTER TABLE "analytics_weekly" ADD CONSTRAINT "analytics_weekly_user_id_week_campaign_id_slot_pk" PRIMARY KEY("user_id","week","campaign_id","slot");--> statement-breakpoint
-- Hand-written (drizzle-kit generated the statements above with the keys before their columns, which
-- cannot run; reordered). The dispatcher records every batch's 'sent' events in the transaction that marks
-- it sent, and this trigger added them to one row per user and day (and per campaign and day, and week):
-- each of those transactions held those rows from its trigger to its commit, so the two workers took
-- turns on them (in bench/newsletter-million about 3 ms a batch once outbox_user_daily stopped being the
-- first such row). Now each backend adds to its own rows (slot = its pid), as the newsletter counters do
-- (migration 0060): two transactions alive at once never share a pid. Marks and lasts are per subject and
-- stay as they were. Readers already add rows up (grouped sums); the rebuild writes slot 0. The
-- trigger is migration 0049's but for the slot.
CREATE OR REPLACE FUNCTION analytics_track_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO analytics_daily AS d (user_id, campaign_id, day, slot, sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
    SELECT user_id, campaign_id, day, pg_backend_pid(), sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last FROM per_day
    ORDER BY user_id, day, campaign_id
    ON CONFLICT (user_id, day, campaign_id, slot) DO UPDATE SET
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
    INSERT INTO analytics_user_daily AS u (user_id, day, slot, sent, opened, opened_human, clicked, replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
    SELECT user_id, day, pg_backend_pid(), sum(sent), sum(opened), sum(opened_human), sum(clicked), sum(replied), sum(bounced), sum(unsubscribed), sum(failed), sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last) FROM per_day
    GROUP BY user_id, day ORDER BY user_id, day
    ON CONFLICT (user_id, day, slot) DO UPDATE SET
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
  INSERT INTO analytics_weekly AS w (user_id, campaign_id, week, slot, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT user_id, campaign_id, date_trunc('week', day)::date, pg_backend_pid(), sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM per_day
  WHERE sent_last <> 0 OR opened_last <> 0 OR opened_human_last <> 0 OR clicked_last <> 0 OR replied_last <> 0 OR bounced_last <> 0 OR unsubscribed_last <> 0 OR failed_last <> 0
  GROUP BY user_id, campaign_id, date_trunc('week', day)::date
  ORDER BY 1, 3, 2
  ON CONFLICT (user_id, week, campaign_id, slot) DO UPDATE SET
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
-- A user's roll-up slots folded back into slot 0, each table's rows locked in key order first (writers
-- only ever touch their own slot, so nobody waits in a cycle): at a newsletter's finish, so the tables keep
-- about a row per key whatever wrote them.
CREATE FUNCTION analytics_fold(who text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM analytics_daily WHERE user_id = who ORDER BY day, campaign_id, slot FOR UPDATE;
  WITH moved AS (DELETE FROM analytics_daily WHERE user_id = who AND slot <> 0 RETURNING *)
  INSERT INTO analytics_daily AS d (user_id, campaign_id, day, slot, sent, opened, opened_human, clicked,
    replied, bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last,
    replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT who, campaign_id, day, 0, sum(sent), sum(opened), sum(opened_human), sum(clicked), sum(replied),
    sum(bounced), sum(unsubscribed), sum(failed), sum(sent_last), sum(opened_last), sum(opened_human_last),
    sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM moved GROUP BY day, campaign_id ORDER BY day, campaign_id
  ON CONFLICT (user_id, day, campaign_id, slot) DO UPDATE SET
    sent = d.sent + excluded.sent, opened = d.opened + excluded.opened,
    opened_human = d.opened_human + excluded.opened_human, clicked = d.clicked + excluded.clicked,
    replied = d.replied + excluded.replied, bounced = d.bounced + excluded.bounced,
    unsubscribed = d.unsubscribed + excluded.unsubscribed, failed = d.failed + excluded.failed,
    sent_last = d.sent_last + excluded.sent_last, opened_last = d.opened_last + excluded.opened_last,
    opened_human_last = d.opened_human_last + excluded.opened_human_last,
    clicked_last = d.clicked_last + excluded.clicked_last, replied_last = d.replied_last + excluded.replied_last,
    bounced_last = d.bounced_last + excluded.bounced_last,
    unsubscribed_last = d.unsubscribed_last + excluded.unsubscribed_last,
    failed_last = d.failed_last + excluded.failed_last;
  PERFORM 1 FROM analytics_user_daily WHERE user_id = who ORDER BY day, slot FOR UPDATE;
  WITH moved AS (DELETE FROM analytics_user_daily WHERE user_id = who AND slot <> 0 RETURNING *)
  INSERT INTO analytics_user_daily AS u (user_id, day, slot, sent, opened, opened_human, clicked, replied,
    bounced, unsubscribed, failed, sent_last, opened_last, opened_human_last, clicked_last, replied_last,
    bounced_last, unsubscribed_last, failed_last)
  SELECT who, day, 0, sum(sent), sum(opened), sum(opened_human), sum(clicked), sum(replied), sum(bounced),
    sum(unsubscribed), sum(failed), sum(sent_last), sum(opened_last), sum(opened_human_last),
    sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM moved GROUP BY day ORDER BY day
  ON CONFLICT (user_id, day, slot) DO UPDATE SET
    sent = u.sent + excluded.sent, opened = u.opened + excluded.opened,
    opened_human = u.opened_human + excluded.opened_human, clicked = u.clicked + excluded.clicked,
    replied = u.replied + excluded.replied, bounced = u.bounced + excluded.bounced,
    unsubscribed = u.unsubscribed + excluded.unsubscribed, failed = u.failed + excluded.failed,
    sent_last = u.sent_last + excluded.sent_last, opened_last = u.opened_last + excluded.opened_last,
    opened_human_last = u.opened_human_last + excluded.opened_human_last,
    clicked_last = u.clicked_last + excluded.clicked_last, replied_last = u.replied_last + excluded.replied_last,
    bounced_last = u.bounced_last + excluded.bounced_last,
    unsubscribed_last = u.unsubscribed_last + excluded.unsubscribed_last,
    failed_last = u.failed_last + excluded.failed_last;
  PERFORM 1 FROM analytics_weekly WHERE user_id = who ORDER BY week, campaign_id, slot FOR UPDATE;
  WITH moved AS (DELETE FROM analytics_weekly WHERE user_id = who AND slot <> 0 RETURNING *)
  INSERT INTO analytics_weekly AS w (user_id, campaign_id, week, slot, sent_last, opened_last,
    opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT who, campaign_id, week, 0, sum(sent_last), sum(opened_last), sum(opened_human_last),
    sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM moved GROUP BY week, campaign_id ORDER BY week, campaign_id
  ON CONFLICT (user_id, week, campaign_id, slot) DO UPDATE SET
    sent_last = w.sent_last + excluded.sent_last, opened_last = w.opened_last + excluded.opened_last,
    opened_human_last = w.opened_human_last + excluded.opened_human_last,
    clicked_last = w.clicked_last + excluded.clicked_last, replied_last = w.replied_last + excluded.replied_last,
    bounced_last = w.bounced_last + excluded.bounced_last,
    unsubscribed_last = w.unsubscribed_last + excluded.unsubscribed_last,
    failed_last = w.failed_last + excluded.failed_last;
END $$;
