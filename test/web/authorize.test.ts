// The browser side of the authorization endpoint (docs/rules.md#authorization-request, docs/rules.md#authorize-errors,
// docs/rules.md#client-states, docs/rules.md#pkce, docs/rules.md#scope-syntax, docs/rules.md#consent,
// docs/rules.md#legacy-clients, docs/rules.md#security-checklist), walked through real HTTP with a cookie jar on both storage backends.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeScope, familyTitles } from '../../src/oauth/scopes.ts';
import { migrateLegacyClient } from '../../src/services/clients/changes.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser, type PageResponse } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { auditEvents, grantsOf } from '../helpers/stores.ts';

const AUTHORIZE = '/auth/oauth2/authorize';

function authorizePath(params: Record<string, string> | Array<[string, string]>): string {
  return `${AUTHORIZE}?${new URLSearchParams(params)}`;
}

/** The text a person reads: tags dropped, entities decoded, whitespace collapsed. */
function visibleText(body: string): string {
  return body
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
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
});
