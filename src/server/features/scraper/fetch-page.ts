import { promises as dns } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isAllowedAddress, type SenderNetwork } from '@server/lib/network-guard';
import { SCRAPE_LIMITS, type ScrapeSkipReason } from '@shared/scraper';
import { Agent, request } from 'undici';

/*
 * One HTTP GET for the crawler, with the SSRF guard of user-supplied mail servers: every address a host
 * name resolves to must be allowed on the operator's network setting, checked inside the connection's own
 * DNS lookup, so a name that answers differently a moment later cannot steer us inside. Redirects are
 * followed by the caller (each hop is a new page with its own robots.txt check). Bodies are read up to a
 * cap and never decoded beyond it.
 */

export const SCRAPER_USER_AGENT_NAME = 'TambariBot';
export const scraperUserAgent = (appUrl: string) =>
  `Mozilla/5.0 (compatible; ${SCRAPER_USER_AGENT_NAME}/1.0; +${appUrl}/docs)`;

const TIMEOUT_MS = 15_000;
const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
const XML_TYPES = ['application/xml', 'text/xml', 'application/rss+xml'];

export type FetchOutcome =
  | { kind: 'page'; status: number; body: string; contentType: 'html' | 'xml' | 'text'; finalUrl: string }
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'skipped'; reason: ScrapeSkipReason; status?: number };

export class AddressNotAllowedError extends Error {}

function guardedLookup(network: SenderNetwork): LookupFunction {
  return (hostname, options, callback) => {
    dns
      .lookup(hostname, { all: true, verbatim: true })
      .then((addresses) => {
        if (addresses.length === 0 || !addresses.every((a) => isAllowedAddress(a.address, network))) {
          callback(new AddressNotAllowedError(hostname), '', 4);
          return;
        }
        const wanted = options.family === 6 || options.family === 4 ? options.family : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (options.all) callback(null, usable as never);
        else callback(null, usable[0]!.address, usable[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 4));
  };
}

export interface PageFetcher {
  fetch(url: URL, accept: 'page' | 'robots'): Promise<FetchOutcome>;
  close(): Promise<void>;
}

export function createPageFetcher(options: { network: SenderNetwork; userAgent: string }): PageFetcher {
  const agent = new Agent({
    connect: { lookup: guardedLookup(options.network), timeout: TIMEOUT_MS },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    connections: 4,
  });

  async function fetchOnce(url: URL, accept: 'page' | 'robots'): Promise<FetchOutcome> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'skipped', reason: 'scheme' };
    const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // An address written as a number never goes through the lookup: judge it here.
    if (isIP(literal) !== 0 && !isAllowedAddress(literal, options.network)) {
      return { kind: 'skipped', reason: 'notAllowed' };
    }
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher: agent,
        headers: {
          'user-agent': options.userAgent,
          accept:
            accept === 'robots'
              ? 'text/plain'
              : 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.5',
          'accept-language': 'en,fr;q=0.8,*;q=0.5',
        },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      if (
        error instanceof AddressNotAllowedError ||
        (error as { cause?: unknown }).cause instanceof AddressNotAllowedError
      ) {
        return { kind: 'skipped', reason: 'notAllowed' };
      }
      return { kind: 'skipped', reason: 'network' };
    }
    const { statusCode, headers, body } = response;
    if (statusCode >= 300 && statusCode < 400) {
      await body.dump();
      const location = headers.location;
      if (typeof location !== 'string') return { kind: 'skipped', reason: 'httpError', status: statusCode };
      return { kind: 'redirect', status: statusCode, location: new URL(location, url).toString() };
    }
    if (statusCode >= 400) {
      await body.dump();
      return { kind: 'skipped', reason: 'httpError', status: statusCode };
    }
    const type = String(headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const contentType = HTML_TYPES.includes(type)
      ? 'html'
      : XML_TYPES.includes(type)
        ? 'xml'
        : type === 'text/plain' || (type === '' && accept === 'robots')
          ? 'text'
          : null;
    if (!contentType || (accept === 'page' && contentType === 'text' && !url.pathname.endsWith('.txt'))) {
      await body.dump();
      return { kind: 'skipped', reason: 'contentType', status: statusCode };
    }
    const declared = Number(headers['content-length'] ?? 0);
    if (declared > SCRAPE_LIMITS.maxPageBytes) {
      await body.dump();
      return { kind: 'skipped', reason: 'tooLarge', status: statusCode };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of body) {
        size += (chunk as Buffer).length;
        if (size > SCRAPE_LIMITS.maxPageBytes) {
          body.destroy();
          return { kind: 'skipped', reason: 'tooLarge', status: statusCode };
        }
        chunks.push(chunk as Buffer);
      }
    } catch {
      return { kind: 'skipped', reason: 'network', status: statusCode };
    }
    return {
      kind: 'page',
      status: statusCode,
      body: Buffer.concat(chunks).toString('utf8'),
      contentType,
      finalUrl: url.toString(),
    };
  }

  return {
    fetch: fetchOnce,
    close: () => agent.close(),
  };
}
