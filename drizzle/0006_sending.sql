CREATE TABLE "campaign_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"company" text,
	"country_code" text,
	"city" text,
	"time_zone" text,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"paused_until" timestamp with time zone,
	"status_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_sender_accounts" (
	"campaign_id" uuid NOT NULL,
	"sender_account_id" uuid NOT NULL,
	CONSTRAINT "campaign_sender_accounts_campaign_id_sender_account_id_pk" PRIMARY KEY("campaign_id","sender_account_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'campaign' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"window_start_minute" integer DEFAULT 480 NOT NULL,
	"window_end_minute" integer DEFAULT 1020 NOT NULL,
	"send_days" integer[] DEFAULT '{1,2,3,4,5}'::integer[] NOT NULL,
	"timezone_mode" text DEFAULT 'recipient' NOT NULL,
	"time_zone" text DEFAULT 'Africa/Lagos' NOT NULL,
	"gap_min_seconds" integer DEFAULT 60 NOT NULL,
	"gap_max_seconds" integer DEFAULT 180 NOT NULL,
	"daily_cap" integer,
	"domain_pace_per_hour" integer,
	"track_opens" boolean DEFAULT true NOT NULL,
	"track_clicks" boolean DEFAULT true NOT NULL,
	"tracking_domain" text,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_gap_check" CHECK ("campaigns"."gap_min_seconds" >= 0 and "campaigns"."gap_max_seconds" >= "campaigns"."gap_min_seconds"),
	CONSTRAINT "campaigns_window_check" CHECK ("campaigns"."window_start_minute" between 0 and 1440 and "campaigns"."window_end_minute" between 0 and 1440)
);
--> statement-breakpoint
CREATE TABLE "domain_pace_counters" (
	"user_id" text NOT NULL,
	"domain" text NOT NULL,
	"hour_start" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "domain_pace_counters_user_id_domain_hour_start_pk" PRIMARY KEY("user_id","domain","hour_start")
);
--> statement-breakpoint
CREATE TABLE "email_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"campaign_id" uuid,
	"step_id" uuid,
	"campaign_contact_id" uuid,
	"outbox_message_id" uuid,
	"sender_account_id" uuid,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" text,
	"machine" boolean DEFAULT false NOT NULL,
	"machine_reason" text,
	"user_agent" text,
	"metadata" jsonb
);
--> statement-breakpoint
CREATE TABLE "inbound_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"sender_account_id" uuid,
	"outbox_message_id" uuid,
	"campaign_id" uuid,
	"campaign_contact_id" uuid,
	"kind" text NOT NULL,
	"message_id_header" text,
	"from_address" text,
	"subject" text,
	"text_body" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"user_id" text NOT NULL,
	"campaign_id" uuid NOT NULL,
	"campaign_contact_id" uuid NOT NULL,
	"step_id" uuid,
	"variant_key" text,
	"to_email" text NOT NULL,
	"to_name" text,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text,
	"message_id" text NOT NULL,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sender_account_id" uuid,
	"state" text DEFAULT 'queued' NOT NULL,
	"phase" text,
	"send_after" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"smtp_response" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sender_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"label" text NOT NULL,
	"from_name" text NOT NULL,
	"from_email" text NOT NULL,
	"reply_to" text,
	"postal_address" text NOT NULL,
	"smtp_host" text NOT NULL,
	"smtp_port" integer NOT NULL,
	"smtp_security" text NOT NULL,
	"smtp_user" text NOT NULL,
	"smtp_password_enc" text NOT NULL,
	"imap_enabled" boolean DEFAULT false NOT NULL,
	"imap_host" text,
	"imap_port" integer,
	"imap_security" text,
	"imap_user" text,
	"imap_password_enc" text,
	"key_version" integer DEFAULT 1 NOT NULL,
	"daily_cap" integer DEFAULT 50 NOT NULL,
	"warmup_enabled" boolean DEFAULT false NOT NULL,
	"warmup_start" integer DEFAULT 10 NOT NULL,
	"warmup_increment" integer DEFAULT 5 NOT NULL,
	"warmup_started_on" date,
	"time_zone" text DEFAULT 'Africa/Lagos' NOT NULL,
	"dkim_selector" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_reason" text,
	"status_changed_at" timestamp with time zone,
	"auth_failures" integer DEFAULT 0 NOT NULL,
	"sends_today" integer DEFAULT 0 NOT NULL,
	"sends_day" date,
	"last_used_at" timestamp with time zone,
	"cooldown_until" timestamp with time zone,
	"imap_uid_validity" bigint,
	"imap_last_uid" bigint,
	"imap_checked_at" timestamp with time zone,
	"imap_error" text,
	"domain_check" jsonb,
	"domain_checked_at" timestamp with time zone,
	"is_dev_mailbox" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sender_accounts_daily_cap_check" CHECK ("sender_accounts"."daily_cap" between 1 and 300),
	CONSTRAINT "sender_accounts_sends_today_check" CHECK ("sender_accounts"."sends_today" between 0 and 300)
);
--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD CONSTRAINT "campaign_contacts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD CONSTRAINT "campaign_contacts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_sender_accounts" ADD CONSTRAINT "campaign_sender_accounts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_sender_accounts" ADD CONSTRAINT "campaign_sender_accounts_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_pace_counters" ADD CONSTRAINT "domain_pace_counters_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_campaign_contact_id_campaign_contacts_id_fk" FOREIGN KEY ("campaign_contact_id") REFERENCES "public"."campaign_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_outbox_message_id_outbox_messages_id_fk" FOREIGN KEY ("outbox_message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_outbox_message_id_outbox_messages_id_fk" FOREIGN KEY ("outbox_message_id") REFERENCES "public"."outbox_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_campaign_contact_id_campaign_contacts_id_fk" FOREIGN KEY ("campaign_contact_id") REFERENCES "public"."campaign_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_campaign_contact_id_campaign_contacts_id_fk" FOREIGN KEY ("campaign_contact_id") REFERENCES "public"."campaign_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD CONSTRAINT "outbox_messages_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sender_accounts" ADD CONSTRAINT "sender_accounts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_contacts_campaign_email_key" ON "campaign_contacts" USING btree ("campaign_id",lower("email"));--> statement-breakpoint
CREATE INDEX "campaign_contacts_user_email_idx" ON "campaign_contacts" USING btree ("user_id",lower("email"));--> statement-breakpoint
CREATE INDEX "campaign_sender_accounts_account_idx" ON "campaign_sender_accounts" USING btree ("sender_account_id");--> statement-breakpoint
CREATE INDEX "campaigns_user_idx" ON "campaigns" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "email_events_campaign_idx" ON "email_events" USING btree ("campaign_id","type","occurred_at");--> statement-breakpoint
CREATE INDEX "email_events_user_idx" ON "email_events" USING btree ("user_id","occurred_at");--> statement-breakpoint
CREATE INDEX "email_events_message_idx" ON "email_events" USING btree ("outbox_message_id");--> statement-breakpoint
CREATE INDEX "inbound_messages_user_idx" ON "inbound_messages" USING btree ("user_id","received_at");--> statement-breakpoint
CREATE INDEX "inbound_messages_campaign_idx" ON "inbound_messages" USING btree ("campaign_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_account_msgid_key" ON "inbound_messages" USING btree ("sender_account_id","message_id_header") WHERE "inbound_messages"."message_id_header" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_token_key" ON "outbox_messages" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_messages_message_id_key" ON "outbox_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "outbox_messages_due_idx" ON "outbox_messages" USING btree ("send_after") WHERE "outbox_messages"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "outbox_messages_lease_idx" ON "outbox_messages" USING btree ("lease_until") WHERE "outbox_messages"."state" = 'sending';--> statement-breakpoint
CREATE INDEX "outbox_messages_campaign_idx" ON "outbox_messages" USING btree ("campaign_id","state");--> statement-breakpoint
CREATE INDEX "outbox_messages_contact_idx" ON "outbox_messages" USING btree ("campaign_contact_id");--> statement-breakpoint
CREATE INDEX "outbox_messages_account_sent_idx" ON "outbox_messages" USING btree ("sender_account_id","sent_at") WHERE "outbox_messages"."sent_at" is not null;--> statement-breakpoint
CREATE INDEX "outbox_messages_user_idx" ON "outbox_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sender_accounts_user_idx" ON "sender_accounts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sender_accounts_user_from_key" ON "sender_accounts" USING btree ("user_id",lower("from_email"));