// Where an error of the authorization endpoint may go (RFC 6749 §4.1.2.1): a page when the
// client or its redirect URI cannot be trusted; else back to the application, unless it is
// held back on a page for a self-registered application the user has not allowed (SECURITY.md).
import type { OAuthContext } from '../context.ts';
import { invalidRequest, OAuthError } from '../errors.ts';
import { buildRedirect } from '../redirect-uri.ts';
import type { ClientRecord } from '../storage.ts';
import type { AuthorizationRequest } from './request.ts';

/**
 * Why a request could not be redirected, for the page that answers it: the application is
 * not approved (the link itself may be fine), or the link names no usable client or
 * redirect URI.
 */
export type FatalReason = 'client_not_approved' | 'invalid_link';

/**
 * An error for the application that is shown on a page instead of being redirected to it
 * (docs/rules.md#agent-clients: a self-registered application the user has not allowed, see answerError);
 * the page names the application. Its redirect URI is kept for the login page, whose user
 * may turn out to have allowed the application.
 */
export interface HeldBackError {
  kind: 'held_back';
  error: OAuthError;
  client: ClientRecord;
  redirectUri: string;
}

/**
 * The application a refused link named, when its client_id was a known one: the page names
 * it in the developer's own words, which nobody verified (and the link may not be its own).
 */
export interface NamedClient {
  id: string;
  name: string;
}

/**
 * A page and never a redirect (RFC 6749 §4.1.2.1 first paragraph): the client or its redirect
 * URI cannot be trusted, or the client is not approved; `error` says which check failed.
 */
export interface ErrorPage {
  kind: 'error_page';
  reason: FatalReason;
  error: OAuthError;
  /** The known application the link named (a bad redirect URI, or not approved); absent for an unknown client_id. */
  client?: NamedClient;
}

/** An error for the application, as the user will meet it. */
export type ErrorAnswer = HeldBackError | { kind: 'redirect'; location: string; error: OAuthError };

/** Where an error for the application would go. */
export interface ErrorTarget {
  client: ClientRecord;
  redirectUri: string;
  state: string | undefined;
}

/**
 * A check that failed before the redirect URI could be trusted: the request is answered with
 * an error page, never redirected (RFC 6749 §4.1.2.1 first paragraph, docs/rules.md#authorize-errors).
 * Not exported by index.ts, so only this folder's steps can raise it.
 */
export class UnsafeToRedirect extends Error {
  constructor(readonly page: ErrorPage) {
    super(page.error.description);
  }
}

/** `client`: the known client the request named, once step 1 found it, for the page to name. */
export function unsafe(description: string, client?: ClientRecord, reason: FatalReason = 'invalid_link'): UnsafeToRedirect {
  const named = client === undefined ? {} : { client: { id: client.id, name: client.name } };
  return new UnsafeToRedirect({ kind: 'error_page', reason, error: invalidRequest(description), ...named });
}

/** Steps that only a page may refuse: their refusal, or what they found. */
export async function orErrorPage<T>(steps: () => Promise<T>): Promise<T | ErrorPage> {
  try {
    return await steps();
  } catch (error) {
    if (error instanceof UnsafeToRedirect) return error.page;
    throw error;
  }
}

/**
 * A description that quotes what the caller sent (`response_type "…"`) is cut short: echoed
 * whole, a parameter of many kilobytes made a Location header no client could read (found
 * by fuzzing the consent form).
 */
const MAX_REDIRECT_DESCRIPTION = 200;

export function errorRedirect(ctx: OAuthContext, redirectUri: string, error: OAuthError, state: string | undefined): string {
  const description =
    error.description.length > MAX_REDIRECT_DESCRIPTION ? `${error.description.slice(0, MAX_REDIRECT_DESCRIPTION - 3)}...` : error.description;
  return buildRedirect(redirectUri, {
    error: error.code,
    error_description: description,
    state,
    iss: ctx.issuer,
  });
}

/** SECURITY.md: whether nobody who signed in registered the client (context.ts: isSelfRegistered). */
export const isSelfRegistered = async (ctx: OAuthContext, client: ClientRecord) => (await ctx.isSelfRegistered?.(client)) ?? false;

/**
 * RFC 9700 §4.11.2: a client registered by nobody who signed in (a metadata
 * document, RFC 7591 registration, DCR_POLICY=open above all) chose its redirect URI alone,
 * so redirecting its errors there makes Gatehouse an open redirector: anybody registers
 * https://phish.example/login and links to a request that fails, prompt=none being the
 * simplest. Its errors are redirected only once the user has seen its consent page, which
 * in the data is an active grant of this user for this client: a grant is made only by
 * Allow on that page (grant.ts: approveAuthorization), and nothing else records that the page was
 * shown (authorization_requests records what a logged-in user asked, prompt=none included).
 * A Deny leaves no grant and needs none: its access_denied is the answer of the page
 * itself, which named the host the browser goes back to. A revoked grant counts no more:
 * the user withdrew that trust, and ended grants are pruned, so counting them would make the
 * rule depend on the last prune. Covered: every error redirected before the user's decision
 * — those of validation (invalid_request, unsupported_response_type, invalid_scope,
 * invalid_target) and prompt=none's login_required and consent_required.
 */
async function userHasAllowed(ctx: OAuthContext, client: ClientRecord, userId: string | undefined): Promise<boolean> {
  if (userId === undefined) return false;
  return (await ctx.store.listActiveGrants(userId, client.id)).length > 0;
}

/** An error for the application: redirected to it (RFC 6749 §4.1.2.1), or held back (SECURITY.md). */
export async function answerError(ctx: OAuthContext, target: ErrorTarget, error: OAuthError, userId: string | undefined): Promise<ErrorAnswer> {
  if ((await isSelfRegistered(ctx, target.client)) && !(await userHasAllowed(ctx, target.client, userId))) {
    return { kind: 'held_back', error, client: target.client, redirectUri: target.redirectUri };
  }
  return { kind: 'redirect', error, location: errorRedirect(ctx, target.redirectUri, error, target.state) };
}

/**
 * OpenID Connect Core §3.1.2.6: prompt=none, and a page would be needed (OpenID Connect Core §3.1.2.1);
 * held back on a page for a self-registered client the user has not allowed (docs/rules.md#agent-clients).
 */
export async function silentFailure(ctx: OAuthContext, request: AuthorizationRequest, code: 'login_required' | 'consent_required', userId?: string): Promise<ErrorAnswer> {
  const description =
    code === 'login_required'
      ? 'the user is not logged in, and prompt=none does not allow the login page'
      : 'the user has not approved this request for this application, and prompt=none does not allow the consent page';
  return answerError(ctx, request, new OAuthError(code, description), userId);
}
