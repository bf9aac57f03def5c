// The authorization endpoint's decisions (src/oauth/authorize/decision.ts), called
// directly on the core with an in-process database: what the browser gets for a request
// (decideAuthorization) and for the consent form's answer (decideConsent). What only HTTP
// shows (headers, cookies, the pages' words) stays in test/web/authorize*.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decideAuthorization,
  decideConsent,
  type AuthorizationDecision,
  type AuthorizationRequest,
  type ConsentDecision,
  type Requester,
} from '../../src/oauth/authorize/index.ts';
import { approveAuthorization } from '../../src/oauth/authorize/grant.ts';
import { TeamAuthorityLost } from '../../src/oauth/authorize/team.ts';
import { sortScopes } from '../../src/oauth/scopes.ts';
import { hashToken } from '../../src/oauth/token-format.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { addMember, createTeam } from '../../src/services/teams/teams.ts';
import { ISSUER, openCore, REDIRECT_URI, type Core } from './core.ts';

// RFC 7636 Appendix B.
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

// One core for the file, serving client metadata documents (CIMD_POLICY=open), as a server does
// unless CIMD_POLICY=off. Shared: the registration owner's argon2 hash is made once, not per test
// (seconds on two cores), and each test makes clients and users of its own, so none sees another's.
let core: Core;
beforeAll(async () => {
  core = await openCore({ metadataDocuments: true });
});
afterAll(async () => core?.close());

/** A valid request of the client, state xyz, one scope; `extra` adds or replaces parameters. */
const request = (clientId: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT_URI,
  scope: 'PROFILE_READ',
  state: 'xyz',
  ...extra,
});

const nobody: Requester = { userId: undefined, loggedInSinceAsked: false };
const loggedIn = (userId: string, over: Partial<Requester> = {}): Requester => ({ userId, loggedInSinceAsked: false, ...over });

const authorize = (query: Record<string, unknown>, requester: Requester) => decideAuthorization(core.ctx, query, requester);
const answer = (form: Record<string, unknown>, choice: unknown, requester: Requester) => decideConsent(core.ctx, form, choice, requester);

/** The parameters of a redirect back to `redirectUri`; fails on any other decision. */
function redirected(decision: AuthorizationDecision | ConsentDecision, redirectUri = REDIRECT_URI): URLSearchParams {
  expect(decision.kind, JSON.stringify(decision)).toBe('redirect');
  const location = new URL((decision as { location: string }).location);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  return location.searchParams;
}

/** The error a redirect carries, with the state and iss every redirected error has (RFC 9207). */
function redirectedError(decision: AuthorizationDecision | ConsentDecision): string | null {
  const params = redirected(decision);
  expect(params.get('state')).toBe('xyz');
  expect(params.get('iss')).toBe(ISSUER);
  expect(params.get('code')).toBeNull();
  return params.get('error');
}

/** The code a redirect carries, as stored: its grant, user and scopes. */
async function issuedCode(decision: AuthorizationDecision | ConsentDecision) {
  const params = redirected(decision);
  expect(params.get('state')).toBe('xyz');
  expect(params.get('iss')).toBe(ISSUER);
  const code = params.get('code');
  expect(code).toMatch(/^gac_/);
  const stored = await core.ctx.store.findCode(hashToken(code!));
  expect(stored, 'the code in the redirect is stored').toBeDefined();
  return stored!;
}

const activeGrants = (userId: string, clientId: string) => core.ctx.store.listActiveGrants(userId, clientId);

/** A user who allowed the client for PROFILE_READ on its consent page; returns the user's id. */
async function userWhoAllowed(clientId: string, scope = 'PROFILE_READ'): Promise<string> {
  const userId = await core.user();
  await issuedCode(await answer(request(clientId, { scope }), 'allow', loggedIn(userId)));
  return userId;
}

describe('an authorization request (decideAuthorization)', () => {
  it('RFC 6749 §4.1.1: a valid request without a session goes to the login page, carrying the request', async () => {
    const { id: clientId } = await core.client();
    const decision = await authorize(request(clientId), nobody);
    expect(decision).toMatchObject({ kind: 'login', again: false });
    if (decision.kind !== 'login') return;
    expect(decision.request.client.id).toBe(clientId);
    expect(decision.request.state).toBe('xyz');
    expect(decision.request.scopes).toEqual(['PROFILE_READ']);
  });

  it('RFC 6749 §4.1.1: a logged-in user without a grant for the client is shown the consent page, and nothing is granted yet', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    const decision = await authorize(request(clientId), loggedIn(userId));
    expect(decision).toMatchObject({ kind: 'consent', userId });
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });

  it('docs/integrating.md (remembered consent): a grant covering the scopes redirects with a code from that grant, adding no grant', async () => {
    const { id: clientId } = await core.client({ scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const userId = await userWhoAllowed(clientId, 'PROFILE_READ BOOKING_READ');
    const [grant] = await activeGrants(userId, clientId);
    // The same scopes, and fewer: both covered.
    for (const scope of ['PROFILE_READ BOOKING_READ', 'BOOKING_READ']) {
      const code = await issuedCode(await authorize(request(clientId, { scope }), loggedIn(userId)));
      expect(code).toMatchObject({ grantId: grant!.id, userId, clientId, redirectUri: REDIRECT_URI });
      expect(code.scopes, 'in registry order').toEqual(sortScopes(scope.split(' ')));
    }
    expect(await activeGrants(userId, clientId)).toHaveLength(1);
  });

  it('docs/integrating.md: a scope the user has not approved shows the consent page again', async () => {
    const { id: clientId } = await core.client({ scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const userId = await userWhoAllowed(clientId, 'PROFILE_READ');
    expect(await authorize(request(clientId, { scope: 'PROFILE_READ BOOKING_READ' }), loggedIn(userId))).toMatchObject({ kind: 'consent' });
  });

  it('OpenID Connect Core §3.1.2.1: prompt=consent shows the consent page even with remembered consent', async () => {
    const { id: clientId } = await core.client();
    const userId = await userWhoAllowed(clientId);
    expect(await authorize(request(clientId, { prompt: 'consent' }), loggedIn(userId))).toMatchObject({ kind: 'consent', userId });
  });

  it('RFC 8252 §8.6: a public client is never answered from remembered consent: another app can claim its redirect URI', async () => {
    const { id: clientId } = await core.client({ kind: 'public' });
    const pkce = { code_challenge: CHALLENGE, code_challenge_method: 'S256' };
    const userId = await core.user();
    await issuedCode(await answer(request(clientId, pkce), 'allow', loggedIn(userId)));
    expect(await authorize(request(clientId, pkce), loggedIn(userId))).toMatchObject({ kind: 'consent' });
  });

  it('OpenID Connect Core §3.1.2.6 / RFC 6749 §4.1.2.1: prompt=none without a session redirects with login_required', async () => {
    const { id: clientId } = await core.client();
    expect(redirectedError(await authorize(request(clientId, { prompt: 'none' }), nobody))).toBe('login_required');
  });

  it('OpenID Connect Core §3.1.2.6: prompt=none without remembered consent redirects with consent_required, and grants nothing', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    expect(redirectedError(await authorize(request(clientId, { prompt: 'none' }), loggedIn(userId)))).toBe('consent_required');
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });

  it('OpenID Connect Core §3.1.2.1: prompt=none with remembered consent redirects with a code, showing no page', async () => {
    const { id: clientId } = await core.client();
    const userId = await userWhoAllowed(clientId);
    const code = await issuedCode(await authorize(request(clientId, { prompt: 'none' }), loggedIn(userId)));
    expect(code.userId).toBe(userId);
  });

  it('OpenID Connect Core §3.1.2.1: prompt=login sends a logged-in user to log in again; once logged in since, the request goes on', async () => {
    const { id: clientId } = await core.client();
    const userId = await userWhoAllowed(clientId);
    const query = request(clientId, { prompt: 'login' });
    expect(await authorize(query, loggedIn(userId))).toMatchObject({ kind: 'login', again: true });
    // Remembered consent answers only after the new login.
    await issuedCode(await authorize(query, loggedIn(userId, { loggedInSinceAsked: true })));
    // Without a session it is one ordinary login.
    expect(await authorize(query, nobody)).toMatchObject({ kind: 'login', again: false });
  });

  it('OIDC Core 3.1.2.1: max_age sends a user whose login is older to log in again; a login within it, or made since, goes on', async () => {
    const { id: clientId } = await core.client();
    const userId = await userWhoAllowed(clientId);
    const now = core.clock.now();
    const query = request(clientId, { max_age: '600' });
    expect(await authorize(query, loggedIn(userId, { authenticatedAt: now - 601_000 }))).toMatchObject({ kind: 'login', again: true });
    await issuedCode(await authorize(query, loggedIn(userId, { authenticatedAt: now - 600_000 })));
    // max_age=0 asks for a new login every time, and the login that answered it satisfies it.
    const zero = request(clientId, { max_age: '0' });
    expect(await authorize(zero, loggedIn(userId, { authenticatedAt: now - 1 }))).toMatchObject({ kind: 'login', again: true });
    await issuedCode(await authorize(zero, loggedIn(userId, { authenticatedAt: now - 1, loggedInSinceAsked: true })));
  });

  it('OIDC Core 3.1.2.6: prompt=none with a login older than max_age answers login_required', async () => {
    const { id: clientId } = await core.client();
    const userId = await userWhoAllowed(clientId);
    const query = request(clientId, { prompt: 'none', max_age: '60' });
    expect(redirectedError(await authorize(query, loggedIn(userId, { authenticatedAt: core.clock.now() - 61_000 })))).toBe('login_required');
  });

  it('OIDC Core 3.1.2.1: max_age must be a whole number of seconds: invalid_request', async () => {
    const { id: clientId } = await core.client();
    const userId = await userWhoAllowed(clientId);
    for (const maxAge of ['-1', '1.5', 'soon']) expect(redirectedError(await authorize(request(clientId, { max_age: maxAge }), loggedIn(userId))), maxAge).toBe('invalid_request');
  });

  it('OIDC Core 2: the code remembers when the user logged in (auth_time) and the nonce, whether consent was given now or remembered', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    const loggedInAt = core.clock.now() - 3_600_000;
    const given = await issuedCode(await answer(request(clientId, { nonce: 'n-1' }), 'allow', loggedIn(userId, { authenticatedAt: loggedInAt })));
    expect(given).toMatchObject({ authTime: loggedInAt, nonce: 'n-1' });
    const remembered = await issuedCode(await authorize(request(clientId, { nonce: 'n-2' }), loggedIn(userId, { authenticatedAt: loggedInAt })));
    expect(remembered).toMatchObject({ authTime: loggedInAt, nonce: 'n-2' });
  });

  it('RFC 6749 §4.1.2.1: an unknown client, a missing client_id or an unregistered redirect_uri is an error page, never a redirect, prompt=none included', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    const cases: Record<string, unknown>[] = [
      request('no-such-client'),
      request(clientId, { client_id: undefined }),
      request(clientId, { redirect_uri: 'https://app.example.com/callback/other' }),
      request(clientId, { redirect_uri: undefined }),
      request(clientId, { client_id: [clientId, clientId] }),
      request(clientId, { redirect_uri: 'https://evil.example/callback', prompt: 'none' }),
    ];
    for (const query of cases) {
      for (const requester of [nobody, loggedIn(userId)]) {
        const decision = await authorize(query, requester);
        expect(decision, JSON.stringify(query)).toMatchObject({ kind: 'error_page', reason: 'invalid_link' });
        if (decision.kind === 'error_page') expect(decision.error.code).toBe('invalid_request');
      }
    }
  });

  it('RFC 6749 §4.1.2.1: a client not approved (pending or suspended) is an error page saying so, never a redirect', async () => {
    for (const state of ['pending', 'suspended'] as const) {
      const { id: clientId } = await core.client({ state });
      const decision = await authorize(request(clientId), nobody);
      expect(decision, state).toMatchObject({ kind: 'error_page', reason: 'client_not_approved' });
      if (decision.kind === 'error_page') expect(decision.error.description).toContain(state);
    }
  });

  it('RFC 6749 §4.1.2.1: a scope outside the client\'s enabled scopes redirects with invalid_scope, before any login', async () => {
    const { id: clientId } = await core.client({ scopes: ['PROFILE_READ'] });
    expect(redirectedError(await authorize(request(clientId, { scope: 'PROFILE_READ BOOKING_WRITE' }), nobody))).toBe('invalid_scope');
    expect(redirectedError(await authorize(request(clientId, { scope: 'NO_SUCH_SCOPE' }), nobody))).toBe('invalid_scope');
  });

  it("RFC 6749 §3.3: a developer's client that omits scope has no default: invalid_scope, redirected before any login, the description naming the scopes it may send; an empty scope alike", async () => {
    const { id: clientId } = await core.client({ scopes: ['PROFILE_READ', 'BOOKING_READ'] });
    const params = redirected(await authorize(request(clientId, { scope: undefined }), nobody));
    expect([params.get('error'), params.get('state'), params.get('iss')]).toEqual(['invalid_scope', 'xyz', ISSUER]);
    expect(params.get('error_description')).toBe('scope is required: send scope with the scopes the application needs, separated by spaces, among those enabled for it: BOOKING_READ PROFILE_READ');
    expect(redirectedError(await authorize(request(clientId, { scope: ' , ' }), loggedIn(await core.user())))).toBe('invalid_scope');
  });

  it('RFC 6749 §4.1.2.1: other invalid parameters of a trusted client redirect with their error (unsupported_response_type, a repeated parameter, PKCE of a public client)', async () => {
    const { id: clientId } = await core.client();
    const { id: publicId } = await core.client({ kind: 'public' });
    expect(redirectedError(await authorize(request(clientId, { response_type: 'token' }), nobody))).toBe('unsupported_response_type');
    expect(redirectedError(await authorize(request(clientId, { scope: ['PROFILE_READ', 'PROFILE_READ'] }), nobody))).toBe('invalid_request');
    expect(redirectedError(await authorize(request(clientId, { prompt: 'none login' }), nobody))).toBe('invalid_request');
    expect(redirectedError(await authorize(request(publicId), nobody))).toBe('invalid_request');
  });

  it('RFC 8707 §2: a resource that is not one of the server\'s redirects with invalid_target naming it; resources it protects, repeated, are stored on the code in registry order', async () => {
    const { id: clientId } = await core.client();
    const params = redirected(await authorize(request(clientId, { resource: 'https://elsewhere.example.com/api' }), nobody));
    expect([params.get('error'), params.get('state'), params.get('iss')]).toEqual(['invalid_target', 'xyz', ISSUER]);
    expect(params.get('error_description')).toContain('https://elsewhere.example.com/api');
    const [api, mcp] = core.ctx.resources.known as [string, string];
    const code = await issuedCode(await answer(request(clientId, { resource: [mcp, api] }), 'allow', loggedIn(await core.user())));
    expect(code.resources).toEqual([api, mcp]);
  });

  it('docs/rules.md#legacy-clients: a legacy client\'s request ignores scope and is answered from the user\'s legacy grant', async () => {
    const { id: clientId } = await core.client({ scopes: null });
    const userId = await core.user();
    expect(await authorize(request(clientId, { scope: 'ANYTHING' }), loggedIn(userId))).toMatchObject({ kind: 'consent' });
    await issuedCode(await answer(request(clientId), 'allow', loggedIn(userId)));
    const code = await issuedCode(await authorize(request(clientId, { scope: undefined }), loggedIn(userId)));
    expect(code.scopes).toBeNull();
  });
});

describe('a self-registered client\'s errors (SECURITY.md; RFC 9700 §4.11.2)', () => {
  const phish = 'https://phish.example/login';
  const pkce = { redirect_uri: phish, code_challenge: CHALLENGE, code_challenge_method: 'S256' };

  it('RFC 9700 §4.11.2: before the user allowed it, invalid_scope, login_required and consent_required are held back on a page naming it, never redirected', async () => {
    const { id: clientId } = await core.selfRegisteredClient(phish);
    const userId = await core.user();
    const held = [
      { decision: await authorize(request(clientId, { ...pkce, scope: 'BOOKING_WRITE' }), nobody), code: 'invalid_scope' },
      { decision: await authorize(request(clientId, { ...pkce, prompt: 'none' }), nobody), code: 'login_required' },
      { decision: await authorize(request(clientId, { ...pkce, prompt: 'none' }), loggedIn(userId)), code: 'consent_required' },
    ];
    for (const { decision, code } of held) {
      expect(decision, code).toMatchObject({ kind: 'held_back', redirectUri: phish, client: { id: clientId, name: 'Calendar Helper' } });
      if (decision.kind === 'held_back') expect(decision.error.code).toBe(code);
    }
  });

  it('RFC 9700 §4.11.2: once the user allowed it on its consent page, its errors for that user are redirected; another user\'s are still held back', async () => {
    const { id: clientId } = await core.selfRegisteredClient(phish);
    const userId = await core.user();
    expect(await authorize(request(clientId, pkce), loggedIn(userId))).toMatchObject({ kind: 'consent' });
    redirected(await answer(request(clientId, pkce), 'allow', loggedIn(userId)), phish);
    const params = redirected(await authorize(request(clientId, { ...pkce, scope: 'BOOKING_WRITE' }), loggedIn(userId)), phish);
    expect(params.get('error')).toBe('invalid_scope');
    expect(await authorize(request(clientId, { ...pkce, scope: 'BOOKING_WRITE' }), loggedIn(await core.user()))).toMatchObject({ kind: 'held_back' });
  });

  it('RFC 6749 §3.3: a self-registered client may leave scope out and gets the scopes it registered', async () => {
    const { id: clientId } = await core.selfRegisteredClient(phish);
    const decision = await authorize(request(clientId, { ...pkce, scope: undefined }), nobody);
    expect(decision).toMatchObject({ kind: 'login' });
    if (decision.kind === 'login') expect(decision.request.scopes).toEqual(['PROFILE_READ']);
  });
});

describe('a client metadata document used for the first time (docs/integrating.md#connect-an-ai-agent-mcp)', () => {
  it('docs/integrating.md#connect-an-ai-agent-mcp: a document is made a client only through the requester\'s first-use allowance; refused, the link is an error page and no client is made', async () => {
    const clientId = 'https://agent.example/client.json';
    core.documents.set(clientId, { client_id: clientId, client_name: 'Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    const query = request(clientId, { code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    for (const requester of [nobody, { ...nobody, firstUse: async () => 'too many new applications from this address: retry in 60 seconds' }]) {
      const decision = await authorize(query, requester);
      expect(decision).toMatchObject({ kind: 'error_page', reason: 'invalid_link' });
      if (decision.kind === 'error_page') expect(decision.error.description).toMatch(/not been used on this server yet|too many new applications/);
    }
    expect(await core.services.stores.clients.find(clientId)).toBeUndefined();
    let asked = 0;
    const allowed = await authorize(query, { ...nobody, firstUse: async () => void asked++ });
    expect(allowed).toMatchObject({ kind: 'login', request: { client: { id: clientId, name: 'Agent' } } });
    expect(asked).toBe(1);
    expect(await core.services.stores.clients.find(clientId)).toMatchObject({ state: 'approved', kind: 'public' });
  });
});

describe('what the consent page tells of the application (docs/rules.md#consent)', () => {
  it('docs/rules.md#consent: the consent decision names the developer, and an application a signed-in developer registered counts as reviewed', async () => {
    const { id: clientId } = await core.client();
    expect(await authorize(request(clientId), loggedIn(await core.user()))).toMatchObject({ kind: 'consent', developer: 'Ada', reviewed: true });
  });

  it('docs/integrating.md#connect-an-ai-agent-mcp: an application that registered itself under an open policy is unreviewed until an admin decides on it', async () => {
    const redirectUri = 'https://helper.example/cb';
    const { id: clientId } = await core.selfRegisteredClient(redirectUri);
    const query = request(clientId, { redirect_uri: redirectUri, code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    const userId = await core.user();
    expect(await authorize(query, loggedIn(userId))).toMatchObject({ kind: 'consent', developer: 'Dynamic client registration', reviewed: false });
    await reviewClient(core.services, clientId, 'suspend', null);
    await reviewClient(core.services, clientId, 'approve', null);
    expect(await authorize(query, loggedIn(userId))).toMatchObject({ kind: 'consent', reviewed: true });
  });

  it('docs/rules.md#cimd-policy: a metadata-document client whose host nobody trusted is unreviewed, named by that host', async () => {
    const clientId = 'https://unvetted.example/client.json';
    core.documents.set(clientId, { client_id: clientId, client_name: 'Unvetted', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' });
    const query = request(clientId, { code_challenge: CHALLENGE, code_challenge_method: 'S256' });
    const decision = await authorize(query, { ...loggedIn(await core.user()), firstUse: async () => undefined });
    expect(decision).toMatchObject({ kind: 'consent', reviewed: false, request: { client: { unverifiedHost: 'unvetted.example' } } });
  });
});

describe('the consent form\'s answer (decideConsent)', () => {
  it('RFC 6749 §4.1.2: Allow records a grant and redirects with a one-time code of that grant, with state and iss (RFC 9207)', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    const code = await issuedCode(await answer(request(clientId), 'allow', loggedIn(userId)));
    const grants = await activeGrants(userId, clientId);
    expect(grants).toHaveLength(1);
    expect(grants[0]!.scopes).toEqual(['PROFILE_READ']);
    expect(code).toMatchObject({ grantId: grants[0]!.id, clientId, userId, scopes: ['PROFILE_READ'], consumedAt: null });
    expect(code.expiresAt - code.createdAt).toBe(60_000);
  });

  it('RFC 6749 §4.1.2.1: Deny redirects with access_denied, state and iss, and grants nothing', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    expect(redirectedError(await answer(request(clientId), 'deny', loggedIn(userId)))).toBe('access_denied');
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });

  it('OpenID Connect Core §3.1.2.1: with prompt=login, Allow from a session older than the request goes to log in again and grants nothing; Deny needs no new login', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    const form = request(clientId, { prompt: 'login' });
    expect(await answer(form, 'allow', loggedIn(userId))).toMatchObject({ kind: 'login', again: true });
    expect(await activeGrants(userId, clientId)).toEqual([]);
    expect(redirectedError(await answer(form, 'deny', loggedIn(userId)))).toBe('access_denied');
    await issuedCode(await answer(form, 'allow', loggedIn(userId, { loggedInSinceAsked: true })));
  });

  it('RFC 6749 §4.1.1: an answer after the session ended goes to the login page (prompt=none: login_required), and grants nothing', async () => {
    const { id: clientId } = await core.client();
    expect(await answer(request(clientId), 'allow', nobody)).toMatchObject({ kind: 'login', again: false });
    expect(redirectedError(await answer(request(clientId, { prompt: 'none' }), 'allow', nobody))).toBe('login_required');
  });

  it('RFC 6749 §4.1.2.1: neither Allow nor Deny is a page, and grants nothing', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    for (const choice of [undefined, 'maybe', ['allow', 'allow']]) {
      expect(await answer(request(clientId), choice, loggedIn(userId)), JSON.stringify(choice)).toEqual({ kind: 'error_page', reason: 'unknown_choice' });
    }
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });

  it('RFC 6749 §4.1.2.1: Allow for a client suspended while its page was open is an error page, and grants nothing', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    expect(await authorize(request(clientId), loggedIn(userId))).toMatchObject({ kind: 'consent' });
    await reviewClient(core.services, clientId, 'suspend', null);
    expect(await answer(request(clientId), 'allow', loggedIn(userId))).toMatchObject({ kind: 'error_page', reason: 'client_not_approved' });
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });

  it('RFC 6749 §4.1.2.1: the form is checked again as the request was: an unregistered redirect_uri is an error page, even for Deny', async () => {
    const { id: clientId } = await core.client();
    const userId = await core.user();
    const form = request(clientId, { redirect_uri: 'https://evil.example/callback' });
    for (const choice of ['allow', 'deny']) {
      expect(await answer(form, choice, loggedIn(userId)), choice).toMatchObject({ kind: 'error_page', reason: 'invalid_link' });
    }
  });
});

describe('team_slug: an authorization that acts for a team (docs/rules.md#team-authorization)', () => {
  /** A team whose admin is `adminId`; returns its id and slug. */
  async function teamOf(adminId: string) {
    const team = await createTeam(core.services, { name: `Sales ${Math.random().toString(36).slice(2)}`, ownerId: await core.user() });
    const membership = await addMember(core.services, { teamId: team.id }, adminId, 'admin');
    return { id: team.id, slug: team.slug, membershipId: membership.id };
  }

  it("RFC 6749 §3.3: an admin's Allow records a grant for the team holding the team scopes alone", async () => {
    const { id: clientId } = await core.client({ scopes: ['PROFILE_READ', 'TEAM_PROFILE_READ', 'TEAM_BOOKING_READ'] });
    const userId = await core.user();
    const team = await teamOf(userId);
    const code = await issuedCode(await answer(request(clientId, { scope: 'PROFILE_READ TEAM_PROFILE_READ TEAM_BOOKING_READ', team_slug: team.slug }), 'allow', loggedIn(userId)));
    expect(code.scopes).toEqual(sortScopes(['TEAM_PROFILE_READ', 'TEAM_BOOKING_READ']));
    expect(await core.ctx.store.findGrant(code.grantId)).toMatchObject({ userId, teamId: team.id, scopes: code.scopes });
  });

  it('the role is asked again at Allow: an admin demoted while the page was open gets access_denied, and no grant', async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    const userId = await core.user();
    const team = await teamOf(userId);
    const form = request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug });
    expect(await authorize(form, loggedIn(userId))).toMatchObject({ kind: 'consent', request: { team: { id: team.id } } });
    await core.stores.teams.setMembershipRole(team.membershipId, 'member', core.clock.now());
    expect(redirectedError(await answer(form, 'allow', loggedIn(userId)))).toBe('access_denied');
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });

  it("the user's own consent does not answer a request for the team, nor the team's consent one for the user", async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    const userId = await core.user();
    const team = await teamOf(userId);
    await issuedCode(await answer(request(clientId, { scope: 'TEAM_PROFILE_READ' }), 'allow', loggedIn(userId)));
    expect(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), loggedIn(userId))).toMatchObject({ kind: 'consent' });
    const forTeam = await issuedCode(await answer(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), 'allow', loggedIn(userId)));
    const again = await issuedCode(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), loggedIn(userId)));
    expect(again.grantId).toBe(forTeam.grantId);
    expect((await activeGrants(userId, clientId)).map((g) => g.teamId ?? null).sort()).toEqual([team.id, null].sort());
  });

  it("a team's consent alone does not answer a request for the user", async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    const userId = await core.user();
    const team = await teamOf(userId);
    await issuedCode(await answer(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), 'allow', loggedIn(userId)));
    expect(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ' }), loggedIn(userId))).toMatchObject({ kind: 'consent', request: { teamSlug: null } });
  });

  it('OpenID Connect Core §3.1.2.6 prompt=none: remembered consent for the team answers nothing once its giver is no longer an admin, and says what it says to anyone', async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    const userId = await core.user();
    const team = await teamOf(userId);
    await issuedCode(await answer(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), 'allow', loggedIn(userId)));
    await core.stores.teams.setMembershipRole(team.membershipId, 'member', core.clock.now());
    expect(redirectedError(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug, prompt: 'none' }), loggedIn(userId)))).toBe('consent_required');
  });

  it('OpenID Connect Core §3.1.2.6 prompt=none: without remembered consent for the team, an admin, a member, a stranger and a slug no team has get the one same consent_required', async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    const adminId = await core.user();
    const team = await teamOf(adminId);
    const memberId = await core.user();
    await addMember(core.services, { teamId: team.id }, memberId, 'member');
    const strangerId = await core.user();
    const silent = (userId: string, slug: string) => authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: slug, prompt: 'none' }), loggedIn(userId));
    const answers = [await silent(adminId, team.slug), await silent(memberId, team.slug), await silent(strangerId, team.slug), await silent(adminId, 'no-such-team-anywhere')];
    for (const decision of answers) expect(redirectedError(decision)).toBe('consent_required');
    expect(new Set(answers.map((d) => (d as { location: string }).location)).size, 'one answer, word for word').toBe(1);
    // Without prompt=none the consent page still asks the admin, and the others are refused (docs/rules.md#team-authorization).
    expect(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), loggedIn(adminId))).toMatchObject({ kind: 'consent' });
    expect(redirectedError(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), loggedIn(memberId)))).toBe('access_denied');
    // Once the admin allowed it, prompt=none answers the admin with a code, and the member as before.
    await issuedCode(await answer(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), 'allow', loggedIn(adminId)));
    await issuedCode(await silent(adminId, team.slug));
    expect(redirectedError(await silent(memberId, team.slug))).toBe('consent_required');
  });

  it("docs/rules.md#legacy-clients: a scoped authorization replaces the legacy grant of the same user or team only", async () => {
    const { id: clientId } = await core.client({ scopes: ['PROFILE_READ', 'TEAM_PROFILE_READ'] });
    const userId = await core.user();
    const team = await teamOf(userId);
    const legacyOfTeam = { id: `legacy-${Math.random()}`, userId, clientId, scopes: null, teamId: team.id, createdAt: core.clock.now(), revokedAt: null };
    await core.ctx.store.createGrant(legacyOfTeam);
    await issuedCode(await answer(request(clientId, { scope: 'PROFILE_READ' }), 'allow', loggedIn(userId)));
    expect((await core.ctx.store.findGrant(legacyOfTeam.id))?.revokedAt).toBeNull();
    await issuedCode(await answer(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), 'allow', loggedIn(userId)));
    expect((await core.ctx.store.findGrant(legacyOfTeam.id))?.revokedAt).not.toBeNull();
  });

  it('RFC 6749 §4.1.2.1: before login nothing about the team is asked; a malformed slug is invalid_request at once', async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    expect(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: 'no-such-team' }), nobody)).toMatchObject({ kind: 'login' });
    expect(redirectedError(await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: '-bad-' }), nobody))).toBe('invalid_request');
  });
});

describe('team_slug: the grant transaction holds the team (docs/rules.md#team-authorization)', () => {
  it('a team deleted after the role was checked gets no grant: approveAuthorization refuses, writing nothing', async () => {
    const { id: clientId } = await core.client({ scopes: ['TEAM_PROFILE_READ'] });
    const userId = await core.user();
    const team = await createTeam(core.services, { name: `Doomed ${Math.random().toString(36).slice(2)}`, ownerId: userId });
    const shown = await authorize(request(clientId, { scope: 'TEAM_PROFILE_READ', team_slug: team.slug }), loggedIn(userId));
    expect(shown).toMatchObject({ kind: 'consent', request: { team: { id: team.id } } });
    expect(await core.stores.teams.deleteTeam(team.id, userId, core.clock.now())).toBe(true);
    await expect(approveAuthorization(core.ctx, (shown as { request: AuthorizationRequest }).request, userId)).rejects.toBeInstanceOf(TeamAuthorityLost);
    expect(await activeGrants(userId, clientId)).toEqual([]);
  });
});
