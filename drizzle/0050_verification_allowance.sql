ALTER TABLE "pricing_plans" ADD COLUMN "verification_limit" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The plans that exist get their default monthly "Verify list" allowance (addresses): Free 100,
-- Starter 5,000, Growth 25,000, Pro 100,000. An admin edits them afterwards.
UPDATE "pricing_plans" SET "verification_limit" = CASE "id"
  WHEN 'starter' THEN 5000 WHEN 'professional' THEN 25000 WHEN 'enterprise' THEN 100000 ELSE 100 END;
