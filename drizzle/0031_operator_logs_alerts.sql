CREATE TABLE "alert_rules" (
	"key" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"threshold" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"last_value" double precision,
	"last_detail" text,
	"last_evaluated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule_key" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"value" double precision NOT NULL,
	"threshold" double precision NOT NULL,
	"message" text NOT NULL,
	"last_value" double precision NOT NULL,
	"last_evaluated_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text,
	"resolved_at" timestamp with time zone,
	"notified" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"level" smallint NOT NULL,
	"process" text NOT NULL,
	"msg" text DEFAULT '' NOT NULL,
	"request_id" text,
	"user_id" text,
	"method" text,
	"route" text,
	"status_code" integer,
	"job" text,
	"job_id" text,
	"data" jsonb
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_one_active_per_rule" ON "alerts" USING btree ("rule_key") WHERE "alerts"."state" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_opened_at_idx" ON "alerts" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "app_logs_time_idx" ON "app_logs" USING btree ("time","id");--> statement-breakpoint
CREATE INDEX "app_logs_level_time_idx" ON "app_logs" USING btree ("level","time");--> statement-breakpoint
CREATE INDEX "app_logs_request_idx" ON "app_logs" USING btree ("request_id","time") WHERE "app_logs"."request_id" is not null;--> statement-breakpoint
CREATE INDEX "app_logs_user_idx" ON "app_logs" USING btree ("user_id","time") WHERE "app_logs"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "app_logs_job_idx" ON "app_logs" USING btree ("job","time") WHERE "app_logs"."job" is not null;--> statement-breakpoint
CREATE INDEX "app_logs_msg_trgm_idx" ON "app_logs" USING gin ("msg" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "app_logs_route_trgm_idx" ON "app_logs" USING gin ("route" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "email_events_bad_outcome_idx" ON "email_events" USING btree ("occurred_at") WHERE "email_events"."type" in ('bounced', 'complained');