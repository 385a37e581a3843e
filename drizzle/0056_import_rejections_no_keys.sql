ALTER TABLE "import_rejections" DROP CONSTRAINT "import_rejections_user_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "import_rejections" DROP CONSTRAINT "import_rejections_import_id_imports_id_fk";
--> statement-breakpoint
-- Hand-written: import_rejections keeps no foreign key (see the note in schema/imports.ts). A deleted
-- import's report goes with it here, in the deleting transaction, whoever deletes it (the user's account,
-- through imports' own key).
CREATE FUNCTION imports_delete_rejections() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM import_rejections r USING imports_old o WHERE r.user_id = o.user_id AND r.import_id = o.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER imports_delete_rejections AFTER DELETE ON imports
  REFERENCING OLD TABLE AS imports_old
  FOR EACH STATEMENT EXECUTE FUNCTION imports_delete_rejections();
