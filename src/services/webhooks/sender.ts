// One HTTP POST of a signed delivery (docs/rules.md#webhooks): connected only to an address the outbound
// check approved at this moment (a name that has since come to point inside is refused
// before any connection), 10 seconds for the whole exchange, redirects answered but never
// followed, and at most the first 1 KB of the answer read. The answer is outside text: a NUL
// in it becomes U+FFFD here, where it is read, so that it never fails the write of the
// attempt on PostgreSQL (SECURITY.md), and both databases store and show the same text.
import { outboundRequest, OutboundRequestError } from '../outbound-request.ts';
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

export async function sendDelivery(url: string, headers: Record<string, string>, body: string, outbound: OutboundPolicy, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<SendResult> {
  const check = await checkOutboundUrl(url, outbound);
  if (!check.ok) return { status: null, body: null, error: `not sent: the URL ${check.problem}` };
  try {
    const answer = await outboundRequest(check, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks/1', 'content-length': Buffer.byteLength(body), ...headers },
      body,
      timeoutMs,
      maxBytes: RESPONSE_LIMIT_BYTES,
      beyondLimit: 'cut',
    });
    return { status: answer.status, body: answer.body.toString('utf8').replaceAll('\u0000', '\uFFFD'), error: null };
  } catch (error) {
    if (!(error instanceof OutboundRequestError)) throw error;
    if (error.reason === 'timeout') return { status: null, body: null, error: `no answer within ${timeoutMs / 1000} seconds` };
    return { status: null, body: null, error: `could not connect (${error.code ?? 'network error'})` };
  }
}
