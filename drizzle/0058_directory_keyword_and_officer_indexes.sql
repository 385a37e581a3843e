DROP INDEX "directory_contacts_company_trgm_idx";--> statement-breakpoint
DROP INDEX "directory_contacts_contact_trgm_idx";--> statement-breakpoint
DROP INDEX "directory_contacts_created_by_idx";--> statement-breakpoint
DROP INDEX "directory_contacts_verified_by_idx";--> statement-breakpoint
CREATE INDEX "directory_contacts_keyword_idx" ON "directory_contacts" USING gin ("country_code","category","city","verification_status","company_name" gin_trgm_ops,"contact_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "directory_contacts_created_by_idx" ON "directory_contacts" USING btree ("created_by","created_at") WHERE "directory_contacts"."created_by" is not null;--> statement-breakpoint
CREATE INDEX "directory_contacts_verified_by_idx" ON "directory_contacts" USING btree ("verified_by","verified_at") WHERE "directory_contacts"."verified_by" is not null;