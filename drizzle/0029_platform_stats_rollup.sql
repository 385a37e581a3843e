CREATE TABLE "platform_hourly_events" (
	"hour" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"machine" boolean NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "platform_hourly_events_hour_type_machine_pk" PRIMARY KEY("hour","type","machine")
);
--> statement-breakpoint
CREATE TABLE "platform_send_latency" (
	"hour" timestamp with time zone NOT NULL,
	"bucket" integer NOT NULL,
	"count" bigint NOT NULL,
	CONSTRAINT "platform_send_latency_hour_bucket_pk" PRIMARY KEY("hour","bucket")
);
--> statement-breakpoint
CREATE TABLE "platform_stats_progress" (
	"name" text PRIMARY KEY NOT NULL,
	"last_event_id" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_user_daily" (
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	"sent" bigint DEFAULT 0 NOT NULL,
	"replied" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "platform_user_daily_day_user_id_pk" PRIMARY KEY("day","user_id")
);
