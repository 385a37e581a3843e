-- Hand-ordered (drizzle-kit put the key before the index it needs). A message's owner is its campaign's
-- owner: one key on (campaign_id, user_id) replaces the keys to campaigns and to the user, so an insert
-- pays one key check instead of two and a user's deletion reaches the outbox through their campaigns
-- (campaign_idx). The (user_id, created_at) index, which no query of the live outbox used, goes: every
-- row version of every message (insert, claim, delivering, sent) added an entry to it.
CREATE UNIQUE INDEX "campaigns_id_user_key" ON "campaigns" USING btree ("id","user_id");--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_campaign_user_fk" FOREIGN KEY ("campaign_id","user_id") REFERENCES "public"."campaigns"("id","user_id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "outbox_messages" VALIDATE CONSTRAINT "outbox_messages_campaign_user_fk";--> statement-breakpoint
ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_user_id_user_id_fk";--> statement-breakpoint
ALTER TABLE "outbox_messages" DROP CONSTRAINT "outbox_messages_campaign_id_campaigns_id_fk";--> statement-breakpoint
DROP INDEX "outbox_messages_user_idx";--> statement-breakpoint
-- The campaign's recipients likewise: one key to (campaign_id, user_id) instead of two.
ALTER TABLE "campaign_contacts" ADD CONSTRAINT "campaign_contacts_campaign_user_fk" FOREIGN KEY ("campaign_id","user_id") REFERENCES "public"."campaigns"("id","user_id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "campaign_contacts" VALIDATE CONSTRAINT "campaign_contacts_campaign_user_fk";--> statement-breakpoint
ALTER TABLE "campaign_contacts" DROP CONSTRAINT "campaign_contacts_campaign_id_campaigns_id_fk";--> statement-breakpoint
ALTER TABLE "campaign_contacts" DROP CONSTRAINT "campaign_contacts_user_id_user_id_fk";--> statement-breakpoint
-- Migration 0065's function but for one line: a day that lost its last send reads the user's remaining
-- sends through their campaigns (campaign_idx), now that the live outbox has no index on user_id.
CREATE OR REPLACE FUNCTION outbox_user_figures_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mine integer := pg_backend_pid();
  takes boolean := false;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO outbox_user_totals AS t (user_id, messages)
    SELECT user_id, count(*) FROM outbox_user_figures_new GROUP BY 1 ORDER BY 1
    ON CONFLICT (user_id) DO UPDATE SET messages = t.messages + excluded.messages;
    INSERT INTO outbox_user_daily AS d (user_id, day, slot, sent, last_sent_at)
    SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date, mine, count(*), max(sent_at)
    FROM outbox_user_figures_new WHERE sent_at IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day, slot) DO UPDATE SET sent = d.sent + excluded.sent,
      last_sent_at = greatest(d.last_sent_at, excluded.last_sent_at);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM 1 FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
    WHERE o.sent_at IS DISTINCT FROM n.sent_at OR o.user_id <> n.user_id LIMIT 1;
    IF NOT FOUND THEN RETURN NULL; END IF;
  END IF;
  PERFORM 1 FROM outbox_user_figures_old WHERE sent_at IS NOT NULL LIMIT 1;
  takes := FOUND;
  IF takes THEN mine := 0; END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM 1 FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
    WHERE o.user_id <> n.user_id LIMIT 1;
    IF FOUND THEN
      INSERT INTO outbox_user_totals AS t (user_id, messages)
      SELECT user_id, sum(d) FROM (
        SELECT n.user_id, 1 AS d FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
        WHERE o.user_id <> n.user_id
        UNION ALL
        SELECT o.user_id, -1 FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
        WHERE o.user_id <> n.user_id) r
      GROUP BY 1 ORDER BY 1
      ON CONFLICT (user_id) DO UPDATE SET messages = t.messages + excluded.messages;
      DELETE FROM outbox_user_totals t
      WHERE t.messages <= 0 AND t.user_id IN (SELECT user_id FROM outbox_user_figures_old);
    END IF;
    INSERT INTO outbox_user_daily AS d (user_id, day, slot, sent, last_sent_at)
    SELECT user_id, day, mine, sum(d), coalesce(max(at), '-infinity') FROM (
      SELECT n.user_id, (n.sent_at AT TIME ZONE 'UTC')::date AS day, 1 AS d, n.sent_at AS at
      FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
      WHERE (o.sent_at IS DISTINCT FROM n.sent_at OR o.user_id <> n.user_id) AND n.sent_at IS NOT NULL
      UNION ALL
      SELECT o.user_id, (o.sent_at AT TIME ZONE 'UTC')::date, -1, NULL
      FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
      WHERE (o.sent_at IS DISTINCT FROM n.sent_at OR o.user_id <> n.user_id) AND o.sent_at IS NOT NULL) r
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day, slot) DO UPDATE SET sent = d.sent + excluded.sent,
      last_sent_at = greatest(d.last_sent_at, excluded.last_sent_at);
  ELSE
    INSERT INTO outbox_user_totals AS t (user_id, messages)
    SELECT user_id, -count(*) FROM outbox_user_figures_old GROUP BY 1 ORDER BY 1
    ON CONFLICT (user_id) DO UPDATE SET messages = t.messages + excluded.messages;
    DELETE FROM outbox_user_totals t
    WHERE t.messages <= 0 AND t.user_id IN (SELECT user_id FROM outbox_user_figures_old);
    INSERT INTO outbox_user_daily AS d (user_id, day, slot, sent, last_sent_at)
    SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date, mine, -count(*), '-infinity'
    FROM outbox_user_figures_old WHERE sent_at IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day, slot) DO UPDATE SET sent = d.sent + excluded.sent;
  END IF;
  -- Days that lost messages (never so when the dispatcher marks a batch sent: that skips the rest): their
  -- slots are locked in order and folded into slot 0; emptied days go; those that lost their last send
  -- read it again from the outbox (the AFTER trigger sees the statement's changes), one pass over each
  -- such user's messages. A slot a writer adds after the lock is its own sends: it stays as it is.
  IF NOT takes THEN RETURN NULL; END IF;
  PERFORM 1 FROM outbox_user_daily d
  WHERE (d.user_id, d.day) IN (SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date
                               FROM outbox_user_figures_old WHERE sent_at IS NOT NULL)
  ORDER BY d.user_id, d.day, d.slot FOR UPDATE;
  WITH moved AS (
    DELETE FROM outbox_user_daily d
    WHERE d.slot <> 0 AND (d.user_id, d.day) IN (SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date
                                                 FROM outbox_user_figures_old WHERE sent_at IS NOT NULL)
    RETURNING d.user_id, d.day, d.sent, d.last_sent_at
  )
  INSERT INTO outbox_user_daily AS d (user_id, day, slot, sent, last_sent_at)
  SELECT user_id, day, 0, sum(sent), max(last_sent_at) FROM moved GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (user_id, day, slot) DO UPDATE SET sent = d.sent + excluded.sent,
    last_sent_at = greatest(d.last_sent_at, excluded.last_sent_at);
  DELETE FROM outbox_user_daily d
  USING (SELECT DISTINCT user_id, (sent_at AT TIME ZONE 'UTC')::date AS day
         FROM outbox_user_figures_old WHERE sent_at IS NOT NULL) r
  WHERE d.user_id = r.user_id AND d.day = r.day AND d.slot = 0 AND d.sent <= 0;
  WITH stale AS (
    SELECT d.user_id, d.day
    FROM (SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date AS day, max(sent_at) AS at
          FROM outbox_user_figures_old WHERE sent_at IS NOT NULL GROUP BY 1, 2) r
    JOIN outbox_user_daily d ON d.user_id = r.user_id AND d.day = r.day AND d.slot = 0
    WHERE r.at >= d.last_sent_at
  ), fresh AS (
    SELECT o.user_id, (o.sent_at AT TIME ZONE 'UTC')::date AS day, max(o.sent_at) AS at
    FROM outbox_messages o
    WHERE o.campaign_id IN (SELECT c.id FROM campaigns c WHERE c.user_id IN (SELECT user_id FROM stale))
      AND o.user_id IN (SELECT user_id FROM stale) AND o.sent_at IS NOT NULL
    GROUP BY 1, 2
  )
  UPDATE outbox_user_daily d SET last_sent_at = f.at
  FROM stale s JOIN fresh f USING (user_id, day)
  WHERE d.user_id = s.user_id AND d.day = s.day AND d.slot = 0 AND d.last_sent_at IS DISTINCT FROM f.at;
  RETURN NULL;
END $$;
