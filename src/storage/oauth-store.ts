// The protocol core's storage contracts (src/oauth/storage.ts), implemented on Kysely.
import type { Kysely } from 'kysely';
import type { OAuthStore } from '../oauth/storage.ts';
import * as audit from './repositories/audit.ts';
import * as clients from './repositories/clients.ts';
import * as codes from './repositories/codes.ts';
import * as grants from './repositories/grants.ts';
import * as tokens from './repositories/tokens.ts';
import type { Database } from './schema.ts';

export function createOAuthStore(db: Kysely<Database>): OAuthStore {
  return {
    findClient: async (id) => {
      const row = await clients.findClientRow(db, id);
      return row && clients.toClientRecord(row);
    },
    listActiveSecrets: (clientId) => clients.listActiveSecrets(db, clientId),
    markSecretUsed: (id, at) => clients.markSecretUsed(db, id, at),
    createGrant: (g) => grants.createGrant(db, g),
    findGrant: (id) => grants.findGrant(db, id),
    listActiveGrants: (userId, clientId) => grants.listActiveGrants(db, userId, clientId),
    lockUserGrants: (userId) => grants.lockUserGrants(db, userId),
    holdActiveGrant: (id) => grants.holdActiveGrant(db, id),
    revokeGrant: (id, at) => grants.revokeGrant(db, id, at),
    revokeCodeTokens: (id, codeHash, at) => grants.revokeCodeTokens(db, id, codeHash, at),
    createCode: (c) => codes.createCode(db, c),
    consumeCode: (hash, at) => codes.consumeCode(db, hash, at),
    findCode: (hash) => codes.findCode(db, hash),
    createAccessToken: (t) => tokens.createAccessToken(db, t),
    findAccessToken: (hash) => tokens.findAccessToken(db, hash),
    revokeAccessToken: (hash, at) => tokens.revokeAccessToken(db, hash, at),
    createRefreshToken: (t) => tokens.createRefreshToken(db, t),
    findRefreshToken: (hash) => tokens.findRefreshToken(db, hash),
    spendRefreshToken: (id, at, box) => tokens.spendRefreshToken(db, id, at, box),
    audit: (e, at) => audit.appendAudit(db, e, at),
    recordAuthorizationRequest: (c, u, s, at) => audit.recordAuthorizationRequest(db, c, u, s, at),
    transaction: (fn) =>
      db.isTransaction ? fn(createOAuthStore(db)) : db.transaction().execute((trx) => fn(createOAuthStore(trx))),
  };
}
