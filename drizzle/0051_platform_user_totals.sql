CREATE TABLE "platform_user_totals" (
	"user_id" text PRIMARY KEY NOT NULL,
	"events" bigint DEFAULT 0 NOT NULL,
	"first_sent_day" date
);
--> statement-breakpoint
-- Hand-written: the events already folded into the other roll-ups (up to the watermark) are counted once
-- here, so the new table starts level with them; the roll-up job adds the rest.
INSERT INTO "platform_user_totals" ("user_id", "events", "first_sent_day")
SELECT "user_id", count(*), min(("occurred_at" AT TIME ZONE 'UTC')::date) FILTER (WHERE "type" = 'sent')
FROM "email_events"
WHERE "id" <= coalesce((SELECT "last_event_id" FROM "platform_stats_progress" WHERE "name" = 'email_events'), 0)
GROUP BY "user_id";
