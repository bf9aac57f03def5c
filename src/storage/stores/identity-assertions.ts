// The JWT bearer grant's port (src/oauth/identity-assertion.ts: IdentityAssertionStore) on the
// tables of migration 034: the trusts of an issuer, the links of its subjects, the grants a
// trust made (docs/integrating.md#enterprise-managed-agents).
import type { Selectable } from 'kysely';
import type { IdentityAssertionStore, TrustedIdentityProvider } from '../../oauth/identity-assertion.ts';
import { scopesColumn, scopesFromColumn } from '../columns.ts';
import { dialectOf } from '../prepared.ts';
import type { Executor } from '../repositories/executor.ts';
import { toGrantRecord } from '../repositories/grants.ts';
import type { IdentityProvidersTable } from '../schema.ts';
import { inTransaction } from '../transaction.ts';
import { createOAuthStore } from './oauth.ts';

export function toTrustedIdentityProvider(r: Selectable<IdentityProvidersTable>): TrustedIdentityProvider {
  return {
    id: r.id,
    organizationId: r.organization_id,
    issuer: r.issuer,
    jwksUri: r.jwks_uri,
    domains: r.domains.split(' ').filter((d) => d !== ''),
    scopes: scopesFromColumn(r.scopes),
  };
}

export function createIdentityAssertionStore(db: Executor): IdentityAssertionStore {
  const store: IdentityAssertionStore = {
    oauth: createOAuthStore(db),
    transaction: (fn) => inTransaction(db, (trx) => fn(trx === db ? store : createIdentityAssertionStore(trx))),

    async findTrusts(issuer) {
      const rows = await db.selectFrom('identity_providers').selectAll().where('issuer', '=', issuer).orderBy('created_at').orderBy('id').execute();
      return rows.map(toTrustedIdentityProvider);
    },

    async findLinkedUser(issuer, subject) {
      const row = await db.selectFrom('identity_links').select('user_id').where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
      return row?.user_id;
    },

    async findMembersByVerifiedEmail(organizationId, email) {
      const rows = await db
        .selectFrom('users as u')
        .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.organization_id', '=', organizationId))
        .select('u.id')
        .where((eb) =>
          eb.or([
            // An account the organization itself made: it chose the address (migration 022).
            eb.and([eb('u.email', '=', email), eb('u.created_by_organization_id', '=', organizationId)]),
            // An address the user proved with a code (/v2/verified-resources/emails).
            eb.exists(
              eb
                .selectFrom('verified_resources as v')
                .select('v.id')
                .whereRef('v.user_id', '=', 'u.id')
                .where('v.kind', '=', 'email')
                .where('v.value', '=', email)
                .where('v.verified_at', 'is not', null),
            ),
          ]),
        )
        .orderBy('u.id')
        .execute();
      return [...new Set(rows.map((r) => r.id))];
    },

    async isMember(organizationId, userId) {
      const row = await db.selectFrom('memberships').select('id').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
      return row !== undefined;
    },

    // ON CONFLICT DO NOTHING rather than catching the violation: on PostgreSQL a failed
    // statement would abort the surrounding transaction.
    async linkSubject(issuer, subject, userId, at) {
      await db.insertInto('identity_links').values({ issuer, subject, user_id: userId, created_at: at, created_by: null }).onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing()).execute();
      return (await store.findLinkedUser(issuer, subject))!;
    },

    // As OAuthStore.holdActiveGrant: a conditional write holds the row on PostgreSQL; on SQLite
    // the transaction already holds the database's write lock.
    holdTrust: (id) => holdIdentityProvider(db, id),

    async findTrustGrant(identityProviderId, userId, clientId, scopes) {
      const row = await db
        .selectFrom('grants')
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .where('revoked_at', 'is', null)
        .where('identity_provider_id', '=', identityProviderId)
        .where('scopes', '=', scopesColumn(scopes))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return row && toGrantRecord(row);
    },

    async createTrustGrant(g, identityProviderId) {
      await db
        .insertInto('grants')
        .values({ id: g.id, user_id: g.userId, client_id: g.clientId, scopes: scopesColumn(g.scopes), team_id: null, created_at: g.createdAt, revoked_at: g.revokedAt, identity_provider_id: identityProviderId })
        .execute();
    },
  };
  return store;
}

/**
 * Holds an identity provider's row for the rest of the transaction: the token request that
 * grants through it, and its removal and a member's departure, which revoke what it granted.
 */
export async function holdIdentityProvider(db: Executor, id: string): Promise<boolean> {
  if (dialectOf(db) === 'sqlite') return (await db.selectFrom('identity_providers').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  const held = await db.updateTable('identity_providers').set((eb) => ({ id: eb.ref('id') })).where('id', '=', id).executeTakeFirst();
  return Number(held.numUpdatedRows) === 1;
}
