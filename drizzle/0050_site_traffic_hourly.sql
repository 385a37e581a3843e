CREATE TABLE "site_traffic_hourly" (
	"hour" timestamp with time zone NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"first_visitors" integer NOT NULL,
	"last_visitors" integer NOT NULL,
	CONSTRAINT "site_traffic_hourly_hour_dimension_key_pk" PRIMARY KEY("hour","dimension","key")
);
--> statement-breakpoint
CREATE INDEX "site_page_views_visitor_idx" ON "site_page_views" USING btree ("visitor_hash","occurred_at");--> statement-breakpoint
-- Hand-written: a finished day now counts as rolled up only with its hours in site_traffic_hourly; the
-- days rolled up before had none, so they are dropped and rolled up again from the raw page views (kept
-- 90 days; the screen shows 30) by the next hourly job or screen read.
DELETE FROM "site_traffic_daily";
