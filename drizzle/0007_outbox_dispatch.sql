ALTER TABLE "outbox_messages" ALTER COLUMN "message_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "next_send_at" timestamp with time zone;