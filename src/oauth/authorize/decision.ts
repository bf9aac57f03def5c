// The authorization endpoint (RFC 6749 §4.1.1–§4.1.2) as named steps: what the browser gets
// for a request and for the consent form's answer, decided here and rendered by
// src/web/authorize.ts. The page layer hands in who is asking as plain values (Requester);
// this module knows no framework, no session and no page.
import type { FirstUseGate } from '../client-metadata.ts';
import type { OAuthContext } from '../context.ts';
import { askConsent, type ShowConsent } from './consent.ts';
import { silentFailure, type ErrorAnswer, type ErrorPage, type HeldBackError } from './error-answers.ts';
import { approveAuthorization, approveSilently, denyAuthorization, rememberedGrant } from './grant.ts';
import { PushedRequestGone } from './pushed.ts';
import type { AuthorizationRequest, RawParameters } from './request.ts';
import { refuseTeam, resolveTeam, TeamAuthorityLost } from './team.ts';
import { validateAuthorizationRequest, type AuthorizationValidation } from './validate.ts';

/** Who is asking, as the page layer knows it. */
export interface Requester {
  /** The logged-in user; undefined without a session. */
  userId: string | undefined;
  /**
   * OpenID Connect Core §3.1.2.1 prompt=login: whether this session's login came after the
   * request asked for a new one (src/web/reauthentication.ts keeps that mark). Read only
   * when the request carries prompt=login.
   */
  loggedInSinceAsked: boolean;
  /**
   * When the session's user last entered their password (OpenID Connect Core §2 auth_time):
   * what max_age is measured against and the ID token tells. Absent: now.
   */
  authenticatedAt?: number | undefined;
  /**
   * The caller's allowance for using a metadata document for the first time (docs/integrating.md#connect-an-ai-agent-mcp);
   * without it, none is.
   */
  firstUse?: FirstUseGate | undefined;
}

/**
 * To the login page and back to the same request. `again`: there is a session, but
 * prompt=login wants a login that came after the request (OpenID Connect Core §3.1.2.1).
 */
export interface ShowLogin {
  kind: 'login';
  request: AuthorizationRequest;
  again: boolean;
}

/** Back to the application: with a code (RFC 6749 §4.1.2) or an error (§4.1.2.1). */
export interface RedirectBack {
  kind: 'redirect';
  location: string;
}

/** The consent form came back with neither Allow nor Deny: nothing is decided. */
export interface UnknownChoice {
  kind: 'error_page';
  reason: 'unknown_choice';
}

/** What the browser gets for an authorization request (GET). */
export type AuthorizationDecision = ShowLogin | ShowConsent | RedirectBack | HeldBackError | ErrorPage;

/** What the browser gets for the consent form's answer (POST): never the consent page again. */
export type ConsentDecision = ShowLogin | RedirectBack | HeldBackError | ErrorPage | UnknownChoice;

/**
 * The request, step by step: is it valid (and safe to redirect), is anyone logged in, has
 * prompt=login had its new login, does remembered consent answer it, may a page be shown.
 */
export async function decideAuthorization(ctx: OAuthContext, query: RawParameters, requester: Requester): Promise<AuthorizationDecision> {
  const checked = await checkRequest(ctx, query, requester);
  if (checked.kind !== 'valid') return checked;
  const { userId } = requester;
  if (userId === undefined) return withoutSession(ctx, checked.request);
  if (wantsNewLogin(ctx, checked.request, requester)) {
    // OpenID Connect Core §3.1.2.6: prompt=none with a login too old for max_age.
    if (checked.request.prompt.has('none')) return silentFailure(ctx, checked.request, 'login_required');
    return { kind: 'login', request: checked.request, again: true };
  }
  const request = await resolveTeam(ctx, checked.request, userId);
  if (request === undefined) return refuseTeamRequest(ctx, checked.request, userId);
  await recordAsked(ctx, request, userId);
  const remembered = await orGonePage(async () => ({ kind: 'redirect' as const, location: await approveFromMemory(ctx, request, userId, requester.authenticatedAt) }));
  if (remembered.kind === 'error_page') return remembered;
  if (remembered.location !== undefined) return { kind: 'redirect', location: remembered.location };
  // OpenID Connect Core §3.1.2.6: prompt=none, and only the consent page could answer.
  if (request.prompt.has('none')) return silentFailure(ctx, request, 'consent_required', userId);
  return askConsent(ctx, request, userId);
}

/**
 * The consent form's answer (`choice`: its decision field as sent), step by step: the request
 * it carries is checked again as at first, Deny needs only a session, Allow also the new
 * login prompt=login asked for.
 */
export async function decideConsent(ctx: OAuthContext, form: RawParameters, choice: unknown, requester: Requester): Promise<ConsentDecision> {
  const checked = await checkRequest(ctx, form, requester);
  if (checked.kind !== 'valid') return checked;
  const { request } = checked;
  const { userId } = requester;
  if (userId === undefined) return withoutSession(ctx, request);
  // RFC 6749 §4.1.2.1 access_denied: the page that was answered named where the browser goes.
  if (choice === 'deny') return orGonePage(async () => ({ kind: 'redirect', location: await denyAuthorization(ctx, request) }));
  if (wantsNewLogin(ctx, request, requester)) return { kind: 'login', request, again: true };
  if (choice !== 'allow') return { kind: 'error_page', reason: 'unknown_choice' };
  // Asked again at Allow: the user's role may have changed since the page was shown.
  const forTeam = await resolveTeam(ctx, request, userId);
  if (forTeam === undefined) return refuseTeam(ctx, request, userId);
  try {
    return await orGonePage(async () => ({ kind: 'redirect', location: await approveAuthorization(ctx, forTeam, userId, requester.authenticatedAt) }));
  } catch (error) {
    if (error instanceof TeamAuthorityLost) return refuseTeam(ctx, request, userId);
    throw error;
  }
}

/**
 * RFC 9126 §4: a pushed request spent meanwhile (another tab decided first) or expired on the
 * consent page; nothing was written, and the page asks the user to start again from the
 * application, which must push a new request.
 */
async function orGonePage<T>(decide: () => Promise<T>): Promise<T | ErrorPage> {
  try {
    return await decide();
  } catch (error) {
    if (error instanceof PushedRequestGone) return { kind: 'error_page', reason: 'invalid_link', error: error.error };
    throw error;
  }
}

/** What a login page's `next` says about the authorization request it returns to. */
export interface AuthorizationReturn {
  /**
   * The registered redirect URI the request would send the browser back to; undefined when
   * its client or redirect URI is not trustworthy (the endpoint would show an error page).
   */
  redirectUri: string | undefined;
  /** The application asking, when the request is valid: the login page names it. */
  client: { clientId: string; name: string } | undefined;
}

/**
 * Where the request would return after a login, asked by nobody yet: no metadata document
 * is used for the first time for it.
 */
export async function whereAuthorizationReturns(ctx: OAuthContext, query: RawParameters): Promise<AuthorizationReturn> {
  const result = await validateAuthorizationRequest(ctx, query);
  if (result.kind === 'error_page') return { redirectUri: undefined, client: undefined };
  // Held back for nobody yet: the user about to log in may have allowed the application.
  if (result.kind === 'held_back') return { redirectUri: result.redirectUri, client: undefined };
  if (result.kind === 'redirect') return { redirectUri: typeof query.redirect_uri === 'string' ? query.redirect_uri : undefined, client: undefined };
  return { redirectUri: result.request.redirectUri, client: { clientId: result.request.client.id, name: result.request.client.name } };
}

/**
 * Step 1 (validate.ts: validateAuthorizationRequest): a request whose client or redirect URI
 * cannot be trusted is a page; another invalid one an error for the application.
 */
function checkRequest(ctx: OAuthContext, raw: RawParameters, requester: Requester): Promise<AuthorizationValidation> {
  return validateAuthorizationRequest(ctx, raw, requester.userId, requester.firstUse);
}

/** Records what a logged-in user was asked (the authorization_requests of docs/rules.md#data). */
async function recordAsked(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<void> {
  await ctx.store.recordAuthorizationRequest(request.client.id, userId, request.hadScope, ctx.clock());
}

/**
 * Step 2, nobody logged in: the login page, except that prompt=none never shows it (OpenID
 * Connect Core §3.1.2.1); its error goes back to the application, or is held back on a page
 * (SECURITY.md).
 */
async function withoutSession(ctx: OAuthContext, request: AuthorizationRequest): Promise<ShowLogin | ErrorAnswer> {
  if (request.prompt.has('none')) return silentFailure(ctx, request, 'login_required');
  return { kind: 'login', request, again: false };
}

/**
 * Step 3, prompt=login and max_age (OpenID Connect Core §3.1.2.1): a session from before the
 * request does not count for prompt=login, nor a login older than max_age; a login made
 * after the request was asked (the mark of src/web/reauthentication.ts) satisfies both, so
 * that max_age=0 asks once and not forever.
 */
function wantsNewLogin(ctx: OAuthContext, request: AuthorizationRequest, requester: Requester): boolean {
  if (requester.loggedInSinceAsked) return false;
  if (request.prompt.has('login')) return true;
  if (request.maxAge === null || requester.authenticatedAt === undefined) return false;
  return ctx.clock() - requester.authenticatedAt > request.maxAge * 1000;
}

/**
 * docs/rules.md#team-authorization: a team the user may not authorize for, or no team at all.
 * Where a page could answer, access_denied says so. prompt=none answers what an admin without
 * remembered consent gets (OpenID Connect Core §3.1.2.6 consent_required, word for word): a
 * silent request, which any approved application can send unseen, must not tell it whether
 * the visitor administers a team, nor whether the team exists.
 */
function refuseTeamRequest(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<ErrorAnswer> {
  return request.prompt.has('none') ? silentFailure(ctx, request, 'consent_required', userId) : refuseTeam(ctx, request, userId);
}

/**
 * Step 4, remembered consent (docs/integrating.md): a code from the grant
 * that covers the request; undefined when none does, or it was revoked meanwhile.
 */
async function approveFromMemory(ctx: OAuthContext, request: AuthorizationRequest, userId: string, authTime: number | undefined): Promise<string | undefined> {
  const grant = await rememberedGrant(ctx, request, userId);
  return grant && approveSilently(ctx, request, userId, grant, authTime);
}
