// The audit log (docs/rules.md#audit-events) and the process log (docs/rules.md#private-records), on every backend:
// a full flow leaves the expected events, each written in the same transaction as its
// change, `gatehouse audit` reads them by client or user, and no secret, token, code,
// verifier, password or cookie value reaches either the audit_events table or a log line.
// Request lines reach the log with no secret or token whatever shape the request line takes
// (docs/rules.md#private-records): a parameter name dressed up with brackets, spaces or NULs,
// a token under an innocent name, a token in the path, or percent-encoded; over the same
// server, whose own log lines are read.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/oauth/token-format.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { backends } from '../helpers/backends.ts';
import { formFields, type Browser } from '../helpers/browser.ts';
import { tokenCountsOfClient, withAuditFailing as failingAudit } from '../helpers/rows.ts';
import { startTestServer, type TestClient, type TestServer, type TestUser } from '../helpers/server.ts';
import { auditEvents, refreshTokenOf } from '../helpers/stores.ts';

const run = promisify(execFile);
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

interface FlowSecrets {
  client: TestClient;
  user: TestUser;
  /** The user's logged-in browser. */
  browser: Browser;
  /** Every value that must never be stored in the audit log or written to a log line. */
  secrets: Record<string, string>;
}

describe.each(backends)('audit log and process log on $name', ({ name, available }) => {
  let server: TestServer;
  let flow: FlowSecrets;

  /**
   * One of everything: a failed and a good login, consent with PKCE, code exchange with
   * HTTP Basic, an API call, refresh, replay of the spent refresh token within its window,
   * introspection, a failed client authentication, revocation, and a replayed code.
   */
  async function fullFlow(): Promise<FlowSecrets> {
    const dev = await server.user();
    const user = await server.user({ name: 'Audited User' });
    const client = await server.client(dev);
    const browser = server.browser();
    const wrongPassword = `wrong-${randomBytes(8).toString('hex')}`;
    expect((await browser.login(user.email, wrongPassword)).status).toBe(401);
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const cookies = browser.cookieHeader().split('; ').map((pair) => pair.slice(pair.indexOf('=') + 1));
    expect(cookies.length).toBeGreaterThan(0);

    const verifier = randomBytes(40).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const page = await browser.get(
      `/auth/oauth2/authorize?${new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 'st', code_challenge: challenge, code_challenge_method: 'S256' })}`,
    );
    expect(page.status).toBe(200);
    const csrf = formFields(page.body)._csrf!;
    const consent = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    expect(consent.status).toBe(303);
    const code = new URL(consent.location!).searchParams.get('code')!;

    const tokens = await server.token(
      { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: verifier },
      { basic: [client.clientId, client.secret!] },
    );
    expect(tokens.status).toBe(200);
    const access = tokens.body.access_token as string;
    const refresh = tokens.body.refresh_token as string;
    expect((await server.api('GET', '/v2/me', access)).status).toBe(200);

    const refreshBody = { grant_type: 'refresh_token', refresh_token: refresh, client_id: client.clientId, client_secret: client.secret! };
    const rotated = await server.token(refreshBody);
    expect(rotated.status).toBe(200);
    expect((await server.token(refreshBody)).body.access_token).toBe(rotated.body.access_token);
    const access2 = rotated.body.access_token as string;
    const refresh2 = rotated.body.refresh_token as string;

    const introspected = await server.post('/v2/auth/oauth2/introspect', new URLSearchParams({ token: access2, client_id: client.clientId, client_secret: client.secret! }).toString(), form);
    expect(introspected.body).toMatchObject({ active: true });
    const wrongSecret = `gcs_${randomBytes(24).toString('hex')}`;
    const failed = await server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token: access2 }).toString(), { ...form, authorization: basic(client.clientId, wrongSecret) });
    expect(failed.status).toBe(401);
    const revoked = await server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token: refresh2, token_type_hint: 'refresh_token', client_id: client.clientId, client_secret: client.secret! }).toString(), form);
    expect(revoked.status).toBe(200);
    const replayed = await server.token({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, code_verifier: verifier, client_id: client.clientId, client_secret: client.secret! });
    expect(replayed.body.error).toBe('invalid_grant');

    return {
      client,
      user,
      browser,
      secrets: {
        client_secret: client.secret!,
        wrong_client_secret: wrongSecret,
        password: user.password,
        wrong_password: wrongPassword,
        code,
        code_verifier: verifier,
        access_token: access,
        refresh_token: refresh,
        access_token_2: access2,
        refresh_token_2: refresh2,
        csrf_token: csrf,
        ...Object.fromEntries(cookies.map((value, i) => [`cookie_${i}`, value])),
      },
    };
  }

  beforeAll(async () => {
    if (!available) return;
    // debug, stricter than the default info: even verbose logs must not carry secrets.
    server = await startTestServer(name, { LOG_LEVEL: 'debug' });
    flow = await fullFlow();
  });
  afterAll(async () => server?.close());

  const events = (clientId: string) => auditEvents(server, { clientId });

  it.skipIf(!available)('records each change of the flow with its client and user: grant.created, token.issued, token.refreshed, token.revoked, code.replayed (docs/rules.md#audit-events)', async () => {
    const rows = await events(flow.client.clientId);
    const types = rows.map((r) => r.type);
    expect(types).toEqual(['client.created', 'secret.created', 'client.approved', 'grant.created', 'token.issued', 'token.refreshed', 'token.revoked', 'code.replayed']);
    for (const row of rows.filter((r) => /^(grant|token|code)\./.test(r.type))) {
      expect(row.userId, row.type).toBe(flow.user.id);
      expect(typeof row.createdAt).toBe('number');
      expect(Math.abs(row.createdAt - Date.now())).toBeLessThan(10 * 60 * 1000);
    }
    // The replay within the window is the same rotation, not a second one.
    expect(types.filter((t) => t === 'token.refreshed')).toHaveLength(1);
  });

  it.skipIf(!available)('records a failed login under the account\'s user id, without the password or e-mail typed (docs/rules.md#audit-events, docs/rules.md#private-records)', async () => {
    const rows = await auditEvents(server, { userId: flow.user.id, type: 'login.failed' });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(flow.user.email);
  });

  it.skipIf(!available)('holds no secret, token, code, verifier, password or cookie value anywhere in audit_events (docs/rules.md#audit-events)', async () => {
    const table = JSON.stringify(await auditEvents(server));
    expect(table.length).toBeGreaterThan(100);
    for (const [what, value] of Object.entries(flow.secrets)) {
      expect(table.includes(value), `${what} found in audit_events`).toBe(false);
    }
    // Not even the random part of a token (a prefix-stripped copy).
    for (const [what, value] of Object.entries(flow.secrets)) {
      if (/^g(at|rt|ac|cs)_/.test(value)) expect(table.includes(value.slice(4, 30)), `${what} body found in audit_events`).toBe(false);
    }
  });

  it.skipIf(!available)('writes JSON log lines that carry no client_secret, code, code_verifier, token, password or cookie value (docs/rules.md#private-records)', async () => {
    expect(server.logs.length).toBeGreaterThan(10);
    for (const line of server.logs) expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
    const all = server.logs.join('');
    // The log did see the flow: request lines of the token endpoint are there.
    expect(all).toContain('/v2/auth/oauth2/token');
    for (const [what, value] of Object.entries(flow.secrets)) {
      expect(all.includes(value), `${what} found in the log`).toBe(false);
    }
  });

  it.skipIf(!available)('keeps secrets out of the log even when a client puts them in the query string (docs/rules.md#private-records)', async () => {
    const secret = flow.client.secret!;
    const marker = `gat_${randomBytes(24).toString('hex')}`;
    await fetch(`${server.url}/v2/auth/oauth2/token?client_secret=${encodeURIComponent(secret)}&refresh_token=${marker}`, { method: 'POST', headers: form, body: 'grant_type=refresh_token' });
    await fetch(`${server.url}/v2/me?access_token=${marker}`);
    const all = server.logs.join('');
    expect(all.includes(secret)).toBe(false);
    expect(all.includes(marker)).toBe(false);
  });

  describe('each event is written in the transaction of its change: when the audit write fails, the change does not happen (docs/rules.md#audit-events, docs/rules.md#private-records)', () => {
    const withAuditFailing = <T>(type: string, fn: () => Promise<T>) => failingAudit(server.db, name, type, fn);

    async function freshCode(): Promise<{ client: TestClient; code: string }> {
      const client = await server.client(flow.user);
      const back = await server.authorize(flow.browser, { client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's' });
      return { client, code: back.searchParams.get('code')! };
    }

    it.skipIf(!available)('token.issued: a failed audit write leaves no tokens and the code still unused', async () => {
      const { client, code } = await freshCode();
      const res = await withAuditFailing('token.issued', () => server.exchange(client, code));
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ error: 'server_error' });
      expect(await tokenCountsOfClient(server.db, client.clientId)).toEqual({ access: 0, refresh: 0 });
      // The code's consumption was rolled back with the rest: it can still be redeemed once.
      const retry = await server.exchange(client, code);
      expect(retry.status).toBe(200);
      expect((await events(client.clientId)).filter((e) => e.type === 'token.issued')).toHaveLength(1);
    });

    it.skipIf(!available)('token.refreshed: a failed audit write leaves the refresh token unspent and no new tokens', async () => {
      const { client, code } = await freshCode();
      const tokens = await server.exchange(client, code);
      const body = { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! };
      const res = await withAuditFailing('token.refreshed', () => server.token(body));
      expect(res.status).toBe(500);
      expect(await refreshTokenOf(server, body.refresh_token)).toMatchObject({ spentAt: null, successorBox: null });
      expect(await tokenCountsOfClient(server.db, client.clientId)).toEqual({ access: 1, refresh: 1 });
      expect((await server.token(body)).status).toBe(200);
    });

    it.skipIf(!available)('token.revoked: a failed audit write leaves the token working', async () => {
      const { client, code } = await freshCode();
      const tokens = await server.exchange(client, code);
      const access = tokens.body.access_token as string;
      const revoke = () => server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! }).toString(), form);
      const res = await withAuditFailing('token.revoked', revoke);
      expect(res.status).toBe(500);
      expect((await server.api('GET', '/v2/me', access)).status).toBe(200);
      const grantId = (await refreshTokenOf(server, tokens.body.refresh_token as string))!.grantId;
      expect((await server.oauth.findGrant(grantId))!.revokedAt).toBeNull();
      expect((await revoke()).status).toBe(200);
      expect((await server.api('GET', '/v2/me', access)).status).toBe(401);
    });

    it.skipIf(!available)('client.suspended: a failed audit write leaves the client approved', async () => {
      const client = await server.client(flow.user);
      await withAuditFailing('client.suspended', async () => {
        await expect(reviewClient(server.services, client.clientId, 'suspend', null)).rejects.toThrow();
      });
      expect((await server.services.stores.clients.find(client.clientId))!.state).toBe('approved');
    });
  });

  it.skipIf(!available)('`gatehouse audit --client ID` and `--user EMAIL` print that client\'s and that user\'s events (docs/rules.md#cli)', async () => {
    // Vite puts BASE_URL=/ into the test process's environment; the CLI gets real ones.
    const env = { ...process.env, ...server.database.env, DATABASE_URL: server.database.url, BASE_URL: server.url, APP_URL: server.url, LOG_LEVEL: 'silent' };
    const [byClient, byUser] = await Promise.all([
      run('node', ['bin/gatehouse.mjs', 'audit', '--client', flow.client.clientId, '--json'], { env, cwd: process.cwd() }),
      run('node', ['bin/gatehouse.mjs', 'audit', '--user', flow.user.email, '--json'], { env, cwd: process.cwd() }),
    ]);
    const clientEvents = JSON.parse(byClient.stdout) as Array<{ type: string; client_id: string | null; user_id: string | null }>;
    expect(clientEvents.map((e) => e.type)).toEqual(
      expect.arrayContaining(['client.created', 'grant.created', 'token.issued', 'token.refreshed', 'token.revoked', 'code.replayed']),
    );
    expect(clientEvents.every((e) => e.client_id === flow.client.clientId)).toBe(true);
    const userEvents = JSON.parse(byUser.stdout) as Array<{ id: number; type: string; user_id: string | null; user_email: string | null; created_at: string }>;
    expect(userEvents.map((e) => e.type)).toEqual(expect.arrayContaining(['login.failed', 'grant.created', 'token.issued', 'token.refreshed', 'token.revoked']));
    expect(userEvents.every((e) => e.user_id === flow.user.id && e.user_email === flow.user.email)).toBe(true);
    // One JSON convention for every --json: snake_case keys, ISO-8601 times.
    expect(userEvents.every((e) => new Date(e.created_at).toISOString() === e.created_at)).toBe(true);
    // Newest first.
    const ids = userEvents.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    for (const value of Object.values(flow.secrets)) expect(byClient.stdout.includes(value) || byUser.stdout.includes(value)).toBe(false);
  });

  describe('request lines in the log', () => {
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
});
