// authorization_code grant: RFC 6749 §4.1.3, PKCE RFC 7636 §4.5, replay per §4.1.2.
import type { OAuthContext } from '../context.ts';
import { invalidGrant, OAuthError } from '../errors.ts';
import { reportingTransaction } from '../events.ts';
import { idTokenSigner, isOpenIdRequest, mintIdToken } from '../id-token.ts';
import { optional, required } from '../params.ts';
import { verifyCodeVerifier } from '../pkce.ts';
import { narrowResources } from '../resources.ts';
import { hashToken, isWellFormed } from '../token-format.ts';
import { mintPair, pairKeys, storePair, tokenResponse, type TokenResponse } from '../token-response.ts';
import type { GrantHandler, GrantRequest } from './types.ts';

export const authorizationCodeGrant: GrantHandler = {
  grantType: 'authorization_code',
  parameters: ['code', 'redirect_uri', 'code_verifier'],

  async handle(ctx: OAuthContext, { params, client, resources, dpopJkt }: GrantRequest): Promise<TokenResponse> {
    const code = required(params, 'code');
    const redirectUri = required(params, 'redirect_uri');
    const verifier = optional(params, 'code_verifier');
    // docs/rules.md#token-formats: a malformed code is refused without touching storage.
    if (!isWellFormed('authorizationCode', code)) throw invalidGrant('code is not a valid authorization code');
    const hash = hashToken(code);
    const now = ctx.clock();
    // OpenID Connect Core §3.1.3.3: a client that may ask for openid may get an ID token; its
    // key is read before the transaction, so that the exchange's writes wait on no other read.
    // A key that cannot be read fails only the exchanges that need an ID token (and rolls their
    // code's consumption back, so the application may try again once the operator fixed it).
    const signer = isOpenIdRequest(client.scopes) ? await idTokenSigner(ctx, client).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))) : undefined;

    const outcome = await reportingTransaction(ctx, async (tx) => {
      const record = await tx.consumeCode(hash, now);
      if (record === undefined) {
        const spent = await tx.findCode(hash);
        if (spent === undefined) return invalidGrant('code is not valid: unknown, or issued by another server');
        // A revocation closes the grant's unredeemed codes at the moment it happens: that
        // is not a replay, and there is nothing left to revoke.
        const grant = await tx.findGrant(spent.grantId);
        if (grant?.revokedAt != null && grant.revokedAt === spent.consumedAt) {
          return invalidGrant('code is no longer valid: the authorization was revoked');
        }
        // RFC 6749 §4.1.2: a second redemption revokes what the first one got. Silent
        // authorizations share a grant (docs/rules.md#silent-authorization), so that is the tokens descended
        // from this code, not the grant: the user's other sessions and consent stay.
        await tx.revokeCodeTokens(spent.grantId, hash, now);
        await tx.audit.append({ type: 'code.replayed', clientId: spent.clientId, userId: spent.userId, data: { grantId: spent.grantId } }, now);
        return invalidGrant('code has already been used; tokens issued from it are revoked');
      }
      if (record.clientId !== client.id) return invalidGrant('code was issued to another client');
      if (record.expiresAt <= now) return invalidGrant('code has expired: codes are valid for a short time, start the authorization again');
      if (record.redirectUri !== redirectUri) return invalidGrant('redirect_uri does not match the authorization request');
      try {
        verifyCodeVerifier(record.codeChallenge, verifier);
      } catch (error) {
        return error as OAuthError;
      }
      // RFC 9449 §10: a code the authorization request bound with dpop_jkt needs a proof of that key.
      if (record.dpopJkt != null && record.dpopJkt !== dpopJkt) {
        return invalidGrant(dpopJkt === null ? 'the authorization request named a DPoP key (dpop_jkt): send a DPoP proof of that key' : 'the DPoP proof is not of the key the authorization request named (dpop_jkt)');
      }
      const audience = narrowResources(ctx.resources, record.resources, resources); // RFC 8707 §2.2
      if (audience instanceof OAuthError) return audience;
      const binding = { grantId: record.grantId, codeHash: hash, clientId: client.id, userId: record.userId, scopes: record.scopes, resources: record.resources };
      const pair = mintPair(ctx, binding, null, audience, pairKeys(client, dpopJkt));
      await storePair(tx, pair, { type: 'token.issued', clientId: client.id, userId: record.userId, data: { grantId: record.grantId, grant_type: 'authorization_code' } }, now);
      const response = tokenResponse(ctx, pair, record.scopes);
      if (signer === undefined || !isOpenIdRequest(record.scopes)) return response;
      if (signer instanceof Error) throw signer;
      const subject = { client, identity: await tx.findIdentity(record.userId), userId: record.userId, scopes: record.scopes!, nonce: record.nonce ?? null, authTime: record.authTime ?? record.createdAt, accessToken: pair.accessToken };
      return { ...response, id_token: await mintIdToken(ctx, signer, subject) };
    });
    // Failures after the code was consumed still commit the consumption: a code is
    // single-use whether or not its redemption succeeded.
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  },
};
