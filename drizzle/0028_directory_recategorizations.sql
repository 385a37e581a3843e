CREATE TABLE "directory_recategorization_items" (
	"recategorization_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"previous_category" text NOT NULL,
	CONSTRAINT "directory_recategorization_items_recategorization_id_contact_id_pk" PRIMARY KEY("recategorization_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "directory_recategorizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule" jsonb NOT NULL,
	"moved" integer DEFAULT 0 NOT NULL,
	"state" text DEFAULT 'applied' NOT NULL,
	"restored" integer,
	"created_by" text,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "directory_recategorization_items" ADD CONSTRAINT "directory_recategorization_items_recategorization_id_directory_recategorizations_id_fk" FOREIGN KEY ("recategorization_id") REFERENCES "public"."directory_recategorizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directory_recategorizations" ADD CONSTRAINT "directory_recategorizations_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;