-- Queued messages of a paused campaign are held off the dispatcher's due index (schema/sending.ts, held).
DROP INDEX "outbox_messages_due_idx";--> statement-breakpoint
ALTER TABLE "outbox_archive" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "outbox_messages_held_idx" ON "outbox_messages" USING btree ("campaign_id") WHERE "outbox_messages"."held" AND "outbox_messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "outbox_messages_due_idx" ON "outbox_messages" USING btree ("send_after") WHERE "outbox_messages"."state" = 'queued' AND NOT "outbox_messages"."held";