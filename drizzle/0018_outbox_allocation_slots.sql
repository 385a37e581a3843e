ALTER TABLE "outbox_messages" ADD COLUMN "slot_day" date;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "campaign_slot_day" date;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "pace_hour" timestamp with time zone;