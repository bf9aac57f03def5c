// POST /v2/auth/oauth2/token on every backend: response hygiene: no-store, error shape, nothing leaked or stored in plain (RFC 6749 §5.1; docs/rules.md#token-errors, docs/rules.md#token-formats, docs/rules.md#security-headers).
// The shared setup is in ./setup.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.ts';
import { tableDumps } from '../../helpers/rows.ts';
import { accessTokenOf } from '../../helpers/stores.ts';
import type { TestServer } from '../../helpers/server.ts';
import { basic, expectNothingLeaked, expectTokens, FORM, JSON_TYPE, type Reply, TOKEN, useTokenEndpoint } from './setup.ts';

describe.each(backends)('token endpoint on $name', ({ name, available }) => {
  const t = useTokenEndpoint(name, available);
  const { code, approvedClient, issued, refresh, me } = t;
  let server: TestServer;
  beforeAll(() => {
    ({ server } = t);
  });

  // ---------------------------------------------------------------- response hygiene

  describe('response hygiene', () => {
    it.skipIf(!available)('sends Cache-Control: no-store on every response, success or error (RFC 6749 §5.1, docs/rules.md#token-errors)', async () => {
      const first = await issued();
      const replies: Reply[] = [
        await refresh(first.client, first.refresh),
        await refresh(first.client, first.refresh),
        await server.post(TOKEN, 'grant_type=password', FORM),
        await server.post(TOKEN, '', FORM),
        await server.post(TOKEN, '{', JSON_TYPE),
        await server.post(TOKEN, 'x', { 'content-type': 'text/plain' }),
        await server.post(TOKEN, 'x', { 'content-type': 'application/xml' }),
        await server.post(TOKEN, `grant_type=refresh_token&padding=${'p'.repeat(100_000)}`, FORM),
        await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh, client_id: 'nobody' }),
        await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [first.client.clientId, 'wrong'] }),
        await refresh(first.client, first.refresh, { scope: 'PROFILE_WRITE' }),
      ];
      for (const reply of replies) {
        expect(reply.headers.get('cache-control')).toBe('no-store');
        expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      }
      expect(replies.map((r) => r.status)).toEqual([200, 200, 400, 400, 400, 400, 400, 400, 401, 401, 400]);
    });

    it.skipIf(!available)('never answers with a stack trace or a client secret, whatever the input (docs/rules.md#token-errors, docs/rules.md#bad-input)', async () => {
      const client = await approvedClient();
      const secret = client.secret!;
      const id = client.clientId;
      const replies: Reply[] = [
        await server.token({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'y', client_id: id, client_secret: secret + 'x' }),
        await server.token({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'y', client_id: id, client_secret: secret }),
        await server.token({ grant_type: 'authorization_code', code: secret, redirect_uri: secret, client_id: id, client_secret: secret }),
        await server.token({ grant_type: 'refresh_token', refresh_token: secret, client_id: id, client_secret: secret }),
        await server.token({ grant_type: 'authorization_code', client_secret: secret }, { basic: [id, secret] }),
        await server.post(TOKEN, `client_secret=${secret}&client_secret=${secret}&client_id=${id}&grant_type=refresh_token`, FORM),
        await server.post(TOKEN, `{"client_secret": "${secret}", "client_id": "${id}", "grant_type": "refresh_token"`, JSON_TYPE),
        await server.post(TOKEN, `{"client_secret": "${secret}" "client_id": 1}`, JSON_TYPE),
        await server.post(TOKEN, `client_secret=${secret}`, { 'content-type': 'text/plain' }),
        await server.post(TOKEN, `client_secret=${secret}`, { 'content-type': 'application/xml' }),
        await server.post(TOKEN, `client_secret=${secret}&x=${'p'.repeat(70_000)}`, FORM),
        await server.post(TOKEN, JSON.stringify({ client_secret: secret, x: 'p'.repeat(70_000) }), JSON_TYPE),
        await server.post(TOKEN, `client_secret=%E0%A4%A&grant_type=authorization_code`, FORM),
        await server.post(TOKEN, 'grant_type=authorization_code', { ...FORM, authorization: `Basic ${'%'.repeat(30)}` }),
        await server.post(TOKEN, 'grant_type=authorization_code', { ...FORM, authorization: basic(id, `${secret}\u0000`) }),
      ];
      for (const reply of replies) {
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(reply.status).toBeLessThan(500);
        expect(reply.body).toBeDefined();
        expectNothingLeaked(reply, [secret]);
      }
    });

    it.skipIf(!available)('stores only hashes of codes, tokens and secrets (docs/rules.md#token-formats, docs/rules.md#credentials-at-rest)', async () => {
      const client = await approvedClient();
      const issuedCode = await code(client);
      const first = expectTokens(await server.exchange(client, issuedCode), 'PROFILE_READ');
      const next = expectTokens(await refresh(client, first.refresh), 'PROFILE_READ');
      const plain = [client.secret!, issuedCode, first.access, first.refresh, next.access, next.refresh];
      const dumps = await tableDumps(server.db, ['access_tokens', 'refresh_tokens', 'authorization_codes', 'client_secrets', 'audit_events', 'grants']);
      for (const [table, dump] of Object.entries(dumps)) {
        for (const value of plain) {
          expect(dump, `${table} holds a plain credential`).not.toContain(value);
          // Nor the random body without its prefix.
          expect(dump, `${table} holds a plain credential body`).not.toContain(value.slice(4, 40));
        }
      }
      // Both access tokens are stored, each under its hash.
      for (const token of [first.access, next.access]) expect((await accessTokenOf(server, token))?.hash).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    });

    it.skipIf(!available)('writes no client secret, code or token to the log (docs/rules.md#private-records)', async () => {
      const client = await approvedClient();
      const issuedCode = await code(client);
      const first = expectTokens(await server.exchange(client, issuedCode), 'PROFILE_READ');
      await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh }, { basic: [client.clientId, client.secret!] });
      await server.token({ grant_type: 'refresh_token', refresh_token: first.refresh, client_id: client.clientId, client_secret: client.secret + 'x' });
      await server.post(TOKEN, `{"client_secret": "${client.secret}",`, JSON_TYPE);
      await me(first.access);
      const log = server.logs.join('');
      for (const value of [client.secret!, issuedCode, first.access, first.refresh]) expect(log).not.toContain(value);
    });
  });
});
