-- Trigram search on company and contact names (PGlite loads the extension in db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "contact_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"custom_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"contact_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "directory_contacts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_name" text NOT NULL,
	"contact_name" text,
	"job_title" text,
	"email" text NOT NULL,
	"phone" text,
	"website" text,
	"address" text,
	"city" text,
	"country_code" text NOT NULL,
	"category" text NOT NULL,
	"source" text NOT NULL,
	"verification_status" text DEFAULT 'unverified' NOT NULL,
	"verified_at" timestamp with time zone,
	"verified_by" text,
	"invalid_reason" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "directory_contacts_country_code_check" CHECK ("directory_contacts"."country_code" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "directory_facet_counts" (
	"country_code" text NOT NULL,
	"category" text NOT NULL,
	"city" text NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL,
	"verified" bigint DEFAULT 0 NOT NULL,
	"with_phone" bigint DEFAULT 0 NOT NULL,
	"with_website" bigint DEFAULT 0 NOT NULL,
	"verified_phone" bigint DEFAULT 0 NOT NULL,
	"verified_website" bigint DEFAULT 0 NOT NULL,
	"phone_website" bigint DEFAULT 0 NOT NULL,
	"verified_phone_website" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "directory_facet_counts_country_code_category_city_pk" PRIMARY KEY("country_code","category","city")
);
--> statement-breakpoint
CREATE TABLE "lead_scopes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"country_code" text NOT NULL,
	"category" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "list_contacts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "list_contacts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"list_id" uuid NOT NULL,
	"email" text NOT NULL,
	"email_normalized" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"company" text,
	"job_title" text,
	"phone" text,
	"website" text,
	"city" text,
	"country_code" text,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"role_address" boolean DEFAULT false NOT NULL,
	"source" text NOT NULL,
	"directory_contact_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "list_contacts_list_email_key" UNIQUE("list_id","email_normalized")
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"email_hash" text NOT NULL,
	"email_hint" text NOT NULL,
	"reason" text NOT NULL,
	"source" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suppressions_user_hash_key" UNIQUE NULLS NOT DISTINCT("user_id","email_hash")
);
--> statement-breakpoint
ALTER TABLE "contact_lists" ADD CONSTRAINT "contact_lists_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_scopes" ADD CONSTRAINT "lead_scopes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_contacts" ADD CONSTRAINT "list_contacts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_contacts" ADD CONSTRAINT "list_contacts_list_id_contact_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."contact_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_lists_user_name_key" ON "contact_lists" USING btree ("user_id",lower("name")) WHERE "contact_lists"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "contact_lists_user_idx" ON "contact_lists" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_lists_deleted_idx" ON "contact_lists" USING btree ("deleted_at") WHERE "contact_lists"."deleted_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "directory_contacts_email_key" ON "directory_contacts" USING btree (lower("email")) WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_geo_idx" ON "directory_contacts" USING btree ("country_code","category","city","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_country_category_company_idx" ON "directory_contacts" USING btree ("country_code","category","company_name","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_country_company_idx" ON "directory_contacts" USING btree ("country_code","company_name","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_category_company_idx" ON "directory_contacts" USING btree ("category","company_name","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_company_idx" ON "directory_contacts" USING btree ("company_name","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_created_idx" ON "directory_contacts" USING btree ("created_at","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_company_trgm_idx" ON "directory_contacts" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "directory_contacts_contact_trgm_idx" ON "directory_contacts" USING gin ("contact_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "directory_contacts_queue_idx" ON "directory_contacts" USING btree ("verification_status","created_at","id") WHERE "directory_contacts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "directory_contacts_created_by_idx" ON "directory_contacts" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "directory_contacts_verified_by_idx" ON "directory_contacts" USING btree ("verified_by","verified_at");--> statement-breakpoint
CREATE INDEX "directory_facet_counts_city_category_idx" ON "directory_facet_counts" USING btree ("city","category");--> statement-breakpoint
CREATE INDEX "list_contacts_user_list_idx" ON "list_contacts" USING btree ("user_id","list_id","id");--> statement-breakpoint
CREATE INDEX "suppressions_user_created_idx" ON "suppressions" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- Hand-written: directory_facet_counts follows directory_contacts through statement-level triggers, so a
-- bulk INSERT … SELECT, UPDATE or COPY folds its rows in once instead of row by row. A live row (not
-- deleted, not marked invalid: what lead discovery shows) counts in its (country, category, city) row and in the (country, category, '')
-- all-cities row. Keys are upserted in order so concurrent writers lock facet rows in the same order.
CREATE FUNCTION directory_facets_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source text;
BEGIN
  source := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT 1 AS s, n.* FROM directory_facets_new n'
    WHEN 'DELETE' THEN 'SELECT -1 AS s, o.* FROM directory_facets_old o'
    ELSE 'SELECT 1 AS s, n.* FROM directory_facets_new n UNION ALL SELECT -1 AS s, o.* FROM directory_facets_old o'
  END;
  EXECUTE format($q$
    INSERT INTO directory_facet_counts AS f (country_code, category, city, total, verified, with_phone,
      with_website, verified_phone, verified_website, phone_website, verified_phone_website)
    SELECT * FROM (
      SELECT d.country_code, d.category, c.city, sum(d.s) AS total,
        coalesce(sum(d.s) FILTER (WHERE d.v), 0) AS verified,
        coalesce(sum(d.s) FILTER (WHERE d.p), 0) AS with_phone,
        coalesce(sum(d.s) FILTER (WHERE d.w), 0) AS with_website,
        coalesce(sum(d.s) FILTER (WHERE d.v AND d.p), 0) AS verified_phone,
        coalesce(sum(d.s) FILTER (WHERE d.v AND d.w), 0) AS verified_website,
        coalesce(sum(d.s) FILTER (WHERE d.p AND d.w), 0) AS phone_website,
        coalesce(sum(d.s) FILTER (WHERE d.v AND d.p AND d.w), 0) AS verified_phone_website
      FROM (
        SELECT r.s, r.country_code, r.category, nullif(r.city, '') AS city,
          r.verification_status = 'verified' AS v,
          coalesce(r.phone, '') <> '' AS p,
          coalesce(r.website, '') <> '' AS w
        FROM (%s) r
        WHERE r.deleted_at IS NULL AND r.verification_status <> 'invalid'
      ) d
      CROSS JOIN LATERAL (VALUES (''), (d.city)) AS c(city)
      WHERE c.city IS NOT NULL
      GROUP BY 1, 2, 3
    ) delta
    WHERE total <> 0 OR verified <> 0 OR with_phone <> 0 OR with_website <> 0 OR verified_phone <> 0
      OR verified_website <> 0 OR phone_website <> 0 OR verified_phone_website <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (country_code, category, city) DO UPDATE SET
      total = f.total + excluded.total,
      verified = f.verified + excluded.verified,
      with_phone = f.with_phone + excluded.with_phone,
      with_website = f.with_website + excluded.with_website,
      verified_phone = f.verified_phone + excluded.verified_phone,
      verified_website = f.verified_website + excluded.verified_website,
      phone_website = f.phone_website + excluded.phone_website,
      verified_phone_website = f.verified_phone_website + excluded.verified_phone_website
  $q$, source);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER directory_facets_insert AFTER INSERT ON directory_contacts
  REFERENCING NEW TABLE AS directory_facets_new
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facets_track();--> statement-breakpoint
CREATE TRIGGER directory_facets_update AFTER UPDATE ON directory_contacts
  REFERENCING OLD TABLE AS directory_facets_old NEW TABLE AS directory_facets_new
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facets_track();--> statement-breakpoint
CREATE TRIGGER directory_facets_delete AFTER DELETE ON directory_contacts
  REFERENCING OLD TABLE AS directory_facets_old
  FOR EACH STATEMENT EXECUTE FUNCTION directory_facets_track();--> statement-breakpoint
-- Recomputes the roll-up from scratch (after TRUNCATE, or to repair drift). The lock makes writers wait
-- in their trigger until the new totals are committed, so their deltas land on top of a consistent base.
CREATE FUNCTION directory_facets_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE directory_facet_counts IN EXCLUSIVE MODE;
  DELETE FROM directory_facet_counts;
  INSERT INTO directory_facet_counts (country_code, category, city, total, verified, with_phone,
    with_website, verified_phone, verified_website, phone_website, verified_phone_website)
  SELECT d.country_code, d.category, c.city, count(*),
    count(*) FILTER (WHERE d.v), count(*) FILTER (WHERE d.p), count(*) FILTER (WHERE d.w),
    count(*) FILTER (WHERE d.v AND d.p), count(*) FILTER (WHERE d.v AND d.w),
    count(*) FILTER (WHERE d.p AND d.w), count(*) FILTER (WHERE d.v AND d.p AND d.w)
  FROM (
    SELECT country_code, category, nullif(city, '') AS city, verification_status = 'verified' AS v,
      coalesce(phone, '') <> '' AS p, coalesce(website, '') <> '' AS w
    FROM directory_contacts WHERE deleted_at IS NULL AND verification_status <> 'invalid'
  ) d
  CROSS JOIN LATERAL (VALUES (''), (d.city)) AS c(city)
  WHERE c.city IS NOT NULL
  GROUP BY 1, 2, 3;
END $$;
--> statement-breakpoint
-- Hand-written: contact_lists.contact_count follows list_contacts whoever writes them (lead discovery,
-- the CSV importer, manual edits), once per statement. A contact never moves to another list.
CREATE FUNCTION list_contacts_track_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  source text;
BEGIN
  source := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT list_id, 1 AS s FROM list_contacts_new'
    WHEN 'DELETE' THEN 'SELECT list_id, -1 AS s FROM list_contacts_old'
  END;
  EXECUTE format($q$
    UPDATE contact_lists l SET contact_count = l.contact_count + d.n
    FROM (SELECT list_id, sum(s)::int AS n FROM (%s) r GROUP BY list_id HAVING sum(s) <> 0 ORDER BY list_id) d
    WHERE l.id = d.list_id
  $q$, source);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER list_contacts_count_insert AFTER INSERT ON list_contacts
  REFERENCING NEW TABLE AS list_contacts_new
  FOR EACH STATEMENT EXECUTE FUNCTION list_contacts_track_count();--> statement-breakpoint
CREATE TRIGGER list_contacts_count_delete AFTER DELETE ON list_contacts
  REFERENCING OLD TABLE AS list_contacts_old
  FOR EACH STATEMENT EXECUTE FUNCTION list_contacts_track_count();
