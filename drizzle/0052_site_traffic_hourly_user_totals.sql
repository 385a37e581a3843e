CREATE TABLE "platform_user_totals" (
	"user_id" text PRIMARY KEY NOT NULL,
	"events" bigint DEFAULT 0 NOT NULL,
	"first_sent_day" date
);
--> statement-breakpoint
CREATE TABLE "site_traffic_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"first_visitors" integer NOT NULL,
	"last_visitors" integer NOT NULL,
	CONSTRAINT "site_traffic_hourly_hour_dimension_key_pk" PRIMARY KEY("hour","dimension","key")
);
--> statement-breakpoint
CREATE INDEX "site_page_views_visitor_idx" ON "site_page_views" USING btree ("visitor_hash","occurred_at");--> statement-breakpoint
-- Hand-written: a finished day now counts as rolled up only with its hours in site_traffic_hourly; the
-- days rolled up before had none, so they are dropped and rolled up again from the raw page views (kept
-- 90 days; the screen shows 30) by the next hourly job or screen read.
DELETE FROM "site_traffic_daily";
--> statement-breakpoint
-- Hand-written: the events already folded into the other roll-ups (up to the watermark) are counted once
-- here, so the new table starts level with them; the roll-up job adds the rest.
INSERT INTO "platform_user_totals" ("user_id", "events", "first_sent_day")
SELECT "user_id", count(*), min(("occurred_at" AT TIME ZONE 'UTC')::date) FILTER (WHERE "type" = 'sent')
FROM "email_events"
WHERE "id" <= coalesce((SELECT "last_event_id" FROM "platform_stats_progress" WHERE "name" = 'email_events'), 0)
GROUP BY "user_id";
