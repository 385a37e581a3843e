-- Hand-written. A 'sent' event stands for its message's one acceptance (delivery-outcomes.ts writes it
-- only with the first acceptance it records; recovery, failures and retries never write one, and no other
-- code does): so its message has one mark ever, on that event's day, which is also its last day. The
-- trigger counts such events straight into the roll-ups (a new mark and a last for their day) instead of
-- writing analytics_marks and analytics_lasts rows to learn it, about one of each per message sent.
-- Readers see the same numbers. The rebuild still counts 'sent' per message and day from the events (the
-- campaign page's distinct count) and keeps no marks or lasts of them either; on the product's events
-- the two agree (analytics-rollups.test.ts). A deletion or an update of counted columns recounts the users
-- concerned through the rebuild, as before. Otherwise migration 0066's trigger and 0054's rebuild.
CREATE OR REPLACE FUNCTION analytics_track_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH incoming AS (
    SELECT DISTINCT ON (subject, kind, day) subject, kind, day, user_id, campaign_id
    FROM (
      SELECT CASE WHEN k.kind IN (4, 6) THEN e.campaign_contact_id ELSE e.outbox_message_id END AS subject,
             k.kind, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.user_id,
             coalesce(e.campaign_id, '00000000-0000-0000-0000-000000000000'::uuid) AS campaign_id
      FROM new_events e CROSS JOIN LATERAL unnest(analytics_kinds(e.type, e.machine)) AS k(kind)
      WHERE e.type <> 'sent'
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
    -- A message's one 'sent' event: a new mark of its day, and its last day.
    SELECT user_id, coalesce(campaign_id, '00000000-0000-0000-0000-000000000000'::uuid) AS campaign_id,
           (occurred_at AT TIME ZONE 'UTC')::date AS day, 0::smallint AS kind, 1 AS d_day, 1 AS d_last
    FROM new_events WHERE type = 'sent' AND outbox_message_id IS NOT NULL
    UNION ALL
    SELECT user_id, campaign_id, day, kind, 1, 0 FROM fresh
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
CREATE OR REPLACE FUNCTION analytics_rebuild(only_users text[] DEFAULT NULL, extra_subjects uuid[] DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  kept_before date := (SELECT (expired_before AT TIME ZONE 'UTC')::date FROM event_retention WHERE name = 'email_events');
  -- Marks and lasts are keyed by subject, not user: a recount of accounts that are all gone clears their
  -- subjects' every day; one that concerns a live account keeps the expired days.
  subjects_from date := CASE
    WHEN only_users IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = ANY(only_users)) THEN NULL
    ELSE kept_before END;
  days_from date := coalesce(kept_before, '-infinity'::date);
BEGIN
  IF only_users IS NULL THEN
    -- Writers wait for the rebuild (their triggers would otherwise count into tables being rebuilt).
    LOCK TABLE email_events IN SHARE MODE;
    IF kept_before IS NULL THEN
      TRUNCATE analytics_marks, analytics_lasts, analytics_daily, analytics_user_daily, analytics_weekly;
    ELSE
      DELETE FROM analytics_marks WHERE day >= kept_before;
      DELETE FROM analytics_lasts WHERE last_day >= kept_before;
      DELETE FROM analytics_daily WHERE day >= kept_before;
      DELETE FROM analytics_user_daily WHERE day >= kept_before;
      DELETE FROM analytics_weekly WHERE week >= date_trunc('week', kept_before)::date;
    END IF;
  ELSE
    DELETE FROM analytics_marks WHERE (subjects_from IS NULL OR day >= subjects_from) AND subject IN (
      SELECT unnest(extra_subjects)
      UNION SELECT outbox_message_id FROM email_events WHERE user_id = ANY(only_users)
      UNION SELECT campaign_contact_id FROM email_events WHERE user_id = ANY(only_users));
    DELETE FROM analytics_lasts WHERE (subjects_from IS NULL OR last_day >= subjects_from) AND subject IN (
      SELECT unnest(extra_subjects)
      UNION SELECT outbox_message_id FROM email_events WHERE user_id = ANY(only_users)
      UNION SELECT campaign_contact_id FROM email_events WHERE user_id = ANY(only_users));
    DELETE FROM analytics_daily d WHERE d.user_id = ANY(only_users)
      AND (d.day >= days_from OR NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = d.user_id));
    DELETE FROM analytics_user_daily d WHERE d.user_id = ANY(only_users)
      AND (d.day >= days_from OR NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = d.user_id));
    DELETE FROM analytics_weekly w WHERE w.user_id = ANY(only_users)
      AND (w.week >= date_trunc('week', days_from)::date OR NOT EXISTS (SELECT 1 FROM "user" u WHERE u.id = w.user_id));
  END IF;
  CREATE TEMP TABLE analytics_rebuild_marks ON COMMIT DROP AS
    SELECT DISTINCT ON (subject, kind, day) subject, kind, day, user_id, campaign_id
    FROM (
      SELECT CASE WHEN k.kind IN (4, 6) THEN e.campaign_contact_id ELSE e.outbox_message_id END AS subject,
             k.kind, (e.occurred_at AT TIME ZONE 'UTC')::date AS day, e.user_id,
             coalesce(e.campaign_id, '00000000-0000-0000-0000-000000000000'::uuid) AS campaign_id
      FROM email_events e CROSS JOIN LATERAL unnest(analytics_kinds(e.type, e.machine)) AS k(kind)
      WHERE (only_users IS NULL OR e.user_id = ANY(only_users))
        AND (kept_before IS NULL OR e.occurred_at >= kept_before::timestamp AT TIME ZONE 'UTC')
    ) x
    WHERE subject IS NOT NULL
    ORDER BY subject, kind, day;
  -- 'sent' (kind 0) keeps no marks or lasts: the trigger counts its events directly.
  INSERT INTO analytics_marks (subject, kind, day) SELECT subject, kind, day FROM analytics_rebuild_marks
    WHERE kind <> 0;
  -- A kept last of an expired day cannot meet a kept event (that event's day would be the later last);
  -- should it all the same, the kept event wins.
  INSERT INTO analytics_lasts AS l (subject, kind, last_day)
    SELECT subject, kind, max(day) FROM analytics_rebuild_marks WHERE kind <> 0 GROUP BY subject, kind
    ON CONFLICT (subject, kind) DO UPDATE SET last_day = excluded.last_day, prev_day = NULL;
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
  FROM analytics_daily WHERE (only_users IS NULL OR user_id = ANY(only_users)) AND day >= days_from
  GROUP BY user_id, day;
  -- A week holding the first kept day sums its expired days' rows too (they were kept).
  INSERT INTO analytics_weekly (user_id, campaign_id, week, sent_last, opened_last, opened_human_last, clicked_last, replied_last, bounced_last, unsubscribed_last, failed_last)
  SELECT user_id, campaign_id, date_trunc('week', day)::date, sum(sent_last), sum(opened_last), sum(opened_human_last), sum(clicked_last), sum(replied_last), sum(bounced_last), sum(unsubscribed_last), sum(failed_last)
  FROM analytics_daily
  WHERE (only_users IS NULL OR user_id = ANY(only_users)) AND day >= date_trunc('week', days_from)::date
  GROUP BY user_id, campaign_id, date_trunc('week', day)::date
  HAVING sum(sent_last) <> 0 OR sum(opened_last) <> 0 OR sum(opened_human_last) <> 0 OR sum(clicked_last) <> 0 OR sum(replied_last) <> 0 OR sum(bounced_last) <> 0 OR sum(unsubscribed_last) <> 0 OR sum(failed_last) <> 0;
  DROP TABLE analytics_rebuild_marks;
END $$;--> statement-breakpoint
-- The 'sent' marks and lasts kept so far are no longer read.
DELETE FROM analytics_marks WHERE kind = 0;--> statement-breakpoint
DELETE FROM analytics_lasts WHERE kind = 0;
