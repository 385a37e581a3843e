CREATE TABLE "ai_generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"action" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_step_variants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"step_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"key" text NOT NULL,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"split_percent" integer DEFAULT 100 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_step_variants_split_check" CHECK ("campaign_step_variants"."split_percent" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "campaign_steps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"position" integer NOT NULL,
	"delay_days" integer DEFAULT 0 NOT NULL,
	"delay_hours" integer DEFAULT 0 NOT NULL,
	"business_days" boolean DEFAULT false NOT NULL,
	"condition" text DEFAULT 'always' NOT NULL,
	"winner_metric" text,
	"winner_after_sends" integer,
	"winner_variant_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"slug" text,
	"kind" text DEFAULT 'email' NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"subject" text NOT NULL,
	"body_html" text NOT NULL,
	"blocks" jsonb,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text DEFAULT 'newsletter' NOT NULL,
	"name" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"preheader" text DEFAULT '' NOT NULL,
	"blocks" jsonb,
	"html" text DEFAULT '' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"list_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"sender_account_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"scheduled_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"campaign_id" uuid,
	"web_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "current_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "next_step_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "list_contact_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "directory_contact_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "won_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "deal_value" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "campaign_contacts" ADD COLUMN "deal_currency" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "audience" jsonb DEFAULT '{"listIds":[],"leadFilters":[]}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ai_generations" ADD CONSTRAINT "ai_generations_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_step_variants" ADD CONSTRAINT "campaign_step_variants_step_id_campaign_steps_id_fk" FOREIGN KEY ("step_id") REFERENCES "public"."campaign_steps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_step_variants" ADD CONSTRAINT "campaign_step_variants_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_steps" ADD CONSTRAINT "campaign_steps_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_steps" ADD CONSTRAINT "campaign_steps_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_templates" ADD CONSTRAINT "email_templates_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "newsletters" ADD CONSTRAINT "newsletters_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_generations_user_idx" ON "ai_generations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_step_variants_step_key" ON "campaign_step_variants" USING btree ("step_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_steps_campaign_position_key" ON "campaign_steps" USING btree ("campaign_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_slug_key" ON "email_templates" USING btree ("slug") WHERE "email_templates"."slug" is not null;--> statement-breakpoint
CREATE INDEX "email_templates_user_idx" ON "email_templates" USING btree ("user_id","category");--> statement-breakpoint
CREATE INDEX "email_templates_category_idx" ON "email_templates" USING btree ("category") WHERE "email_templates"."user_id" is null;--> statement-breakpoint
CREATE INDEX "newsletters_user_idx" ON "newsletters" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "newsletters_web_token_key" ON "newsletters" USING btree ("web_token");--> statement-breakpoint
CREATE INDEX "newsletters_scheduled_idx" ON "newsletters" USING btree ("scheduled_at") WHERE "newsletters"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "campaign_contacts_next_step_idx" ON "campaign_contacts" USING btree ("next_step_at") WHERE "campaign_contacts"."status" = 'active' and "campaign_contacts"."next_step_at" is not null;