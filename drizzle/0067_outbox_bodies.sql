CREATE TABLE "outbox_bodies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"campaign_id" uuid NOT NULL,
	"digest" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"links" jsonb NOT NULL,
	"stand_in" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox_archive" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_archive" ALTER COLUMN "links" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ALTER COLUMN "html" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ALTER COLUMN "links" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD COLUMN "body_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "body_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox_bodies" ADD CONSTRAINT "outbox_bodies_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_bodies" ADD CONSTRAINT "outbox_bodies_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_bodies_campaign_digest_key" ON "outbox_bodies" USING btree ("campaign_id","digest");--> statement-breakpoint
CREATE INDEX "outbox_bodies_user_idx" ON "outbox_bodies" USING btree ("user_id");--> statement-breakpoint
-- Hand-written below.
-- Shared bodies are written once and read by the dispatcher once per body per worker: lz4 where the
-- server has it (as the outbox's own bodies, migration 0063), pglz otherwise (PGlite).
DO $$
BEGIN
  ALTER TABLE "outbox_bodies" ALTER COLUMN "html" SET COMPRESSION lz4,
    ALTER COLUMN "text" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;--> statement-breakpoint
-- Every message, live or archived, with its bodies resolved: a message queued from a shared body shows
-- that body's HTML with the body's stand-in replaced by the message's own token (the same bytes as the
-- row held when each row had its own copy), and the body's text part and links. Readers that select
-- none of the three skip the join (it is a left join on a unique key, which the planner drops).
CREATE OR REPLACE VIEW outbox_all AS
  SELECT o.id, o.token, o.user_id, o.campaign_id, o.campaign_contact_id, o.step_id, o.variant_key,
    o.to_email, o.to_name, o.subject,
    CASE WHEN o.body_id IS NULL THEN o.html ELSE replace(b.html, b.stand_in, o.token) END AS html,
    CASE WHEN o.body_id IS NULL THEN o.text ELSE b.text END AS text,
    o.message_id, o.in_reply_to, o.thread_references, o.thread_sender_account_id,
    CASE WHEN o.body_id IS NULL THEN o.links ELSE b.links END AS links,
    o.sender_account_id, o.state, o.phase, o.slot_day, o.campaign_slot_day, o.pace_hour, o.send_after,
    o.attempts, o.lease_owner, o.lease_until, o.last_error, o.smtp_response, o.sent_at, o.created_at,
    o.updated_at, o.body_id
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
    o.updated_at, o.body_id
  FROM outbox_archive o LEFT JOIN outbox_bodies b ON b.id = o.body_id;
