CREATE TABLE "signup_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"form_id" uuid,
	"user_id" text NOT NULL,
	"list_id" uuid NOT NULL,
	"email" text NOT NULL,
	"email_normalized" text NOT NULL,
	"first_name" text,
	"ip_hash" text NOT NULL,
	"consent_text" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signup_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"list_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"consent_text" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signup_consents" ADD CONSTRAINT "signup_consents_form_id_signup_forms_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."signup_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_consents" ADD CONSTRAINT "signup_consents_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_forms" ADD CONSTRAINT "signup_forms_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signup_forms" ADD CONSTRAINT "signup_forms_list_id_contact_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "signup_consents_form_email_idx" ON "signup_consents" USING btree ("form_id","email_normalized","requested_at");--> statement-breakpoint
CREATE INDEX "signup_consents_ip_idx" ON "signup_consents" USING btree ("ip_hash","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signup_forms_list_key" ON "signup_forms" USING btree ("list_id");--> statement-breakpoint
CREATE INDEX "signup_forms_user_idx" ON "signup_forms" USING btree ("user_id");