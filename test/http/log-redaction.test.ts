// No secret or token in logs (docs/rules.md#private-records), whatever shape the request line takes: a parameter
// name dressed up with brackets, spaces or NULs, a token under an innocent name, a token
// in the path, or percent-encoded. Sent through real HTTP; the server's own log lines read.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/oauth/token-format.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe.each(backends)('request lines in the log on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name, { LOG_LEVEL: 'debug' });
  });
  afterAll(async () => server?.close());

  /** The log lines of the requests `send` makes, after it has sent them. */
  async function logsOf(send: () => Promise<unknown>): Promise<string> {
    const before = server.logs.length;
    await send();
    // The request-completed line is written when the response ends; wait for it.
    await expect.poll(() => server.logs.slice(before).some((l) => l.includes('request completed'))).toBe(true);
    return server.logs.slice(before).join('');
  }

  it.skipIf(!available)('redacts a sensitive parameter by the stem of its decoded name: code[], "code ", refresh_token\\0 (docs/rules.md#private-records)', async () => {
    const code = generateToken('authorizationCode');
    const refresh = generateToken('refreshToken');
    const secret = `s3cret-${randomBytes(12).toString('hex')}`;
    const tricks = [
      `code%5B%5D=${code}`,
      `code%20=${code}`,
      `refresh_token%00=${refresh}`,
      `client_secret%5B0%5D=${secret}`,
      `%20password=${secret}`,
      `code%255B%255D=${code}`,
      `user%5Bpassword%5D=${secret}`,
    ];
    for (const trick of tricks) {
      const logged = await logsOf(() => fetch(`${server.url}/v2/auth/oauth2/token?${trick}`, { method: 'POST', headers: form, body: 'grant_type=refresh_token' }));
      expect(logged, trick).toContain('/v2/auth/oauth2/token?');
      expect(logged, trick).toContain('[redacted]');
      for (const value of [code, refresh, secret]) expect(logged.includes(value), `${trick}: ${value} in the log`).toBe(false);
    }
  });

  it.skipIf(!available)('redacts anything shaped like a code, token or secret wherever it is in the URL: any parameter, the path, percent-encoded (docs/rules.md#private-records)', async () => {
    const access = generateToken('accessToken');
    const code = generateToken('authorizationCode');
    const secret = generateToken('clientSecret');
    const refresh = generateToken('refreshToken');
    const body = (token: string) => token.slice(4, 30);
    const encoded = (token: string) => token.replace('_', '%5F');
    const urls = [
      `/v2/me?q=${access}`,
      `/v2/me?${access}`,
      `/v2/me?note=see+${code}+here`,
      `/v2/me?${encoded(access)}=1`,
      `/v2/me?q=${encoded(secret)}`,
      `/v2/me?q=${encoded(secret).replace('%', '%25')}`,
      `/v2/me/${access}`,
      `/v2/bookings/${encoded(refresh)}/location`,
      `/settings/developer/oauth-clients/${secret}/edit?x=1`,
      `/v2/me?q=%zz${code}`,
    ];
    for (const url of urls) {
      const logged = await logsOf(() => fetch(`${server.url}${url}`));
      expect(logged, url).toContain('[redacted]');
      for (const token of [access, code, secret, refresh]) {
        expect(logged.includes(body(token)), `${url}: ${token} in the log`).toBe(false);
      }
    }
  });

  it.skipIf(!available)('keeps everything else of the request line, so the log still says what was asked (docs/rules.md#private-records)', async () => {
    const logged = await logsOf(() => fetch(`${server.url}/v2/me?limit=10&sort=name`));
    expect(logged).toContain('"url":"/v2/me?limit=10&sort=name"');
  });
  it.skipIf(!available)('a client secret or token sent as client_id (credentials swapped, in the body or with Basic) is not written to the log (docs/rules.md#private-records)', async () => {
    const client = await server.client(await server.user());
    const secret = client.secret!;
    const access = generateToken('accessToken');
    const basic = (id: string, password: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(password)}`).toString('base64')}`;
    const sends: Array<[string, () => Promise<Response>]> = [
      ['token, body', () => fetch(`${server.url}/v2/auth/oauth2/token`, { method: 'POST', headers: form, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: secret, client_secret: client.clientId }) })],
      ['token, Basic', () => fetch(`${server.url}/v2/auth/oauth2/token`, { method: 'POST', headers: { ...form, authorization: basic(secret, client.clientId) }, body: 'grant_type=refresh_token&refresh_token=x' })],
      ['introspect, body', () => fetch(`${server.url}/v2/auth/oauth2/introspect`, { method: 'POST', headers: form, body: new URLSearchParams({ token: 'x', client_id: access, client_secret: secret }) })],
      ['revoke, body', () => fetch(`${server.url}/v2/auth/oauth2/revoke`, { method: 'POST', headers: form, body: new URLSearchParams({ token: 'x', client_id: `${secret} `, client_secret: secret }) })],
    ];
    for (const [what, send] of sends) {
      let status = 0;
      const logged = await logsOf(async () => (status = (await send()).status));
      expect(status, what).toBe(401);
      expect(logged, what).toContain('invalid_client');
      expect(logged.includes(secret.slice(4, 30)), `${what}: the client secret is in the log`).toBe(false);
      expect(logged.includes(access.slice(4, 30)), `${what}: the access token is in the log`).toBe(false);
    }
    // The operator still learns what went wrong, in words.
    const logged = await logsOf(() => sends[0]![1]());
    expect(logged).toContain('a client secret was sent as client_id');
  });
});
