CREATE TABLE "campaign_test_run_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"position" integer NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"threaded" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"send_after" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"message_id" text,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_test_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"campaign_id" uuid NOT NULL,
	"sender_account_id" uuid,
	"to_email" text NOT NULL,
	"contact_email" text NOT NULL,
	"sample" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_test_run_messages" ADD CONSTRAINT "campaign_test_run_messages_run_id_campaign_test_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."campaign_test_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_test_run_messages" ADD CONSTRAINT "campaign_test_run_messages_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_test_runs" ADD CONSTRAINT "campaign_test_runs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_test_runs" ADD CONSTRAINT "campaign_test_runs_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_test_runs" ADD CONSTRAINT "campaign_test_runs_sender_account_id_sender_accounts_id_fk" FOREIGN KEY ("sender_account_id") REFERENCES "public"."sender_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_test_run_messages_run_position_key" ON "campaign_test_run_messages" USING btree ("run_id","position");--> statement-breakpoint
CREATE INDEX "campaign_test_runs_user_idx" ON "campaign_test_runs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "campaign_test_runs_campaign_idx" ON "campaign_test_runs" USING btree ("campaign_id","created_at");