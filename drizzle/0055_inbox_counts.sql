CREATE TABLE "inbox_counts" (
	"user_id" text NOT NULL,
	"category" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"unread" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "inbox_counts_user_id_category_pk" PRIMARY KEY("user_id","category")
);
--> statement-breakpoint
DROP INDEX "inbound_messages_inbox_counts_idx";--> statement-breakpoint
ALTER TABLE "inbox_counts" ADD CONSTRAINT "inbox_counts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_messages_snoozed_idx" ON "inbound_messages" USING btree ("user_id","snoozed_until") WHERE "inbound_messages"."campaign_id" is not null and "inbound_messages"."snoozed_until" is not null;--> statement-breakpoint
-- Hand-written: inbox_counts follows inbound_messages through statement-level triggers, so a bulk
-- INSERT … SELECT, an UPDATE of many rows or a cascade DELETE folds in once instead of row by row. Only
-- matched mail counts (campaign_id set: what the inbox lists). Inserts and updates upsert their deltas in
-- key order, so concurrent writers lock counter rows in the same order. Deletes only subtract from rows
-- that exist: a delete cascading from a deleted user must not recreate that user's counters.
CREATE FUNCTION inbox_counts_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source text;
  delta text;
BEGIN
  source := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS s, n.user_id, n.campaign_id, n.category, n.read_at FROM inbox_counts_new n'
    WHEN 'DELETE' THEN 'SELECT -1 AS s, o.user_id, o.campaign_id, o.category, o.read_at FROM inbox_counts_old o'
    ELSE 'SELECT 1 AS s, n.user_id, n.campaign_id, n.category, n.read_at FROM inbox_counts_new n
      UNION ALL SELECT -1 AS s, o.user_id, o.campaign_id, o.category, o.read_at FROM inbox_counts_old o'
  END;
  delta := format($q$
    SELECT r.user_id, coalesce(r.category, '') AS category, sum(r.s)::int AS total,
      coalesce(sum(r.s) FILTER (WHERE r.read_at IS NULL), 0)::int AS unread
    FROM (%s) r
    WHERE r.campaign_id IS NOT NULL
    GROUP BY 1, 2
    HAVING sum(r.s) <> 0 OR coalesce(sum(r.s) FILTER (WHERE r.read_at IS NULL), 0) <> 0
  $q$, source);
  IF TG_OP = 'DELETE' THEN
    EXECUTE format($q$
      UPDATE inbox_counts c SET total = c.total + d.total, unread = c.unread + d.unread
      FROM (%s) d WHERE c.user_id = d.user_id AND c.category = d.category
    $q$, delta);
  ELSE
    EXECUTE format($q$
      INSERT INTO inbox_counts AS c (user_id, category, total, unread)
      SELECT * FROM (%s) d ORDER BY 1, 2
      ON CONFLICT (user_id, category) DO UPDATE SET
        total = c.total + excluded.total,
        unread = c.unread + excluded.unread
    $q$, delta);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER inbox_counts_insert AFTER INSERT ON inbound_messages
  REFERENCING NEW TABLE AS inbox_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_counts_track();--> statement-breakpoint
CREATE TRIGGER inbox_counts_update AFTER UPDATE ON inbound_messages
  REFERENCING OLD TABLE AS inbox_counts_old NEW TABLE AS inbox_counts_new
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_counts_track();--> statement-breakpoint
CREATE TRIGGER inbox_counts_delete AFTER DELETE ON inbound_messages
  REFERENCING OLD TABLE AS inbox_counts_old
  FOR EACH STATEMENT EXECUTE FUNCTION inbox_counts_track();--> statement-breakpoint
-- The counts of the mail already there.
INSERT INTO inbox_counts (user_id, category, total, unread)
SELECT user_id, coalesce(category, ''), count(*), count(*) FILTER (WHERE read_at IS NULL)
FROM inbound_messages WHERE campaign_id IS NOT NULL
GROUP BY 1, 2;
