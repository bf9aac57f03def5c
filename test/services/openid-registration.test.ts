// What a client registers for OpenID Connect (docs/integrating.md#sign-in-with-gatehouse): the
// identity scopes, its ID token algorithm (OpenID Connect Registration §2) and where logout may
// return (RP-Initiated Logout §3.1), through the developer's service and dynamic registration,
// in process over SQLite :memory:.
import { describe, expect } from 'vitest';
import { OAuthError } from '../../src/oauth/errors.ts';
import { updateClient } from '../../src/services/clients/changes.ts';
import { clientInformation, registerDynamicClient } from '../../src/services/clients/dynamic-registration.ts';
import { ServiceError } from '../../src/services/errors.ts';
import { it } from './platform/world.ts';

const CALLBACK = 'https://app.example.com/callback';

describe('OpenID Connect client metadata', () => {
  it('OIDC Registration 2: a client registers openid, profile and email like any scope, and offline_access as nothing', async ({ world }) => {
    const { client } = await world.client(await world.user(), { scopes: ['PROFILE_READ', 'offline_access', 'email', 'openid'] });
    expect(client.scopes).toEqual(['openid', 'email', 'PROFILE_READ']);
  });

  it('OIDC Registration 2: id_token_signed_response_alg is one Gatehouse signs with; a FAPI 2.0 client cannot take RS256', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner, { idTokenSignedResponseAlg: 'ES256' });
    expect(client.idTokenSignedResponseAlg).toBe('ES256');
    expect((await world.oauth.findClient(client.clientId))?.idTokenSignedResponseAlg).toBe('ES256');
    await expect(world.client(owner, { idTokenSignedResponseAlg: 'HS256' })).rejects.toThrow(/id_token_signed_response_alg must be one of RS256, PS256, ES256, EdDSA/);
    await expect(updateClient(world.ctx, client.clientId, owner, { idTokenSignedResponseAlg: 'none' })).rejects.toBeInstanceOf(ServiceError);
    const edited = await updateClient(world.ctx, client.clientId, owner, { idTokenSignedResponseAlg: '' });
    expect(edited.client.idTokenSignedResponseAlg).toBeNull();
  });

  it('OIDC RP-Initiated Logout 3.1: post-logout redirect URIs must be on the origin of a redirect URI', async ({ world }) => {
    const owner = await world.user();
    const { client } = await world.client(owner, { redirectUris: [CALLBACK], postLogoutRedirectUris: ['https://app.example.com/signed-out'] });
    expect(client.postLogoutRedirectUris).toEqual(['https://app.example.com/signed-out']);
    await expect(updateClient(world.ctx, client.clientId, owner, { postLogoutRedirectUris: ['https://evil.example.net/'] })).rejects.toThrow(/must be on the origin of one of the client's redirect URIs/);
    const cleared = await updateClient(world.ctx, client.clientId, owner, { postLogoutRedirectUris: [] });
    expect(cleared.client.postLogoutRedirectUris).toEqual([]);
  });

  it('OIDC Registration 2: dynamic registration takes id_token_signed_response_alg and post_logout_redirect_uris, and answers them back', async ({ world }) => {
    const policy = { policy: 'review' as const, scopes: ['PROFILE_READ'] };
    const registered = await registerDynamicClient(world.ctx, policy, {
      redirect_uris: [CALLBACK],
      scope: 'openid profile offline_access',
      id_token_signed_response_alg: 'PS256',
      post_logout_redirect_uris: ['https://app.example.com/bye'],
    });
    expect(registered.client).toMatchObject({ scopes: ['openid', 'profile'], idTokenSignedResponseAlg: 'PS256', postLogoutRedirectUris: ['https://app.example.com/bye'] });
    expect(clientInformation(registered, world.now())).toMatchObject({ id_token_signed_response_alg: 'PS256', post_logout_redirect_uris: ['https://app.example.com/bye'], scope: 'openid profile' });
    const refused = await registerDynamicClient(world.ctx, policy, { redirect_uris: [CALLBACK], post_logout_redirect_uris: ['https://elsewhere.example.org/'] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OAuthError);
    expect((refused as OAuthError).code).toBe('invalid_client_metadata');
  });
});
