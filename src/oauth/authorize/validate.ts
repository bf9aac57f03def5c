// The authorization request checked, in the order RFC 6749 §4.1.2.1 implies (RFC 6749
// §4.1.1–§4.1.2, OpenID Connect Core §3.1.2.1 for prompt, RFC 9700 §4.11.2): first what
// makes a redirect unsafe (client, redirect URI, approval) — shown as a page, never
// redirected — then what may be redirected back to the client: for a self-registered client
// only once the user has allowed it (SECURITY.md).
import type { FirstUseGate } from '../client-metadata.ts';
import { mustPush } from '../client-policy.ts';
import type { OAuthContext } from '../context.ts';
import { invalidRequest, OAuthError } from '../errors.ts';
import type { ClientRecord } from '../storage.ts';
import { checkApproved, checkClient, checkRedirectUri } from './check-client.ts';
import { checkRedirectable, readParameters, readState } from './check-parameters.ts';
import {
  answerError,
  isSelfRegistered,
  UnsafeToRedirect,
  type ErrorAnswer,
  type ErrorTarget,
  type FatalReason,
  type NamedClient,
} from './error-answers.ts';
import { loadPushedRequest } from './pushed.ts';
import type { AuthorizationRequest, PushedReference, RawParameters } from './request.ts';

export type AuthorizationValidation =
  | { kind: 'fatal'; error: OAuthError; reason: FatalReason; client?: NamedClient }
  | ErrorAnswer
  | { kind: 'valid'; request: AuthorizationRequest };

/**
 * `userId`: the logged-in user, if any, whose having allowed a self-registered client lets
 * its errors be redirected (SECURITY.md). `firstUse`: the caller's allowance for using a
 * metadata document for the first time (docs/integrating.md#connect-an-ai-agent-mcp); without it, none is.
 */
export async function validateAuthorizationRequest(
  ctx: OAuthContext,
  raw: RawParameters,
  userId?: string,
  firstUse?: FirstUseGate,
): Promise<AuthorizationValidation> {
  return validate(ctx, raw, { pushing: false, userId, firstUse });
}

/**
 * RFC 9126 §2.1: the parameters a client pushed, checked by the same steps as a request
 * from the browser (the client already authenticated); nobody is signed in, so a
 * self-registered client's errors come back held back, which the PAR endpoint answers as
 * JSON like any other.
 */
export async function validatePushedParameters(ctx: OAuthContext, raw: RawParameters): Promise<AuthorizationValidation> {
  return validate(ctx, raw, { pushing: true, userId: undefined, firstUse: undefined });
}

interface ValidationMode {
  /** At the PAR endpoint: request_uri is not looked up, and pushing is not demanded. */
  pushing: boolean;
  userId: string | undefined;
  firstUse: FirstUseGate | undefined;
}

async function validate(ctx: OAuthContext, raw: RawParameters, mode: ValidationMode): Promise<AuthorizationValidation> {
  const { userId, firstUse } = mode;
  // Steps 1–3: without a trustworthy client and redirect URI nothing may be redirected.
  let checked: { clientId: string; client: ClientRecord; redirectUri: string };
  let named: NamedClient | undefined;
  let pushed: PushedReference | undefined;
  try {
    const { clientId, client } = await checkClient(ctx, raw, firstUse);
    named = { id: client.id, name: client.name };
    if (!mode.pushing) {
      const loaded = await loadPushedRequest(ctx, raw, client);
      if (loaded !== undefined) ({ raw, reference: pushed } = loaded);
    }
    const redirectUri = checkRedirectUri(client, raw);
    checkApproved(client);
    checked = { clientId, client, redirectUri };
  } catch (error) {
    if (error instanceof UnsafeToRedirect) return { kind: 'fatal', error: error.error, reason: error.reason, ...(named !== undefined ? { client: named } : {}) };
    throw error;
  }
  const { clientId, client, redirectUri } = checked;

  // From here on errors go back to the application with state and iss (RFC 9207), unless
  // SECURITY.md holds them back (answerError).
  const target: ErrorTarget = { client, redirectUri, state: readState(raw) };
  try {
    // RFC 9126 §5, §6 (docs/rules.md#pushed-authorization): a client or server that requires PAR.
    if (!mode.pushing && pushed === undefined && mustPush(ctx, client)) {
      throw invalidRequest('this client must use pushed authorization requests: push the parameters to the pushed_authorization_request_endpoint and send only client_id and request_uri');
    }
    const params = readParameters(raw, clientId, redirectUri);
    // Asked only when it matters: a request without scope (SECURITY.md).
    const selfRegistered = params.scope === undefined && (await isSelfRegistered(ctx, client));
    const request = checkRedirectable(ctx, raw, target, params, selfRegistered);
    return { kind: 'valid', request: pushed === undefined ? request : { ...request, pushed } };
  } catch (error) {
    if (error instanceof OAuthError) return answerError(ctx, target, error, userId);
    throw error;
  }
}
