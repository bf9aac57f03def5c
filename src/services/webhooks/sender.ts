// One HTTP POST of a signed delivery (SPEC §9): connected only to an address the outbound
// check approved at this moment (a name that has since come to point inside is refused
// before any connection), 10 seconds for the whole exchange, redirects answered but never
// followed, and at most the first 1 KB of the answer read.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { checkOutboundUrl, type OutboundPolicy } from '../outbound-url.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_LIMIT_BYTES = 1024;

export interface SendResult {
  /** The answer's status; null when there was none (refused, unreachable, timed out). */
  status: number | null;
  /** The first 1 KB of the answer's body. */
  body: string | null;
  /** Why there was no answer, in words for the webhook's owner. */
  error: string | null;
}

/** A lookup that answers only with the addresses already checked, so the connection goes there. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  }) as unknown as LookupFunction;
}

export async function sendDelivery(url: string, headers: Record<string, string>, body: string, outbound: OutboundPolicy, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
  const check = await checkOutboundUrl(url, outbound);
  if (!check.ok) return { status: null, body: null, error: `not sent: the URL ${check.problem}` };
  const target = check.url;
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = transport.request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks/1', 'content-length': Buffer.byteLength(body), ...headers },
      // With private addresses allowed there was no lookup to pin; the system resolves.
      ...(check.addresses.length > 0 && isIP(target.hostname.replace(/^\[(.*)\]$/, '$1')) === 0 ? { lookup: pinnedLookup(check.addresses) } : {}),
    });
    const timer = setTimeout(() => finish({ status: null, body: null, error: `no answer within ${timeoutMs / 1000} seconds` }), timeoutMs);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => finish({ status: response.statusCode ?? null, body: Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT_BYTES).toString('utf8'), error: null });
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_LIMIT_BYTES) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, body: null, error: `could not connect (${err.code ?? 'network error'})` }));
    request.end(body);
  });
}
