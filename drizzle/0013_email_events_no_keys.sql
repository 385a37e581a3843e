CREATE TABLE "deleted_accounts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_events" DROP CONSTRAINT "email_events_user_id_user_id_fk";
--> statement-breakpoint
-- Hand-written: email_events keeps no foreign key (see the note in schema/sending.ts). A deleted account's
-- events go with it, in the deleting transaction, and the account is remembered for two days so that the
-- hourly purge-deleted-account-events job deletes any event written for it afterwards.
CREATE FUNCTION user_delete_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO deleted_accounts (user_id) SELECT id FROM user_old ON CONFLICT (user_id) DO NOTHING;
  DELETE FROM email_events WHERE user_id IN (SELECT id FROM user_old);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER user_delete_events AFTER DELETE ON "user"
  REFERENCING OLD TABLE AS user_old
  FOR EACH STATEMENT EXECUTE FUNCTION user_delete_events();
