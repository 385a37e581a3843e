-- list_contacts.id is a bigint identity; the column only ever held nulls before this (uuid could not store it).
ALTER TABLE "campaign_contacts" ALTER COLUMN "list_contact_id" SET DATA TYPE bigint USING NULL::bigint;
