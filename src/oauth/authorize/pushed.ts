// A request by reference (RFC 9126 §4, docs/rules.md#pushed-authorization): the request_uri
// the PAR endpoint answered stands for the parameters it stored; loaded in place of the
// browser's, and spent once by the decision.
import { mustPush } from '../client-policy.ts';
import type { OAuthContext } from '../context.ts';
import { invalidRequest } from '../errors.ts';
import type { ClientRecord, OAuthStore } from '../storage.ts';
import { hashToken } from '../token-format.ts';
import { unsafe } from './error-answers.ts';
import { authorizationParameters, single, type AuthorizationRequest, type PushedReference, type RawParameters } from './request.ts';

/** RFC 9126 §2.2: the request_uri's fixed part; the rest is random, and only its hash is stored. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** The parameters a request_uri stands for: none of them may come beside it (RFC 9126 §4). */
const pushedOnly = [...authorizationParameters.filter((name) => name !== 'client_id'), 'resource'];

/**
 * RFC 9126 §4: a request by reference. The reference must be this client's, unused and
 * unexpired; its parameters replace the browser's, and any authorization parameter sent
 * beside it is refused rather than ignored, so that an application that mixes both learns
 * it at once. Every refusal is a page, never a redirect: the redirect URI is among what the
 * reference stands for (docs/rules.md#pushed-authorization).
 */
export async function loadPushedRequest(
  ctx: OAuthContext,
  raw: RawParameters,
  client: ClientRecord,
): Promise<{ raw: RawParameters; reference: PushedReference } | undefined> {
  const requestUri = single(raw, 'request_uri');
  if (requestUri === undefined) return undefined;
  if (requestUri === 'repeated') throw unsafe('request_uri was sent more than once', client);
  const beside = pushedOnly.filter((name) => raw[name] !== undefined);
  if (beside.length > 0) {
    throw unsafe(`${beside.join(', ')} cannot be sent beside request_uri: the pushed request holds every authorization parameter (RFC 9126 §4)`, client);
  }
  const gone = 'request_uri is unknown, expired or already used: the application must push a new authorization request';
  if (!requestUri.startsWith(REQUEST_URI_PREFIX)) throw unsafe(gone, client);
  const hash = hashToken(requestUri);
  const stored = await ctx.store.findPushedRequest(hash);
  if (stored === undefined || stored.consumedAt !== null || stored.expiresAt <= ctx.clock()) throw unsafe(gone, client);
  if (stored.clientId !== client.id) throw unsafe('request_uri was not pushed by this client_id', client);
  const pushedRaw: RawParameters = { ...stored.parameters, client_id: raw.client_id };
  if (stored.resources !== null) pushedRaw.resource = stored.resources;
  return { raw: pushedRaw, reference: { requestUri, hash } };
}

/**
 * RFC 9126 §5, §6 (docs/rules.md#pushed-authorization): a client, or a server, that requires
 * pushed requests refuses the browser's own parameters; the error goes back to the application.
 */
export function requirePushed(ctx: OAuthContext, client: ClientRecord, pushed: PushedReference | undefined): void {
  if (pushed === undefined && mustPush(ctx, client)) {
    throw invalidRequest('this client must use pushed authorization requests: push the parameters to the pushed_authorization_request_endpoint and send only client_id and request_uri');
  }
}

/**
 * A pushed request spent or expired between its check and the decision (another tab's Allow,
 * or the lifetime ran out on the consent page): the decision rolls back, and the page says
 * so (decision.ts).
 */
export class PushedRequestGone extends Error {
  readonly error = invalidRequest('request_uri is expired or already used: the application must push a new authorization request');
}

/** RFC 9126 §4: the decision spends the reference, once (ARCHITECTURE.md#single-use-is-atomic). */
export async function consumePushed(tx: OAuthStore, request: AuthorizationRequest, now: number): Promise<void> {
  if (request.pushed !== undefined && !(await tx.consumePushedRequest(request.pushed.hash, now))) throw new PushedRequestGone();
}
