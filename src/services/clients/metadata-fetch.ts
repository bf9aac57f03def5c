// Fetching a client metadata document (docs/rules.md#client-metadata-documents): 5-second timeout, at most 64 KiB, no
// redirects followed, and connected only to the addresses the SSRF guard approved
// (outbound-request.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { outboundRequest, OutboundRequestError } from '../outbound-request.ts';

export const DOCUMENT_TIMEOUT_MS = 5_000;
export const DOCUMENT_MAX_BYTES = 64 * 1024;

export interface FetchedDocument {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A refusal worth telling the user about; any other failure is only "could not be fetched". */
export class DocumentFetchError extends Error {}

/** GET `url`, connecting to `addresses` only (empty: let the system resolve, OUTBOUND_ALLOW_PRIVATE=1). */
export async function fetchDocument(url: URL, addresses: string[]): Promise<FetchedDocument> {
  try {
    const answer = await outboundRequest({ url, addresses }, { method: 'GET', headers: { accept: 'application/json' }, timeoutMs: DOCUMENT_TIMEOUT_MS, maxBytes: DOCUMENT_MAX_BYTES, beyondLimit: 'refuse' });
    if (!answer.whole) throw new Error('the document host broke off its answer');
    return { status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') };
  } catch (error) {
    if (error instanceof OutboundRequestError && error.reason === 'timeout') throw new DocumentFetchError(`the document did not arrive within ${DOCUMENT_TIMEOUT_MS / 1000} seconds`);
    if (error instanceof OutboundRequestError && error.reason === 'too_large') throw new DocumentFetchError(`the document is larger than ${DOCUMENT_MAX_BYTES / 1024} KiB`);
    throw error;
  }
}

/** RFC 9111 max-age (s-maxage first), clamped to docs/rules.md#client-metadata-documents's 5 minutes … 24 hours; no-store counts as the minimum. */
export function cacheSeconds(headers: IncomingHttpHeaders): number {
  const control = String(headers['cache-control'] ?? '');
  const match = /(?:^|,)\s*s-maxage=(\d+)/i.exec(control) ?? /(?:^|,)\s*max-age=(\d+)/i.exec(control);
  const seconds = match ? Number(match[1]) : 0;
  return Math.min(24 * 3600, Math.max(5 * 60, seconds));
}
