// gatehouse clients create|update for OpenID Connect (docs/integrating.md#sign-in-with-gatehouse):
// the identity scopes, --id-token-alg and --post-logout-redirect-uri, shown by clients show
// --json; a refusal is one line naming what to fix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/services/accounts/users.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { expectOneLineRefusal, runCli, type CliResult } from '../helpers/cli.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';

describe.each(backends)('gatehouse clients for OpenID Connect on $name', ({ name, available }) => {
  let database: TestDatabase;
  const owner = 'oidc-owner@example.com';

  function gatehouse(...args: string[]): Promise<CliResult> {
    return runCli(args, { env: { ...database.env, DATABASE_URL: database.url } });
  }

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    await createUser(createServiceContext(database.handle.db, Date.now, testServiceOptions), { email: owner, name: 'OIDC Owner', password: 'owner-password' });
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('OIDC Registration 2: create takes the identity scopes, the ID token algorithm and post-logout redirect URIs; update changes them', async () => {
    const created = await gatehouse('clients', 'create', '--owner', owner, '--name', 'Sign-in App', '--redirect-uri', 'https://app.example.com/cb', '--scope', 'openid', '--scope', 'email', '--id-token-alg', 'ES256', '--post-logout-redirect-uri', 'https://app.example.com/bye', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { client_id: clientId } = JSON.parse(created.stdout) as { client_id: string };
    const shown = JSON.parse((await gatehouse('clients', 'show', clientId, '--json')).stdout);
    expect(shown).toMatchObject({ scopes: ['openid', 'email'], id_token_signed_response_alg: 'ES256', post_logout_redirect_uris: ['https://app.example.com/bye'] });

    const updated = await gatehouse('clients', 'update', clientId, '--id-token-alg', 'EdDSA', '--no-post-logout-redirect-uris', '--json');
    expect(updated.code, updated.stderr).toBe(0);
    expect(JSON.parse((await gatehouse('clients', 'show', clientId, '--json')).stdout)).toMatchObject({ id_token_signed_response_alg: 'EdDSA', post_logout_redirect_uris: [] });

    expectOneLineRefusal(await gatehouse('clients', 'update', clientId, '--post-logout-redirect-uri', 'https://elsewhere.example.org/'), /^gatehouse: .*must be on the origin of one of the client's redirect URIs/);
  });
});
