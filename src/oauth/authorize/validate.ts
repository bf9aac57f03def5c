// The authorization request checked, in the order RFC 6749 §4.1.2.1 implies (RFC 6749
// §4.1.1–§4.1.2, OpenID Connect Core §3.1.2.1 for prompt, RFC 9700 §4.11.2): first what
// makes a redirect unsafe (client, redirect URI, approval) — shown as a page, never
// redirected — then what may be redirected back to the client: for a self-registered client
// only once the user has allowed it (SECURITY.md). Two lists of steps: the browser's request,
// and the parameters a client pushed (RFC 9126 §2.1).
import type { FirstUseGate } from '../client-metadata.ts';
import type { OAuthContext } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { checkApproved, checkClient, checkRedirectUri, type SafeToRedirect } from './check-client.ts';
import { checkParameters, readState } from './check-parameters.ts';
import { answerError, orErrorPage, type ErrorAnswer, type ErrorPage } from './error-answers.ts';
import { loadPushedRequest, requirePushed } from './pushed.ts';
import type { AuthorizationRequest, RawParameters } from './request.ts';

/** What the checks made of a request: a page, an error for the application, or the request. */
export type AuthorizationValidation = ErrorPage | ErrorAnswer | { kind: 'valid'; request: AuthorizationRequest };

/**
 * The browser's request. `userId`: the logged-in user, if any, whose having allowed a
 * self-registered client lets its errors be redirected (SECURITY.md). `firstUse`: the
 * caller's allowance for using a metadata document for the first time
 * (docs/integrating.md#connect-an-ai-agent-mcp); without it, none is.
 */
export async function validateAuthorizationRequest(
  ctx: OAuthContext,
  raw: RawParameters,
  userId?: string,
  firstUse?: FirstUseGate,
): Promise<AuthorizationValidation> {
  const trusted = await orErrorPage(async (): Promise<SafeToRedirect> => {
    const { clientId, client } = await checkClient(ctx, raw, firstUse);
    // RFC 9126 §4: a request_uri's pushed parameters stand in for the browser's.
    const loaded = await loadPushedRequest(ctx, raw, client);
    const parameters = loaded?.raw ?? raw;
    const redirectUri = checkRedirectUri(client, parameters);
    checkApproved(client);
    return { kind: 'safe_to_redirect', clientId, client, redirectUri, raw: parameters, pushed: loaded?.reference };
  });
  if (trusted.kind === 'error_page') return trusted;
  return orErrorForApplication(ctx, trusted, userId, async () => {
    requirePushed(ctx, trusted.client, trusted.pushed);
    const request = await checkParameters(ctx, trusted);
    return trusted.pushed === undefined ? request : { ...request, pushed: trusted.pushed };
  });
}

/**
 * RFC 9126 §2.1: the parameters a client pushed, checked by the same steps as a request
 * from the browser (the client already authenticated), but for a request_uri, which cannot
 * point at another pushed request (the PAR endpoint refuses it first), and the demand to
 * push. Nobody is signed in, so a self-registered client's errors come back held back,
 * which the PAR endpoint answers as JSON like any other.
 */
export async function validatePushedParameters(ctx: OAuthContext, raw: RawParameters): Promise<AuthorizationValidation> {
  const trusted = await orErrorPage(async (): Promise<SafeToRedirect> => {
    const { clientId, client } = await checkClient(ctx, raw, undefined);
    const redirectUri = checkRedirectUri(client, raw);
    checkApproved(client);
    return { kind: 'safe_to_redirect', clientId, client, redirectUri, raw, pushed: undefined };
  });
  if (trusted.kind === 'error_page') return trusted;
  return orErrorForApplication(ctx, trusted, undefined, () => checkParameters(ctx, trusted));
}

/**
 * Steps 4 onwards: an OAuthError goes back to the application with state and iss (RFC 9207),
 * unless SECURITY.md holds it back (error-answers.ts: answerError).
 */
async function orErrorForApplication(
  ctx: OAuthContext,
  trusted: SafeToRedirect,
  userId: string | undefined,
  steps: () => Promise<AuthorizationRequest>,
): Promise<AuthorizationValidation> {
  try {
    return { kind: 'valid', request: await steps() };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return answerError(ctx, { client: trusted.client, redirectUri: trusted.redirectUri, state: readState(trusted.raw) }, error, userId);
  }
}
