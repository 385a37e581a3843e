CREATE TABLE "site_page_views" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"path" text NOT NULL,
	"referrer_host" text,
	"country" text,
	"visitor_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_traffic_daily" (
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "site_traffic_daily_day_dimension_key_pk" PRIMARY KEY("day","dimension","key")
);
--> statement-breakpoint
CREATE TABLE "site_traffic_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "site_page_views_occurred_idx" ON "site_page_views" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "directory_contacts_deleted_idx" ON "directory_contacts" USING btree ("deleted_at","id") WHERE "directory_contacts"."deleted_at" is not null;