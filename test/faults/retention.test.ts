// docs/rules.md#retention: every running instance deletes, in small batches, the codes and tokens
// that ended more than the replay window ago, ended sessions, authorization requests older
// than 30 days and audit events older than AUDIT_RETENTION_DAYS; what is still alive stays
// and keeps working. The instance here is the process entry's own server (startServer),
// pruning on its timer, with a clock the test moves.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/index.ts';
import { createSession } from '../../src/services/accounts/sessions.ts';
import { createUser } from '../../src/services/accounts/users.ts';
import { registerDynamicClient } from '../../src/services/clients/dynamic-registration.ts';
import { createClient } from '../../src/services/clients/registration.ts';
import { reviewClient } from '../../src/services/clients/review.ts';
import { pruneEnded } from '../../src/services/retention/prune.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { Browser, formFields } from '../helpers/browser.ts';
import { rowsCreated, sessionCountOfUser, tokenCountsOfClient, type DatedTable } from '../helpers/rows.ts';
import { testPasswordHashing } from '../helpers/password-hashing.ts';
import { freePort } from '../helpers/ports.ts';
import { refreshTokenOf, storesOver } from '../helpers/stores.ts';
import { pkcePair } from '../http/token-endpoint/setup.ts';

const DAY = 24 * 3600;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** Polls until check() holds (the pruner runs on its own timer), or fails after the deadline. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A serving instance pruning every second beside the test's own writes: on a loaded machine a
// test here has taken most of a minute (38 s in a whole run beside other work, 1 s alone).
describe.each(backends)('retention on $name (docs/rules.md#retention)', { timeout: 90_000 }, ({ name, available }) => {
  let database: TestDatabase;
  let server: RunningServer;
  let url: string;
  let offset = 0;
  let hashing: Config['passwordHashing'];
  const clock = () => Date.now() + offset;
  const advanceDays = (days: number) => (offset += days * DAY * 1000);
  // The users made here hash their passwords as the server does (testPasswordHashing).
  const services = () => createServiceContext(database.handle.db, clock, { passwordHashing: hashing });
  const db = () => database.handle.db;
  let client: { clientId: string; secret: string; redirectUri: string };
  let user: { id: string; email: string; password: string };

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      PORT: String(port),
      BASE_URL: url,
      APP_URL: url,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
      RATE_LIMIT_TOKEN_PER_MINUTE: '0',
      RATE_LIMIT_CLIENT_AUTH_FAILURES_PER_MINUTE: '0',
      AUDIT_RETENTION_DAYS: '40',
      PRUNE_INTERVAL_SECONDS: '1',
      // Logins here only open the consent page: the hashing's cost is not what is tested.
      ...testPasswordHashing,
    });
    hashing = config.passwordHashing;
    server = await startServer(config, { clock });
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const email = `keep-${randomBytes(3).toString('hex')}@example.com`;
    user = { id: (await createUser(services(), { email, name: 'Retention', password })).id, email, password };
    const created = await createClient(services(), {
      ownerId: user.id,
      name: 'Retention App',
      kind: 'confidential',
      redirectUris: ['https://app.example.com/cb'],
      scopes: ['PROFILE_READ'],
    });
    await reviewClient(services(), created.client.clientId, 'approve', null);
    client = { clientId: created.client.clientId, secret: created.secret!, redirectUri: 'https://app.example.com/cb' };
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  /**
   * Logs in (a session) and approves the client (an authorization request, a grant and a
   * code); prompt=consent, so that each code has a grant of its own (docs/rules.md#silent-authorization).
   */
  async function newCode(): Promise<{ code: string; browser: Browser }> {
    const browser = new Browser(url);
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code', scope: 'PROFILE_READ', state: 's', prompt: 'consent' });
    const page = await browser.get(`/auth/oauth2/authorize?${query}`);
    expect(page.status).toBe(200);
    const back = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    expect(back.status).toBe(303);
    return { code: new URL(back.location!).searchParams.get('code')!, browser };
  }

  async function token(fields: Record<string, string>) {
    const res = await fetch(`${url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ client_id: client.clientId, client_secret: client.secret, ...fields }).toString(),
    });
    return { status: res.status, body: (await res.json()) as { access_token: string; refresh_token: string } };
  }

  const exchange = async (code: string) => (await token({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri })).body;
  const me = async (accessToken: string) => (await fetch(`${url}/v2/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status;

  const count = (table: DatedTable, before: number) => rowsCreated(db(), table, { before });
  const stores = () => storesOver(db(), clock);

  it.skipIf(!available)('deletes ended codes, tokens, sessions and old authorization requests; live ones stay and keep working', async () => {
    // Day 0: an unused code, a chain refreshed once, a chain whose refresh token is revoked.
    const day0 = clock();
    await newCode();
    const kept = await exchange((await newCode()).code);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: kept.refresh_token });
    expect(refreshed.status).toBe(200);
    const ended = await exchange((await newCode()).code);
    const revoke = await fetch(`${url}/v2/auth/oauth2/revoke`, { method: 'POST', headers: form, body: new URLSearchParams({ token: ended.refresh_token, client_id: client.clientId, client_secret: client.secret }).toString() });
    expect(revoke.status).toBe(200);
    const endOfDay0 = clock() + 1;
    expect(await count('authorization_codes', endOfDay0)).toBe(3);
    expect(await count('sessions', endOfDay0)).toBe(3);
    const auditDay0 = await count('audit_events', endOfDay0);
    expect(auditDay0).toBeGreaterThan(0);

    // Day 31: the sessions (7 days), codes (60 s), access tokens (30 min), the revoked refresh
    // token and the authorization requests (30 days) have ended; a new login and code are live.
    advanceDays(31);
    const freshStart = clock() - 1;
    const fresh = await newCode();
    await eventually('day-0 codes, access tokens and sessions are deleted', async () =>
      (await count('authorization_codes', endOfDay0)) + (await count('access_tokens', endOfDay0)) + (await count('sessions', endOfDay0)) + (await count('authorization_requests', endOfDay0)) === 0,
    );
    await eventually('the revoked refresh token is deleted', async () => (await refreshTokenOf(stores(), ended.refresh_token)) === undefined);
    // The spent refresh token stays (its reuse is still detected), without its successor pair;
    // its successor is live until day 90. A run forgets successor pairs after it deletes, so
    // this waits for that step rather than reading mid-run.
    await eventually('the spent token forgets its successor pair', async () => (await refreshTokenOf(stores(), kept.refresh_token))?.successorBox === null);
    const spent = await refreshTokenOf(stores(), kept.refresh_token);
    const successor = await refreshTokenOf(stores(), refreshed.body.refresh_token);
    expect({ spent: spent?.spentAt !== null, successorBox: successor?.successorBox }).toEqual({ spent: true, successorBox: null });
    expect((await tokenCountsOfClient(db(), client.clientId)).refresh).toBe(2);
    // Live rows stay: the new session and code, the day-0 audit events (40 days).
    for (const table of ['sessions', 'authorization_codes', 'authorization_requests'] as const) expect(await rowsCreated(db(), table, { after: freshStart }), table).toBe(1);
    expect(await count('audit_events', endOfDay0)).toBe(auditDay0);
    // And they work: the live refresh token from day 0, the new code, the new session.
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token });
    expect(rotated.status).toBe(200);
    expect(await me(rotated.body.access_token)).toBe(200);
    const freshTokens = await exchange(fresh.code);
    expect(await me(freshTokens.access_token)).toBe(200);
    expect((await fresh.browser.get('/settings/authorized-apps')).status).toBe(200);
    expect(day0).toBeLessThan(endOfDay0);

    // Day 45: the day-0 audit events are past AUDIT_RETENTION_DAYS (40); day 31's are not.
    advanceDays(14);
    await eventually('day-0 audit events are deleted', async () => (await count('audit_events', endOfDay0)) === 0);
    expect(await rowsCreated(db(), 'audit_events', { after: freshStart })).toBeGreaterThan(0);
  });

  it.skipIf(!available)('deletes open registrations with which no authorization was completed within a day; a used one, a reviewed one and a new one stay', async () => {
    const agent = { redirect_uris: ['http://127.0.0.1:33418/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] };
    const open = { policy: 'open' as const, scopes: ['PROFILE_READ'] };
    const register = async (policy: typeof open | { policy: 'review'; scopes: string[] }, clientName: string) =>
      (await registerDynamicClient(services(), policy, { ...agent, client_name: clientName })).client.clientId;
    const exists = async (clientId: string) => (await services().stores.clients.find(clientId)) !== undefined;
    const abandoned = await register(open, 'Abandoned agent');
    const used = await register(open, 'Used agent');
    const reviewed = await register({ policy: 'review', scopes: ['PROFILE_READ'] }, 'Reviewed agent');
    await reviewClient(services(), reviewed, 'approve', null);
    // The used agent's user consents: a grant, and a code the agent redeems with its PKCE verifier.
    const { verifier, challenge } = pkcePair();
    const browser = new Browser(url);
    expect((await browser.login(user.email, user.password)).status).toBe(303);
    const query = new URLSearchParams({ client_id: used, redirect_uri: agent.redirect_uris[0]!, response_type: 'code', scope: 'PROFILE_READ', state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
    const page = await browser.get(`/auth/oauth2/authorize?${query}`);
    expect(page.status).toBe(200);
    const back = await browser.post('/auth/oauth2/authorize', { ...formFields(page.body), decision: 'allow' });
    expect(back.status).toBe(303);
    const code = new URL(back.location!).searchParams.get('code')!;
    const redeemed = await fetch(`${url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers: form,
      body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: used, redirect_uri: agent.redirect_uris[0]!, code_verifier: verifier }).toString(),
    });
    expect(redeemed.status).toBe(200);
    const { refresh_token: agentRefresh } = (await redeemed.json()) as { refresh_token: string };

    // A day and a minute later, the abandoned registration goes; one made now is too new.
    advanceDays(1);
    offset += 60_000;
    const recent = await register(open, 'Recent agent');
    await eventually('the abandoned open registration is deleted', async () => !(await exists(abandoned)));
    expect({ used: await exists(used), reviewed: await exists(reviewed), recent: await exists(recent) }).toEqual({ used: true, reviewed: true, recent: true });
    // The used agent keeps working; the deleted one's audit trail keeps its id.
    const refreshed = await fetch(`${url}/v2/auth/oauth2/token`, { method: 'POST', headers: form, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: agentRefresh, client_id: used }).toString() });
    expect(refreshed.status).toBe(200);
    expect(await me(((await refreshed.json()) as { access_token: string }).access_token)).toBe(200);
    const trail = await db().selectFrom('audit_events').select('type').where('client_id', '=', abandoned).execute();
    expect(trail.map((e) => e.type)).toContain('client.created');
  });

  it.skipIf(!available)('works through a backlog in batches; several pruning at once delete each row once and leave the live ones', async () => {
    // A database of its own: the instance above prunes its own on a timer.
    const own = await createTestDatabase(name);
    try {
      const now = Date.now();
      const at = (t: number) => createServiceContext(own.handle.db, () => t);
      const owner = await createUser(at(now), { email: 'batch@example.com', name: 'Batch', password: 'batch-password' });
      for (let i = 0; i < 30; i++) await createSession(at(now - 10 * DAY * 1000), owner.id);
      await createSession(at(now), owner.id);
      const policy = { replayWindowSeconds: 30, auditRetentionDays: 40 };
      const runs = await Promise.all([1, 2, 3].map(() => pruneEnded(at(now), policy, { batchSize: 4 })));
      expect(runs.reduce((sum, r) => sum + r.sessions, 0)).toBe(30);
      // One session left, the live one.
      expect([await sessionCountOfUser(own.handle.db, owner.id), await rowsCreated(own.handle.db, 'sessions', { before: now })]).toEqual([1, 0]);
    } finally {
      await own.drop();
    }
  });
});
