import { readFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';
import { E2E_TLS_SMTP_PORT } from './env';

/*
 * A company's own SMTP server for the browser suite: SSL/TLS with a self-signed certificate (the test
 * fixture), any login accepted, messages read and dropped.
 */
const fixture = (name: string) =>
  readFileSync(new URL(`../../fixtures/tls/${name}`, import.meta.url), 'utf8');

const server = new SMTPServer({
  secure: true,
  key: fixture('self-signed.key'),
  cert: fixture('self-signed.crt'),
  logger: false,
  onAuth(auth, _session, callback) {
    callback(null, { user: auth.username });
  },
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => callback());
  },
});
server.on('error', () => {});
server.listen(E2E_TLS_SMTP_PORT, '127.0.0.1');
