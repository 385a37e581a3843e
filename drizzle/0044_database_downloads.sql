CREATE TABLE "database_downloads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"row_count" integer NOT NULL,
	"list_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pricing_plans" ADD COLUMN "download_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "database_downloads" ADD CONSTRAINT "database_downloads_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "database_downloads_user_created_idx" ON "database_downloads" USING btree ("user_id","created_at");--> statement-breakpoint
-- The plans that exist get their default monthly download allowance (rows): Free none, Starter 2,000,
-- Growth 10,000, Pro unlimited. An admin edits them afterwards.
UPDATE "pricing_plans" SET "download_limit" = CASE "id"
  WHEN 'starter' THEN 2000 WHEN 'professional' THEN 10000 WHEN 'enterprise' THEN -1 ELSE 0 END;
