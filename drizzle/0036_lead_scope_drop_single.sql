ALTER TABLE "lead_scopes" DROP COLUMN "country_code";--> statement-breakpoint
ALTER TABLE "lead_scopes" DROP COLUMN "category";