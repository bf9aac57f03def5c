// Seeds the benchmark database through the same storage code the server uses: one user,
// one approved client, and enough codes and refresh tokens for one run.
import { createOAuthStore } from '../src/storage/oauth-store.ts';
import type { DatabaseHandle } from '../src/storage/database.ts';
import { createClient, reviewClient } from '../src/services/clients.ts';
import { createUser } from '../src/services/users.ts';
import { generateToken, hashToken, randomId } from '../src/oauth/token-format.ts';
import { mintPair, storePair } from '../src/oauth/token-response.ts';
import type { OAuthContext } from '../src/oauth/context.ts';

export interface Seeded {
  clientId: string;
  secret: string;
  redirectUri: string;
  codes: string[];
  refreshTokens: string[];
  accessToken: string;
}

export async function seed(database: DatabaseHandle, counts: { codes: number; refreshTokens: number }): Promise<Seeded> {
  const services = { db: database.db, clock: Date.now };
  const user = await createUser(services, { email: 'bench@example.com', name: 'Bench', password: 'bench-password' });
  const redirectUri = 'https://bench.example.com/cb';
  const { client, secret } = await createClient(services, {
    ownerId: user.id,
    name: 'Bench',
    kind: 'confidential',
    redirectUris: [redirectUri],
    scopes: ['PROFILE_READ'],
  });
  await reviewClient(services, client.clientId, 'approve', null);
  const store = createOAuthStore(database.db);
  const ctx: OAuthContext = {
    store,
    clock: Date.now,
    issuer: 'http://bench',
    ttl: { authCode: 3600, accessToken: 3600, refreshIdle: 86400, refreshReuseWindow: 30 },
  };
  const now = Date.now();
  const codes: string[] = [];
  const refreshTokens: string[] = [];
  let accessToken = '';
  await store.transaction(async (tx) => {
    for (let i = 0; i < Math.max(counts.codes, counts.refreshTokens, 1); i++) {
      const grantId = randomId();
      await tx.createGrant({ id: grantId, userId: user.id, clientId: client.clientId, scopes: ['PROFILE_READ'], createdAt: now, revokedAt: null });
      if (i < counts.codes) {
        const code = generateToken('authorizationCode');
        codes.push(code);
        await tx.createCode({ hash: hashToken(code), clientId: client.clientId, userId: user.id, grantId, redirectUri, scopes: ['PROFILE_READ'], codeChallenge: null, createdAt: now, expiresAt: now + 3600_000, consumedAt: null });
      }
      if (i < counts.refreshTokens || i === 0) {
        const pair = mintPair(ctx, { grantId, clientId: client.clientId, userId: user.id, scopes: ['PROFILE_READ'] }, null);
        await storePair(tx, pair);
        if (i < counts.refreshTokens) refreshTokens.push(pair.refreshToken);
        if (i === 0) accessToken = pair.accessToken;
      }
    }
  });
  return { clientId: client.clientId, secret: secret!, redirectUri, codes, refreshTokens, accessToken };
}
