// POST /v2/auth/oauth2/revoke — RFC 7009. The client authenticates as at the token
// endpoint; a token that is unknown, malformed or another client's gets the same 200 and
// changes nothing (§2.2), so the endpoint tells a caller nothing about foreign tokens.
import { authenticateClient, readClientCredentials } from './client-auth.ts';
import type { FailedAuthenticationLimit } from './client-limits.ts';
import type { OAuthContext } from './context.ts';
import { reportingTransaction } from './events.ts';
import { readParams, required } from './params.ts';
import { hashToken, isWellFormed } from './token-format.ts';

export interface RevocationInput {
  body: unknown;
  authorization: string | undefined;
  /** Failed client authentications (client-limits.ts); absent: not limited. */
  failedAuthentications?: FailedAuthenticationLimit;
}

export async function handleRevocation(ctx: OAuthContext, input: RevocationInput): Promise<void> {
  const params = readParams(input.body);
  // A public client identifies itself with client_id alone and may revoke its own tokens (docs/rules.md#introspection).
  const client = await authenticateClient(ctx, readClientCredentials(params, input.authorization), input.failedAuthentications);
  const token = required(params, 'token');
  // token_type_hint is only a hint (§2.1): the prefix says what the token is.
  const now = ctx.clock();
  if (isWellFormed('refreshToken', token)) {
    const record = await ctx.store.findRefreshToken(hashToken(token));
    if (record === undefined || record.clientId !== client.id || record.revokedAt !== null) return;
    // §2.1: revoking a refresh token ends the access tokens of the same grant.
    await reportingTransaction(ctx, async (tx) => {
      await tx.revokeGrant(record.grantId, now);
      await tx.audit.append({ type: 'token.revoked', actorId: client.id, clientId: client.id, userId: record.userId, data: { grantId: record.grantId, token_type: 'refresh_token' } }, now);
    });
    return;
  }
  if (isWellFormed('accessToken', token)) {
    const hash = hashToken(token);
    const record = await ctx.store.findAccessToken(hash);
    if (record === undefined || record.clientId !== client.id || record.revokedAt !== null) return;
    await reportingTransaction(ctx, async (tx) => {
      await tx.revokeAccessToken(hash, now);
      await tx.audit.append({ type: 'token.revoked', actorId: client.id, clientId: client.id, userId: record.userId, data: { grantId: record.grantId, token_type: 'access_token' } }, now);
    });
  }
}
