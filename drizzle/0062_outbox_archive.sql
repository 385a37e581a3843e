-- Hand-written (drizzle cannot declare partitions): outbox_archive is partitioned by month on updated_at,
-- a finished row's last change. LIKE gives it outbox_messages' columns in the database's own order (later
-- migrations appended columns), so a row moves as it is; schema/sending.ts declares the same columns.
CREATE TABLE "outbox_archive" (LIKE "outbox_messages" INCLUDING DEFAULTS) PARTITION BY RANGE ("updated_at");--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD CONSTRAINT "outbox_archive_id_updated_at_pk" PRIMARY KEY("id","updated_at");--> statement-breakpoint
ALTER TABLE "inbound_messages" DROP CONSTRAINT "inbound_messages_outbox_message_id_outbox_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "inbox_replies" DROP CONSTRAINT "inbox_replies_outbox_message_id_outbox_messages_id_fk";
--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD CONSTRAINT "outbox_archive_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD CONSTRAINT "outbox_archive_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD CONSTRAINT "outbox_archive_campaign_contact_id_campaign_contacts_id_fk" FOREIGN KEY ("campaign_contact_id") REFERENCES "public"."campaign_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD CONSTRAINT "outbox_archive_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_archive_token_idx" ON "outbox_archive" USING btree ("token");--> statement-breakpoint
CREATE INDEX "outbox_archive_message_id_idx" ON "outbox_archive" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "outbox_archive_campaign_idx" ON "outbox_archive" USING btree ("campaign_id","state");--> statement-breakpoint
CREATE INDEX "outbox_archive_contact_idx" ON "outbox_archive" USING btree ("campaign_contact_id");--> statement-breakpoint
CREATE INDEX "outbox_archive_account_sent_idx" ON "outbox_archive" USING btree ("sender_account_id","sent_at");--> statement-breakpoint
CREATE INDEX "outbox_archive_user_idx" ON "outbox_archive" USING btree ("user_id","created_at");--> statement-breakpoint
-- Hand-written below.
-- The month partition of `parent` holding `month` (any instant in it, UTC), `<parent>_pYYYY_MM`, made if
-- missing; true when made now. Rows of that month already in `<parent>_default` (the month was not made
-- ahead of them) move into it first: a range cannot be attached while the default partition holds rows
-- of it. They move beneath the statement triggers of the partitioned table, which fire only for
-- statements naming it, so nothing is recounted. Writers routed to the default partition wait meanwhile.
-- One function for every monthly-partitioned table (email_events, outbox_archive).
CREATE FUNCTION add_month_partition(parent text, key_column text, month timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  start_at timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  end_at timestamptz := (date_trunc('month', month AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
  part text := parent || '_p' || to_char(month AT TIME ZONE 'UTC', 'YYYY_MM');
  fallback text := parent || '_default';
BEGIN
  IF to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('LOCK TABLE %I IN EXCLUSIVE MODE', fallback);
  EXECUTE format('CREATE TABLE %I (LIKE %I)', part, parent);
  EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= $1 AND %I < $2 RETURNING *)
    INSERT INTO %I SELECT * FROM moved', fallback, key_column, key_column, part) USING start_at, end_at;
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, start_at, end_at);
  RETURN true;
END $$;--> statement-breakpoint
-- email_events' own (migration 0054) becomes the general one's first user.
CREATE OR REPLACE FUNCTION email_events_add_partition(month timestamptz) RETURNS boolean LANGUAGE sql AS $$
  SELECT add_month_partition('email_events', 'occurred_at', month)
$$;--> statement-breakpoint
-- Whatever no month partition takes lands here: a move never fails for want of a partition.
CREATE TABLE outbox_archive_default PARTITION OF outbox_archive DEFAULT;--> statement-breakpoint
-- A partition for every month the finished messages fall in (the first moves land in their months), the
-- current one and the next (the daily maintain-event-partitions job keeps months ahead).
SELECT add_month_partition('outbox_archive', 'updated_at', m) FROM (
  SELECT DISTINCT date_trunc('month', updated_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m
  FROM outbox_messages
  WHERE state NOT IN ('queued', 'sending')
    AND updated_at >= now() - interval '10 years' AND updated_at < now() + interval '2 months'
  UNION SELECT now() UNION SELECT now() + interval '1 month'
) months ORDER BY m;--> statement-breakpoint
-- Every message, live or archived. The columns are named (not *): a column added to outbox_messages later
-- must be added to outbox_archive (schema/sending.ts shares the columns, so drizzle-kit does) and here;
-- outbox-archive.test.ts fails until it is.
CREATE VIEW outbox_all AS
  SELECT id, token, user_id, campaign_id, campaign_contact_id, step_id, variant_key, to_email, to_name,
    subject, html, text, message_id, in_reply_to, thread_references, thread_sender_account_id, links,
    sender_account_id, state, phase, slot_day, campaign_slot_day, pace_hour, send_after, attempts,
    lease_owner, lease_until, last_error, smtp_response, sent_at, created_at, updated_at
  FROM outbox_messages
  UNION ALL
  SELECT id, token, user_id, campaign_id, campaign_contact_id, step_id, variant_key, to_email, to_name,
    subject, html, text, message_id, in_reply_to, thread_references, thread_sender_account_id, links,
    sender_account_id, state, phase, slot_day, campaign_slot_day, pace_hour, send_after, attempts,
    lease_owner, lease_until, last_error, smtp_response, sent_at, created_at, updated_at
  FROM outbox_archive;--> statement-breakpoint
-- The per-user message figures (migration 0059) count a message once, wherever it is: moving it to the
-- archive is no deletion (the move sets tambari.outbox_archiving for its transaction), deleting it from
-- the archive is (an account's deletion, an erasure), and a dropped archive month fires nothing (figures
-- are kept, messages expire).
DROP TRIGGER outbox_user_figures_delete ON outbox_messages;--> statement-breakpoint
CREATE TRIGGER outbox_user_figures_delete AFTER DELETE ON outbox_messages
  REFERENCING OLD TABLE AS outbox_user_figures_old
  FOR EACH STATEMENT WHEN (current_setting('tambari.outbox_archiving', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION outbox_user_figures_track();--> statement-breakpoint
CREATE TRIGGER outbox_user_figures_delete AFTER DELETE ON outbox_archive
  REFERENCING OLD TABLE AS outbox_user_figures_old
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_user_figures_track();--> statement-breakpoint
CREATE OR REPLACE FUNCTION outbox_user_figures_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE outbox_user_totals, outbox_user_daily IN ACCESS EXCLUSIVE MODE;
  TRUNCATE outbox_user_totals, outbox_user_daily;
  INSERT INTO outbox_user_totals (user_id, messages)
  SELECT user_id, count(*) FROM outbox_all GROUP BY 1;
  INSERT INTO outbox_user_daily (user_id, day, sent, last_sent_at)
  SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date, count(*), max(sent_at)
  FROM outbox_all WHERE sent_at IS NOT NULL GROUP BY 1, 2;
END $$;
--> statement-breakpoint
-- A newsletter's send figures (migration 0047) likewise: a message moved to the archive is still sent.
DROP TRIGGER newsletter_report_outbox_delete ON outbox_messages;--> statement-breakpoint
CREATE TRIGGER newsletter_report_outbox_delete AFTER DELETE ON outbox_messages
  REFERENCING OLD TABLE AS newsletter_report_outbox_old
  FOR EACH STATEMENT WHEN (current_setting('tambari.outbox_archiving', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION newsletter_report_outbox_track();
--> statement-breakpoint
-- Built from scratch, a send's figures count its messages wherever they are (those of a dropped archive
-- month are gone and cannot be recounted).
CREATE OR REPLACE FUNCTION newsletter_report_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE newsletter_report_counts, newsletter_report_seen IN ACCESS EXCLUSIVE MODE;
  TRUNCATE newsletter_report_counts, newsletter_report_seen;
  EXECUTE format(newsletter_report_fold_sql(), 'email_events');
  INSERT INTO newsletter_report_counts (campaign_id, metric, key, n)
  SELECT o.campaign_id, 'outbox', o.state, count(*)
  FROM outbox_all o
  WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = o.campaign_id)
  GROUP BY 1, 3;
  INSERT INTO newsletter_report_counts (campaign_id, metric, key, n)
  SELECT r.campaign_id, 'recipients', '', count(*)
  FROM campaign_contacts r
  WHERE EXISTS (SELECT 1 FROM newsletters n WHERE n.campaign_id = r.campaign_id)
  GROUP BY 1;
END $$;
