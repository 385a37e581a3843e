-- Reset tokens are stored hashed from now on (src/server/lib/auth.ts). Links issued before this change were
-- stored as plain text; they are deleted rather than hashed in place, and their holders ask for a new one.
DELETE FROM "verification" WHERE "identifier" LIKE 'reset-password:%';
