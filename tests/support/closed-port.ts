import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 where nothing listens: one the system handed us (port 0) and we closed again. A
 * test never assumes a well-known port (143, 25…) is free: a developer's machine may run a mail server.
 */
export async function closedLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
