-- Hand-ordered (drizzle-kit put the key before the index it needs). A message's owner is its campaign's
-- owner: one key on (campaign_id, user_id) replaces the keys to campaigns and to the user, so an insert
-- pays one key check instead of two and a user's deletion reaches the outbox through their campaigns
-- (campaign_idx). The (user_id, created_at) index, which no query of the live outbox used, goes: every
-- row version of every message (insert, claim, delivering, sent) added an entry to it.
CREATE UNIQUE INDEX "campaigns_id_user_key" ON "campaigns" USING btree ("id","user_id");--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_campaign_user_fk" FOREIGN KEY ("campaign_id","user_id") REFERENCES "public"."campaigns"("id","user_id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "outbox_messages" VALIDATE CONSTRAINT "outbox_messages_campaign_user_fk";--> statement-breakpoint
ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_user_id_user_id_fk";--> statement-breakpoint
ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_campaign_id_campaigns_id_fk";--> statement-breakpoint
DROP INDEX "outbox_messages_user_idx";
