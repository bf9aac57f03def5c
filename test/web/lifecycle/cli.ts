// `gatehouse clients update` (docs/rules.md#cli, docs/rules.md#legacy-clients, docs/rules.md#client-changes), run as a
// real child process over the database a real server uses: held changes stay out of the
// live configuration, a legacy client's --scope is its migration and needs --yes when
// recent requests lacked scope, and bad input is one clear line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientKey } from '../../helpers/client-keys.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireClient } from '../../../src/services/clients/view.ts';
import type { Backend } from '../../helpers/backends.ts';
import { expectOneLineRefusal, runCli } from '../../helpers/cli.ts';
import { loggedIn, visibleText } from '../../helpers/pages.ts';
import type { TestServer, TestUser } from '../../helpers/server.ts';

const A = 'https://app.example.com/callback';
const B = 'https://second.example.net/cb';

export function clientsUpdateCommand({ available }: Backend, shared: () => TestServer): void {
  describe('gatehouse clients update', { timeout: 120_000 }, () => {
    let server: TestServer;
    let dev: TestUser;
    beforeAll(async () => {
      if (!available) return;
      server = shared();
      dev = await server.user();
    });

    const gh = (args: string[]) => runCli(args, { env: { DATABASE_URL: server.database.url, ...server.database.env } });

    it.skipIf(!available)('on an approved client, added redirect URIs and scopes are held and the authorization endpoint keeps refusing them (docs/rules.md#client-changes)', async () => {
      const client = await server.client(dev, { redirectUris: [A], scopes: ['PROFILE_READ'] });
      const res = await gh(['clients', 'update', client.clientId, '--name', 'Renamed', '--redirect-uri', A, '--redirect-uri', B, '--scope', 'PROFILE_READ', '--scope', 'BOOKING_READ', '--json']);
      expect(res.code, res.stderr).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({
        client_id: client.clientId,
        state: 'approved',
        migrated: false,
        redirect_uris: [A],
        scopes: ['PROFILE_READ'],
        awaiting_review: { redirect_uris: [B], scopes: ['BOOKING_READ'] },
      });
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: B, response_type: 'code', scope: 'PROFILE_READ' });
      const refused = await server.browser().get(`/auth/oauth2/authorize?${query}`);
      expect(refused.status).toBe(400);
      expect(visibleText(refused.body)).toContain(`redirect_uri "${B}" is not registered`);
      const after = await requireClient(server.services, client.clientId);
      expect(after.name).toBe('Renamed');
      expect(after.proposedRedirectUris).toEqual([B]);

      const human = await gh(['clients', 'update', client.clientId, '--description', 'Now described']);
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toContain(`client ${client.clientId} updated (approved)`);
      expect(human.stdout).toContain(`awaiting admin review: ${B}, BOOKING_READ`);
    });

    it.skipIf(!available)('RFC 9449 §5.2: --require-dpop makes every token request need a DPoP proof, --no-require-dpop undoes it (docs/rules.md#dpop)', async () => {
      const client = await server.client(dev);
      const on = await gh(['clients', 'update', client.clientId, '--require-dpop', '--json']);
      expect(on.code, on.stderr).toBe(0);
      expect(JSON.parse(on.stdout)).toMatchObject({ client_id: client.clientId, dpop_bound_access_tokens: true });
      expect((await requireClient(server.services, client.clientId)).dpopBoundAccessTokens).toBe(true);
      const shown = await gh(['clients', 'show', client.clientId]);
      expect(shown.stdout).toContain('DPoP:          required on every token request');
      expect((await gh(['clients', 'update', client.clientId, '--no-require-dpop'])).code).toBe(0);
      expect((await requireClient(server.services, client.clientId)).dpopBoundAccessTokens).toBe(false);
    });

    it.skipIf(!available)('FAPI 2.0: --fapi2 makes the client follow the profile, --no-fapi2 undoes it, a public client is one line of refusal (docs/rules.md#fapi2)', async () => {
      const client = await server.client(dev);
      // FAPI 2.0 §5.3.2.1: the profile needs private_key_jwt, so keys and the method come with it.
      expectOneLineRefusal(await gh(['clients', 'update', client.clientId, '--fapi2']), /requires private_key_jwt client authentication: give jwks/);
      const key = await clientKey();
      const dir = mkdtempSync(join(tmpdir(), 'gatehouse-jwks-'));
      const jwksFile = join(dir, 'jwks.json');
      writeFileSync(jwksFile, JSON.stringify(key.jwks));
      const on = await gh(['clients', 'update', client.clientId, '--fapi2', '--auth-method', 'private_key_jwt', '--jwks-file', jwksFile, '--json']);
      expect(on.code, on.stderr).toBe(0);
      expect(JSON.parse(on.stdout)).toMatchObject({ client_id: client.clientId, fapi2: true, token_endpoint_auth_method: 'private_key_jwt', jwks: key.jwks });
      expect((await gh(['clients', 'show', client.clientId])).stdout).toContain('authentication: private_key_jwt (1 public key registered)');
      writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...key.publicJwk, d: 'x' }] }));
      expectOneLineRefusal(await gh(['clients', 'update', client.clientId, '--jwks-file', jwksFile]), /key 1 of jwks holds the private member "d"/);
      expectOneLineRefusal(await gh(['clients', 'update', client.clientId, '--jwks-file', join(dir, 'missing.json')]), /cannot read --jwks-file/);
      expect((await gh(['clients', 'show', client.clientId])).stdout).toContain('FAPI 2.0:      follows the Security Profile');
      expect((await gh(['clients', 'update', client.clientId, '--no-fapi2'])).code).toBe(0);
      rmSync(dir, { recursive: true });
      expect((await requireClient(server.services, client.clientId)).fapi2).toBe(false);
      const publicClient = await server.client(dev, { kind: 'public', redirectUris: ['http://127.0.0.1:8765/callback'] });
      expectOneLineRefusal(await gh(['clients', 'update', publicClient.clientId, '--fapi2']), /for confidential clients/);
    });

    it.skipIf(!available)('bad input exits non-zero with one line that says what to fix, and changes nothing', async () => {
      const client = await server.client(dev);
      const cases: Array<[string[], RegExp]> = [
        [['--redirect-uri', 'http://evil.example/cb'], /gatehouse: redirect URI "http:\/\/evil\.example\/cb" must use https/],
        [['--redirect-uri', 'https://a.example/cb#frag'], /must not contain a fragment/],
        [['--scope', 'NOPE'], /gatehouse: unknown scope: NOPE/],
        [['--logo', 'http://a.example/logo.png'], /gatehouse: logo_url must use https/],
        [['--name', ' '], /gatehouse: name is required/],
        [[], /gatehouse: nothing to change/],
      ];
      for (const [args, message] of cases) expectOneLineRefusal(await gh(['clients', 'update', client.clientId, ...args]), message);
      expectOneLineRefusal(await gh(['clients', 'update', 'no-such-client', '--name', 'X']), /gatehouse: no client with id no-such-client/);
      expect((await server.services.stores.auditLog.list({ clientId: client.clientId })).some((e) => e.type === 'client.updated')).toBe(false);
    });

    it.skipIf(!available)('on a legacy client --scope migrates it in place, and needs --yes after requests without scope (docs/rules.md#legacy-clients)', async () => {
      const client = await server.client(dev, { scopes: null });
      const { browser } = await loggedIn(server);
      const query = new URLSearchParams({ client_id: client.clientId, redirect_uri: client.redirectUri, response_type: 'code' });
      expect((await browser.get(`/auth/oauth2/authorize?${query}`)).status).toBe(200);

      expectOneLineRefusal(
        await gh(['clients', 'update', client.clientId, '--scope', 'PROFILE_READ']),
        /^gatehouse: 1 authorization request of this client in the last 30 days came without scope; .* \(rerun with --yes\)$/,
      );
      expect((await requireClient(server.services, client.clientId)).legacy).toBe(true);

      const res = await gh(['clients', 'update', client.clientId, '--scope', 'PROFILE_READ', '--yes']);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain('migrated: scope-enforced with PROFILE_READ');
      const after = await requireClient(server.services, client.clientId);
      expect(after).toMatchObject({ clientId: client.clientId, legacy: false, scopes: ['PROFILE_READ'], state: 'approved' });
      expect(after.secrets).toHaveLength(1);
      expect((await server.services.stores.auditLog.list({ clientId: client.clientId })).filter((e) => e.type === 'client.migrated')).toHaveLength(1);
    });
  });
}
