-- The alert rules add the bounces a receiving server gave during SMTP to the sends a bounce rate is taken
-- over (those messages have no 'sent' event). The hourly roll-up keeps them as type 'smtp_refused' from
-- now on; the last two days' events it has already folded are counted here once, so the rules' 24-hour
-- window is whole from the start. Through the partial index on bounces and complaints.
INSERT INTO "platform_hourly_events" ("hour", "type", "machine", "count")
SELECT date_trunc('hour', "occurred_at"), 'smtp_refused', "machine", count(*)
FROM "email_events"
WHERE "type" IN ('bounced', 'complained') AND "type" = 'bounced' AND "metadata"->>'during' = 'smtp'
  AND "occurred_at" >= now() - interval '2 days'
  AND "id" <= coalesce((SELECT "last_event_id" FROM "platform_stats_progress" WHERE "name" = 'email_events'), 0)
GROUP BY 1, 3
ON CONFLICT ("hour", "type", "machine") DO NOTHING;
