// Fetching a client metadata document (SPEC §10.3): 5-second timeout, at most 64 KiB, no
// redirects followed, and connected only to the addresses the SSRF guard approved
// (outbound-url.ts), so a DNS answer that changes after the check cannot redirect the call.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

export const DOCUMENT_TIMEOUT_MS = 5_000;
export const DOCUMENT_MAX_BYTES = 64 * 1024;

export interface FetchedDocument {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export class DocumentFetchError extends Error {}

/** GET `url`, connecting to `addresses` only (empty: let the system resolve, OUTBOUND_ALLOW_PRIVATE=1). */
export function fetchDocument(url: URL, addresses: string[]): Promise<FetchedDocument> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const pinned = addresses[0];
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        timeout: DOCUMENT_TIMEOUT_MS,
        ...(pinned !== undefined
          ? {
              lookup: ((_host, options, callback) => {
                const family = isIP(pinned);
                if (options.all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: pinned, family }]);
                else callback(null, pinned, family);
              }) as LookupFunction,
            }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > DOCUMENT_MAX_BYTES) {
            req.destroy(new DocumentFetchError(`the document is larger than ${DOCUMENT_MAX_BYTES / 1024} KiB`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new DocumentFetchError(`the document did not arrive within ${DOCUMENT_TIMEOUT_MS / 1000} seconds`)));
    req.on('error', reject);
    req.end();
  });
}

/** RFC 9111 max-age (s-maxage first), clamped to SPEC §10.3's 5 minutes … 24 hours; no-store counts as the minimum. */
export function cacheSeconds(headers: IncomingHttpHeaders): number {
  const control = String(headers['cache-control'] ?? '');
  const match = /(?:^|,)\s*s-maxage=(\d+)/i.exec(control) ?? /(?:^|,)\s*max-age=(\d+)/i.exec(control);
  const seconds = match ? Number(match[1]) : 0;
  return Math.min(24 * 3600, Math.max(5 * 60, seconds));
}
