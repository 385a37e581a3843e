ALTER TABLE "campaigns" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_templates" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletters" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "campaigns_deleted_idx" ON "campaigns" USING btree ("deleted_at","id") WHERE "campaigns"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "email_templates_deleted_idx" ON "email_templates" USING btree ("deleted_at","id") WHERE "email_templates"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "newsletters_deleted_idx" ON "newsletters" USING btree ("deleted_at","id") WHERE "newsletters"."deleted_at" is not null;