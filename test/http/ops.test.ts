// Operations endpoints: /healthz (liveness), /readyz (database reachable and migrated),
// /metrics (prom-client text, to loopback callers or with Authorization: Bearer
// METRICS_TOKEN), and counters that move when the protocol does.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/index.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { backends } from '../helpers/backends.ts';
import { startTestServer, TEST_SIGNING_KEYS_SECRET, type TestServer } from '../helpers/server.ts';

const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;

/** The value of one sample in Prometheus text format, 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const have = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe.each(backends)('operations endpoints on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name, { METRICS_TOKEN });
  });
  afterAll(async () => server?.close());

  async function metricsText(): Promise<string> {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  }

  it.skipIf(!available)('GET /healthz answers 200 {"status":"ok"} without touching anything', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.skipIf(!available)('GET /readyz answers 200 {"status":"ready"} when the database is reachable and migrated', async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready' });
  });

  it.skipIf(!available)('serves Prometheus text to a loopback caller without a token', async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('# TYPE gatehouse_http_requests_total counter');
    expect(text).toContain('# TYPE gatehouse_events_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it.skipIf(!available)('refuses a non-loopback caller without the token with 403, and serves it with Authorization: Bearer METRICS_TOKEN', async () => {
    const remote = { method: 'GET' as const, url: '/metrics', remoteAddress: '203.0.113.7' };
    const refused = await server.app.inject(remote);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ status: 'error', error: { code: 'forbidden' } });
    expect(refused.body).not.toContain('gatehouse_http_requests_total');

    const wrong = await server.app.inject({ ...remote, headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` } });
    expect(wrong.statusCode).toBe(403);

    const allowed = await server.app.inject({ ...remote, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain('gatehouse_http_requests_total');

    // Over the network as well (the token path; the caller happens to be loopback).
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
  });

  it.skipIf(!available)('moves the request and event counters after a code → token → refresh → revoke flow', async () => {
    const before = await metricsText();
    const dev = await server.user();
    const client = await server.client(dev);
    const tokens = await server.exchange(client, await server.code(client, dev));
    expect(tokens.status).toBe(200);
    const refreshed = await server.token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! });
    expect(refreshed.status).toBe(200);
    const bad = await server.token({ grant_type: 'refresh_token', refresh_token: 'grt_nope', client_id: client.clientId, client_secret: client.secret! });
    expect(bad.status).toBe(400);
    const revoked = await server.post('/v2/auth/oauth2/revoke', new URLSearchParams({ token: refreshed.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(revoked.status).toBe(200);
    const after = await metricsText();

    const delta = (metric: string, labels: Record<string, string>) => sample(after, metric, labels) - sample(before, metric, labels);
    expect(delta('gatehouse_events_total', { event: 'token.issued' })).toBe(1);
    expect(delta('gatehouse_events_total', { event: 'token.refreshed' })).toBe(1);
    expect(delta('gatehouse_events_total', { event: 'token.revoked' })).toBe(1);
    expect(delta('gatehouse_events_total', { event: 'grant.created' })).toBe(1);
    const token = { route: '/v2/auth/oauth2/token', method: 'POST' };
    expect(delta('gatehouse_http_requests_total', { ...token, status: '200' })).toBe(2);
    expect(delta('gatehouse_http_requests_total', { ...token, status: '400' })).toBe(1);
    expect(delta('gatehouse_http_requests_total', { route: '/v2/auth/oauth2/revoke', method: 'POST', status: '200' })).toBe(1);
    expect(delta('gatehouse_http_request_duration_seconds_count', { route: '/v2/auth/oauth2/token' })).toBe(3);
  });

  it.skipIf(!available)('counts a code replay and a refresh-token reuse once each, and an answer that changed nothing not at all (docs/operating.md#health-metrics-logs)', async () => {
    const dev = await server.user();
    const client = await server.client(dev);
    const [replayed, kept] = [await server.code(client, dev), await server.code(client, dev)];
    const before = await metricsText();
    expect((await server.exchange(client, replayed)).status).toBe(200);
    expect((await server.exchange(client, replayed)).body).toMatchObject({ error: 'invalid_grant' });
    const tokens = await server.exchange(client, kept);
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! };
    expect((await server.token(refresh)).status).toBe(200);
    // Within the reuse window the same successor comes back: nothing new was issued.
    expect((await server.token(refresh)).status).toBe(200);
    server.advance(3600);
    expect((await server.token(refresh)).body).toMatchObject({ error: 'invalid_grant' });
    const after = await metricsText();

    const delta = (event: string) => sample(after, 'gatehouse_events_total', { event }) - sample(before, 'gatehouse_events_total', { event });
    expect(['token.issued', 'code.replayed', 'token.refreshed', 'refresh_token.reused'].map(delta)).toEqual([2, 1, 1, 1]);
  });

  it.skipIf(!available)('counts requests by route pattern, never by raw URL (no token or id in a label)', async () => {
    await fetch(`${server.url}/v2/me`, { headers: { authorization: 'Bearer gat_whatever' } });
    await fetch(`${server.url}/nothing-here-${randomBytes(4).toString('hex')}?code=gac_secretish`);
    const text = await metricsText();
    expect(sample(text, 'gatehouse_http_requests_total', { route: '/v2/me', method: 'GET', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('nothing-here');
    expect(text).not.toContain('gac_secretish');
  });
});

describe('/metrics behind a reverse proxy on the same host (docs/rules.md#rate-limits, docs/rules.md#configuration TRUST_PROXY)', () => {
  // Not about the database: SQLite only.
  let trusting: TestServer;
  let direct: TestServer;
  beforeAll(async () => {
    [trusting, direct] = await Promise.all([startTestServer('sqlite', { TRUST_PROXY: '127.0.0.1', METRICS_TOKEN }), startTestServer('sqlite', { METRICS_TOKEN })]);
  });
  afterAll(async () => Promise.all([trusting?.close(), direct?.close()]));

  const metrics = (server: TestServer, headers: Record<string, string> = {}) => fetch(`${server.url}/metrics`, { headers });

  it('refuses an outside caller that reaches it through a trusted loopback proxy, and serves it with METRICS_TOKEN', async () => {
    // The proxy connects from 127.0.0.1 and names the real caller in X-Forwarded-For.
    const outside = { 'x-forwarded-for': '203.0.113.7' };
    const refused = await metrics(trusting, outside);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ status: 'error', error: { code: 'forbidden' } });
    expect((await metrics(trusting, { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' })).status).toBe(403);
    expect((await metrics(trusting, { ...outside, authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    // A caller on the host itself, through the proxy or not, is private.
    expect((await metrics(trusting, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    expect((await metrics(trusting)).status).toBe(200);
  });

  it('refuses a forwarded request from loopback when no proxy is trusted: the caller is someone behind an unconfigured proxy', async () => {
    const refused = await metrics(direct, { 'x-forwarded-for': '203.0.113.7' });
    expect(refused.status).toBe(403);
    expect((await metrics(direct, { forwarded: 'for=203.0.113.7' })).status).toBe(403);
    expect((await metrics(direct, { 'x-forwarded-for': '203.0.113.7', authorization: `Bearer ${METRICS_TOKEN}` })).status).toBe(200);
    expect((await metrics(direct)).status).toBe(200);
  });
});

describe('readiness when the database is not ready', () => {
  // A Gatehouse built over a database it cannot use: no migrations, then closed.
  async function unmigratedApp() {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-ready-'));
    const url = `sqlite:${join(dir, 'unmigrated.db')}`;
    const database = openDatabase(url);
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', RATE_LIMIT_TOKEN_PER_MINUTE: '0' });
    const app = await buildApp(config, { database, cookieSecret: randomBytes(32).toString('hex'), signingKeysSecret: TEST_SIGNING_KEYS_SECRET });
    return {
      app,
      async close() {
        await app.close();
        await database.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it('GET /readyz answers 503 naming pending migrations while /healthz stays 200', async () => {
    const { app, close } = await unmigratedApp();
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable' });
      expect(ready.json().reason).toMatch(/migrat/);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('GET /readyz answers 503 when the database cannot be reached, while /healthz stays 200', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const url = 'postgres://gatehouse@127.0.0.1:1/gatehouse';
    const database = openDatabase(url);
    const app = await buildApp(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }), { database, cookieSecret: randomBytes(32).toString('hex'), signingKeysSecret: TEST_SIGNING_KEYS_SECRET });
    try {
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: expect.stringMatching(/not reachable/) });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close().catch(() => undefined);
    }
  });
});
