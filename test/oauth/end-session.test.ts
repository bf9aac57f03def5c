// RP-initiated logout's decision (src/oauth/end-session.ts) on the core over SQLite :memory::
// which hints count, and where the browser may go back to.
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect } from 'vitest';
import { decideEndSession } from '../../src/oauth/end-session.ts';
import { exchange, ISSUER, it, type Core } from './core.ts';

const BYE = 'https://app.example.com/bye';

/** A client with a registered post-logout URI, and an ID token of one of its users. */
async function signedIn(core: Core) {
  const client = await core.client({ scopes: ['openid'] });
  await core.stores.clients.update(client.id, { postLogoutRedirectUris: [BYE] });
  const userId = await core.user();
  const code = await core.code(client, await core.grant(client, userId, ['openid']));
  const { id_token: idToken } = await exchange(core, client, code);
  return { clientId: client.id, userId, idToken: idToken! };
}

describe('end_session_endpoint (OIDC RP-Initiated Logout 2)', () => {
  it('OIDC RP-Initiated Logout 2: an expired ID token is still a valid hint: it only names the session', async ({ core }) => {
    const { userId, idToken } = await signedIn(core);
    core.clock.advance(3600);
    expect(await decideEndSession(core.ctx, { id_token_hint: idToken, post_logout_redirect_uri: BYE, state: 's' }, userId, false)).toEqual({ kind: 'end', location: `${BYE}?state=s`, clientName: 'Calendar Sync' });
  });

  it('OIDC RP-Initiated Logout 2: a token signed by another key, a client_id that is not its audience, or another user\'s hint only asks', async ({ core }) => {
    const { clientId, userId, idToken } = await signedIn(core);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(ISSUER).setSubject(userId).setAudience(clientId).setIssuedAt().setExpirationTime('1h').sign(privateKey);
    expect(await decideEndSession(core.ctx, { id_token_hint: forged }, userId, false)).toMatchObject({ kind: 'confirm' });
    expect(await decideEndSession(core.ctx, { id_token_hint: idToken, client_id: 'another-client' }, userId, false)).toMatchObject({ kind: 'confirm' });
    expect(await decideEndSession(core.ctx, { id_token_hint: idToken }, 'someone-else', false)).toMatchObject({ kind: 'confirm' });
  });

  it('OIDC RP-Initiated Logout 3.1: the browser goes back only to a URI the client registered exactly, and never without knowing the client', async ({ core }) => {
    const { clientId, userId, idToken } = await signedIn(core);
    expect(await decideEndSession(core.ctx, { id_token_hint: idToken, post_logout_redirect_uri: `${BYE}/` }, userId, false)).toMatchObject({ kind: 'end', location: undefined });
    expect(await decideEndSession(core.ctx, { post_logout_redirect_uri: BYE }, userId, true)).toMatchObject({ kind: 'end', location: undefined });
    expect(await decideEndSession(core.ctx, { client_id: clientId, post_logout_redirect_uri: BYE }, userId, true)).toMatchObject({ kind: 'end', location: BYE });
  });
});
