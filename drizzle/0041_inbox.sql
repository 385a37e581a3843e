CREATE TABLE "inbox_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"inbound_message_id" uuid,
	"campaign_id" uuid,
	"campaign_contact_id" uuid,
	"outbox_message_id" uuid,
	"sender_account_id" uuid,
	"message_id" text NOT NULL,
	"in_reply_to" text,
	"thread_references" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "category" text;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "category_source" text;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "snoozed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD COLUMN "signature" text;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_inbound_message_id_inbound_messages_id_fk" FOREIGN KEY ("inbound_message_id") REFERENCES "public"."inbound_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_campaign_contact_id_campaign_contacts_id_fk" FOREIGN KEY ("campaign_contact_id") REFERENCES "public"."campaign_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_outbox_message_id_outbox_messages_id_fk" FOREIGN KEY ("outbox_message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_replies" ADD CONSTRAINT "inbox_replies_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_replies_message_id_key" ON "inbox_replies" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "inbox_replies_contact_idx" ON "inbox_replies" USING btree ("campaign_contact_id","sent_at");--> statement-breakpoint
CREATE INDEX "inbox_replies_user_idx" ON "inbox_replies" USING btree ("user_id","sent_at");--> statement-breakpoint
CREATE INDEX "inbound_messages_inbox_idx" ON "inbound_messages" USING btree ("user_id","received_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "inbound_messages"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_contact_idx" ON "inbound_messages" USING btree ("campaign_contact_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_messages_inbox_counts_idx" ON "inbound_messages" USING btree ("user_id","category","read_at","snoozed_until") WHERE "inbound_messages"."campaign_id" is not null;--> statement-breakpoint
-- Hand-written: mail already received gets the category its kind implies; a person's reply stays
-- uncategorised (the content rules run only on new mail). Keep when regenerating.
UPDATE "inbound_messages" SET "category" = CASE "kind"
  WHEN 'out_of_office' THEN 'out_of_office'
  WHEN 'unsubscribe_request' THEN 'unsubscribe_request'
  WHEN 'complaint' THEN 'unsubscribe_request'
  WHEN 'bounce_hard' THEN 'bounce'
  WHEN 'bounce_soft' THEN 'bounce'
  WHEN 'other' THEN 'auto_reply'
  ELSE NULL END, "category_source" = 'rule'
WHERE "campaign_id" IS NOT NULL AND "kind" <> 'reply';
