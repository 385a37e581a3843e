ALTER TABLE "campaigns" ADD COLUMN "bounce_pause_percent" double precision DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "complaint_pause_percent" double precision DEFAULT 0.3 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_reason" text;