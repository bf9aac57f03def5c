// Races at the token endpoint over real concurrent HTTP requests, on every backend:
// a code is redeemed once however many redemptions arrive together (RFC 6749 §4.1.2), and
// concurrent refreshes of one token rotate it once and all get that one pair (docs/rules.md#refresh-rotation).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { backends } from '../helpers/backends.ts';
import { freePort } from '../helpers/ports.ts';
import { startTestServer, TEST_SIGNING_KEYS_SECRET, type TestServer } from '../helpers/server.ts';
import { accessTokenOf, auditEvents, refreshTokenOf } from '../helpers/stores.ts';

const N = 50;

describe.each(backends)('token endpoint concurrency on $name', ({ name, available }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (available) server = await startTestServer(name);
  });
  afterAll(async () => server?.close());

  it.skipIf(!available)(`redeems one code exactly once among ${N} concurrent requests (RFC 6749 §4.1.2)`, async () => {
    const dev = await server.user();
    const user = await server.user();
    const client = await server.client(dev);
    const code = await server.code(client, user);

    const replies = await Promise.all(Array.from({ length: N }, () => server.exchange(client, code)));

    const ok = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(N - 1);
    for (const r of refused) {
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('invalid_grant');
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    expect(ok[0]!.body).toMatchObject({ token_type: 'bearer', scope: 'PROFILE_READ' });
    // One redemption issued one pair: a pair is stored with its token.issued event, all or
    // nothing (OAuthStore.createTokenPair), so one event is one stored pair, the one answered.
    expect(await auditEvents(server, { clientId: client.clientId, type: ['token.issued', 'token.refreshed'] })).toHaveLength(1);
    expect(await accessTokenOf(server, ok[0]!.body.access_token as string)).toBeDefined();
    expect(await refreshTokenOf(server, ok[0]!.body.refresh_token as string)).toBeDefined();
  });

  it.skipIf(!available)(`rotates a refresh token once among ${N} concurrent refreshes, all answered with that pair (docs/rules.md#refresh-rotation)`, async () => {
    const dev = await server.user();
    const user = await server.user();
    const client = await server.client(dev);
    const first = await server.exchange(client, await server.code(client, user));
    expect(first.status).toBe(200);
    const original = (await refreshTokenOf(server, first.body.refresh_token as string))!;

    const replies = await Promise.all(
      Array.from({ length: N }, () =>
        server.token({
          grant_type: 'refresh_token',
          refresh_token: first.body.refresh_token as string,
          client_id: client.clientId,
          client_secret: client.secret!,
        }),
      ),
    );

    expect(replies.map((r) => r.status)).toEqual(Array(N).fill(200));
    const bodies = new Set(replies.map((r) => JSON.stringify(r.body)));
    expect(bodies.size).toBe(1);
    const pair = replies[0]!.body;
    expect(pair.refresh_token).not.toBe(first.body.refresh_token);
    expect(pair.access_token).not.toBe(first.body.access_token);

    // One rotation: one token.refreshed event, each stored with its pair (OAuthStore.createTokenPair).
    expect((await auditEvents(server, { clientId: client.clientId, type: ['token.issued', 'token.refreshed'] })).map((e) => e.type)).toEqual(['token.issued', 'token.refreshed']);
    const successor = (await refreshTokenOf(server, pair.refresh_token as string))!;
    expect(successor).toMatchObject({ grantId: original.grantId, parentId: original.id, revokedAt: null });
    expect((await refreshTokenOf(server, first.body.refresh_token as string))!.revokedAt).toBeNull();
    for (const access of [first.body.access_token, pair.access_token] as string[]) expect(await accessTokenOf(server, access)).toMatchObject({ grantId: original.grantId, revokedAt: null });

    // The pair everyone got is the live one: it works, and it rotates normally.
    expect((await server.api('GET', '/v2/me', pair.access_token as string)).status).toBe(200);
    const next = await server.token({
      grant_type: 'refresh_token',
      refresh_token: pair.refresh_token as string,
      client_id: client.clientId,
      client_secret: client.secret!,
    });
    expect(next.status).toBe(200);
  });

  // docs/rules.md#scale-out: instances keep no state of their own; over one PostgreSQL they behave as one.
  describe.runIf(name === 'postgres')('two instances over one database', () => {
    let second: { app: FastifyInstance; url: string; database: DatabaseHandle };
    beforeAll(async () => {
      if (!available) return;
      const database = openDatabase(server.database.url); // its own connection pool
      const port = await freePort();
      const app = await buildApp(server.config, { database, cookieSecret: randomBytes(32).toString('hex'), signingKeysSecret: TEST_SIGNING_KEYS_SECRET, clock: server.clock, logStream: { write: () => true } as unknown as NodeJS.WritableStream });
      await app.listen({ port, host: '127.0.0.1' });
      second = { app, url: `http://127.0.0.1:${port}`, database };
    });
    afterAll(async () => {
      await second?.app.close();
      await second?.database.close();
    });

    async function post(base: string, body: Record<string, string>) {
      const res = await fetch(`${base}/v2/auth/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }

    it.skipIf(!available)(`redeems one code once and rotates one refresh token once across two instances (docs/rules.md#scale-out)`, async () => {
      const dev = await server.user();
      const user = await server.user();
      const client = await server.client(dev);
      const code = await server.code(client, user);
      const exchange = { grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId, client_secret: client.secret! };
      const redemptions = await Promise.all(Array.from({ length: N }, (_, i) => post(i % 2 ? second.url : server.url, exchange)));
      expect(redemptions.filter((r) => r.status === 200)).toHaveLength(1);
      expect(redemptions.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(N - 1);

      // A second authorization for the refresh race: the replays above revoked the first
      // code's tokens. It is silent, so it shares the grant (docs/rules.md#silent-authorization): count the
      // refresh tokens descended from its code.
      const first = await server.exchange(client, await server.code(client, user));
      expect(first.status).toBe(200);
      const refreshBody = { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: client.clientId, client_secret: client.secret! };
      const refreshes = await Promise.all(Array.from({ length: N }, (_, i) => post(i % 2 ? second.url : server.url, refreshBody)));
      expect(refreshes.map((r) => r.status)).toEqual(Array(N).fill(200));
      expect(new Set(refreshes.map((r) => JSON.stringify(r.body))).size).toBe(1);
      const original = (await refreshTokenOf(server, first.body.refresh_token as string))!;
      const answered = (await refreshTokenOf(server, refreshes[0]!.body.refresh_token as string))!;
      expect(answered).toMatchObject({ grantId: original.grantId, codeHash: original.codeHash, parentId: original.id });
      // One rotation: no refresh came before these, and each is stored with its event (OAuthStore.createTokenPair).
      expect(await auditEvents(server, { clientId: client.clientId, type: 'token.refreshed' })).toHaveLength(1);
    });
  });
});
