CREATE TABLE "newsletter_archives" (
	"user_id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "in_archive" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "newsletter_archives" ADD CONSTRAINT "newsletter_archives_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "newsletter_archives_slug_key" ON "newsletter_archives" USING btree ("slug");