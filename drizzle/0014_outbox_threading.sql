ALTER TABLE "outbox_messages" ADD COLUMN "in_reply_to" text;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "thread_references" jsonb;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "thread_sender_account_id" uuid;