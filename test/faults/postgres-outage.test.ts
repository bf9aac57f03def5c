// Issue 12 item 2: PostgreSQL stopped under load and started again. While it is down every
// surface says "try again later" (503 with Retry-After) in its own format, within a few
// seconds; when it is back the same process serves again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { Load, waitFor } from './load.ts';
import { RunningGatehouse } from './running-gatehouse.ts';
import { signedInClient, type SignedInClient } from './signed-in-client.ts';
import { ThrowawayPostgres, throwawayPostgresAvailable } from './throwaway-postgres.ts';

describe.skipIf(!throwawayPostgresAvailable)('PostgreSQL goes away under load', () => {
  let postgres: ThrowawayPostgres;
  let server: RunningGatehouse;
  let database: DatabaseHandle;
  let app: SignedInClient;

  beforeAll(async () => {
    postgres = await ThrowawayPostgres.create();
    server = await RunningGatehouse.start({ DATABASE_URL: postgres.url, DATABASE_CONNECT_TIMEOUT_SECONDS: '2' });
    database = openDatabase(postgres.url);
    app = await signedInClient(createServiceContext(database.db, Date.now, testServiceOptions), server.url);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await postgres?.destroy();
  });

  const refresh = (refreshToken: string, signal?: AbortSignal) =>
    fetch(`${server.url}/v2/auth/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.clientId, client_secret: app.secret }).toString(),
      ...(signal ? { signal } : {}),
    });

  /** A client refreshing its own chain: it keeps a token until the server hands it the next. */
  async function refreshingClient(): Promise<(signal: AbortSignal) => Promise<number>> {
    let current = (await app.tokens()).refresh_token;
    return async (signal) => {
      const res = await refresh(current, signal);
      const body = (await res.json()) as { refresh_token?: string };
      if (res.status === 200) current = body.refresh_token!;
      return res.status;
    };
  }

  it('answers 503 with Retry-After on the token endpoint, the API, the pages, /mcp and /readyz while it is down, never a 500 or a hang, and serves again once it is back', async () => {
    const { access_token: accessToken } = await app.tokens();
    const spare = (await app.tokens()).refresh_token;
    const load = new Load()
      .add('token', await refreshingClient())
      .add('token', await refreshingClient())
      .add('api', async (signal) => (await fetch(`${server.url}/v2/me`, { headers: { authorization: `Bearer ${accessToken}` }, signal })).status)
      .add('page', async (signal) => (await fetch(`${server.url}/settings/authorized-apps`, { headers: { cookie: app.browser.cookieHeader() }, signal })).status);
    try {
      await waitFor('the load to be served', () => ['token', 'api', 'page'].every((s) => load.saw(s, 'before', 200)));

      await postgres.stop();
      load.phase = 'down';
      const unavailable = (surface: string) => load.answers.filter((a) => a.surface === surface && a.phase === 'down' && a.status === 503).length;
      await waitFor('every surface to answer 503 a few times', () => ['token', 'api', 'page'].every((s) => unavailable(s) >= 3));

      // What each kind of caller is told, exactly.
      const token = await refresh(spare);
      expect(token.status).toBe(503);
      expect(token.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(token.headers.get('cache-control')).toBe('no-store');
      expect(await token.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('try again') });

      const api = await fetch(`${server.url}/v2/me`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await api.json()).toEqual({ status: 'error', timestamp: expect.any(String), path: expect.any(String), error: { code: 'service_unavailable', message: expect.stringContaining('try again') } });

      const page = await fetch(`${server.url}/settings/authorized-apps`, { headers: { cookie: app.browser.cookieHeader() } });
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('Temporarily unavailable');

      // /mcp checks the token before anything else: its 503 is JSON-RPC, what an agent reads.
      const mcp = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(mcp.status).toBe(503);
      expect(mcp.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await mcp.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('try again') } });

      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'the database is not reachable' });

      await postgres.start();
      load.phase = 'after';
      await waitFor('every surface to be served again', () => ['token', 'api', 'page'].every((s) => load.saw(s, 'after', 200)));
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // The token held back through the outage still works: nothing was spent by a 503.
      expect((await refresh(spare)).status).toBe(200);
    } finally {
      await load.stop();
    }

    const unexpected = load.answers.filter((a) => a.status !== 200 && a.status !== 503);
    expect(unexpected).toEqual([]);
    const slow = load.answers.filter((a) => a.ms > 10_000);
    expect(slow).toEqual([]);
    expect(load.answers.filter((a) => a.phase === 'down' && a.status === 503).length).toBeGreaterThan(3);
    // The outage is in the log as a warning, not as request failures.
    expect(server.logged('request failed')).toEqual([]);
    expect(server.logged('token endpoint failed')).toEqual([]);
    expect(server.logged('database unavailable').length).toBeGreaterThan(0);
  }, 120_000);
});
