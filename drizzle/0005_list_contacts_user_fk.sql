ALTER TABLE "list_contacts" DROP CONSTRAINT "list_contacts_user_id_user_id_fk";
