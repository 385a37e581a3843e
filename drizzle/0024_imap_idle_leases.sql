CREATE TABLE "imap_idle_leases" (
	"sender_account_id" uuid PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "imap_idle_leases" ADD CONSTRAINT "imap_idle_leases_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imap_idle_leases_owner_idx" ON "imap_idle_leases" USING btree ("owner");