import { randomUUID } from 'node:crypto';
import { type FakePaystack, startFakePaystack } from '@server/features/payments/dev-paystack';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, type TestUser } from '../factories/users';
import { type FakeAiProvider, startFakeAiProvider } from '../fakes/ai-provider';
import { createTestApp } from '../setup/test-app';

/*
 * Bad input never makes a 500. Every operation in the app's own OpenAPI document is called as a normal
 * user, as a super admin (admin and data-entry routes) and signed out (every public route in full; a route
 * that answers the signed-out baseline with 401 is not sent its mutations again); for every body field, query
 * parameter and path parameter it sends a NUL byte, a lone surrogate, a value of the wrong type and a huge
 * value, and for every body and query an unknown field. One request per field per kind: the point is the
 * class of input, not volume. Ids in paths point at real rows of the signed-in user, so mutated bodies
 * reach the services and the database rather than stopping at a 404.
 *
 * Nothing leaves the machine: AI and Paystack are the loopback fakes, test sends go through the user's
 * development-mailbox sender account, and SMTP hosts are under .test (the network guard refuses them).
 * One route is skipped: DELETE /api/admin/dev-mailbox empties the mailbox other test files on the same
 * PostgreSQL database read. Multipart uploads and the Paystack webhook (not JSON, not in the document)
 * are covered by raw-input.test.ts. FUZZ_DEBUG=1 prints each route's baseline answer and a tally.
 */

type Schema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

interface Operation {
  method: string;
  path: string;
  parameters: { in: 'query' | 'path' | 'header'; name: string; schema?: Schema; required?: boolean }[];
  body?: Schema;
}

type Who = 'user' | 'admin' | 'anonymous';

// Within BODY_LIMIT_BYTES (256 KiB), so it reaches validation and the database instead of a 413.
const HUGE_BODY_STRING = 'x'.repeat(200_000);
// Node refuses request heads over 16 KiB, so this is the largest query value a real client gets through.
const HUGE_QUERY_STRING = 'x'.repeat(12_000);
const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';

interface Seeded {
  listId: string;
  listContactId: number;
  campaignId: string;
  stepId: string;
  newsletterId: string;
  templateId: string;
  adminTemplateId: string;
  libraryTemplateId: string;
  senderId: string;
  importId: string;
  suppressionId: string;
  directoryId: string;
  victimId: string;
  orderId: string;
}

function pickSchema(schema: Schema | undefined): Schema | undefined {
  if (!schema) return undefined;
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return pickSchema(options.find((s) => s.type !== 'null') ?? options[0]);
  if (schema.allOf) return pickSchema(schema.allOf[0]);
  return schema;
}

function typeOf(schema: Schema | undefined): string | undefined {
  const s = pickSchema(schema);
  if (!s) return undefined;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  return undefined;
}

/** A plausible valid value, so that the other fields of a mutated body pass validation. */
function example(raw: Schema | undefined, name: string, ids: Seeded): unknown {
  const schema = pickSchema(raw);
  if (!schema) return 'fuzz';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'string':
      return exampleString(schema, name, ids);
    case 'integer':
    case 'number':
      if (/contactId/i.test(name)) return ids.listContactId;
      if (name === 'splitPercent') return 100;
      if (/port/i.test(name)) return 587;
      return Math.max(schema.minimum ?? 1, Math.min(1, schema.maximum ?? 1));
    case 'boolean':
      return schema.default ?? false;
    case 'array': {
      const item = example(schema.items, name.replace(/s$/, ''), ids);
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'object': {
      if (!schema.properties) return {};
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(schema.properties)) out[key] = example(value, key, ids);
      return out;
    }
    default:
      return 'fuzz';
  }
}

function exampleString(schema: Schema, name: string, ids: Seeded): string {
  if (schema.format === 'uuid') {
    if (/^listIds?$/.test(name)) return ids.listId;
    if (/senderAccountIds?$/.test(name)) return ids.senderId;
    if (name === 'stepId' || name === 'stepIds') return ids.stepId;
    return randomUUID();
  }
  if (schema.format === 'email' || /email|^to$|replyTo/i.test(name)) return 'fuzz@tambari.test';
  if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
  if (schema.format === 'date') return '2026-01-15';
  if (schema.pattern === '^#[0-9a-fA-F]{6}$') return '#112233';
  if (schema.pattern === '^[A-Za-z]{2}$' || /country/i.test(name)) return 'NG';
  if (schema.pattern?.startsWith('^custom:')) return 'custom:fuzz_field';
  if (schema.pattern === '^[a-z][a-z0-9_]{0,39}$') return 'fuzz_field';
  if (schema.pattern?.includes('[a-z]{2,}')) return 'track.tambari.test';
  // Never the fuzzing user's own password: changing it or deleting the account would end the session.
  if (/password/i.test(name)) return 'Fuzz-password-9';
  if (/phone/i.test(name)) return '+2348031234567';
  if (name === 'category') return 'agriculture';
  if (/timezone|^tz$/i.test(name)) return 'Africa/Lagos';
  if (/host/i.test(name)) return 'smtp.tambari.test';
  if (/website|url/i.test(name)) return 'https://tambari.test';
  const min = schema.minLength ?? 0;
  const base = 'fuzz-value';
  return base.length >= min ? base.slice(0, schema.maxLength ?? base.length) : base.padEnd(min, 'x');
}

function wrongTypeFor(schema: Schema | undefined): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: true };
  }
}

function hugeFor(schema: Schema | undefined): unknown {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return 1e308;
    case 'array':
      return Array.from({ length: 20_000 }, (_, i) => `item-${i}`);
    case 'object':
      return Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`key${i}`, 'v']));
    default:
      return HUGE_BODY_STRING;
  }
}

/** Every leaf of a body schema, as a path of keys (array items are index 0). */
function leaves(raw: Schema | undefined, prefix: (string | number)[] = []): [(string | number)[], Schema][] {
  const schema = pickSchema(raw);
  if (!schema || prefix.length > 4) return [];
  const type = typeOf(schema);
  const here: [(string | number)[], Schema][] = prefix.length > 0 ? [[prefix, schema]] : [];
  if (type === 'object' && schema.properties) {
    return [
      ...here,
      ...Object.entries(schema.properties).flatMap(([key, value]) => leaves(value, [...prefix, key])),
    ];
  }
  if (type === 'array' && schema.items && typeOf(schema.items) === 'object') {
    return [...here, ...leaves(schema.items, [...prefix, 0])];
  }
  return here;
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = replacement;
  return copy;
}

function operationsOf(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = (op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)
        ?.content;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters as Operation['parameters']) ?? [],
        body: content?.['application/json']?.schema,
      });
    }
  }
  return operations;
}

/** Real ids for the path, so requests reach the handlers' logic and the database. */
function pathId(path: string, param: string, ids: Seeded): string {
  if (param === 'code') return 'NG';
  if (param === 'userId') return ids.victimId;
  if (param === 'contactId') return path.startsWith('/api/lists') ? String(ids.listContactId) : randomUUID();
  if (param === 'stepId') return ids.stepId;
  if (param === 'token' || param === 'file' || param === 'index') return 'fuzztoken';
  const table: [RegExp, string][] = [
    [/^\/api\/lists\//, ids.listId],
    [/^\/api\/(admin\/)?campaigns\//, ids.campaignId],
    [/^\/api\/(admin\/)?newsletters\//, ids.newsletterId],
    [/^\/api\/public\/templates\//, ids.libraryTemplateId],
    [/^\/api\/admin\/templates\//, ids.adminTemplateId],
    [/^\/api\/templates\//, ids.templateId],
    [/^\/api\/sender-accounts\//, ids.senderId],
    [/^\/api\/imports\//, ids.importId],
    [/^\/api\/(admin\/)?suppressions\//, ids.suppressionId],
    [/^\/api\/(admin\/directory|data-entry\/contacts)\//, ids.directoryId],
    [/^\/api\/admin\/users\//, ids.victimId],
    [/^\/api\/admin\/pricing-plans\//, 'starter'],
    [/^\/api\/admin\/orders\//, ids.orderId],
  ];
  return table.find(([pattern]) => pattern.test(path))?.[1] ?? randomUUID();
}

interface Case {
  label: string;
  url: string;
  payload?: unknown;
}

function buildUrl(
  op: Operation,
  ids: Seeded,
  overrides: { path?: Record<string, string>; query?: string } = {},
): string {
  let url = op.path;
  for (const param of op.parameters.filter((p) => p.in === 'path')) {
    const value = overrides.path?.[param.name] ?? encodeURIComponent(pathId(op.path, param.name, ids));
    url = url.replace(`{${param.name}}`, value);
  }
  return overrides.query ? `${url}?${overrides.query}` : url;
}

function casesFor(op: Operation, ids: Seeded): Case[] {
  const cases: Case[] = [];
  const bodyBase = op.body ? example(op.body, 'body', ids) : undefined;
  const withBody = (label: string, payload: unknown, url = buildUrl(op, ids)) =>
    cases.push({ label, url, payload });
  withBody('baseline', bodyBase);

  // Path parameters: malformed ids, NUL, an invalid UTF-8 sequence (a lone surrogate's CESU-8 bytes), long.
  for (const param of op.parameters.filter((p) => p.in === 'path')) {
    for (const [kind, value] of [
      ['not an id', 'not-a-valid-id'],
      ['NUL', 'a%00b'],
      ['lone surrogate', '%ED%A0%80'],
      ['huge number', '9'.repeat(40)],
      ['long', 'x'.repeat(90)],
    ] as const) {
      withBody(`path ${param.name}: ${kind}`, bodyBase, buildUrl(op, ids, { path: { [param.name]: value } }));
    }
  }

  // Query parameters, one at a time, the others at plausible values.
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const queryBase = (except?: string) =>
    queryParams
      .filter((p) => p.name !== except)
      .map((p) => `${p.name}=${encodeURIComponent(String(example(p.schema, p.name, ids)))}`);
  for (const param of queryParams) {
    const wrongType =
      typeOf(param.schema) === 'string' ? `${param.name}=a&${param.name}=b` : `${param.name}=not-a-number`;
    for (const [kind, pair] of [
      ['NUL', `${param.name}=a%00b`],
      ['lone surrogate', `${param.name}=a%ED%A0%80b`],
      ['wrong type', wrongType],
      ['huge', `${param.name}=${HUGE_QUERY_STRING}`],
      ['huge number', `${param.name}=${'9'.repeat(40)}`],
    ] as const) {
      const query = [...queryBase(param.name), pair].join('&');
      withBody(`query ${param.name}: ${kind}`, bodyBase, buildUrl(op, ids, { query }));
    }
  }
  cases.push({
    label: 'query: unknown field with NUL',
    url: buildUrl(op, ids, { query: [...queryBase(), 'fuzzUnknown=a%00b'].join('&') }),
    payload: bodyBase,
  });

  if (op.body) {
    for (const [path, schema] of leaves(op.body)) {
      const name = path.join('.');
      withBody(`body ${name}: NUL`, setAt(bodyBase, path, NUL));
      withBody(`body ${name}: lone surrogate`, setAt(bodyBase, path, LONE_SURROGATE));
      withBody(`body ${name}: wrong type`, setAt(bodyBase, path, wrongTypeFor(schema)));
      withBody(`body ${name}: huge`, setAt(bodyBase, path, hugeFor(schema)));
      if (typeOf(schema) === 'array') {
        withBody(`body ${name}: NUL item`, setAt(bodyBase, path, [NUL]));
      }
      if (typeOf(schema) === 'object' && !pickSchema(schema)?.properties) {
        withBody(`body ${name}: NUL key`, setAt(bodyBase, path, { 'a\u0000b': 'x', '\ud800': 'y' }));
      }
    }
    withBody('body: unknown field', { ...(bodyBase as object), fuzzUnknown: 'x' });
    withBody('body: unknown field named with NUL', { ...(bodyBase as object), 'a\u0000b': 'x' });
    withBody('body: an array instead of an object', [bodyBase]);
    // Over BODY_LIMIT_BYTES: refused by the body parser (413) before anything else.
    withBody('body: 1 MB string', { ...(bodyBase as object), fuzzHuge: 'x'.repeat(1_048_576) });
  }
  return cases;
}

// Ending the session, deleting rows the other routes use: last.
function order(op: Operation): number {
  if (op.path === '/api/logout') return 3;
  if (op.path === '/api/user' && op.method === 'DELETE') return 2;
  if (op.method === 'DELETE') return 1;
  return 0;
}

describe('every API route answers bad input without a 5xx', () => {
  let app: FastifyInstance;
  let ai: FakeAiProvider;
  let paystack: FakePaystack;
  let user: TestUser;
  let admin: TestUser;
  let ids: Seeded;
  let operations: Operation[];
  let ip = 0;

  beforeAll(async () => {
    ai = await startFakeAiProvider();
    paystack = await startFakePaystack();
    app = await createTestApp({
      AI_BASE_URL: ai.baseUrl,
      AI_MODEL: 'fake-writer-1',
      AI_TIMEOUT_SECONDS: '2',
      AI_RATE_LIMIT_MAX: '100000',
      LEADS_RATE_LIMIT_MAX: '100000',
      PAYSTACK_SECRET_KEY: paystack.secretKey,
      PAYSTACK_PUBLIC_KEY: paystack.publicKey,
      PAYSTACK_BASE_URL: paystack.url,
    });
    await app.ready();
    operations = operationsOf(app.swagger() as never).sort((a, b) => order(a) - order(b));
    user = await createUser(app, { plan: 'professional', status: 'active', periodEnd: new Date(2099, 0, 1) });
    admin = await createUser(app, { role: 'super_admin' });
    const victim = await createUser(app);
    ids = await seed(app, user, admin, victim.user.id);
  });
  afterAll(async () => {
    await app?.close();
    await ai?.close();
    await paystack?.close();
  });

  async function send(who: Who, op: Operation, c: Case): Promise<LightMyRequestResponse> {
    // Signing in or up replaces the session the request carries: those two are sent signed out.
    const replacesSession = op.path === '/api/login' || op.path === '/api/register';
    const cookie = replacesSession
      ? undefined
      : who === 'user'
        ? user.cookie
        : who === 'admin'
          ? admin.cookie
          : undefined;
    ip += 1;
    const options: InjectOptions = {
      method: op.method as InjectOptions['method'],
      url: c.url,
      // A new client address per request: the per-IP rate limits would otherwise answer 429 for the rest.
      remoteAddress: `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`,
      headers: { origin: 'http://localhost:3000', ...(cookie ? { cookie } : {}) },
    };
    if (c.payload !== undefined) {
      options.payload = JSON.stringify(c.payload);
      options.headers = { ...options.headers, 'content-type': 'application/json' };
    }
    return app.inject(options);
  }

  async function fuzz(who: Who, select: (op: Operation) => boolean) {
    const failures: string[] = [];
    let requests = 0;
    const statuses = new Map<number, number>();
    for (const op of operations.filter(select)) {
      // Empties every user's development mailbox, which other test files on the same PostgreSQL read.
      if (op.method === 'DELETE' && op.path === '/api/admin/dev-mailbox') continue;
      for (const c of casesFor(op, ids)) {
        const response = await send(who, op, c);
        requests++;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        // Signed out, a route that wants a session runs the same validation as for the user, then stops at
        // 401: its mutations were already sent signed in.
        const signInWall = who === 'anonymous' && c.label === 'baseline' && response.statusCode === 401;
        if (process.env.FUZZ_DEBUG && c.label === 'baseline')
          console.log(
            `${who} ${op.method} ${c.url} baseline → ${response.statusCode} ${response.body.slice(0, 150)}`,
          );
        if (response.statusCode >= 500) {
          const payload = c.payload === undefined ? '' : JSON.stringify(c.payload).slice(0, 300);
          failures.push(
            `${who} ${op.method} ${c.url.slice(0, 200)} [${c.label}] → ${response.statusCode} ${response.body.slice(0, 200)} payload=${payload}`,
          );
        }
        if (signInWall) break;
      }
      // A route that ends the session (logout, account deletion) must not silence the routes after it.
      if (who !== 'anonymous' && op.path !== '/api/logout') {
        const me = who === 'user' ? user : admin;
        const check = await app.inject({ method: 'GET', url: '/api/user', headers: { cookie: me.cookie } });
        if (check.statusCode === 401) {
          if (process.env.FUZZ_DEBUG) console.log(`session ended by ${op.method} ${op.path}`);
          me.cookie = await login(app, me.email, me.password);
        }
      }
    }
    if (process.env.FUZZ_DEBUG) console.log(who, requests, [...statuses.entries()].sort());
    return { failures, requests };
  }

  it('has a document with the routes to fuzz', () => {
    expect(operations.length).toBeGreaterThan(150);
  });

  it('as a normal user', async () => {
    const { failures } = await fuzz('user', (op) => !op.path.startsWith('/api/admin'));
    expect(failures).toEqual([]);
  }, 180_000);

  it('as a super admin, on admin and data-entry routes', async () => {
    const { failures } = await fuzz(
      'admin',
      (op) => op.path.startsWith('/api/admin') || op.path.startsWith('/api/data-entry'),
    );
    expect(failures).toEqual([]);
  }, 180_000);

  it('signed out', async () => {
    const { failures } = await fuzz('anonymous', () => true);
    expect(failures).toEqual([]);
  }, 180_000);
});

async function seed(
  app: FastifyInstance,
  user: TestUser,
  admin: TestUser,
  victimId: string,
): Promise<Seeded> {
  const call = async (cookie: string, method: InjectOptions['method'], url: string, payload?: unknown) => {
    const response = await app.inject({
      method,
      url,
      headers: { origin: 'http://localhost:3000', cookie },
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
    if (response.statusCode >= 300)
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const list = await call(user.cookie, 'POST', '/api/lists', { name: 'Fuzz list' });
  const contact = await call(user.cookie, 'POST', `/api/lists/${list.id}/contacts`, {
    email: 'ada@tambari.test',
    firstName: 'Ada',
  });
  const sender = await call(user.cookie, 'POST', '/api/sender-accounts/dev-mailbox');
  const campaign = await call(user.cookie, 'POST', '/api/campaigns', {
    name: 'Fuzz campaign',
    audience: { listIds: [list.id], leadFilters: [] },
    senderAccountIds: [sender.id],
  });
  const step = await call(user.cookie, 'POST', `/api/campaigns/${campaign.id}/steps`, {
    delayDays: 0,
    variants: [{ key: 'A', subject: 'Hello', bodyHtml: '<p>Hello {{firstName}}</p>', splitPercent: 100 }],
  });
  const newsletter = await call(user.cookie, 'POST', '/api/newsletters', {
    kind: 'newsletter',
    name: 'Fuzz newsletter',
    subject: 'Hello',
  });
  const template = await call(user.cookie, 'POST', '/api/templates', {
    kind: 'email',
    category: 'cold-introduction',
    name: 'Fuzz template',
    subject: 'Hello',
    bodyHtml: '<p>Hello</p>',
  });
  const adminTemplate = await call(admin.cookie, 'POST', '/api/admin/templates', {
    kind: 'email',
    category: 'cold-introduction',
    name: 'Fuzz library template',
    subject: 'Hello',
    bodyHtml: '<p>Hello</p>',
  });
  const library = await app.inject({ method: 'GET', url: '/api/public/templates' });
  const suppression = await call(user.cookie, 'POST', '/api/suppressions', {
    emails: ['gone@tambari.test'],
    reason: 'manual',
  });
  const suppressions = await call(user.cookie, 'GET', '/api/suppressions');
  const directory = await call(admin.cookie, 'POST', '/api/data-entry/contacts', {
    companyName: 'Fuzz Ltd',
    email: 'info@fuzz.tambari.test',
    countryCode: 'NG',
    category: 'agriculture',
    city: 'Lagos',
  });
  const upload = await app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: {
      origin: 'http://localhost:3000',
      cookie: user.cookie,
      'content-type': 'multipart/form-data; boundary=fuzzboundary',
    },
    payload: [
      '--fuzzboundary',
      'Content-Disposition: form-data; name="target"',
      '',
      'list',
      '--fuzzboundary',
      'Content-Disposition: form-data; name="listId"',
      '',
      list.id,
      '--fuzzboundary',
      'Content-Disposition: form-data; name="file"; filename="a.csv"',
      'Content-Type: text/csv',
      '',
      'email,first_name\nada@tambari.test,Ada\n',
      '--fuzzboundary--',
      '',
    ].join('\r\n'),
  });
  if (upload.statusCode >= 300) throw new Error(`upload: ${upload.statusCode} ${upload.body}`);
  void suppression;
  return {
    listId: list.id,
    listContactId: contact.id,
    campaignId: campaign.id,
    stepId: step.id ?? step.steps?.at(-1)?.id,
    newsletterId: newsletter.id,
    templateId: template.id,
    adminTemplateId: adminTemplate.id,
    libraryTemplateId: (library.json().templates ?? library.json())[0]?.id ?? randomUUID(),
    senderId: sender.id,
    importId: upload.json().importId,
    suppressionId: (suppressions.items ?? suppressions.suppressions ?? [])[0]?.id ?? randomUUID(),
    directoryId: directory.id,
    victimId,
    orderId: randomUUID(),
  };
}
