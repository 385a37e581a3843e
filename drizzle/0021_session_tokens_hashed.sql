-- Session tokens are stored hashed from now on (src/server/lib/hashed-session-tokens.ts): the tokens of
-- live sessions are hashed in place, the same way, so nobody is signed out.
UPDATE "session"
SET "token" = 'sha256:' || rtrim(translate(encode(sha256(convert_to("token", 'UTF8')), 'base64'), '+/', '-_'), '=')
WHERE "token" NOT LIKE 'sha256:%';
