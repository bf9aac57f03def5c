// Re-authentication and silent authorization (docs/rules.md#code-replay, docs/rules.md#authorize-errors, docs/rules.md#consent, docs/rules.md#bounded-growth, docs/rules.md#silent-authorization; RFC 8252
// §8.6; OpenID Connect Core §3.1.2.1 for the meaning of `prompt`), walked through real HTTP
// with the cookie-keeping browser on both storage backends.
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeGrantsQuery } from '../../src/storage/repositories/grants.ts';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser, type PageResponse } from '../helpers/browser.ts';
import { codeCountOfUser, queryPlan } from '../helpers/rows.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { auditEvents, codeOf, grantsOf } from '../helpers/stores.ts';

const AUTHORIZE = '/auth/oauth2/authorize';

function authorizePath(params: Record<string, string>): string {
  return `${AUTHORIZE}?${new URLSearchParams(params)}`;
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe.each(backends)('prompt and silent authorization on $name', ({ name, available }) => {
  let server: TestServer;
  let dev: TestUser;
  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    dev = await server.user();
  });
  afterAll(async () => server?.close());

  async function loggedIn(): Promise<{ user: TestUser; browser: Browser }> {
    const user = await server.user();
    const browser = server.browser();
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    return { user, browser };
  }

  function params(client: TestClient, extra: Record<string, string> = {}): Record<string, string> {
    return {
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      response_type: 'code',
      scope: 'PROFILE_READ',
      state: `st-${randomBytes(4).toString('hex')}`,
      ...extra,
    };
  }

  const grantRows = (userId: string, clientId: string) => grantsOf(server, userId, clientId);

  /** Where a same-site redirect leads, as a browser resolves it. */
  const target = (res: PageResponse) => new URL(res.location!, server.url);

  /** A redirect back to the application's registered redirect_uri. */
  function backToClient(res: PageResponse, client: TestClient): URL {
    expect(res.status).toBe(303);
    const back = new URL(res.location!);
    expect(`${back.origin}${back.pathname}`).toBe(client.redirectUri);
    expect(back.searchParams.get('iss')).toBe(server.url);
    return back;
  }

  function expectError(res: PageResponse, client: TestClient, error: string, state: string) {
    const back = backToClient(res, client);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('error_description')).toMatch(/\S{3,}/);
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.has('code')).toBe(false);
    return back;
  }

  function expectCode(res: PageResponse, client: TestClient, state: string): string {
    const back = backToClient(res, client);
    expect(back.searchParams.get('state')).toBe(state);
    expect(back.searchParams.has('error')).toBe(false);
    const code = back.searchParams.get('code');
    expect(code).toMatch(/^gac_/);
    return code!;
  }

  const isConsentPage = (res: PageResponse) => res.status === 200 && res.body.includes('name="decision" value="allow"');

  // --- prompt=none never shows a page --------------------------------------------------------

  it.skipIf(!available)('prompt=none without a session → redirect with error=login_required, state and iss, no login page (docs/rules.md#authorize-errors, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const p = params(client, { prompt: 'none' });
    const res = await server.browser().get(authorizePath(p));
    expectError(res, client, 'login_required', p.state!);
  });

  it.skipIf(!available)('prompt=none when consent would be needed → redirect with error=consent_required, no page, no grant (docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const p = params(client, { prompt: 'none' });
    expectError(await browser.get(authorizePath(p)), client, 'consent_required', p.state!);
    expect(await grantRows(user.id, client.clientId)).toHaveLength(0);
  });

  it.skipIf(!available)('prompt=none with remembered consent → code without a page, usable at the token endpoint (docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    await server.authorize(browser, params(client));
    const p = params(client, { prompt: 'none' });
    const code = expectCode(await browser.get(authorizePath(p)), client, p.state!);
    const token = await server.exchange(client, code);
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('PROFILE_READ');
  });

  it.skipIf(!available)('prompt=none with an unknown client or an unregistered redirect_uri → 400 page, never a redirect (docs/rules.md#authorize-errors, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const bads: Array<Record<string, string>> = [{ client_id: 'no-such-client' }, { redirect_uri: 'https://evil.example/callback' }];
    for (const bad of bads) {
      const res = await server.browser().get(authorizePath(params(client, { prompt: 'none', ...bad })));
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it.skipIf(!available)('an unknown prompt value, or none combined with another value → redirect with error=invalid_request naming prompt (docs/rules.md#authorize-errors, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    for (const prompt of ['nonsense', 'select_account', 'none login', 'consent none']) {
      const p = params(client, { prompt });
      const back = expectError(await browser.get(authorizePath(p)), client, 'invalid_request', p.state!);
      expect(back.searchParams.get('error_description')).toContain('prompt');
    }
    // The same answer before login: nothing is shown to someone without a session either.
    const p = params(client, { prompt: 'none consent' });
    expectError(await server.browser().get(authorizePath(p)), client, 'invalid_request', p.state!);
  });

  // --- remembered consent: public clients and scope sets --------------------------------------

  it.skipIf(!available)('a public client whose redirect URI another app claims gets the consent page again, never a code without the user (docs/rules.md#silent-authorization; RFC 8252 §8.6)', async () => {
    const client = await server.client(dev, { kind: 'public' });
    const { user, browser } = await loggedIn();
    // The user once authorized the genuine app.
    const genuine = pkcePair();
    const first = await server.authorize(browser, params(client, { code_challenge: genuine.challenge }));
    const issued = await server.exchange(client, first.searchParams.get('code')!, { code_verifier: genuine.verifier });
    expect(issued.status).toBe(200);
    const before = await grantRows(user.id, client.clientId);
    expect(before).toHaveLength(1);

    // An app that claimed the same redirect URI starts an authorization with the same
    // client_id and its own PKCE pair: the user sees the consent page, it gets no code.
    const attacker = pkcePair();
    const p = params(client, { code_challenge: attacker.challenge });
    const res = await browser.get(authorizePath(p));
    expect(res.location).toBeNull();
    expect(isConsentPage(res)).toBe(true);
    // Silently, it gets no code either.
    const silent = params(client, { code_challenge: attacker.challenge, prompt: 'none' });
    expectError(await browser.get(authorizePath(silent)), client, 'consent_required', silent.state!);
    expect(await grantRows(user.id, client.clientId)).toEqual(before);
    expect(await codeCountOfUser(server.db, user.id)).toBe(1);
  });

  it.skipIf(!available)('remembered consent covers only the scopes granted, for the same client (docs/rules.md#consent, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const other = await server.client(dev);
    const { browser } = await loggedIn();
    await server.authorize(browser, params(client, { scope: 'PROFILE_READ' }));
    expect(isConsentPage(await browser.get(authorizePath(params(client, { scope: 'PROFILE_READ PROFILE_WRITE' }))))).toBe(true);
    expect(isConsentPage(await browser.get(authorizePath(params(other, { scope: 'PROFILE_READ' }))))).toBe(true);
    const more = params(client, { scope: 'PROFILE_READ PROFILE_WRITE', prompt: 'none' });
    expectError(await browser.get(authorizePath(more)), client, 'consent_required', more.state!);
    const elsewhere = params(other, { prompt: 'none' });
    expectError(await browser.get(authorizePath(elsewhere)), other, 'consent_required', elsewhere.state!);
  });

  it.skipIf(!available)('prompt=consent asks again even with remembered consent, and Allow then records a grant (docs/rules.md#consent, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    await server.authorize(browser, params(client));
    const page = await browser.get(authorizePath(params(client, { prompt: 'consent' })));
    expect(isConsentPage(page)).toBe(true);
    await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' });
    expect(await grantRows(user.id, client.clientId)).toHaveLength(2);
  });

  // --- a silent authorization reuses the live grant -------------------------------------------

  it.skipIf(!available)('silent authorizations add no grant: the code belongs to the user\'s live grant for that client and scope set (docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    await server.authorize(browser, params(client, { scope: 'PROFILE_READ BOOKING_READ' }));
    const [grant] = await grantRows(user.id, client.clientId);
    const requests: Array<Record<string, string>> = [{ scope: 'BOOKING_READ PROFILE_READ' }, { scope: 'PROFILE_READ' }, { scope: 'PROFILE_READ BOOKING_READ', prompt: 'none' }];
    for (const extra of requests) {
      const p = params(client, extra);
      const code = expectCode(await browser.get(authorizePath(p)), client, p.state!);
      expect((await codeOf(server, code))!.grantId).toBe(grant!.id);
      const token = await server.exchange(client, code);
      expect(token.status).toBe(200);
    }
    expect(await grantRows(user.id, client.clientId)).toEqual([grant]);
    expect(await auditEvents(server, { userId: user.id, type: 'grant.created' })).toHaveLength(1);
  });

  it.skipIf(!available)('a replayed code revokes the tokens issued from it, not those of other codes sharing its grant (docs/rules.md#code-replay, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    const refresh = (token: string) =>
      server.token({ grant_type: 'refresh_token', refresh_token: token, client_id: client.clientId, client_secret: client.secret! });
    const first = await server.exchange(client, (await server.authorize(browser, params(client))).searchParams.get('code')!);
    const p = params(client);
    const silentCode = expectCode(await browser.get(authorizePath(p)), client, p.state!);
    const second = await server.exchange(client, silentCode);
    expect(second.status).toBe(200);
    // The silent code's refresh token was rotated once: its successor descends from the code too.
    const rotated = await refresh(second.body.refresh_token as string);
    expect(rotated.status).toBe(200);

    const replay = await server.exchange(client, silentCode);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    for (const access of [second.body.access_token, rotated.body.access_token] as string[]) {
      expect((await server.api('GET', '/v2/me', access)).status).toBe(401);
    }
    expect((await refresh(rotated.body.refresh_token as string)).body.error).toBe('invalid_grant');
    // The first authorization's tokens, and the remembered consent, are untouched.
    expect((await server.api('GET', '/v2/me', first.body.access_token as string)).status).toBe(200);
    expect((await refresh(first.body.refresh_token as string)).status).toBe(200);
    const again = params(client, { prompt: 'none' });
    expectCode(await browser.get(authorizePath(again)), client, again.state!);
  });

  // --- prompt=login -----------------------------------------------------------------------------

  /** Follows the login redirect, submits the form with the user's password; returns the answer. */
  async function logInAgain(browser: Browser, res: PageResponse, user: TestUser): Promise<PageResponse> {
    expect(res.status).toBe(303);
    expect(target(res).pathname).toBe('/login');
    const form = await browser.get(target(res).pathname + target(res).search);
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="password"');
    const fields = formFields(form.body);
    const posted = await browser.post('/login', { ...fields, email: user.email, password: user.password });
    expect(posted.status).toBe(303);
    return browser.follow(posted);
  }

  it.skipIf(!available)('prompt=login with a live session → the login page, then a code after the user logs in again (docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    await server.authorize(browser, params(client));
    const cookiesBefore = browser.cookieHeader();
    const p = params(client, { prompt: 'login' });
    const res = await browser.get(authorizePath(p));
    // Remembered consent does not skip the login: no code before the user logs in again.
    expect(res.status).toBe(303);
    expect(res.location!.startsWith(client.redirectUri)).toBe(false);
    const login = await browser.get(target(res).pathname + target(res).search);
    expect(login.body).toMatch(/log in again/i);
    const back = await logInAgain(browser, res, user);
    const code = expectCode(back, client, p.state!);
    expect((await server.exchange(client, code)).status).toBe(200);
    // The session the re-login replaced has ended: its cookie is sent to log in; the new one works.
    const withOldCookie = await fetch(`${server.url}/settings/authorized-apps`, { headers: { cookie: cookiesBefore }, redirect: 'manual' });
    expect(withOldCookie.status).toBe(303);
    expect(new URL(withOldCookie.headers.get('location')!, server.url).pathname).toBe('/login');
    expect(browser.cookieHeader()).not.toBe(cookiesBefore);
    expect((await browser.get('/settings/authorized-apps')).status).toBe(200);
  });

  it.skipIf(!available)('OIDC Core 3.1.2.1: max_age older than the login sends the user to log in again, and the ID token\'s auth_time moves to that login', async () => {
    const client = await server.client(dev, { scopes: ['openid', 'PROFILE_READ'] });
    const { user, browser } = await loggedIn();
    const firstLogin = Math.floor(server.clock() / 1000);
    const first = await server.exchange(client, (await server.authorize(browser, params(client, { scope: 'openid' }))).searchParams.get('code')!);
    expect(decodeJwt((first.body as { id_token: string }).id_token).auth_time).toBe(firstLogin);
    server.advance(120);
    const p = params(client, { scope: 'openid', max_age: '60' });
    const back = await logInAgain(browser, await browser.get(authorizePath(p)), user);
    const again = await server.exchange(client, expectCode(back, client, p.state!));
    const authTime = decodeJwt((again.body as { id_token: string }).id_token).auth_time as number;
    expect(authTime).toBeGreaterThanOrEqual(firstLogin + 120);
    // Within max_age now: no page, a code at once.
    const within = params(client, { scope: 'openid', max_age: '60' });
    expectCode(await browser.get(authorizePath(within)), client, within.state!);
  });

  it.skipIf(!available)('prompt=login without a session asks for one login only, then continues to the consent page and a code (docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const user = await server.user();
    const browser = server.browser();
    const p = params(client, { prompt: 'login consent' });
    const page = await logInAgain(browser, await browser.get(authorizePath(p)), user);
    expect(isConsentPage(page)).toBe(true);
    const decided = await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' });
    expectCode(decided, client, p.state!);
  });

  it.skipIf(!available)('prompt=login: a login from before the request, a tampered or a stale re-login mark never skip the login (docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    await server.authorize(browser, params(client));
    const p = params(client, { prompt: 'login' });
    const demanded = await browser.get(authorizePath(p));
    const next = new URL(target(demanded).searchParams.get('next')!, server.url);
    const mark = next.searchParams.get('reauth');
    expect(mark).toBeTruthy();

    // The login that came before the request does not count, even with the mark.
    const withMark = await browser.get(next.pathname + next.search);
    expect(target(withMark).pathname).toBe('/login');
    // A mark from a browser that had no session (a private window) does not count either.
    const stranger = server.browser();
    const theirs = new URL(target(await stranger.get(authorizePath(p))).searchParams.get('next')!, server.url);
    expect(target(await browser.get(theirs.pathname + theirs.search)).pathname).toBe('/login');
    // A mark with another time, or a broken signature, is refused.
    const [time, signature] = mark!.split('.');
    for (const forged of [`${Number(time) + 3_600_000}.${signature}`, `${time}.${signature}x`, 'garbage', `${time}`]) {
      next.searchParams.set('reauth', forged);
      expect(target(await browser.get(next.pathname + next.search)).pathname).toBe('/login');
    }

    // After logging in again the fresh mark works once the user is back...
    const back = await logInAgain(browser, demanded, user);
    expectCode(back, client, p.state!);
    // ...and is stale ten minutes later: the user must log in again.
    next.searchParams.set('reauth', mark!);
    server.advance(11 * 60);
    expect(target(await browser.get(next.pathname + next.search)).pathname).toBe('/login');
  });

  // --- docs/rules.md#bounded-growth: growth is bounded ------------------------------------------------------

  it.skipIf(!available)('the 101st grant of a user for a client revokes the oldest, audited as grant.revoked with reason grant limit (docs/rules.md#bounded-growth)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const now = server.clock();
    const seeded = Array.from({ length: 100 }, (_, i) => ({
      id: `seeded-${user.id}-${String(i).padStart(3, '0')}`,
      userId: user.id,
      clientId: client.clientId,
      scopes: ['PROFILE_READ'],
      createdAt: now - 1_000_000 + i,
      revokedAt: null,
    }));
    await server.oauth.transaction(async (tx) => {
      for (const grant of seeded) await tx.createGrant(grant);
    });
    const page = await browser.get(authorizePath(params(client, { prompt: 'consent' })));
    expect((await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' })).status).toBe(303);

    // The seeded grants have no grant.created event: each is read by its id.
    const seededNow = await Promise.all(seeded.map(async (g) => (await server.oauth.findGrant(g.id))!));
    const rows = [...new Map([...seededNow, ...(await grantRows(user.id, client.clientId))].map((g) => [g.id, g])).values()];
    expect(rows).toHaveLength(101);
    expect(rows.filter((g) => g.revokedAt === null)).toHaveLength(100);
    expect(rows.filter((g) => g.revokedAt !== null).map((g) => g.id)).toEqual([seeded[0]!.id]);
    const events = await auditEvents(server, { userId: user.id, type: 'grant.revoked' });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ grantId: seeded[0]!.id, reason: 'grant limit' });
  });

  it.skipIf(!available)('whether remembered consent covers a request is one indexed read of active grants, however many were revoked (docs/rules.md#bounded-growth)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    await server.authorize(browser, params(client));
    const now = server.clock();
    for (let batch = 0; batch < 4; batch++) {
      const rows = Array.from({ length: 500 }, (_, i) => ({
        id: `revoked-${user.id}-${batch}-${i}`,
        userId: user.id,
        clientId: client.clientId,
        scopes: ['PROFILE_READ'],
        createdAt: now - 10_000_000 + batch * 1000 + i,
        revokedAt: now - 1000,
      }));
      await server.oauth.transaction(async (tx) => {
        for (const grant of rows) await tx.createGrant(grant);
      });
    }
    const plan = await queryPlan(server.db, name, 'grants', activeGrantsQuery(server.db, user.id, client.clientId).compile());
    expect(plan).toContain('grants_active');
    // No full scan of grants (PostgreSQL "Seq Scan", SQLite "SCAN grants").
    expect(plan).not.toMatch(/Seq Scan|^SCAN grants/m);
    // And the remembered consent is still found among them.
    const p = params(client, { prompt: 'none' });
    expectCode(await browser.get(authorizePath(p)), client, p.state!);
  });
});
