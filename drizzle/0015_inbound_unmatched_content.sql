-- Mail that matched none of our messages keeps only its Message-ID (process-inbound.ts): what was
-- stored of it before (sender, subject, text) is removed.
UPDATE "inbound_messages" SET "from_address" = NULL, "subject" = NULL, "text_body" = NULL, "details" = '{}'::jsonb
WHERE "outbox_message_id" IS NULL;
