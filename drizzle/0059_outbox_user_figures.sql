CREATE TABLE "outbox_user_daily" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "outbox_user_daily_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "outbox_user_totals" (
	"user_id" text PRIMARY KEY NOT NULL,
	"messages" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_user_daily_day_idx" ON "outbox_user_daily" USING btree ("day");--> statement-breakpoint
-- Hand-written below: the triggers that keep the two tables above, and their backfill.
-- Static SQL (plans cached per connection), one upsert per statement whatever its row count, keys taken in
-- order so two writers never wait on each other in a cycle. An UPDATE counts only the rows whose send time
-- (or owner) changed, so leasing and retries write nothing here; the dispatcher's "mark sent" pays one upsert
-- per user and day of the batch.
CREATE FUNCTION outbox_user_figures_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO outbox_user_totals AS t (user_id, messages)
    SELECT user_id, count(*) FROM outbox_user_figures_new GROUP BY 1 ORDER BY 1
    ON CONFLICT (user_id) DO UPDATE SET messages = t.messages + excluded.messages;
    INSERT INTO outbox_user_daily AS d (user_id, day, sent, last_sent_at)
    SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date, count(*), max(sent_at)
    FROM outbox_user_figures_new WHERE sent_at IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET sent = d.sent + excluded.sent,
      last_sent_at = greatest(d.last_sent_at, excluded.last_sent_at);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    PERFORM 1 FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
    WHERE o.sent_at IS DISTINCT FROM n.sent_at OR o.user_id <> n.user_id LIMIT 1;
    IF NOT FOUND THEN RETURN NULL; END IF;
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
    INSERT INTO outbox_user_daily AS d (user_id, day, sent, last_sent_at)
    SELECT user_id, day, sum(d), coalesce(max(at), '-infinity') FROM (
      SELECT n.user_id, (n.sent_at AT TIME ZONE 'UTC')::date AS day, 1 AS d, n.sent_at AS at
      FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
      WHERE (o.sent_at IS DISTINCT FROM n.sent_at OR o.user_id <> n.user_id) AND n.sent_at IS NOT NULL
      UNION ALL
      SELECT o.user_id, (o.sent_at AT TIME ZONE 'UTC')::date, -1, NULL
      FROM outbox_user_figures_old o JOIN outbox_user_figures_new n USING (id)
      WHERE (o.sent_at IS DISTINCT FROM n.sent_at OR o.user_id <> n.user_id) AND o.sent_at IS NOT NULL) r
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET sent = d.sent + excluded.sent,
      last_sent_at = greatest(d.last_sent_at, excluded.last_sent_at);
  ELSE
    INSERT INTO outbox_user_totals AS t (user_id, messages)
    SELECT user_id, -count(*) FROM outbox_user_figures_old GROUP BY 1 ORDER BY 1
    ON CONFLICT (user_id) DO UPDATE SET messages = t.messages + excluded.messages;
    DELETE FROM outbox_user_totals t
    WHERE t.messages <= 0 AND t.user_id IN (SELECT user_id FROM outbox_user_figures_old);
    INSERT INTO outbox_user_daily AS d (user_id, day, sent, last_sent_at)
    SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date, -count(*), '-infinity'
    FROM outbox_user_figures_old WHERE sent_at IS NOT NULL
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET sent = d.sent + excluded.sent;
  END IF;
  -- Days that lost messages (never so when the dispatcher marks a batch sent: that skips the rest): emptied
  -- ones go; those that lost their last send read it again from the outbox (the AFTER trigger sees the
  -- statement's changes), one pass over each such user's messages.
  PERFORM 1 FROM outbox_user_figures_old WHERE sent_at IS NOT NULL LIMIT 1;
  IF NOT FOUND THEN RETURN NULL; END IF;
  DELETE FROM outbox_user_daily d
  USING (SELECT DISTINCT user_id, (sent_at AT TIME ZONE 'UTC')::date AS day
         FROM outbox_user_figures_old WHERE sent_at IS NOT NULL) r
  WHERE d.user_id = r.user_id AND d.day = r.day AND d.sent <= 0;
  WITH stale AS (
    SELECT d.user_id, d.day
    FROM (SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date AS day, max(sent_at) AS at
          FROM outbox_user_figures_old WHERE sent_at IS NOT NULL GROUP BY 1, 2) r
    JOIN outbox_user_daily d ON d.user_id = r.user_id AND d.day = r.day
    WHERE r.at >= d.last_sent_at
  ), fresh AS (
    SELECT o.user_id, (o.sent_at AT TIME ZONE 'UTC')::date AS day, max(o.sent_at) AS at
    FROM outbox_messages o
    WHERE o.user_id IN (SELECT user_id FROM stale) AND o.sent_at IS NOT NULL
    GROUP BY 1, 2
  )
  UPDATE outbox_user_daily d SET last_sent_at = f.at
  FROM stale s JOIN fresh f USING (user_id, day)
  WHERE d.user_id = s.user_id AND d.day = s.day AND d.last_sent_at IS DISTINCT FROM f.at;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER outbox_user_figures_insert AFTER INSERT ON outbox_messages
  REFERENCING NEW TABLE AS outbox_user_figures_new
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_user_figures_track();--> statement-breakpoint
CREATE TRIGGER outbox_user_figures_update AFTER UPDATE ON outbox_messages
  REFERENCING OLD TABLE AS outbox_user_figures_old NEW TABLE AS outbox_user_figures_new
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_user_figures_track();--> statement-breakpoint
CREATE TRIGGER outbox_user_figures_delete AFTER DELETE ON outbox_messages
  REFERENCING OLD TABLE AS outbox_user_figures_old
  FOR EACH STATEMENT EXECUTE FUNCTION outbox_user_figures_track();--> statement-breakpoint
-- Builds the figures from scratch out of every message on record (here for the messages already there;
-- later to repair drift). The lock makes writers wait in their trigger until the new figures are
-- committed, so their changes land on top of a consistent base.
CREATE FUNCTION outbox_user_figures_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE outbox_user_totals, outbox_user_daily IN ACCESS EXCLUSIVE MODE;
  TRUNCATE outbox_user_totals, outbox_user_daily;
  INSERT INTO outbox_user_totals (user_id, messages)
  SELECT user_id, count(*) FROM outbox_messages GROUP BY 1;
  INSERT INTO outbox_user_daily (user_id, day, sent, last_sent_at)
  SELECT user_id, (sent_at AT TIME ZONE 'UTC')::date, count(*), max(sent_at)
  FROM outbox_messages WHERE sent_at IS NOT NULL GROUP BY 1, 2;
END $$;--> statement-breakpoint
SELECT outbox_user_figures_rebuild();
