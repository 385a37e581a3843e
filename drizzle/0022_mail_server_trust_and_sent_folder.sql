CREATE TABLE "sent_folder_copies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sender_account_id" uuid NOT NULL,
	"raw" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "smtp_tls_cert" text;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "imap_tls_cert" text;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "sent_folder_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "sent_folder_error" text;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "sent_folder_appended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sent_folder_copies" ADD CONSTRAINT "sent_folder_copies_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sent_folder_copies_account_idx" ON "sent_folder_copies" USING btree ("sender_account_id","id");