// One HTTP exchange with an address the SSRF guard approved (outbound-url.ts): logos,
// client metadata documents (docs/rules.md#client-metadata-documents) and webhook deliveries (docs/rules.md#webhooks) all go through it.
// The connection goes only to the addresses the guard judged, since a DNS answer given
// after the check could point anywhere; to any of them, since a host that publishes several
// may have one down. Redirects are answered, never followed, and one deadline covers the
// whole exchange, so that a host trickling its answer cannot hold a request open.
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

/** Where to connect: an approved URL and the addresses it was judged by (checkOutboundUrl). */
export interface OutboundTarget {
  url: URL;
  /** Empty where private addresses are allowed: there was no lookup to pin, the system resolves. */
  addresses: readonly string[];
}

export interface OutboundRequestOptions {
  method: 'GET' | 'POST';
  headers?: Record<string, string | number>;
  body?: string;
  /** From the first connection attempt to the last byte read. */
  timeoutMs: number;
  /** The most of the answer's body that is read. */
  maxBytes: number;
  /** A longer body: `refuse` fails the request; `cut` keeps the first maxBytes and stops reading. */
  beyondLimit: 'refuse' | 'cut';
}

export interface OutboundAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most maxBytes. */
  body: Buffer;
  /** False when the body was cut at maxBytes or the connection broke off before its end. */
  whole: boolean;
}

export class OutboundRequestError extends Error {
  constructor(
    readonly reason: 'timeout' | 'too_large' | 'unreachable',
    message: string,
    /** The system's error code for `unreachable` (ECONNREFUSED, ...), when there is one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * A lookup that answers with the checked addresses whatever the name resolves to now.
 * Node asks for all of them (`all`) to try each in turn, and may ask for one family only.
 */
export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    const family = options?.family === 'IPv4' ? 4 : options?.family === 'IPv6' ? 6 : Number(options?.family ?? 0);
    const answer = family === 4 || family === 6 ? entries.filter((e) => e.family === family) : entries;
    if (answer.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no checked IPv${family} address for ${hostname}`);
      error.code = 'ENOTFOUND';
      return callback(error);
    }
    if (options?.all) callback(null, answer);
    else callback(null, answer[0]!.address, answer[0]!.family);
  }) as unknown as LookupFunction;
}

// Try the checked addresses in turn (Happy Eyeballs), whatever the process default is. The
// option reaches net.connect, which takes it; Node's http typings do not list it.
const tryEveryAddress = { autoSelectFamily: true } as object;

export function outboundRequest(target: OutboundTarget, options: OutboundRequestOptions): Promise<OutboundAnswer> {
  const transport = target.url.protocol === 'https:' ? https : http;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: { answer: OutboundAnswer } | { error: OutboundRequestError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if ('answer' in outcome) resolve(outcome.answer);
      else reject(outcome.error);
    };
    const request = transport.request(target.url, {
      method: options.method,
      headers: options.headers,
      // A connection of its own: a kept-alive one from an earlier request to the same host and
      // port would go to the address that request was checked for, not to these. Without the
      // global agent, its CA is passed on (a CA the embedding process trusts there; only the CA).
      agent: false,
      ...tryEveryAddress,
      ...(transport === https && https.globalAgent.options.ca !== undefined ? { ca: https.globalAgent.options.ca } : {}),
      ...(target.addresses.length > 0 ? { lookup: pinnedLookup(target.addresses) } : {}),
    });
    const timer = setTimeout(() => settle({ error: new OutboundRequestError('timeout', `no complete answer within ${options.timeoutMs} ms`) }), options.timeoutMs);
    request.on('response', (response) => {
      const answer = (body: Buffer, whole: boolean) => settle({ answer: { status: response.statusCode ?? 0, headers: response.headers, body, whole } });
      const tooLarge = () => settle({ error: new OutboundRequestError('too_large', `the answer is larger than ${options.maxBytes} bytes`) });
      if (options.beyondLimit === 'refuse' && Number(response.headers['content-length'] ?? 0) > options.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (options.beyondLimit === 'refuse' && size > options.maxBytes) tooLarge();
        // Nothing past the limit would be kept, so nothing more is waited for.
        else if (options.beyondLimit === 'cut' && size >= options.maxBytes) answer(Buffer.concat(chunks).subarray(0, options.maxBytes), false);
      });
      response.on('end', () => answer(Buffer.concat(chunks), true));
      response.on('error', () => answer(Buffer.concat(chunks), false));
      response.on('close', () => answer(Buffer.concat(chunks), false));
    });
    request.on('error', (err: NodeJS.ErrnoException) => settle({ error: new OutboundRequestError('unreachable', err.message, err.code) }));
    request.end(options.body);
  });
}
