// An approved confidential client, a user signed in to the web app and tokens issued to the
// client through the real front channel, on a server the test runs as a separate process.
import { randomBytes } from 'node:crypto';
import { createClient } from '../../src/services/clients/registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { Browser, formFields } from '../helpers/browser.ts';

export interface SignedInClient {
  clientId: string;
  secret: string;
  redirectUri: string;
  email: string;
  password: string;
  /** A browser with the user's session. */
  browser: Browser;
  /** Runs the authorization code flow once more: a fresh grant and token pair. */
  tokens(): Promise<{ access_token: string; refresh_token: string }>;
}

export async function signedInClient(services: ServiceContext, url: string): Promise<SignedInClient> {
  const email = `user-${randomBytes(4).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await createUser(services, { email, name: 'Outage User', password });
  const redirectUri = 'https://app.example.com/callback';
  const { client, secret } = await createClient(services, {
    ownerId: user.id,
    name: 'Outage App',
    homepageUrl: 'https://app.example.com',
    kind: 'confidential',
    redirectUris: [redirectUri],
    scopes: ['PROFILE_READ'],
  });
  await reviewClient(services, client.clientId, 'approve', null);
  const browser = new Browser(url);
  const login = await browser.login(email, password);
  if (login.status !== 303) throw new Error(`login answered ${login.status}`);

  const tokens = async () => {
    const params = new URLSearchParams({ client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' });
    const page = await browser.get(`/auth/oauth2/authorize?${params}`);
    // Once consented, the authorization page sends the browser straight back with a code.
    const back = page.status === 303 ? page : await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    const code = new URL(back.location ?? 'x:').searchParams.get('code');
    if (code === null) throw new Error(`consent answered ${back.status}: ${back.body.slice(0, 200)}`);
    const res = await fetch(`${url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: client.clientId, client_secret: secret! }).toString(),
    });
    if (res.status !== 200) throw new Error(`code exchange answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { access_token: string; refresh_token: string };
  };
  return { clientId: client.clientId, secret: secret!, redirectUri, email, password, browser, tokens };
}
