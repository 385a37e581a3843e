import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRateServer {
  url: string;
  /** How many times the rate file was fetched. */
  hits(): number;
  /** What the next requests get: a JSON body, or an HTTP status with no usable body. */
  respondWith(body: unknown, status?: number): void;
  close(): Promise<void>;
}

/** Serves an NGN-keyed rate file shaped like the public currency-api one (`{ date, ngn: { usd, … } }`). */
export async function startFakeRateServer(initial: unknown): Promise<FakeRateServer> {
  let body = initial;
  let status = 200;
  let count = 0;
  const server = createServer((_req, res) => {
    count++;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/currencies/ngn.json`,
    hits: () => count,
    respondWith(next, nextStatus = 200) {
      body = next;
      status = nextStatus;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
