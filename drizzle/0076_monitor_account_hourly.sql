CREATE TABLE "platform_account_hourly" (
	"sender_account_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "platform_account_hourly_sender_account_id_hour_type_pk" PRIMARY KEY("sender_account_id","hour","type")
);
--> statement-breakpoint
CREATE INDEX "platform_account_hourly_hour_idx" ON "platform_account_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "outbox_messages_deferred_account_idx" ON "outbox_messages" USING btree ("sender_account_id") WHERE "outbox_messages"."state" = 'queued' and "outbox_messages"."attempts" > 0;--> statement-breakpoint
-- Hand-written: the roll-up has already folded the last week's events (its watermark is past them), so
-- the sender monitor's week would start empty and fill over seven days: they are counted here once, up
-- to the watermark (the fold counts the rest), with the fold's own filters.
INSERT INTO "platform_account_hourly" ("sender_account_id", "hour", "type", "count")
SELECT "sender_account_id", date_trunc('hour', "occurred_at", 'UTC'), "type", count(*)
FROM "email_events"
WHERE "sender_account_id" IS NOT NULL AND "campaign_id" IS NOT NULL
  AND "type" IN ('sent', 'bounced', 'complained', 'failed')
  AND "occurred_at" >= now() - interval '8 days'
  AND "id" <= coalesce((SELECT "last_event_id" FROM "platform_stats_progress" WHERE "name" = 'email_events'), 0)
GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;
