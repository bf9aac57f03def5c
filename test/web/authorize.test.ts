// The browser side of the authorization endpoint (docs/rules.md#authorization-request, docs/rules.md#authorize-errors,
// docs/rules.md#client-states, docs/rules.md#pkce, docs/rules.md#scope-syntax, docs/rules.md#consent,
// docs/rules.md#legacy-clients, docs/rules.md#security-checklist), walked through real HTTP with a cookie jar on both storage backends.
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeScope, familyTitles } from '../../src/oauth/scopes.ts';
import { migrateLegacyClient } from '../../src/services/clients/changes.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { activeGrantsQuery } from '../../src/storage/repositories/grants.ts';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser, type PageResponse } from '../helpers/browser.ts';
import { visibleText } from '../helpers/pages.ts';
import { codeCountOfUser, queryPlan } from '../helpers/rows.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { auditEvents, codeOf, grantsOf } from '../helpers/stores.ts';

const AUTHORIZE = '/auth/oauth2/authorize';

function authorizePath(params: Record<string, string> | Array<[string, string]>): string {
  return `${AUTHORIZE}?${new URLSearchParams(params)}`;
}

function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function setCookie(res: PageResponse, name: string): string | undefined {
  return res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));
}

describe.each(backends)('authorization page on $name', ({ name, available }) => {
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
    const res = await browser.login(user.email, user.password);
    expect(res.status).toBe(303);
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

  /** A 400 HTML page that names the problem and never sends the browser anywhere. */
  function expectErrorPage(res: PageResponse, problem: RegExp) {
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(visibleText(res.body)).toMatch(problem);
  }

  /** A redirect back to the application with error, error_description, state and iss. */
  function expectRedirectedError(res: PageResponse, client: TestClient, error: string, state: string | undefined) {
    expect(res.status).toBe(303);
    const back = new URL(res.location!);
    expect(`${back.origin}${back.pathname}`).toBe(client.redirectUri);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('error_description')).toMatch(/\S{3,}/);
    expect(back.searchParams.get('state')).toBe(state ?? null);
    expect(back.searchParams.get('iss')).toBe(server.url);
    expect(back.searchParams.has('code')).toBe(false);
    return back;
  }

  // --- docs/rules.md#authorize-errors: what makes a redirect unsafe is shown as a page -----------------

  it.skipIf(!available)('unknown client_id → 400 page naming it, no redirect (docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    const res = await server.browser().get(authorizePath(params(client, { client_id: 'no-such-client<script>x</script>' })));
    expectErrorPage(res, /client_id "no-such-client<script>x<\/script>" is not a known application/);
    expect(res.body).not.toContain('<script>x</script>');
  });

  it.skipIf(!available)('missing client_id → 400 page, no redirect (docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    const { client_id: _omit, ...rest } = params(client);
    void _omit;
    const res = await server.browser().get(authorizePath(rest));
    expectErrorPage(res, /client_id is missing/);
  });

  it.skipIf(!available)('unregistered redirect_uri, near misses included → 400 page, no redirect (docs/rules.md#redirect-uris, docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev, { redirectUris: ['https://app.example.com/callback'] });
    const nearMisses = [
      'https://app.example.com/callback/',
      'https://APP.example.com/callback',
      'https://app.example.com/callback?x=1',
      'http://app.example.com/callback',
      'https://app.example.com/callbac',
      'https://evil.example/callback',
    ];
    for (const uri of nearMisses) {
      const res = await server.browser().get(authorizePath(params(client, { redirect_uri: uri })));
      expectErrorPage(res, /redirect_uri ".*" is not registered for this application/);
      expect(visibleText(res.body)).toContain(uri);
    }
    const missing = await server.browser().get(authorizePath({ client_id: client.clientId, scope: 'PROFILE_READ' }));
    expectErrorPage(missing, /redirect_uri is missing/);
  });

  it.skipIf(!available)('pending client → 400 page saying it awaits approval, no redirect (docs/rules.md#client-states; docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev, { state: 'pending' });
    const { browser } = await loggedIn();
    const res = await browser.get(authorizePath(params(client)));
    expectErrorPage(res, /this application is pending/);
  });

  it.skipIf(!available)('suspended client → 400 page, no redirect; usable again once re-approved (docs/rules.md#client-states, docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    await reviewClient(server.services, client.clientId, 'suspend', null);
    const { browser } = await loggedIn();
    const res = await browser.get(authorizePath(params(client)));
    expectErrorPage(res, /this application is suspended/);
    await reviewClient(server.services, client.clientId, 'approve', null);
    expect((await browser.get(authorizePath(params(client)))).status).toBe(200);
  });

  it.skipIf(!available)('repeated client_id → 400 page, no redirect (docs/rules.md#authorize-errors, docs/rules.md#request-parameters)', async () => {
    const client = await server.client(dev);
    const other = await server.client(dev);
    const query: Array<[string, string]> = [
      ['client_id', client.clientId],
      ['client_id', other.clientId],
      ['redirect_uri', client.redirectUri],
      ['scope', 'PROFILE_READ'],
    ];
    const res = await server.browser().get(authorizePath(query));
    expectErrorPage(res, /client_id was sent more than once/);
  });

  // --- docs/rules.md#authorize-errors: with a valid client and redirect_uri, errors go back ----------------

  it.skipIf(!available)('RFC 6749 §3.3: missing scope → redirect error=invalid_scope, the description naming the scopes to send (docs/rules.md#authorization-request; docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev, { scopes: ['BOOKING_READ', 'PROFILE_READ'] });
    const { scope: _omit, ...rest } = params(client);
    void _omit;
    const res = await server.browser().get(authorizePath(rest));
    const back = expectRedirectedError(res, client, 'invalid_scope', rest.state);
    expect(back.searchParams.get('error_description')).toBe('scope is required: send scope with the scopes the application needs, separated by spaces, among those enabled for it: BOOKING_READ PROFILE_READ');
  });

  it.skipIf(!available)('unknown scope → redirect error=invalid_scope (docs/rules.md#scope-syntax)', async () => {
    const client = await server.client(dev);
    const p = params(client, { scope: 'PROFILE_READ NOT_A_SCOPE' });
    const back = expectRedirectedError(await server.browser().get(authorizePath(p)), client, 'invalid_scope', p.state);
    expect(back.searchParams.get('error_description')).toContain('NOT_A_SCOPE');
  });

  it.skipIf(!available)('scope outside the client\'s enabled scopes → redirect error=invalid_scope (docs/rules.md#scope-checks, docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev, { scopes: ['PROFILE_READ'] });
    const p = params(client, { scope: 'PROFILE_READ BOOKING_WRITE' });
    const back = expectRedirectedError(await server.browser().get(authorizePath(p)), client, 'invalid_scope', p.state);
    expect(back.searchParams.get('error_description')).toContain('BOOKING_WRITE');
  });

  it.skipIf(!available)('response_type=token → redirect error=unsupported_response_type (docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    const p = params(client, { response_type: 'token' });
    expectRedirectedError(await server.browser().get(authorizePath(p)), client, 'unsupported_response_type', p.state);
  });

  it.skipIf(!available)('a parameter of kilobytes is not echoed whole: error_description stays within 200 characters, so the Location stays readable (RFC 6749 §4.1.2.1)', async () => {
    const client = await server.client(dev);
    const p = params(client, { response_type: 'x'.repeat(6000) });
    const res = await server.browser().get(authorizePath(p));
    const back = expectRedirectedError(res, client, 'unsupported_response_type', p.state);
    const description = back.searchParams.get('error_description')!;
    expect(description.length).toBeLessThanOrEqual(200);
    expect(description).toMatch(/^response_type "x+\.\.\.$/);
    expect(res.location!.length).toBeLessThan(1000);
  });

  it.skipIf(!available)('public client without code_challenge → redirect error=invalid_request (docs/rules.md#authorization-request; docs/rules.md#pkce)', async () => {
    const client = await server.client(dev, { kind: 'public' });
    const p = params(client);
    const back = expectRedirectedError(await server.browser().get(authorizePath(p)), client, 'invalid_request', p.state);
    expect(back.searchParams.get('error_description')).toMatch(/code_challenge/);
    // With an S256 challenge the same client gets its code.
    const { browser } = await loggedIn();
    const ok = await server.authorize(browser, params(client, { code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }));
    expect(ok.searchParams.get('code')).toMatch(/^gac_/);
  });

  it.skipIf(!available)('code_challenge_method=plain → redirect error=invalid_request (docs/rules.md#pkce)', async () => {
    const client = await server.client(dev, { kind: 'public' });
    const verifier = randomBytes(32).toString('base64url');
    const p = params(client, { code_challenge: verifier, code_challenge_method: 'plain' });
    const back = expectRedirectedError(await server.browser().get(authorizePath(p)), client, 'invalid_request', p.state);
    expect(back.searchParams.get('error_description')).toMatch(/S256/);
  });

  it.skipIf(!available)('a repeated parameter with a valid client → redirect error=invalid_request (docs/rules.md#request-parameters)', async () => {
    const client = await server.client(dev);
    const query: Array<[string, string]> = [
      ['client_id', client.clientId],
      ['redirect_uri', client.redirectUri],
      ['scope', 'PROFILE_READ'],
      ['scope', 'BOOKING_READ'],
      ['state', 's1'],
    ];
    const back = expectRedirectedError(await server.browser().get(authorizePath(query)), client, 'invalid_request', 's1');
    expect(back.searchParams.get('error_description')).toMatch(/scope was sent more than once/);
  });

  it.skipIf(!available)('every redirected error carries error_description, state and iss, and no state when none was sent (docs/rules.md#authorize-errors, RFC 9207)', async () => {
    const client = await server.client(dev, { scopes: ['PROFILE_READ'] });
    const publicClient = await server.client(dev, { kind: 'public', scopes: ['PROFILE_READ'] });
    const cases: Array<[TestClient, Record<string, string>, string]> = [
      [client, { scope: '' }, 'invalid_scope'],
      [client, { scope: 'UNKNOWN' }, 'invalid_scope'],
      [client, { scope: 'BOOKING_READ' }, 'invalid_scope'],
      [client, { response_type: 'id_token' }, 'unsupported_response_type'],
      [publicClient, {}, 'invalid_request'],
      [publicClient, { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
      [publicClient, { code_challenge: 'too-short' }, 'invalid_request'],
    ];
    for (const [c, extra, error] of cases) {
      const p = params(c, { state: 'opaque state/with+chars&=', ...extra });
      expectRedirectedError(await server.browser().get(authorizePath(p)), c, error, 'opaque state/with+chars&=');
      const { state: _s, ...stateless } = p;
      void _s;
      expectRedirectedError(await server.browser().get(authorizePath(stateless)), c, error, undefined);
    }
  });

  it.skipIf(!available)('the redirect keeps the query of a registered redirect_uri (RFC 6749 §3.1.2)', async () => {
    const client = await server.client(dev, { redirectUris: ['https://app.example.com/cb?tenant=42'] });
    const res = await server.browser().get(authorizePath(params(client, { scope: 'NOPE' })));
    expect(res.status).toBe(303);
    const back = new URL(res.location!);
    expect(back.searchParams.get('tenant')).toBe('42');
    expect(back.searchParams.get('error')).toBe('invalid_scope');
  });

  // --- docs/rules.md#scope-syntax: scope syntax ------------------------------------------------------

  it.skipIf(!available)('scopes separated by commas and spaces, with duplicates, are granted in registry order joined by single spaces (docs/rules.md#authorization-request, docs/rules.md#token-response; docs/rules.md#scope-syntax)', async () => {
    const client = await server.client(dev, { scopes: ['PROFILE_READ', 'PROFILE_WRITE', 'BOOKING_READ'] });
    const { browser } = await loggedIn();
    const back = await server.authorize(browser, params(client, { scope: ' PROFILE_WRITE,PROFILE_READ  BOOKING_READ,,PROFILE_READ PROFILE_WRITE ' }));
    expect(back.searchParams.get('code')).toMatch(/^gac_/);
    const res = await server.exchange(client, back.searchParams.get('code')!);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('BOOKING_READ PROFILE_READ PROFILE_WRITE');
  });

  // --- Login, consent, decisions ----------------------------------------------------------

  it.skipIf(!available)('not logged in → 303 to /login?next=…, and after login back to the authorization page (docs/rules.md#surfaces)', async () => {
    const client = await server.client(dev);
    const user = await server.user();
    const browser = server.browser();
    const p = params(client);
    const first = await browser.get(authorizePath(p));
    expect(first.status).toBe(303);
    const login = new URL(first.location!, server.url);
    expect(login.pathname).toBe('/login');
    const next = login.searchParams.get('next')!;
    const nextUrl = new URL(next, server.url);
    expect(nextUrl.pathname).toBe(AUTHORIZE);
    expect(Object.fromEntries(nextUrl.searchParams)).toEqual(p);

    const form = await browser.get(login.pathname + login.search);
    expect(form.status).toBe(200);
    const fields = formFields(form.body);
    expect(fields.next).toBe(next);
    const posted = await browser.post('/login', { ...fields, email: user.email, password: user.password });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(next);
    const consent = await browser.follow(posted);
    expect(consent.status).toBe(200);
    expect(consent.body).toContain('id="client-name"');
    const decided = await browser.post(AUTHORIZE, { ...formFields(consent.body), decision: 'allow' });
    expect(new URL(decided.location!).searchParams.get('state')).toBe(p.state);
  });

  it.skipIf(!available)('consent page shows the client name, homepage, return host and each scope in plain words grouped by family (docs/rules.md#consent)', async () => {
    const client = await server.client(dev, {
      name: 'Ada\'s <Planner> & Co',
      homepageUrl: 'https://planner.example.com',
      redirectUris: ['https://return.example.org/oauth/cb'],
      scopes: ['PROFILE_READ', 'BOOKING_READ', 'TEAM_BOOKING_READ', 'ORG_PROFILE_READ', 'ORG_MEMBERSHIP_READ'],
    });
    const { browser } = await loggedIn();
    const requested = ['ORG_PROFILE_READ', 'TEAM_BOOKING_READ', 'PROFILE_READ', 'BOOKING_READ'];
    const res = await browser.get(authorizePath(params(client, { scope: requested.join(' ') })));
    expect(res.status).toBe(200);
    const text = visibleText(res.body);
    expect(text).toContain('Ada\'s <Planner> & Co wants to access your account');
    expect(res.body).not.toContain('<Planner>');
    // A developer's client reached users only through an admin's approval, and the page says so.
    expect(text).toContain('A platform admin reviewed this application before it could ask.');
    expect(res.body).not.toContain('unverified-notice');
    // The homepage by its host, linking to the whole address.
    expect(res.body).toContain('<a href="https://planner.example.com" rel="noopener noreferrer" id="client-homepage">planner.example.com</a>');
    expect(visibleText(/<strong id="return-host">(.*?)<\/strong>/.exec(res.body)![1]!)).toBe('return.example.org');

    const sections = [...res.body.matchAll(/<section class="scope-group"><h3>(.*?)<\/h3>(?:<p class="reach[^"]*" id="reach-[a-z]+">.*?<\/p>)?<ul class="scopes">(.*?)<\/ul><\/section>/g)].map((m) => ({
      title: visibleText(m[1]!).trim(),
      items: [...m[2]!.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((li) => visibleText(li[1]!).trim()),
    }));
    const d = (s: string) => describeScope(s)!.description;
    expect(sections).toEqual([
      { title: familyTitles.personal, items: [d('BOOKING_READ'), d('PROFILE_READ')] },
      { title: familyTitles.team, items: [d('TEAM_BOOKING_READ')] },
      { title: familyTitles.organization, items: [d('ORG_PROFILE_READ')] },
    ]);
    // An enabled scope that was not requested is not shown.
    expect(text).not.toContain(d('ORG_MEMBERSHIP_READ'));
    // The page offers exactly Allow and Deny.
    expect([...res.body.matchAll(/name="decision" value="(\w+)"/g)].map((m) => m[1])).toEqual(['allow', 'deny']);
  });

  it.skipIf(!available)('Deny → redirect with error=access_denied, state and iss, and no grant (RFC 6749 §4.1.2.1; docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const p = params(client);
    const back = await server.authorize(browser, p, 'deny');
    expect(`${back.origin}${back.pathname}`).toBe(client.redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toMatch(/\S/);
    expect(back.searchParams.get('state')).toBe(p.state);
    expect(back.searchParams.get('iss')).toBe(server.url);
    expect(back.searchParams.has('code')).toBe(false);
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(0);
  });

  it.skipIf(!available)('Allow → redirect with code, state and iss, and a recorded grant (docs/rules.md#authorization-request; docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const p = params(client, { scope: 'PROFILE_READ,BOOKING_READ' });
    const back = await server.authorize(browser, p, 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(client.redirectUri);
    expect(back.searchParams.get('code')).toMatch(/^gac_/);
    expect(back.searchParams.get('state')).toBe(p.state);
    expect(back.searchParams.get('iss')).toBe(server.url);
    expect(back.searchParams.has('error')).toBe(false);
    const grants = await grantsOf(server, user.id, client.clientId);
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ clientId: client.clientId, scopes: ['BOOKING_READ', 'PROFILE_READ'], revokedAt: null });
    const res = await server.exchange(client, back.searchParams.get('code')!);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('BOOKING_READ PROFILE_READ');
  });

  it.skipIf(!available)('remembered consent: the same or fewer scopes skip the page and go straight back with a code, adding no grant (docs/rules.md#consent, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    await server.authorize(browser, params(client, { scope: 'PROFILE_READ BOOKING_READ' }));
    for (const scope of ['BOOKING_READ PROFILE_READ', 'PROFILE_READ']) {
      const p = params(client, { scope });
      const res = await browser.get(authorizePath(p));
      expect(res.status).toBe(303);
      const back = new URL(res.location!);
      expect(`${back.origin}${back.pathname}`).toBe(client.redirectUri);
      expect(back.searchParams.get('code')).toMatch(/^gac_/);
      expect(back.searchParams.get('state')).toBe(p.state);
      expect(back.searchParams.get('iss')).toBe(server.url);
      const token = await server.exchange(client, back.searchParams.get('code')!);
      expect(token.body.scope).toBe(scope === 'PROFILE_READ' ? 'PROFILE_READ' : 'BOOKING_READ PROFILE_READ');
    }
    // A silent authorization reuses the grant that covers it (docs/rules.md#silent-authorization).
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(1);
  });

  it.skipIf(!available)('remembered consent: more scopes, or prompt=consent, show the page again (docs/rules.md#consent)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    await server.authorize(browser, params(client, { scope: 'PROFILE_READ' }));
    const more = await browser.get(authorizePath(params(client, { scope: 'PROFILE_READ PROFILE_WRITE' })));
    expect(more.status).toBe(200);
    expect(more.body).toContain('name="decision" value="allow"');
    const forced = await browser.get(authorizePath(params(client, { scope: 'PROFILE_READ', prompt: 'consent' })));
    expect(forced.status).toBe(200);
    expect(forced.body).toContain('name="decision" value="allow"');
    // Another user has not consented: the page is shown to them.
    const { browser: other } = await loggedIn();
    expect((await other.get(authorizePath(params(client, { scope: 'PROFILE_READ' })))).status).toBe(200);
  });

  it.skipIf(!available)('remembered consent: scopes approved in separate authorizations do not add up; once approved together they are remembered (docs/rules.md#consent, docs/rules.md#silent-authorization)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    await server.authorize(browser, params(client, { scope: 'PROFILE_READ' }));
    await server.authorize(browser, params(client, { scope: 'BOOKING_READ' }));
    // A silent code belongs to one grant that allows all it carries: no grant holds both.
    const both = params(client, { scope: 'PROFILE_READ BOOKING_READ' });
    const page = await browser.get(authorizePath(both));
    expect(page.status).toBe(200);
    expect(page.body).toContain('name="decision" value="allow"');
    await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' });
    const res = await browser.get(authorizePath(params(client, { scope: 'PROFILE_READ BOOKING_READ' })));
    expect(res.status).toBe(303);
    expect(new URL(res.location!).searchParams.get('code')).toMatch(/^gac_/);
  });

  it.skipIf(!available)('response_type may be omitted: the request is a code request (docs/rules.md#authorize-errors)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    const { response_type: _omit, ...p } = params(client);
    void _omit;
    const back = await server.authorize(browser, p);
    expect(back.searchParams.get('code')).toMatch(/^gac_/);
    expect(back.searchParams.get('state')).toBe(p.state);
  });

  it.skipIf(!available)('Allow after the client was suspended while the page was open → 400 page, no code, no grant (docs/rules.md#client-states)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const page = await browser.get(authorizePath(params(client)));
    expect(page.status).toBe(200);
    await reviewClient(server.services, client.clientId, 'suspend', null);
    const res = await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' });
    expectErrorPage(res, /suspended/);
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(0);
  });

  it.skipIf(!available)('consent POST from a browser whose session ended → 303 to login, nothing granted', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const page = await browser.get(authorizePath(params(client)));
    await server.services.stores.sessions.deleteForUser(user.id);
    const res = await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' });
    expect(res.status).toBe(303);
    expect(new URL(res.location!, server.url).pathname).toBe('/login');
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(0);
  });

  it.skipIf(!available)('consent POST with neither Allow nor Deny → 400 page, no redirect, nothing granted', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const page = await browser.get(authorizePath(params(client)));
    for (const decision of ['maybe', '']) {
      const res = await browser.post(AUTHORIZE, { ...formFields(page.body), decision });
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
    }
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(0);
  });

  // --- docs/rules.md#sessions-and-csrf: CSRF, headers, cookies -----------------------------------------------------

  it.skipIf(!available)('consent POST without a CSRF token → 403 page saying the form expired, nothing granted (docs/rules.md#sessions-and-csrf)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const page = await browser.get(authorizePath(params(client)));
    const { _csrf, ...fields } = formFields(page.body);
    expect(_csrf).toBeTruthy();
    const res = await browser.post(AUTHORIZE, { ...fields, decision: 'allow' });
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(visibleText(res.body)).toMatch(/form has expired/i);
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(0);
  });

  it.skipIf(!available)('consent POST with a wrong or another browser\'s CSRF token → 403 page saying the form expired (docs/rules.md#sessions-and-csrf)', async () => {
    const client = await server.client(dev);
    const { user, browser } = await loggedIn();
    const page = await browser.get(authorizePath(params(client)));
    const fields = formFields(page.body);
    const wrong = await browser.post(AUTHORIZE, { ...fields, _csrf: `${fields._csrf}x`, decision: 'allow' });
    expect(wrong.status).toBe(403);
    expect(visibleText(wrong.body)).toMatch(/form has expired/i);
    const { browser: attacker } = await loggedIn();
    const theirs = formFields((await attacker.get(authorizePath(params(client)))).body);
    const foreign = await browser.post(AUTHORIZE, { ...fields, _csrf: theirs._csrf!, decision: 'allow' });
    expect(foreign.status).toBe(403);
    expect(visibleText(foreign.body)).toMatch(/form has expired/i);
    expect(await grantsOf(server, user.id, client.clientId)).toHaveLength(0);
    // The right token still works afterwards.
    const ok = await browser.post(AUTHORIZE, { ...fields, decision: 'allow' });
    expect(ok.status).toBe(303);
    expect(new URL(ok.location!).searchParams.get('code')).toMatch(/^gac_/);
  });

  it.skipIf(!available)('X-Frame-Options: DENY, frame-ancestors \'none\' and Referrer-Policy: no-referrer on the authorization page, its errors and redirects (docs/rules.md#security-headers)', async () => {
    const client = await server.client(dev);
    const { browser } = await loggedIn();
    const consent = await browser.get(authorizePath(params(client)));
    const errorPage = await browser.get(authorizePath(params(client, { client_id: 'unknown' })));
    const redirected = await browser.get(authorizePath(params(client, { scope: 'NOPE' })));
    const loginRedirect = await server.browser().get(authorizePath(params(client)));
    expect([consent.status, errorPage.status, redirected.status, loginRedirect.status]).toEqual([200, 400, 303, 303]);
    for (const res of [consent, errorPage, redirected, loginRedirect]) {
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const decided = await browser.post(AUTHORIZE, { ...formFields(consent.body), decision: 'allow' });
    expect(decided.headers.get('referrer-policy')).toBe('no-referrer');
    expect(decided.headers.get('x-frame-options')).toBe('DENY');
    // Every other page is unframeable too.
    const login = await server.browser().get('/login');
    expect(login.headers.get('x-frame-options')).toBe('DENY');
    expect(login.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it.skipIf(!available)('session cookie is HttpOnly and SameSite=Lax, and not Secure over http (docs/rules.md#sessions-and-csrf)', async () => {
    const user = await server.user();
    const res = await server.browser().login(user.email, user.password);
    expect(res.status).toBe(303);
    const cookie = setCookie(res, 'gh_session');
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
  });

  it.skipIf(!available)('with APP_URL https the session and CSRF cookies are Secure (docs/rules.md#sessions-and-csrf)', async () => {
    const https = await startTestServer(name, { APP_URL: 'https://gatehouse.example' });
    try {
      const user = await https.user();
      const browser = https.browser();
      const form = await browser.get('/login');
      const csrfCookie = setCookie(form, 'gh_csrf');
      expect(csrfCookie).toMatch(/;\s*Secure/i);
      expect(csrfCookie).toMatch(/;\s*HttpOnly/i);
      const res = await browser.post('/login', { ...formFields(form.body), email: user.email, password: user.password });
      expect(res.status).toBe(303);
      const cookie = setCookie(res, 'gh_session');
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    } finally {
      await https.close();
    }
  });

  // --- docs/rules.md#legacy-clients: legacy clients -----------------------------------------------------

  async function legacyToken(client: TestClient, user: TestUser, scope?: string) {
    const browser = server.browser();
    await browser.login(user.email, user.password);
    const p = params(client);
    if (scope === undefined) delete p.scope;
    else p.scope = scope;
    const back = await server.authorize(browser, p);
    expect(back.searchParams.get('state')).toBe(p.state);
    const res = await server.exchange(client, back.searchParams.get('code')!);
    expect(res.status).toBe(200);
    return res.body as { access_token: string; refresh_token: string; scope: string };
  }

  it.skipIf(!available)('legacy client: scope is ignored, token scope is "" and the token passes any scope check on /v2/me (docs/rules.md#legacy-clients; docs/rules.md#scope-checks)', async () => {
    const client = await server.client(dev, { scopes: null });
    const user = await server.user({ name: 'Legacy Lou' });
    const scopeless: number[] = [];
    for (const scope of [undefined, 'NOT_A_SCOPE', 'BOOKING_READ']) {
      const token = await legacyToken(client, user, scope);
      scopeless.push(await server.services.stores.clients.countScopelessRequests(client.clientId, 0));
      expect(token.scope).toBe('');
      const me = await server.api('GET', '/v2/me', token.access_token);
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ id: Number(user.id), name: 'Legacy Lou' });
      const patched = await server.api('PATCH', '/v2/me', token.access_token, { timeFormat: 12 });
      expect(patched.status).toBe(200);
      expect(patched.body.data.timeFormat).toBe(12);
    }
    const grants = await grantsOf(server, user.id, client.clientId);
    expect(grants.length).toBeGreaterThan(0);
    expect(grants.every((g) => g.scopes === null)).toBe(true);
    // Each request is recorded with whether it carried scope: the migration warning counts
    // the first, which had none, and not the two that had one.
    expect(scopeless).toEqual([1, 1, 1]);
  });

  it.skipIf(!available)('legacy client consent page warns that the application gets everything (docs/rules.md#legacy-clients)', async () => {
    const client = await server.client(dev, { scopes: null });
    const { browser } = await loggedIn();
    const res = await browser.get(authorizePath(params(client)));
    expect(res.status).toBe(200);
    expect(visibleText(res.body)).toMatch(/everything in your account/);
  });

  it.skipIf(!available)('migrated legacy client: a new authorization by the same user revokes that user\'s legacy grant, another user\'s legacy token keeps working (docs/rules.md#legacy-clients)', async () => {
    const client = await server.client(dev, { scopes: null });
    const alice = await server.user();
    const bob = await server.user();
    const aliceLegacy = await legacyToken(client, alice);
    const bobLegacy = await legacyToken(client, bob);

    // Migration: the developer gives the client scopes, confirming despite the scopeless requests above.
    await migrateLegacyClient(server.services, client.clientId, dev.id, ['PROFILE_READ', 'PROFILE_WRITE'], { confirmScopeless: true });

    // Grants issued while legacy keep working, unrestricted, until the user authorizes again.
    expect((await server.api('GET', '/v2/me', aliceLegacy.access_token)).status).toBe(200);
    expect((await server.api('PATCH', '/v2/me', aliceLegacy.access_token, { weekStart: 'Sunday' })).status).toBe(200);

    // From now on the client's requests must carry scope.
    const browser = server.browser();
    await browser.login(alice.email, alice.password);
    const noScope = params(client);
    delete noScope.scope;
    expectRedirectedError(await browser.get(authorizePath(noScope)), client, 'invalid_scope', noScope.state);

    // The old legacy grant does not count as consent to the scoped request: the page is shown.
    const p = params(client, { scope: 'PROFILE_READ' });
    const page = await browser.get(authorizePath(p));
    expect(page.status).toBe(200);
    const decided = await browser.post(AUTHORIZE, { ...formFields(page.body), decision: 'allow' });
    expect(decided.status).toBe(303);
    const fresh = await server.exchange(client, new URL(decided.location!).searchParams.get('code')!);
    expect(fresh.body.scope).toBe('PROFILE_READ');

    const old = await server.api('GET', '/v2/me', aliceLegacy.access_token);
    expect(old.status).toBe(401);
    expect(old.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refreshed = await server.token({
      grant_type: 'refresh_token',
      refresh_token: aliceLegacy.refresh_token,
      client_id: client.clientId,
      client_secret: client.secret!,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    expect((await server.api('GET', '/v2/me', fresh.body.access_token as string)).status).toBe(200);
    expect((await server.api('PATCH', '/v2/me', fresh.body.access_token as string, { weekStart: 'Monday' })).status).toBe(403);

    // Bob has not authorized again: his legacy token still works, unrestricted.
    expect((await server.api('GET', '/v2/me', bobLegacy.access_token)).status).toBe(200);
    expect((await server.api('PATCH', '/v2/me', bobLegacy.access_token, { timeFormat: 12 })).status).toBe(200);

    const aliceGrants = await grantsOf(server, alice.id, client.clientId);
    expect(aliceGrants.filter((g) => g.scopes === null).every((g) => g.revokedAt !== null)).toBe(true);
    const bobGrants = await grantsOf(server, bob.id, client.clientId);
    expect(bobGrants.every((g) => g.revokedAt === null)).toBe(true);
    const revoked = await auditEvents(server, { clientId: client.clientId, type: 'grant.revoked' });
    expect(revoked.map((e) => e.userId)).toEqual([alice.id]);
  });

  // Re-authentication and silent authorization (docs/rules.md#code-replay, docs/rules.md#authorize-errors,
  // docs/rules.md#consent, docs/rules.md#bounded-growth, docs/rules.md#silent-authorization; RFC 8252 §8.6;
  // OpenID Connect Core §3.1.2.1 for the meaning of `prompt`). Last in the file: it moves the clock.
  describe('prompt and silent authorization', () => {
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
});
