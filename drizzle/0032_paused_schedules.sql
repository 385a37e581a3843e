CREATE TABLE "paused_schedules" (
	"job_name" text PRIMARY KEY NOT NULL,
	"paused_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paused_by_id" text,
	"paused_by_email" text
);
