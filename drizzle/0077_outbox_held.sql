-- Queued messages of a paused campaign are held off the dispatcher's due index (schema/sending.ts, held).
DROP INDEX "outbox_messages_due_idx";--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_held_idx" ON "outbox_messages" USING btree ("campaign_id") WHERE "outbox_messages"."held" AND "outbox_messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "outbox_messages_due_idx" ON "outbox_messages" USING btree ("send_after") WHERE "outbox_messages"."state" = 'queued' AND NOT "outbox_messages"."held";--> statement-breakpoint
-- Hand-written: the messages of campaigns paused before this migration are held now, as a pause does.
UPDATE "outbox_messages" SET "held" = true
WHERE "state" = 'queued' AND "campaign_id" IN (SELECT "id" FROM "campaigns" WHERE "status" = 'paused');--> statement-breakpoint
-- Hand-written: the view over both tables shows the new column (added at its end, as OR REPLACE requires).
CREATE OR REPLACE VIEW outbox_all AS
  SELECT o.id, o.token, o.user_id, o.campaign_id, o.campaign_contact_id, o.step_id, o.variant_key,
    o.to_email, o.to_name, o.subject,
    CASE WHEN o.body_id IS NULL THEN o.html ELSE replace(b.html, b.stand_in, o.token) END AS html,
    CASE WHEN o.body_id IS NULL THEN o.text ELSE b.text END AS text,
    o.message_id, o.in_reply_to, o.thread_references, o.thread_sender_account_id,
    CASE WHEN o.body_id IS NULL THEN o.links ELSE b.links END AS links,
    o.sender_account_id, o.state, o.phase, o.slot_day, o.campaign_slot_day, o.pace_hour, o.send_after,
    o.attempts, o.lease_owner, o.lease_until, o.last_error, o.smtp_response, o.sent_at, o.created_at,
    o.updated_at, o.body_id, o.held
  FROM outbox_messages o LEFT JOIN outbox_bodies b ON b.id = o.body_id
  UNION ALL
  SELECT o.id, o.token, o.user_id, o.campaign_id, o.campaign_contact_id, o.step_id, o.variant_key,
    o.to_email, o.to_name, o.subject,
    CASE WHEN o.body_id IS NULL THEN o.html ELSE replace(b.html, b.stand_in, o.token) END AS html,
    CASE WHEN o.body_id IS NULL THEN o.text ELSE b.text END AS text,
    o.message_id, o.in_reply_to, o.thread_references, o.thread_sender_account_id,
    CASE WHEN o.body_id IS NULL THEN o.links ELSE b.links END AS links,
    o.sender_account_id, o.state, o.phase, o.slot_day, o.campaign_slot_day, o.pace_hour, o.send_after,
    o.attempts, o.lease_owner, o.lease_until, o.last_error, o.smtp_response, o.sent_at, o.created_at,
    o.updated_at, o.body_id, o.held
  FROM outbox_archive o LEFT JOIN outbox_bodies b ON b.id = o.body_id;
