ALTER TABLE "directory_contacts" ADD COLUMN "source_url" text;--> statement-breakpoint
ALTER TABLE "directory_contacts" ADD COLUMN "synthetic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Rows the demo generator made before this column existed: every address on a reserved domain
-- (RFC 2606/6761: example.com/.net/.org, .test, .example, .invalid, .localhost) is sample data. Their
-- "verified" status had no evidence behind it (no officer, no probe), so it goes back to unverified.
UPDATE "directory_contacts" SET
  "synthetic" = true,
  "verification_status" = CASE WHEN "verification_status" = 'verified' THEN 'unverified' ELSE "verification_status" END,
  "verified_at" = CASE WHEN "verification_status" = 'verified' THEN NULL ELSE "verified_at" END,
  "verified_by" = CASE WHEN "verification_status" = 'verified' THEN NULL ELSE "verified_by" END
WHERE lower("email") ~ '@([^@]+\.)?example\.(com|net|org)$'
   OR lower("email") ~ '@[^@]+\.(test|example|invalid|localhost)$';--> statement-breakpoint
-- A "verified" with no date has no evidence behind it either.
UPDATE "directory_contacts" SET "verification_status" = 'unverified', "verified_by" = NULL
WHERE "verification_status" = 'verified' AND "verified_at" IS NULL;--> statement-breakpoint
CREATE INDEX "directory_contacts_verified_company_idx" ON "directory_contacts" USING btree ("company_name","id") WHERE "directory_contacts"."deleted_at" is null AND "directory_contacts"."verification_status" = 'verified';--> statement-breakpoint
CREATE INDEX "directory_contacts_verified_created_idx" ON "directory_contacts" USING btree ("created_at","id") WHERE "directory_contacts"."deleted_at" is null AND "directory_contacts"."verification_status" = 'verified';--> statement-breakpoint
CREATE INDEX "directory_contacts_synthetic_idx" ON "directory_contacts" USING btree ("country_code") WHERE "directory_contacts"."synthetic" AND "directory_contacts"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "directory_contacts" ADD CONSTRAINT "directory_contacts_synthetic_unverified_check" CHECK (NOT ("directory_contacts"."synthetic" AND "directory_contacts"."verification_status" = 'verified'));--> statement-breakpoint
ALTER TABLE "directory_contacts" ADD CONSTRAINT "directory_contacts_verified_dated_check" CHECK ("directory_contacts"."verification_status" <> 'verified' OR "directory_contacts"."verified_at" IS NOT NULL);