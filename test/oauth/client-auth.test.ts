// Client authentication (src/oauth/client-auth.ts), shared by the token, revocation and
// introspection endpoints: reading the credentials (pure), then checking them against the
// stored client and secrets. The WWW-Authenticate header itself is HTTP's (test/http).
import { describe, expect, it as pure } from 'vitest';
import { authenticateClient, readClientCredentials } from '../../src/oauth/client-auth.ts';
import type { OAuthError } from '../../src/oauth/errors.ts';
import { generateToken } from '../../src/oauth/token-format.ts';
import { basic, it, rejection, type Core, type SeededClient } from './core.ts';

function refusalOf(read: () => unknown): OAuthError {
  try {
    read();
  } catch (error) {
    return error as OAuthError;
  }
  return expect.fail('expected the credentials to be refused');
}

const post = (client: SeededClient, secret: string | undefined) => ({ clientId: client.id, secret, method: 'client_secret_post' as const });
const authenticate = (core: Core, credentials: ReturnType<typeof post>) => authenticateClient(core.ctx, credentials);

describe('reading the credentials (RFC 6749 §2.3.1)', () => {
  pure('RFC 6749 §2.3.1: client_secret_basic and client_secret_post, never both', () => {
    const both = refusalOf(() => readClientCredentials({ client_id: 'app', client_secret: 's' }, basic('app', 's')));
    expect({ code: both.code, description: both.description }).toEqual({
      code: 'invalid_request',
      description: 'use one client authentication method: HTTP Basic or client_secret in the body, not both',
    });
    expect(readClientCredentials({ client_id: 'app', client_secret: 's' }, undefined)).toEqual({ clientId: 'app', secret: 's', method: 'client_secret_post' });
    expect(readClientCredentials({}, basic('app', 's'))).toEqual({ clientId: 'app', secret: 's', method: 'client_secret_basic' });
  });

  pure('RFC 6749 §2.3.1: the Basic user name and password are form-decoded, and the scheme is case-insensitive', () => {
    const header = `basic ${Buffer.from('my+app%3A1:s%2Bcret+x').toString('base64')}`;
    expect(readClientCredentials({}, header)).toEqual({ clientId: 'my app:1', secret: 's+cret x', method: 'client_secret_basic' });
    expect(readClientCredentials({}, basic('a b', 'c+d'))).toMatchObject({ clientId: 'a b', secret: 'c+d' });
  });

  pure('RFC 6749 §2.3: a client_id in the body may repeat the Basic one, never differ from it', () => {
    expect(readClientCredentials({ client_id: 'app' }, basic('app', 's')).clientId).toBe('app');
    expect(refusalOf(() => readClientCredentials({ client_id: 'other' }, basic('app', 's')))).toMatchObject({ code: 'invalid_request', description: expect.stringMatching(/client_id in the body differs/) });
  });

  pure('RFC 6749 §2.3.1: Basic credentials that do not decode are invalid_client with a Basic challenge', () => {
    for (const header of ['Basic bm8tY29sb24=' /* "no-colon" */, `Basic ${Buffer.from('%zz:%zz').toString('base64')}`]) {
      expect(refusalOf(() => readClientCredentials({}, header))).toMatchObject({ code: 'invalid_client', basicChallenge: true });
    }
  });

  pure('RFC 6749 §2.3.1: a public client may send its client_id with an empty Basic password, which is no secret', () => {
    expect(readClientCredentials({}, basic('app', ''))).toEqual({ clientId: 'app', secret: undefined, method: 'client_secret_basic' });
    expect(readClientCredentials({ client_id: 'app' }, undefined)).toEqual({ clientId: 'app', secret: undefined, method: 'none' });
  });

  pure('RFC 6749 §5.2: no client_id at all is invalid_client', () => {
    expect(refusalOf(() => readClientCredentials({}, undefined))).toMatchObject({ code: 'invalid_client', description: expect.stringMatching(/send client_id/) });
    // A Bearer header is not client authentication.
    expect(refusalOf(() => readClientCredentials({}, 'Bearer abc'))).toMatchObject({ code: 'invalid_client' });
  });
});

describe('checking the credentials (RFC 6749 §2.3.1, §5.2)', () => {
  it('RFC 6749 §2.3.1: a confidential client authenticates with its secret', async ({ core }) => {
    const client = await core.client();
    expect(await authenticate(core, post(client, client.secret))).toEqual(client.record);
  });

  it('RFC 6749 §5.2: a wrong secret is invalid_client; tried with Basic, the error asks for a Basic challenge', async ({ core }) => {
    const client = await core.client();
    const other = await core.client();
    for (const wrong of [other.secret!, generateToken('clientSecret'), 'secret', client.secret! + 'x', client.secret!.toUpperCase()]) {
      const error = await rejection(authenticate(core, post(client, wrong)), 'invalid_client', /client_secret is not an active secret of this client/);
      expect(error.basicChallenge).toBe(false);
    }
    const viaBasic = await rejection(authenticateClient(core.ctx, { clientId: client.id, secret: other.secret, method: 'client_secret_basic' }), 'invalid_client');
    expect(viaBasic.basicChallenge).toBe(true);
  });

  it('RFC 6749 §3.2.1: a confidential client without its secret is invalid_client', async ({ core }) => {
    const client = await core.client();
    await rejection(authenticate(core, post(client, undefined)), 'invalid_client', /client_secret is required for a confidential client/);
  });

  it('SECURITY.md: a public client has no secret, so one sent is invalid_client', async ({ core }) => {
    const client = await core.client({ kind: 'public' });
    expect(await authenticateClient(core.ctx, { clientId: client.id, secret: undefined, method: 'none' })).toEqual(client.record);
    await rejection(authenticate(core, post(client, generateToken('clientSecret'))), 'invalid_client', /public and has no secret/);
  });

  it('RFC 6749 §5.2: an unknown client_id is invalid_client; the log learns what was sent in its place, the caller does not', async ({ core }) => {
    const token = generateToken('accessToken');
    const error = await rejection(authenticateClient(core.ctx, { clientId: token, secret: undefined, method: 'none' }), 'invalid_client', /^client authentication failed: unknown client_id$/);
    expect(error.internalCause).toBe('unknown client_id: an access token was sent as client_id');
    const password = await rejection(authenticateClient(core.ctx, { clientId: 'hunter2 my password', secret: undefined, method: 'none' }), 'invalid_client');
    expect(password.internalCause).toBe('unknown client_id of 19 characters, not shaped like an issued client id');
  });

  it('docs/integrating.md#client-lifecycle-in-the-web-app: both active secrets work during a rotation; a removed one is refused at once', async ({ core }) => {
    const client = await core.client();
    const added = await core.secret(client.id);
    expect(await authenticate(core, post(client, added))).toEqual(client.record);
    expect(await authenticate(core, post(client, client.secret))).toEqual(client.record);
    const original = (await core.stores.clients.listSecrets(client.id)).find((s) => s.lastFour === client.secret!.slice(-4));
    await core.stores.clients.removeSecret(original!.id, core.clock.now());
    await rejection(authenticate(core, post(client, client.secret)), 'invalid_client', /not an active secret/);
    expect(await authenticate(core, post(client, added))).toEqual(client.record);
  });

  it('docs/integrating.md#client-lifecycle-in-the-web-app: a secret\'s last use is recorded to the minute', async ({ core }) => {
    const client = await core.client();
    const lastUsed = async () => (await core.stores.clients.listSecrets(client.id))[0]!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await authenticate(core, post(client, client.secret));
    const first = core.clock.now();
    expect(await lastUsed()).toBe(first);
    core.clock.advance(60);
    await authenticate(core, post(client, client.secret));
    expect(await lastUsed()).toBe(first);
    core.clock.advance(1);
    await authenticate(core, post(client, client.secret));
    expect(await lastUsed()).toBe(core.clock.now());
  });

  it('SECURITY.md: under CIMD_POLICY=off a metadata-document client is not a known client, though its row is kept', async ({ core }) => {
    const client = await core.client({ id: 'https://agent.example.com/client.json', kind: 'public' });
    const asPublic = { clientId: client.id, secret: undefined, method: 'none' as const };
    await rejection(authenticateClient(core.ctx, asPublic), 'invalid_client', /is not a known client: this server does not accept applications identified by a client metadata document/);
    core.ctx.clientMetadata = { names: () => true, resolve: async () => ({ ok: true, client: client.record }) };
    expect(await authenticateClient(core.ctx, asPublic)).toEqual(client.record);
  });
});
