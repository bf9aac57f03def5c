// RP-initiated logout at end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0;
// docs/integrating.md#sign-in-with-gatehouse) through real HTTP: a valid id_token_hint ends the
// session and returns to the registered post-logout URI with state; without one the user is
// asked; no answer ever goes to a URI the client did not register.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateClient } from '../../src/services/clients/changes.ts';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser } from '../helpers/browser.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';

const SIGNED_OUT = 'https://app.example.com/signed-out';

describe.each(backends)('RP-initiated logout on $name', ({ name, available }) => {
  let server: TestServer;
  let developer: TestUser;
  let client: TestClient;

  beforeAll(async () => {
    if (!available) return;
    server = await startTestServer(name);
    developer = await server.user();
    client = await server.client(developer, { scopes: ['openid', 'PROFILE_READ'] });
    await updateClient(server.services, client.clientId, developer.id, { postLogoutRedirectUris: [SIGNED_OUT] });
  });
  afterAll(async () => server?.close());

  /** A user logged in who signed in to the client: the browser and the ID token. */
  async function signedIn(): Promise<{ user: TestUser; browser: Browser; idToken: string }> {
    const user = await server.user();
    const browser = server.browser();
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const callback = await server.authorize(browser, { client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'openid' });
    const tokens = await server.exchange(client, callback.searchParams.get('code')!);
    return { user, browser, idToken: (tokens.body as { id_token: string }).id_token };
  }

  /** prompt=none for the client: login_required once the session has ended (OIDC Core 3.1.2.6). */
  async function silentError(browser: Browser): Promise<string | null> {
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'openid', prompt: 'none', state: 's' });
    const res = await browser.get(`/auth/oauth2/authorize?${query}`);
    expect(res.status).toBe(303);
    const back = new URL(res.location!);
    return back.searchParams.get('error') ?? (back.searchParams.has('code') ? 'code' : null);
  }

  const logout = (params: Record<string, string>) => `/auth/oauth2/logout?${new URLSearchParams(params)}`;

  it.skipIf(!available)('OIDC RP-Initiated Logout 2, 3: a valid id_token_hint ends the session and returns to the registered URI with state; prompt=none then answers login_required', async () => {
    const { browser, idToken } = await signedIn();
    expect(await silentError(browser)).toBe('code');
    const res = await browser.get(logout({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'st-1' }));
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${SIGNED_OUT}?state=st-1`);
    expect(await silentError(browser)).toBe('login_required');
  });

  it.skipIf(!available)('OIDC RP-Initiated Logout 3.1: a post_logout_redirect_uri the client did not register is never followed: the session ends on our page', async () => {
    const { browser, idToken } = await signedIn();
    const res = await browser.get(logout({ id_token_hint: idToken, post_logout_redirect_uri: 'https://evil.example.net/', state: 'x' }));
    expect(res.status).toBe(200);
    expect(res.location).toBeNull();
    expect(res.body).toContain('You are logged out');
    expect(res.body).not.toContain('evil.example.net');
    expect(await silentError(browser)).toBe('login_required');
  });

  it.skipIf(!available)('OIDC RP-Initiated Logout 2: without a valid hint the user is asked; the session stays until they answer, then logout returns to the registered URI', async () => {
    const { browser } = await signedIn();
    for (const hint of [undefined, 'not-a-jwt', 'eyJhbGciOiJub25lIn0.eyJpc3MiOiJ4In0.']) {
      const asked = await browser.get(logout({ ...(hint ? { id_token_hint: hint } : {}), client_id: client.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'st-2' }));
      expect(asked.status, hint).toBe(200);
      expect(asked.body).toContain('Log out?');
      expect(asked.body).toContain('Test App');
    }
    expect(await silentError(browser)).toBe('code');
    const page = await browser.get(logout({ client_id: client.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'st-2' }));
    // The answer may redirect to the registered URI's origin (form-action), and only there.
    expect(page.headers.get('content-security-policy')).toContain('https://app.example.com');
    const answered = await browser.post('/auth/oauth2/logout/confirm', formFields(page.body));
    expect(answered.status).toBe(303);
    expect(answered.location).toBe(`${SIGNED_OUT}?state=st-2`);
    expect(await silentError(browser)).toBe('login_required');
  });

  it.skipIf(!available)('OIDC RP-Initiated Logout 2: a hint of another user, or the application POSTing without our CSRF token, only asks; the confirmation needs its CSRF token', async () => {
    const { idToken: othersToken } = await signedIn();
    const { browser } = await signedIn();
    expect((await browser.get(logout({ id_token_hint: othersToken }))).body).toContain('Log out?');
    expect((await browser.post('/auth/oauth2/logout', { client_id: client.clientId })).body).toContain('Log out?');
    expect((await browser.post('/auth/oauth2/logout/confirm', { client_id: client.clientId })).status).toBe(403);
    expect(await silentError(browser)).toBe('code');
  });
});
