CREATE TABLE "suppression_tombstones" (
	"owner_email_hash" text NOT NULL,
	"email_hash" text NOT NULL,
	"email_hint" text NOT NULL,
	"reason" text NOT NULL,
	"source" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "suppression_tombstones_owner_email_hash_email_hash_pk" PRIMARY KEY("owner_email_hash","email_hash")
);
--> statement-breakpoint
-- Hand-written: before an account row goes (and its suppressions with it, by cascade), the suppressions
-- the recipients and their servers asked for (unsubscribed, complained, bounced; not the owner's own
-- manual entries) are kept as tombstones under a hash of the account's email: the address's hash, why and
-- when, nothing else (not even the masked hint: sign-up does not prove the email is the new owner's). BEFORE ROW, so it runs ahead of the cascade and on
-- every path that deletes a user (the account page, an admin, a script).
CREATE FUNCTION user_keep_suppression_tombstones() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO suppression_tombstones (owner_email_hash, email_hash, email_hint, reason, source, created_at)
  SELECT encode(sha256(convert_to(lower(OLD.email), 'UTF8')), 'hex'), s.email_hash, '(address hidden)',
    s.reason, NULL, s.created_at
  FROM suppressions s
  WHERE s.user_id = OLD.id AND s.reason IN ('unsubscribed', 'bounced', 'complained')
  ON CONFLICT DO NOTHING;
  RETURN OLD;
END $$;--> statement-breakpoint
CREATE TRIGGER user_keep_suppression_tombstones BEFORE DELETE ON "user"
  FOR EACH ROW EXECUTE FUNCTION user_keep_suppression_tombstones();
