-- Time-ordered keys for the outbox and campaign recipients (bench/newsletter-million). Both took
-- gen_random_uuid(): every row version of a message adds an entry to the primary key (and the contact's
-- id to outbox_messages_contact_idx, the FK checks' lookups) on a random leaf page, so once those indexes
-- outgrow shared_buffers each write reads a page in, evicts another and, after a checkpoint, writes a
-- full-page image to the WAL. A newsletter's rows are queued, claimed and sent in the same order, so with
-- ids that start with the time their entries share a few neighbouring pages at any size.
-- uuid_v7(): RFC 9562 UUIDv7, 48 bits of Unix milliseconds then gen_random_uuid()'s randomness, the
-- version nibble set to 7 (bits 52 and 53 of the v4 value's 0100). Core functions only (PGlite too).
CREATE OR REPLACE FUNCTION uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
      PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
      FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;--> statement-breakpoint
ALTER TABLE "campaign_contacts" ALTER COLUMN "id" SET DEFAULT uuid_v7();--> statement-breakpoint
ALTER TABLE "outbox_messages" ALTER COLUMN "id" SET DEFAULT uuid_v7();
