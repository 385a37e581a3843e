ALTER TABLE "lead_scopes" ADD COLUMN "country_codes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_scopes" ADD COLUMN "categories" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
UPDATE "lead_scopes" SET "country_codes" = ARRAY["country_code"], "categories" = ARRAY["category"];
