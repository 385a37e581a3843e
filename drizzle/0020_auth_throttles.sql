CREATE TABLE "password_reset_mail_log" (
	"email" text PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone[] NOT NULL,
	"last_requested_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"email" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"first_failed_at" timestamp with time zone NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "password_reset_mail_log_last_requested_at_idx" ON "password_reset_mail_log" USING btree ("last_requested_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_attempt_at_idx" ON "sign_in_failures" USING btree ("last_attempt_at");