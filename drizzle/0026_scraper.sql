CREATE TABLE "scrape_hosts" (
	"host" text PRIMARY KEY NOT NULL,
	"robots_txt" text,
	"robots_state" text,
	"robots_fetched_at" timestamp with time zone,
	"next_fetch_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scrape_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"seeds" text[] NOT NULL,
	"max_depth" smallint NOT NULL,
	"max_pages" integer NOT NULL,
	"delay_seconds" smallint NOT NULL,
	"same_site_only" boolean DEFAULT true NOT NULL,
	"default_country_code" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"pages_fetched" integer DEFAULT 0 NOT NULL,
	"pages_skipped" integer DEFAULT 0 NOT NULL,
	"records_found" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scrape_pages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"url" text NOT NULL,
	"depth" smallint NOT NULL,
	"is_sitemap" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"http_status" smallint,
	"records_found" integer DEFAULT 0 NOT NULL,
	"fetched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "scrape_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"source_url" text NOT NULL,
	"crawled_at" timestamp with time zone NOT NULL,
	"company_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"website" text,
	"address" text,
	"city" text,
	"country_code" text,
	"category" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"duplicate_of_id" uuid,
	"directory_contact_id" uuid,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "directory_contacts" ADD COLUMN "source_crawled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scrape_jobs" ADD CONSTRAINT "scrape_jobs_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrape_pages" ADD CONSTRAINT "scrape_pages_job_id_scrape_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."scrape_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrape_results" ADD CONSTRAINT "scrape_results_job_id_scrape_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."scrape_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrape_results" ADD CONSTRAINT "scrape_results_duplicate_of_id_directory_contacts_id_fk" FOREIGN KEY ("duplicate_of_id") REFERENCES "public"."directory_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrape_results" ADD CONSTRAINT "scrape_results_directory_contact_id_directory_contacts_id_fk" FOREIGN KEY ("directory_contact_id") REFERENCES "public"."directory_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scrape_results" ADD CONSTRAINT "scrape_results_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scrape_jobs_created_idx" ON "scrape_jobs" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scrape_pages_job_url_key" ON "scrape_pages" USING btree ("job_id","url");--> statement-breakpoint
CREATE INDEX "scrape_pages_frontier_idx" ON "scrape_pages" USING btree ("job_id","id") WHERE "scrape_pages"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "scrape_results_email_key" ON "scrape_results" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "scrape_results_queue_idx" ON "scrape_results" USING btree ("status","crawled_at","id");--> statement-breakpoint
CREATE INDEX "scrape_results_job_idx" ON "scrape_results" USING btree ("job_id","status");