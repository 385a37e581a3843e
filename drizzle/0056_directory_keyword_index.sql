DROP INDEX "directory_contacts_company_trgm_idx";--> statement-breakpoint
DROP INDEX "directory_contacts_contact_trgm_idx";--> statement-breakpoint
CREATE INDEX "directory_contacts_keyword_idx" ON "directory_contacts" USING gin ("country_code","category","city","verification_status","company_name" gin_trgm_ops,"contact_name" gin_trgm_ops);