import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible provider on loopback: POST /v1/chat/completions, streamed as server-sent events
 * (`data: {choices:[{delta:{content}}]}` … `data: [DONE]`) or answered whole. It records every request so
 * tests can assert what the prompts asked for. Tests only: without a real provider the product says how to
 * connect one.
 */

export interface FakeAiRequest {
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    stream?: boolean;
    messages?: Array<{ role: string; content: unknown }>;
    [key: string]: unknown;
  };
  /** Every message's text joined, for simple `toContain` assertions. */
  prompt: string;
  system: string;
  user: string;
}

/** What the fake answers: text (split into chunks), an HTTP error, a stream that breaks, or silence. */
export type FakeAiBehaviour =
  | { kind: 'text'; text: string; chunkSize?: number }
  | { kind: 'error'; status: number; message?: string }
  | { kind: 'break-after'; text: string }
  | { kind: 'stall'; text?: string };

export interface FakeAiProvider {
  /** The base URL to put in AI_BASE_URL (ends with /v1). */
  baseUrl: string;
  requests: FakeAiRequest[];
  /** Answers every following request this way (default: a short English draft). */
  respondWith(behaviour: FakeAiBehaviour | ((request: FakeAiRequest) => FakeAiBehaviour)): void;
  /** Changes the key the fake accepts (undefined: any). */
  requireApiKey(key: string | undefined): void;
  /** Resolves once a client that was streaming closed its connection early. */
  closedEarly(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_FAKE_DRAFT =
  'Subject: A quick idea for {{ company | default: "your team" }}\n\n<p>Hello {{ firstName | default: "there" }},</p>\n<p>We help businesses in Lagos get paid faster.</p>\n<p>Would a 15-minute call next week work?</p>\n<p>{{ senderName }}</p>';

export async function startFakeAiProvider(
  options: { apiKey?: string; port?: number } = {},
): Promise<FakeAiProvider> {
  const requests: FakeAiRequest[] = [];
  let apiKey = options.apiKey;
  let behaviour: FakeAiBehaviour | ((request: FakeAiRequest) => FakeAiBehaviour) = {
    kind: 'text',
    text: DEFAULT_FAKE_DRAFT,
  };
  const sockets = new Set<ServerResponse>();
  let earlyClose: (() => void) | null = null;
  let earlyClosePromise = new Promise<void>((resolve) => {
    earlyClose = resolve;
  });

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }),
      );
      return;
    }
    const raw = await readBody(req);
    let body: FakeAiRequest['body'];
    try {
      body = JSON.parse(raw) as FakeAiRequest['body'];
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'invalid JSON' } }));
      return;
    }
    const messages = body.messages ?? [];
    const textOf = (role: string) =>
      messages
        .filter((m) => m.role === role)
        .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n');
    const request: FakeAiRequest = {
      headers: req.headers,
      body,
      system: textOf('system'),
      user: textOf('user'),
      prompt: messages
        .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n'),
    };
    requests.push(request);
    const answer = typeof behaviour === 'function' ? behaviour(request) : behaviour;

    if (answer.kind === 'error') {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: answer.message ?? 'upstream failure', type: 'server_error' } }),
      );
      return;
    }
    if (!body.stream) {
      const text =
        answer.kind === 'text' || answer.kind === 'break-after' ? answer.text : (answer.text ?? '');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
      return;
    }

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    sockets.add(res);
    res.on('close', () => {
      sockets.delete(res);
      if (!res.writableFinished) earlyClose?.();
    });
    const model = body.model ?? 'fake';
    const send = (delta: Record<string, unknown>, finish: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, delta, finish_reason: finish }],
        })}\n\n`,
      );

    send({ role: 'assistant', content: '' });
    if (answer.kind === 'stall') {
      if (answer.text) send({ content: answer.text });
      return; // never ends: the client's timeout or disconnect must end it
    }
    const text = answer.text;
    const size = answer.kind === 'text' ? (answer.chunkSize ?? 7) : 5;
    for (let i = 0; i < text.length; i += size) {
      if (res.destroyed) return;
      send({ content: text.slice(i, i + size) });
      // Let each chunk leave as its own write, as a real provider's tokens do.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (answer.kind === 'break-after') {
      res.socket?.destroy();
      return;
    }
    send({}, 'stop');
    res.write('data: [DONE]\n\n');
    res.end();
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    respondWith(next) {
      behaviour = next;
    },
    requireApiKey(key) {
      apiKey = key;
    },
    closedEarly() {
      const promise = earlyClosePromise;
      return promise.finally(() => {
        earlyClosePromise = new Promise<void>((resolve) => {
          earlyClose = resolve;
        });
      });
    },
    async close() {
      for (const res of sockets) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
