CREATE TABLE "event_retention" (
	"name" text PRIMARY KEY NOT NULL,
	"expired_before" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Hand-written: email_events becomes a table partitioned by month on occurred_at, so retention drops a
-- month's partition instead of deleting rows (features/analytics/event-partitions.service.ts). Drizzle
-- cannot declare partitions: schema/sending.ts keeps the logical table (its primary key (id, occurred_at),
-- as a partitioned table's keys must hold the partition key; drizzle-kit's generated key change, which
-- could not name the old key, is replaced by the conversion below). The id keeps its one sequence across
-- partitions, so it stays unique and ordered (the operator's roll-up watermark reads by id).
-- The month partition holding `month` (any instant in it, UTC), made if missing; true when made now.
-- Events of that month already in the default partition (the month was not made ahead of them) move into
-- it first: a range cannot be attached while the default partition holds rows of it. They move beneath
-- the roll-up triggers, which are on the partitioned table and fire only for statements naming it — the
-- events still exist, so nothing is recounted. Writers routed to the default partition wait meanwhile.
CREATE FUNCTION email_events_add_partition(month timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  start_at timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  end_at timestamptz := (date_trunc('month', month AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := 'email_events_p' || to_char(month AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
  IF to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  LOCK TABLE email_events_default IN EXCLUSIVE MODE;
  EXECUTE format('CREATE TABLE %I (LIKE email_events)', part);
  EXECUTE format('WITH moved AS (DELETE FROM email_events_default WHERE occurred_at >= $1 AND occurred_at < $2 RETURNING *)
    INSERT INTO %I SELECT * FROM moved', part) USING start_at, end_at;
  EXECUTE format('ALTER TABLE email_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, start_at, end_at);
  RETURN true;
END $$;--> statement-breakpoint
-- The conversion: the old table steps aside (its indexes, key and triggers dropped to free their names)…
ALTER TABLE email_events RENAME TO email_events_unpartitioned;--> statement-breakpoint
DROP TRIGGER analytics_track_insert ON email_events_unpartitioned;--> statement-breakpoint
DROP TRIGGER analytics_track_delete ON email_events_unpartitioned;--> statement-breakpoint
DROP TRIGGER analytics_track_update ON email_events_unpartitioned;--> statement-breakpoint
DROP TRIGGER newsletter_report_insert ON email_events_unpartitioned;--> statement-breakpoint
DROP INDEX email_events_campaign_idx, email_events_user_idx, email_events_message_idx, email_events_bad_outcome_idx;--> statement-breakpoint
ALTER TABLE email_events_unpartitioned DROP CONSTRAINT email_events_pkey;--> statement-breakpoint
-- …the partitioned table takes its name and its id sequence…
CREATE TABLE email_events (
  "id" bigint DEFAULT nextval('email_events_id_seq'::regclass) NOT NULL,
  "user_id" text NOT NULL,
  "campaign_id" uuid,
  "step_id" uuid,
  "campaign_contact_id" uuid,
  "outbox_message_id" uuid,
  "sender_account_id" uuid,
  "type" text NOT NULL,
  "occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
  "detail" text,
  "machine" boolean DEFAULT false NOT NULL,
  "machine_reason" text,
  "user_agent" text,
  "metadata" jsonb
) PARTITION BY RANGE (occurred_at);--> statement-breakpoint
ALTER SEQUENCE email_events_id_seq OWNED BY email_events.id;--> statement-breakpoint
-- Whatever no month partition takes (a clock far off, a month not made ahead) lands here: an insert
-- never fails for want of a partition.
CREATE TABLE email_events_default PARTITION OF email_events DEFAULT;--> statement-breakpoint
-- …with a partition for every month the events fall in (within reason; the rest go to the default
-- partition), the current one and the next (the daily maintain-event-partitions job keeps months ahead)…
SELECT email_events_add_partition(m) FROM (
  SELECT DISTINCT date_trunc('month', occurred_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m
  FROM email_events_unpartitioned
  WHERE occurred_at >= now() - interval '10 years' AND occurred_at < now() + interval '2 months'
  UNION SELECT now() UNION SELECT now() + interval '1 month'
) months ORDER BY m;--> statement-breakpoint
-- …the rows copied (no trigger yet: the roll-ups and newsletter counters already count them)…
INSERT INTO email_events (id, user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
  sender_account_id, type, occurred_at, detail, machine, machine_reason, user_agent, metadata)
SELECT id, user_id, campaign_id, step_id, campaign_contact_id, outbox_message_id,
  sender_account_id, type, occurred_at, detail, machine, machine_reason, user_agent, metadata
FROM email_events_unpartitioned ORDER BY id;--> statement-breakpoint
DROP TABLE email_events_unpartitioned;--> statement-breakpoint
-- …then the key and indexes, built once over the copied rows (each partition gets its own)…
ALTER TABLE email_events ADD CONSTRAINT "email_events_id_occurred_at_pk" PRIMARY KEY ("id", "occurred_at");--> statement-breakpoint
CREATE INDEX "email_events_campaign_idx" ON "email_events" USING btree ("campaign_id","type","occurred_at");--> statement-breakpoint
CREATE INDEX "email_events_user_idx" ON "email_events" USING btree ("user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "email_events_message_idx" ON "email_events" USING btree ("outbox_message_id");--> statement-breakpoint
CREATE INDEX "email_events_bad_outcome_idx" ON "email_events" USING btree ("occurred_at") WHERE "email_events"."type" in ('bounced', 'complained');--> statement-breakpoint
-- …and the statement-level triggers of migrations 0047 and 0049, unchanged. PostgreSQL allows transition
-- tables on a partitioned table's statement-level triggers (not on a partition's): they hold the rows of
-- every partition a statement touched, in the partitioned table's row type. They fire for statements on
-- email_events itself, never for DETACH/DROP of a partition or a statement naming a partition: expiring
-- old events leaves the roll-ups and a newsletter's report as they were (roll-ups are kept, events expire).
CREATE TRIGGER newsletter_report_insert AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS newsletter_report_new
  FOR EACH STATEMENT EXECUTE FUNCTION newsletter_report_track();--> statement-breakpoint
CREATE TRIGGER analytics_track_insert AFTER INSERT ON email_events
  REFERENCING NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_track_insert();--> statement-breakpoint
CREATE TRIGGER analytics_track_delete AFTER DELETE ON email_events
  REFERENCING OLD TABLE AS old_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_track_change();--> statement-breakpoint
CREATE TRIGGER analytics_track_update AFTER UPDATE ON email_events
  REFERENCING OLD TABLE AS old_events NEW TABLE AS new_events
  FOR EACH STATEMENT EXECUTE FUNCTION analytics_track_update();--> statement-breakpoint
-- The rebuild (`npm run analytics:rebuild`, and a user's recount when their events are deleted) counts the
-- events still kept: days before event_retention's expired_before keep the roll-up rows they have — the
-- only record of expired events — and are neither cleared nor recounted, nor are the marks of those days
-- or the lasts of subjects last seen then. An account that is gone loses its rows of every day (its
-- events went with it). With nothing expired this is migration 0049's rebuild, unchanged.
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
  INSERT INTO analytics_marks (subject, kind, day) SELECT subject, kind, day FROM analytics_rebuild_marks;
  -- A kept last of an expired day cannot meet a kept event (that event's day would be the later last);
  -- should it all the same, the kept event wins.
  INSERT INTO analytics_lasts AS l (subject, kind, last_day)
    SELECT subject, kind, max(day) FROM analytics_rebuild_marks GROUP BY subject, kind
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
ANALYZE email_events;
