// docs/rules.md#scale-out: two `gatehouse serve` processes over one PostgreSQL database and one Redis
// behave as one service. A code issued through A is redeemed on B; a token issued by B
// works on A at once; a revocation or suspension on A takes effect on B at once; a
// refresh race split across both has one winner whose pair everyone gets; rate limits
// are counted across both. Needs TEST_POSTGRES_URL and TEST_REDIS_URL; skipped otherwise.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/services/clients/registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { createTestDatabase, postgresUrl, redisUrl, type TestDatabase } from '../helpers/backends.ts';
import { Browser, formFields } from '../helpers/browser.ts';
import { formWith } from '../helpers/pages.ts';
import { tokenCountsOfClient } from '../helpers/rows.ts';
import { freePort } from '../helpers/ports.ts';
import { auditEvents, refreshTokenOf, storesOver } from '../helpers/stores.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';

const enabled = postgresUrl !== undefined && redisUrl !== undefined;
const SKIP_REASON = 'two instances need a shared PostgreSQL and Redis: set TEST_POSTGRES_URL and TEST_REDIS_URL';
if (!enabled) console.warn(`Scale-out suite skipped: ${SKIP_REASON}.`);

const form = { 'content-type': 'application/x-www-form-urlencoded' };

interface Instance {
  name: string;
  url: string;
  process: ChildProcess;
  output: string[];
}

/** Starts `gatehouse serve` and waits until /healthz answers (polling, never a fixed sleep). */
async function startInstance(name: string, port: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['bin/gatehouse.mjs', 'serve'], {
    cwd: process.cwd(),
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}:\n${output.join('')}`);
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (healthy) return { name, url, process: child, output };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`instance ${name} did not become healthy in 45 s:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  const child = instance?.process;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

describe.skipIf(!enabled)(`two gatehouse serve processes over one PostgreSQL and one Redis (docs/rules.md#scale-out)${enabled ? '' : ` — skipped: ${SKIP_REASON}`}`, () => {
  let database: TestDatabase;
  let a: Instance;
  let b: Instance;
  let issuer: string;
  const services = () => createServiceContext(database.handle.db, Date.now, testServiceOptions);

  beforeAll(async () => {
    // A new deployment: both instances' first start, over one database with no signing keys yet.
    database = await createTestDatabase('postgres', { firstStart: true });
    const [portA, portB] = [await freePort(), await freePort()];
    // One issuer for both: they are one service behind one address.
    issuer = `http://127.0.0.1:${portA}`;
    const shared = {
      BASE_URL: issuer,
      APP_URL: issuer,
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      // docs/operating.md#signing-keys: every instance is given the one secret.
      SIGNING_KEYS_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '3',
      ...database.env,
    };
    [a, b] = await Promise.all([startInstance('A', portA, shared), startInstance('B', portB, shared)]);
  });

  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
    await database?.drop();
  });

  async function newUser(options: { admin?: boolean } = {}) {
    const email = `scale-${randomBytes(4).toString('hex')}@example.com`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const row = await createUser(services(), { email, name: 'Scale User', password, admin: options.admin });
    return { id: row.id, email, password };
  }

  async function newClient(ownerId: string) {
    const redirectUri = 'https://app.example.com/callback';
    const { client, secret } = await createClient(services(), {
      ownerId,
      name: 'Scale App',
      homepageUrl: 'https://app.example.com',
      kind: 'confidential',
      redirectUris: [redirectUri],
      scopes: ['PROFILE_READ'],
    });
    await reviewClient(services(), client.clientId, 'approve', null);
    return { clientId: client.clientId, secret: secret!, redirectUri };
  }

  /** Logs in and consents through one instance's pages; returns the callback URL. */
  async function codeThrough(instance: Instance, user: { email: string; password: string }, client: { clientId: string; redirectUri: string }) {
    const browser = new Browser(instance.url);
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 'st' });
    const page = await browser.get(`/auth/oauth2/authorize?${query}`);
    expect(page.status).toBe(200);
    const consent = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    expect(consent.status).toBe(303);
    return new URL(consent.location!);
  }

  function post(instance: Instance, path: string, fields: Record<string, string>) {
    return fetch(`${instance.url}${path}`, { method: 'POST', headers: form, body: new URLSearchParams(fields).toString() }).then(async (res) => ({
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as Record<string, unknown>,
    }));
  }

  async function me(instance: Instance, token: string) {
    const res = await fetch(`${instance.url}/v2/me`, { headers: { authorization: `Bearer ${token}` } });
    return res.status;
  }

  /** A user, an approved client and a token pair issued by `issuerInstance` through a code from `front`. */
  async function tokensVia(front: Instance, issuerInstance: Instance) {
    const user = await newUser();
    const client = await newClient(user.id);
    const callback = await codeThrough(front, user, client);
    const res = await post(issuerInstance, '/v2/auth/oauth2/token', {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      client_secret: client.secret,
    });
    expect(res.status).toBe(200);
    return { user, client, callback, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
  }

  it('serves one MCP client\'s requests on either instance, alternating, with one token bound to /mcp (docs/rules.md#mcp-server, docs/rules.md#scale-out)', async () => {
    const user = await newUser();
    const client = await newClient(user.id);
    const mcp = `${issuer}/mcp`;
    const browser = new Browser(a.url);
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', resource: mcp });
    const page = await browser.get(`/auth/oauth2/authorize?${query}`);
    const consent = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    const code = new URL(consent.location!).searchParams.get('code')!;
    const res = await post(b, '/v2/auth/oauth2/token', { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret, resource: mcp });
    expect(res.status).toBe(200);
    // Every request of the session goes to the other instance than the one before.
    const seen: string[] = [];
    let turn = 0;
    const alternating: typeof fetch = (input, init) => {
      const target = [a, b][turn++ % 2]!;
      seen.push(target.name);
      return fetch(String(input).replace(issuer, target.url), init);
    };
    const agent = new Client({ name: 'scale-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(mcp), { fetch: alternating, requestInit: { headers: { authorization: `Bearer ${res.body.access_token as string}` } } }));
    expect((await agent.listTools()).tools.map((t) => t.name)).toContain('get_profile');
    const profile = await agent.callTool({ name: 'get_profile', arguments: {} });
    expect(JSON.parse((profile.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ email: user.email });
    await agent.close();
    expect(new Set(seen)).toEqual(new Set(['A', 'B']));
  });

  it('redeems on B a code issued through A, with the shared issuer in the callback (docs/rules.md#scale-out)', async () => {
    const t = await tokensVia(a, b);
    expect(t.callback.searchParams.get('iss')).toBe(issuer);
    expect(t.access).toMatch(/^gat_/);
    // A second redemption, on A this time, is a replay for the whole service.
    const replay = await post(a, '/v2/auth/oauth2/token', {
      grant_type: 'authorization_code',
      code: t.callback.searchParams.get('code')!,
      redirect_uri: t.client.redirectUri,
      client_id: t.client.clientId,
      client_secret: t.client.secret,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect(await me(b, t.access)).toBe(401);
  });

  it('accepts on A, at once, a token issued by B, and refreshes on A what B issued (docs/rules.md#scale-out)', async () => {
    const t = await tokensVia(b, b);
    expect(await me(a, t.access)).toBe(200);
    const refreshed = await post(a, '/v2/auth/oauth2/token', { grant_type: 'refresh_token', refresh_token: t.refresh, client_id: t.client.clientId, client_secret: t.client.secret });
    expect(refreshed.status).toBe(200);
    expect(await me(b, refreshed.body.access_token as string)).toBe(200);
  });

  it('applies a revocation made on A to B at once (docs/rules.md#scale-out, RFC 7009)', async () => {
    const t = await tokensVia(a, a);
    expect(await me(b, t.access)).toBe(200);
    const revoked = await post(a, '/v2/auth/oauth2/revoke', { token: t.refresh, client_id: t.client.clientId, client_secret: t.client.secret });
    expect(revoked.status).toBe(200);
    expect(await me(b, t.access)).toBe(401);
    const introspected = await post(b, '/v2/auth/oauth2/introspect', { token: t.access, client_id: t.client.clientId, client_secret: t.client.secret });
    expect(introspected.body).toEqual({ active: false });
  });

  it("applies a suspension made in A's admin pages to B at once, and the re-approval too (docs/rules.md#client-states, docs/rules.md#scale-out)", async () => {
    const t = await tokensVia(a, b);
    expect(await me(b, t.access)).toBe(200);
    const admin = await newUser({ admin: true });
    const browser = new Browser(a.url);
    expect((await browser.login(admin.email, admin.password)).status).toBe(303);
    const decide = async (decision: 'suspend' | 'approve') => {
      const page = await browser.get(`/admin/oauth-clients/${encodeURIComponent(t.client.clientId)}`);
      expect(page.status).toBe(200);
      const res = await browser.post(`/admin/oauth-clients/${encodeURIComponent(t.client.clientId)}/review`, { ...formWith(page.body, 'decision', decision), reason: '' });
      expect(res.status).toBe(303);
    };
    await decide('suspend');
    expect(await me(b, t.access)).toBe(401);
    expect(await me(a, t.access)).toBe(401);
    await decide('approve');
    expect(await me(b, t.access)).toBe(200);
  });

  it('gives 50 concurrent refreshes of one token, split across A and B, one rotation and the same pair (docs/rules.md#refresh-rotation, docs/rules.md#scale-out)', async () => {
    const t = await tokensVia(a, a);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(i % 2 === 0 ? a : b, '/v2/auth/oauth2/token', { grant_type: 'refresh_token', refresh_token: t.refresh, client_id: t.client.clientId, client_secret: t.client.secret }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const pairs = new Set(results.map((r) => `${r.body.access_token} ${r.body.refresh_token}`));
    expect(pairs.size).toBe(1);
    // One rotation: the original spent, one successor, and no other pair written (50 racing
    // requests, so rows nobody was handed are what could go wrong).
    const stores = storesOver(database.handle.db);
    expect((await refreshTokenOf(stores, t.refresh))?.spentAt).not.toBeNull();
    expect(await tokenCountsOfClient(database.handle.db, t.client.clientId)).toEqual({ access: 2, refresh: 2 });
    expect(await auditEvents(stores, { clientId: t.client.clientId, type: 'token.refreshed' })).toHaveLength(1);
    const [winner] = [...pairs][0]!.split(' ');
    expect(await me(b, winner!)).toBe(200);
  });

  it('counts failed client authentications across A and B in Redis: failures split over both reach 429 on both (docs/rules.md#rate-limits, docs/rules.md#scale-out)', async () => {
    const user = await newUser();
    const client = await newClient(user.id);
    const wrong = { token: 'gat_x', client_id: client.clientId, client_secret: `gcs_${randomBytes(30).toString('hex')}` };
    expect((await post(a, '/v2/auth/oauth2/introspect', wrong)).status).toBe(401);
    expect((await post(b, '/v2/auth/oauth2/introspect', wrong)).status).toBe(401);
    expect((await post(a, '/v2/auth/oauth2/introspect', wrong)).status).toBe(401);
    const right = { token: 'gat_x', client_id: client.clientId, client_secret: client.secret };
    for (const instance of [b, a]) {
      const res = await post(instance, '/v2/auth/oauth2/introspect', right);
      expect(res.status, `instance ${instance.name}`).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(res.body).toMatchObject({ error: expect.any(String), error_description: expect.any(String) });
    }
  });

  it('logs nothing above warn for all of the above, and no token (docs/rules.md#private-records)', async () => {
    const lines = [...a.output, ...b.output].join('').split('\n').filter((l) => l.trim() !== '');
    // The start-up banner and the shutdown line are for people; every other line is a JSON log entry.
    const logLines = lines.filter((l) => l.startsWith('{'));
    // The capture works (the banner is there); at LOG_LEVEL=warn a run without trouble may log
    // no JSON line at all, so their number proves nothing.
    expect(lines.filter((l) => l.startsWith('Gatehouse '))).toHaveLength(2);
    for (const line of logLines) {
      const entry = JSON.parse(line) as { level: number; msg?: string };
      expect(entry.level, line).toBeLessThan(50);
    }
    expect(lines.join('\n')).not.toMatch(/g(at|rt|ac|cs)_[0-9A-Za-z]{20,}/);
  });
});
