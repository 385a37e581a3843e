CREATE TABLE "data_entry_assignments" (
	"user_id" text PRIMARY KEY NOT NULL,
	"country_code" text,
	"category" text,
	"queue" text DEFAULT 'new_records' NOT NULL,
	"strict" boolean DEFAULT false NOT NULL,
	"daily_quota" integer,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_entry_assignments_quota_check" CHECK ("data_entry_assignments"."daily_quota" IS NULL OR "data_entry_assignments"."daily_quota" BETWEEN 1 AND 10000)
);
--> statement-breakpoint
CREATE TABLE "data_entry_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"directory_contact_id" uuid NOT NULL,
	"officer_id" text NOT NULL,
	"reviewer_id" text,
	"outcome" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_lists" ADD COLUMN "frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD COLUMN "frozen_by" text;--> statement-breakpoint
ALTER TABLE "contact_lists" ADD COLUMN "frozen_reason" text;--> statement-breakpoint
ALTER TABLE "data_entry_assignments" ADD CONSTRAINT "data_entry_assignments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_entry_reviews" ADD CONSTRAINT "data_entry_reviews_directory_contact_id_directory_contacts_id_fk" FOREIGN KEY ("directory_contact_id") REFERENCES "public"."directory_contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_entry_reviews_contact_key" ON "data_entry_reviews" USING btree ("directory_contact_id");--> statement-breakpoint
CREATE INDEX "data_entry_reviews_officer_idx" ON "data_entry_reviews" USING btree ("officer_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_lists_size_idx" ON "contact_lists" USING btree ("contact_count","id") WHERE "contact_lists"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_email_c_idx" ON "directory_contacts" USING btree (lower("email") COLLATE "C");--> statement-breakpoint
CREATE INDEX "list_contacts_email_c_idx" ON "list_contacts" USING btree ("email_normalized" COLLATE "C");--> statement-breakpoint
CREATE INDEX "suppressions_hash_idx" ON "suppressions" USING btree ("email_hash");--> statement-breakpoint
CREATE INDEX "campaign_contacts_email_idx" ON "campaign_contacts" USING btree (lower("email"));