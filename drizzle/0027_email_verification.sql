CREATE TABLE "email_verifications" (
	"email" text PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"status" text NOT NULL,
	"reason" text NOT NULL,
	"smtp_code" smallint,
	"mx_host" text,
	"checked_at" timestamp with time zone NOT NULL,
	"retry_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "list_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"list_id" uuid NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"checked" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "list_verifications" ADD CONSTRAINT "list_verifications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_verifications" ADD CONSTRAINT "list_verifications_list_id_contact_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_verifications_domain_idx" ON "email_verifications" USING btree ("domain");--> statement-breakpoint
CREATE INDEX "email_verifications_retry_idx" ON "email_verifications" USING btree ("retry_at") WHERE "email_verifications"."retry_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "list_verifications_user_list_idx" ON "list_verifications" USING btree ("user_id","list_id","created_at");