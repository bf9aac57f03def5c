// The authorization endpoint's protocol logic (RFC 6749 §4.1.1–§4.1.2, OpenID Connect Core
// §3.1.2.1 for prompt, RFC 9700 §4.11.2). Checks run in the order RFC 6749 §4.1.2.1 implies:
// first what makes a redirect unsafe (client, redirect URI, approval) — shown as a page, never
// redirected — then what may be redirected back to the client: for a self-registered client
// only once the user has allowed it (SECURITY.md).
import { documentClientRefusal, type FirstUseGate } from './client-metadata.ts';
import type { OAuthContext } from './context.ts';
import { invalidRequest, OAuthError } from './errors.ts';
import { reportingTransaction } from './events.ts';
import { codeLifetimeSeconds, mustPush, pkceRequiredOf } from './client-policy.ts';
import { readCodeChallenge } from './pkce.ts';
import { buildRedirect, isRegisteredRedirectUri } from './redirect-uri.ts';
import { checkResources, readResourceParameter } from './resources.ts';
import { describeScope, parseScopeParameter, sortScopes } from './scopes.ts';
import { isTeamSlug } from './team-slug.ts';
import type { ClientRecord, GrantRecord, OAuthStore } from './storage.ts';
import { generateToken, hashToken, timeOrderedId } from './token-format.ts';

/** The parameters the authorization endpoint reads; others are ignored (RFC 6749 §3.1). */
export const authorizationParameters = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  // RFC 9449 §10: binds the code to a DPoP key.
  'dpop_jkt',
  // docs/rules.md#team-authorization: the grant acts for this team.
  'team_slug',
] as const;

export interface AuthorizationRequest {
  client: ClientRecord;
  redirectUri: string;
  state: string | undefined;
  /** Requested scopes in registry order; null for a legacy client (scope ignored). */
  scopes: string[] | null;
  /** Whether the request carried `scope` at all (for the legacy-migration warning). */
  hadScope: boolean;
  codeChallenge: string | null;
  /** The `prompt` values (OpenID Connect Core §3.1.2.1), validated by readPrompt. */
  prompt: ReadonlySet<PromptValue>;
  /** RFC 8707: the resources the grant will cover; null (none sent) is the default resource. */
  resources: string[] | null;
  /** RFC 9449 §10: the JWK thumbprint the code exchange must prove; null when none was sent. */
  dpopJkt: string | null;
  /** docs/rules.md#team-authorization: the slug of the team the grant is to act for; null: for the user. */
  teamSlug: string | null;
  /**
   * The team `teamSlug` names, once a signed-in user was found to be an owner or admin of it
   * (resolveTeam); absent before, and for a request that names no team.
   */
  team?: { id: string; name: string };
  /** The validated parameters, to carry through login and the consent form. */
  params: Record<string, string>;
  /**
   * RFC 9126 §4: the request came from the PAR endpoint by this request_uri; login and the
   * consent form carry the reference, not the parameters, and the decision consumes it.
   */
  pushed?: PushedReference;
}

/** A request_uri as the browser sent it, and the hash it is stored under. */
export interface PushedReference {
  requestUri: string;
  hash: string;
}

/**
 * The request's parameters as name/value pairs, `resource` repeated once per value: what
 * the login redirect and the consent form carry so the request is read again unchanged.
 */
export function carriedParameters(request: AuthorizationRequest): [string, string][] {
  if (request.pushed !== undefined) return [['client_id', request.params.client_id!], ['request_uri', request.pushed.requestUri]];
  const pairs: [string, string][] = authorizationParameters
    .filter((name) => request.params[name] !== undefined)
    .map((name) => [name, request.params[name]!]);
  for (const resource of request.resources ?? []) pairs.push(['resource', resource]);
  return pairs;
}

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

/** An error for the application, as the user will meet it. */
export type ErrorAnswer = HeldBackError | { kind: 'redirect'; location: string; error: OAuthError };

export type AuthorizationValidation =
  | { kind: 'fatal'; error: OAuthError; reason: FatalReason; client?: NamedClient }
  | ErrorAnswer
  | { kind: 'valid'; request: AuthorizationRequest };

type RawQuery = Record<string, unknown>;

/** docs/rules.md#silent-authorization: the prompt values Gatehouse honours; select_account has no page here. */
export type PromptValue = 'none' | 'login' | 'consent';
const promptValues: readonly string[] = ['none', 'login', 'consent'] satisfies PromptValue[];

/** A user has at most this many active grants per client (docs/rules.md#bounded-growth, as Google). */
export const MAX_ACTIVE_GRANTS_PER_CLIENT = 100;

/** OpenID Connect Core §3.1.2.1: a space-delimited list; none stands alone. */
function readPrompt(value: string | undefined): Set<PromptValue> {
  const values = new Set((value ?? '').split(' ').filter((v) => v !== ''));
  for (const v of values) {
    if (!promptValues.includes(v)) throw invalidRequest(`prompt value "${v}" is not supported: use none, login or consent`);
  }
  if (values.has('none') && values.size > 1) throw invalidRequest('prompt=none cannot be combined with other values: it asks for no page at all');
  return values as Set<PromptValue>;
}

function single(raw: RawQuery, name: string): string | undefined | 'repeated' {
  const value = raw[name];
  if (Array.isArray(value)) return 'repeated';
  if (typeof value !== 'string' || value === '') return undefined;
  return value;
}

/**
 * A check that failed before the redirect URI could be trusted: the request is answered with
 * an error page, never redirected (RFC 6749 §4.1.2.1 first paragraph, docs/rules.md#authorize-errors).
 * Module-private, so only the steps below can raise it.
 */
class UnsafeToRedirect extends Error {
  constructor(
    readonly error: OAuthError,
    readonly reason: FatalReason,
  ) {
    super(error.description);
  }
}

function unsafe(description: string, reason: FatalReason = 'invalid_link'): UnsafeToRedirect {
  return new UnsafeToRedirect(invalidRequest(description), reason);
}

/** Step 1, the client (RFC 6749 §4.1.1 client_id, §2.2): a known application, named once. */
async function checkClient(ctx: OAuthContext, raw: RawQuery, firstUse: FirstUseGate | undefined): Promise<{ clientId: string; client: ClientRecord }> {
  const clientId = single(raw, 'client_id');
  if (clientId === 'repeated') throw unsafe('client_id was sent more than once');
  if (clientId === undefined) throw unsafe('client_id is missing: the application must say who it is');
  // docs/rules.md#client-metadata-documents: a URL client id is resolved from its metadata document.
  if (ctx.clientMetadata?.names(clientId)) {
    const resolved = await ctx.clientMetadata.resolve(clientId, firstUse);
    if (!resolved.ok) throw unsafe(`client_id "${clientId}" cannot be used: ${resolved.problem}`);
    return { clientId, client: resolved.client };
  }
  const off = documentClientRefusal(ctx.clientMetadata !== undefined, clientId);
  if (off !== undefined) throw unsafe(`client_id "${clientId}" is not a known application: ${off}`);
  if (clientId.length > 200) throw unsafe('client_id is not a known application');
  const client = await ctx.store.findClient(clientId);
  if (client === undefined) throw unsafe(`client_id "${clientId}" is not a known application`);
  return { clientId, client };
}

/** Step 2, the redirect URI: exact match with a registered one (RFC 6749 §3.1.2.3, RFC 9700 §2.1, docs/rules.md#authorization-request). */
function checkRedirectUri(client: ClientRecord, raw: RawQuery): string {
  const redirectUri = single(raw, 'redirect_uri');
  if (redirectUri === 'repeated') throw unsafe('redirect_uri was sent more than once');
  if (redirectUri === undefined) throw unsafe('redirect_uri is missing: it must equal one of the registered redirect URIs');
  if (!isRegisteredRedirectUri(client.redirectUris, redirectUri)) {
    throw unsafe(`redirect_uri "${redirectUri}" is not registered for this application`);
  }
  return redirectUri;
}

/** Step 3, approval (docs/rules.md#client-states: a pending client cannot be used). */
function checkApproved(client: ClientRecord): void {
  if (client.state !== 'approved') {
    throw unsafe(`this application is ${client.state} and cannot be authorized until a platform admin approves it`, 'client_not_approved');
  }
}

/** `state` to echo back in a redirect (RFC 6749 §4.1.2.1); a repeated one is not echoed. */
function readState(raw: RawQuery): string | undefined {
  const stateValue = single(raw, 'state');
  return stateValue === 'repeated' ? undefined : stateValue;
}

/** The parameters read, each at most once (RFC 6749 §3.1: none may be included more than once). */
function readParameters(raw: RawQuery, clientId: string, redirectUri: string): Record<string, string> {
  const params: Record<string, string> = { client_id: clientId, redirect_uri: redirectUri };
  for (const name of authorizationParameters) {
    const value = single(raw, name);
    if (value === 'repeated') throw invalidRequest(`${name} was sent more than once`);
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/** Step 4, response_type: only code (RFC 6749 §3.1.1, §4.1.2.1 unsupported_response_type). */
function checkResponseType(params: Record<string, string>): void {
  const responseType = params.response_type;
  if (responseType !== undefined && responseType !== 'code') {
    throw new OAuthError('unsupported_response_type', `response_type "${responseType}" is not supported: use code`);
  }
}

/**
 * Step 5, scope (RFC 6749 §3.3, §4.1.2.1 invalid_scope). docs/rules.md#authorization-request: scope is required and
 * must be a subset of the client's enabled scopes. docs/rules.md#legacy-clients: a legacy client's scope
 * parameter is ignored (scopes null).
 *
 * docs/rules.md#agent-clients: a self-registered client (a metadata document, RFC 7591) may leave scope out,
 * as MCP clients do when the resource names none, and gets the RFC 6749 §3.3 default: the
 * scopes its door allows. That is the client's own scopes: a document client's are
 * CIMD_SCOPES as set now (metadata-documents.ts keeps them so); one registered under
 * DCR_POLICY=open holds what it registered within DCR_SCOPES (DCR_SCOPES when it asked for
 * none); under DCR_POLICY=review, what it registered and an admin approved.
 */
function checkScope(client: ClientRecord, params: Record<string, string>, selfRegistered: boolean): string[] | null {
  if (client.scopes === null) return null;
  if (params.scope === undefined && selfRegistered) return [...client.scopes];
  if (params.scope === undefined) throw invalidRequest('scope is required: name the scopes the application needs');
  const scopes = parseScopeParameter(params.scope);
  const enabled = new Set(client.scopes);
  const outside = scopes.filter((s) => !enabled.has(s));
  if (outside.length > 0) {
    throw new OAuthError('invalid_scope', `scope not enabled for this application: ${outside.join(', ')}`);
  }
  return scopes;
}

/**
 * Step 6, PKCE (RFC 7636 §4.3, RFC 9700 §2.1.1): S256, required of a public client, and of a
 * client of the FAPI 2.0 profile (docs/rules.md#fapi2), confidential as it is.
 */
function checkPkce(client: ClientRecord, params: Record<string, string>): string | null {
  const requiredOf = pkceRequiredOf(client);
  return readCodeChallenge(params.code_challenge, params.code_challenge_method, requiredOf !== null, requiredOf ?? undefined);
}

/** Where an error for the application would go. */
interface ErrorTarget {
  client: ClientRecord;
  redirectUri: string;
  state: string | undefined;
}

/**
 * Steps 4 onwards, once the redirect URI is trusted; an OAuthError here goes back to the
 * application (RFC 6749 §4.1.2.1), or is held back on a page (SECURITY.md, answerError).
 */
function checkRedirectable(
  ctx: OAuthContext,
  raw: RawQuery,
  target: ErrorTarget,
  params: Record<string, string>,
  selfRegistered: boolean,
): AuthorizationRequest {
  const { client, redirectUri, state } = target;
  checkResponseType(params);
  const hadScope = params.scope !== undefined;
  const scopes = checkScope(client, params, selfRegistered);
  const codeChallenge = checkPkce(client, params);
  // Step 7, prompt (OpenID Connect Core §3.1.2.1, docs/rules.md#silent-authorization).
  const prompt = readPrompt(params.prompt);
  // Step 8, resource (RFC 8707 §2, docs/rules.md#resource-indicators): repeatable, each one of ours.
  const resources = checkResources(ctx.resources, readResourceParameter(raw));
  // Step 9, dpop_jkt (RFC 9449 §10): a SHA-256 JWK thumbprint is 43 base64url characters.
  const dpopJkt = params.dpop_jkt ?? null;
  if (dpopJkt !== null && !/^[A-Za-z0-9_-]{43}$/.test(dpopJkt)) {
    throw invalidRequest('dpop_jkt must be the base64url SHA-256 JWK thumbprint (RFC 7638) of the DPoP key: 43 characters');
  }
  // Step 10, team_slug (docs/rules.md#team-authorization).
  const teamSlug = readTeamSlug(params.team_slug);
  const granted = teamSlug === null ? scopes : teamScopesOf(scopes);
  return { client, redirectUri, state, scopes: granted, hadScope, codeChallenge, prompt, resources, dpopJkt, teamSlug, params };
}

function readTeamSlug(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isTeamSlug(value)) throw invalidRequest('team_slug must be the slug of a team: lower-case letters, digits and single hyphens, at most 64 characters');
  return value;
}

/**
 * docs/rules.md#team-authorization: a grant that acts for a team holds only the team family's
 * scopes; the others are left out of it (RFC 6749 §3.3: the token response's `scope` says
 * what was granted), since a team has no profile, calendar or organization of a person's. A
 * legacy request (null) stays as it is: the team's routes are still the only ones it reaches.
 */
function teamScopesOf(scopes: string[] | null): string[] | null {
  if (scopes === null) return null;
  const team = scopes.filter((s) => describeScope(s)?.family === 'team');
  if (team.length === 0) {
    throw new OAuthError('invalid_scope', 'team_slug asks for an authorization that acts for a team, which holds team scopes only (TEAM_…), and the request names none');
  }
  return team;
}

/**
 * docs/rules.md#team-authorization, once a user is signed in: the request with the team
 * `team_slug` names, if the user is an owner or admin of it or of its organization; undefined
 * for anyone else and for a slug no team has, alike, so that the caller's answer
 * (refuseTeam, or prompt=none's consent_required) does not tell which teams exist.
 */
export async function resolveTeam(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<AuthorizationRequest | undefined> {
  if (request.teamSlug === null) return request;
  const team = await ctx.store.findTeamAuthority(request.teamSlug, userId);
  if (team === undefined || !team.mayAuthorize) return undefined;
  return { ...request, team: { id: team.id, name: team.name } };
}

/** The one access_denied of a team authorization the user may not give (resolveTeam), where a page may answer. */
export async function refuseTeam(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<ErrorAnswer> {
  const error = new OAuthError('access_denied', `the signed-in user is not an owner or admin of a team with the slug "${request.teamSlug}": only its owners and admins can authorize an application for a team`);
  return answerError(ctx, request, error, userId);
}

/**
 * The team was deleted, or the user's role in it taken away, between resolveTeam and the
 * grant's transaction: nothing was written, and the answer is resolveTeam's (refuseTeam).
 */
export class TeamAuthorityLost extends Error {}

const isSelfRegistered = async (ctx: OAuthContext, client: ClientRecord) => (await ctx.isSelfRegistered?.(client)) ?? false;

/**
 * RFC 9700 §4.11.2: a client registered by nobody who signed in (a metadata
 * document, RFC 7591 registration, DCR_POLICY=open above all) chose its redirect URI alone,
 * so redirecting its errors there makes Gatehouse an open redirector: anybody registers
 * https://phish.example/login and links to a request that fails, prompt=none being the
 * simplest. Its errors are redirected only once the user has seen its consent page, which
 * in the data is an active grant of this user for this client: a grant is made only by
 * Allow on that page (approveAuthorization), and nothing else records that the page was
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
async function answerError(ctx: OAuthContext, target: ErrorTarget, error: OAuthError, userId: string | undefined): Promise<ErrorAnswer> {
  if ((await isSelfRegistered(ctx, target.client)) && !(await userHasAllowed(ctx, target.client, userId))) {
    return { kind: 'held_back', error, client: target.client, redirectUri: target.redirectUri };
  }
  return { kind: 'redirect', error, location: errorRedirect(ctx, target.redirectUri, error, target.state) };
}

/**
 * `userId`: the logged-in user, if any, whose having allowed a self-registered client lets
 * its errors be redirected (SECURITY.md). `firstUse`: the caller's allowance for using a
 * metadata document for the first time (docs/integrating.md#connect-an-ai-agent-mcp); without it, none is.
 */
export async function validateAuthorizationRequest(
  ctx: OAuthContext,
  raw: RawQuery,
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
export async function validatePushedParameters(ctx: OAuthContext, raw: RawQuery): Promise<AuthorizationValidation> {
  return validate(ctx, raw, { pushing: true, userId: undefined, firstUse: undefined });
}

interface ValidationMode {
  /** At the PAR endpoint: request_uri is not looked up, and pushing is not demanded. */
  pushing: boolean;
  userId: string | undefined;
  firstUse: FirstUseGate | undefined;
}

async function validate(ctx: OAuthContext, raw: RawQuery, mode: ValidationMode): Promise<AuthorizationValidation> {
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
async function loadPushedRequest(ctx: OAuthContext, raw: RawQuery, client: ClientRecord): Promise<{ raw: RawQuery; reference: PushedReference } | undefined> {
  const requestUri = single(raw, 'request_uri');
  if (requestUri === undefined) return undefined;
  if (requestUri === 'repeated') throw unsafe('request_uri was sent more than once');
  const beside = pushedOnly.filter((name) => raw[name] !== undefined);
  if (beside.length > 0) {
    throw unsafe(`${beside.join(', ')} cannot be sent beside request_uri: the pushed request holds every authorization parameter (RFC 9126 §4)`);
  }
  const gone = 'request_uri is unknown, expired or already used: the application must push a new authorization request';
  if (!requestUri.startsWith(REQUEST_URI_PREFIX)) throw unsafe(gone);
  const hash = hashToken(requestUri);
  const stored = await ctx.store.findPushedRequest(hash);
  if (stored === undefined || stored.consumedAt !== null || stored.expiresAt <= ctx.clock()) throw unsafe(gone);
  if (stored.clientId !== client.id) throw unsafe('request_uri was not pushed by this client_id');
  const pushedRaw: RawQuery = { ...stored.parameters, client_id: raw.client_id };
  if (stored.resources !== null) pushedRaw.resource = stored.resources;
  return { raw: pushedRaw, reference: { requestUri, hash } };
}

/**
 * A pushed request spent or expired between its check and the decision (another tab's Allow,
 * or the lifetime ran out on the consent page): the decision rolls back, and the page says
 * so (authorization-decision.ts).
 */
export class PushedRequestGone extends Error {
  readonly error = invalidRequest('request_uri is expired or already used: the application must push a new authorization request');
}

/** RFC 9126 §4: the decision spends the reference, once (ARCHITECTURE.md#single-use-is-atomic). */
async function consumePushed(tx: OAuthStore, request: AuthorizationRequest, now: number): Promise<void> {
  if (request.pushed !== undefined && !(await tx.consumePushedRequest(request.pushed.hash, now))) throw new PushedRequestGone();
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

/**
 * The grant whose remembered consent covers the request, if any (docs/rules.md#consent, docs/rules.md#silent-authorization):
 * one of the user's active grants for this client holding every requested scope (a legacy
 * request: a legacy grant), the newest. Never for prompt=consent, and never for a public
 * client: another app can claim its redirect URI and would get a code without the user
 * (RFC 8252 §8.6). One indexed read of at most MAX_ACTIVE_GRANTS_PER_CLIENT rows (docs/rules.md#bounded-growth).
 */
export async function rememberedGrant(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<GrantRecord | undefined> {
  if (request.prompt.has('consent') || request.client.kind === 'public') return undefined;
  const teamId = request.team?.id ?? null;
  // docs/rules.md#team-authorization: consent given for a team is remembered for that team only.
  const grants = (await ctx.store.listActiveGrants(userId, request.client.id)).filter((g) => (g.teamId ?? null) === teamId);
  const requested = request.scopes;
  if (requested === null) return grants.find((g) => g.scopes === null);
  // A grant covers what it holds: scopes approved in separate authorizations do not add up,
  // because the code must belong to one grant that allows everything it carries.
  return grants.find((g) => g.scopes !== null && requested.every((s) => g.scopes!.includes(s)));
}

/** Records what a logged-in user was asked (the authorization_requests of docs/rules.md#data). */
export async function recordAuthorizationRequest(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<void> {
  await ctx.store.recordAuthorizationRequest(request.client.id, userId, request.hadScope, ctx.clock());
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

function codeRecord(ctx: OAuthContext, request: AuthorizationRequest, userId: string, grantId: string, code: string, now: number) {
  return {
    hash: hashToken(code),
    clientId: request.client.id,
    userId,
    grantId,
    redirectUri: request.redirectUri,
    scopes: request.scopes === null ? null : sortScopes(request.scopes),
    codeChallenge: request.codeChallenge,
    resources: request.resources,
    dpopJkt: request.dpopJkt,
    createdAt: now,
    expiresAt: now + codeLifetimeSeconds(ctx, request.client) * 1000,
    consumedAt: null,
  };
}

/**
 * The user chose Allow: record the grant and issue a one-time code (RFC 6749 §4.1.2), in
 * one transaction. A scoped authorization revokes the user's legacy grants for the client
 * (docs/rules.md#legacy-clients); the grant past MAX_ACTIVE_GRANTS_PER_CLIENT revokes the oldest (item
 * 24). Returns the redirect location.
 */
export async function approveAuthorization(ctx: OAuthContext, request: AuthorizationRequest, userId: string): Promise<string> {
  const now = ctx.clock();
  const code = generateToken('authorizationCode');
  const grantId = timeOrderedId(now);
  const clientId = request.client.id;
  const scopes = request.scopes === null ? null : sortScopes(request.scopes);
  const teamId = request.team?.id ?? null;
  await reportingTransaction(ctx, async (tx: OAuthStore) => {
    // docs/rules.md#team-authorization: the team is held until the grant is written, so that a
    // deletion (which revokes the team's grants) or a role change waits and then sees it.
    if (teamId !== null && !(await tx.holdTeamAuthority(teamId, userId))?.mayAuthorize) throw new TeamAuthorityLost();
    await consumePushed(tx, request, now);
    await tx.lockUserGrants(userId);
    const revoke = async (g: GrantRecord, reason: string) => {
      await tx.revokeGrant(g.id, now);
      const team = g.teamId == null ? {} : { teamId: g.teamId };
      await tx.audit.append({ type: 'grant.revoked', actorId: userId, clientId, userId, data: { grantId: g.id, ...team, reason } }, now);
    };
    let active = await tx.listActiveGrants(userId, clientId);
    if (scopes !== null) {
      // A legacy grant is replaced by a scoped one that acts for the same user or team.
      for (const g of active.filter((g) => g.scopes === null && (g.teamId ?? null) === teamId)) await revoke(g, 'replaced legacy grant');
      active = active.filter((g) => !(g.scopes === null && (g.teamId ?? null) === teamId));
    }
    // Newest first: what lies past the limit, counting the grant about to be created, is oldest.
    for (const g of active.slice(MAX_ACTIVE_GRANTS_PER_CLIENT - 1)) await revoke(g, 'grant limit');
    await tx.createGrant({ id: grantId, userId, clientId, scopes, teamId, createdAt: now, revokedAt: null });
    await tx.createCode(codeRecord(ctx, request, userId, grantId, code, now));
    const team = teamId === null ? {} : { teamId };
    await tx.audit.append({ type: 'grant.created', actorId: userId, clientId, userId, data: { grantId, scopes: scopes?.join(' ') ?? 'legacy', ...team } }, now);
  });
  return buildRedirect(request.redirectUri, { code, state: request.state, iss: ctx.issuer });
}

/**
 * Remembered consent, no page shown: the code belongs to the grant that covers it, and no
 * grant is added (docs/rules.md#silent-authorization). Undefined when the grant was revoked meanwhile: the
 * caller then asks the user, as if nothing had been remembered.
 */
export async function approveSilently(ctx: OAuthContext, request: AuthorizationRequest, userId: string, grant: GrantRecord): Promise<string | undefined> {
  const now = ctx.clock();
  const code = generateToken('authorizationCode');
  const issued = await reportingTransaction(ctx, async (tx: OAuthStore) => {
    if (!(await tx.holdActiveGrant(grant.id))) return false;
    await consumePushed(tx, request, now);
    await tx.createCode(codeRecord(ctx, request, userId, grant.id, code, now));
    return true;
  });
  return issued ? buildRedirect(request.redirectUri, { code, state: request.state, iss: ctx.issuer }) : undefined;
}

/** The user chose Deny: RFC 6749 §4.1.2.1 access_denied; a pushed request is spent by it too. */
export async function denyAuthorization(ctx: OAuthContext, request: AuthorizationRequest): Promise<string> {
  if (request.pushed !== undefined) await reportingTransaction(ctx, (tx) => consumePushed(tx, request, ctx.clock()));
  return errorRedirect(ctx, request.redirectUri, new OAuthError('access_denied', 'the user denied the request'), request.state);
}
