-- Hand-written. A queued message's bodies (html, text) are compressed once when queued and read back
-- (decompressed) when claimed. With pglz, compressing a newsletter's ~7.5 KB body and its ~1.4 KB text
-- part was the largest single cost of queueing in PostgreSQL (bench/newsletter-million: pglz_compress
-- alone ~5% of the database's CPU); lz4 does the same work several times faster, both ways.
-- lz4 compresses less than pglz, and the toaster stops as soon as the row fits its target (2 KB by
-- default): the html went out of line and the text part then stayed uncompressed in the row, ~1.6 KB
-- that every later update of the message (claim, allocation, sent) copies again. A 1 KB target makes it
-- compress the text part too, so the row that is updated stays as small as with pglz (~0.8 KB). Rows
-- under 1 KB are not touched either way.
-- A server built without lz4 (PGlite) keeps pglz: the bytes stored are the same text either way, and
-- values already written keep the method they were written with (each value records its own).
ALTER TABLE "outbox_messages" SET (toast_tuple_target = 1024);--> statement-breakpoint
DO $$
BEGIN
  ALTER TABLE "outbox_messages" ALTER COLUMN "html" SET COMPRESSION lz4,
    ALTER COLUMN "text" SET COMPRESSION lz4;
  ALTER TABLE "outbox_archive" ALTER COLUMN "html" SET COMPRESSION lz4,
    ALTER COLUMN "text" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
