ALTER TABLE "list_contacts" DROP CONSTRAINT "list_contacts_list_id_contact_lists_id_fk";
--> statement-breakpoint
-- Hand-written: list_contacts keeps no foreign key (see the note in schema/contacts.ts). The members of a
-- deleted list go with it here, in the deleting transaction, whoever deletes the list: the recycle bin's
-- purge, a cancelled import's new list, or the user's account through contact_lists' own key.
CREATE FUNCTION contact_lists_delete_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_contacts WHERE list_id IN (SELECT id FROM contact_lists_old);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER contact_lists_delete_members AFTER DELETE ON contact_lists
  REFERENCING OLD TABLE AS contact_lists_old
  FOR EACH STATEMENT EXECUTE FUNCTION contact_lists_delete_members();
