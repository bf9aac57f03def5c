// The services' identity-provider store (src/services/identity-providers/store.ts) on the tables
// of migration 034 (docs/integrating.md#enterprise-managed-agents).
import type { IdentityLink, IdentityProviderStore } from '../../services/identity-providers/store.ts';
import { scopesColumn, scopesFromColumn } from '../columns.ts';
import type { Executor } from '../repositories/executor.ts';
import { revokeGrant } from '../repositories/grants.ts';
import { holdIdentityProvider, toTrustedIdentityProvider } from './identity-assertions.ts';

export function createIdentityProviderStore(db: Executor): IdentityProviderStore {
  return {
    async insert(p) {
      const result = await db
        .insertInto('identity_providers')
        .values({ id: p.id, organization_id: p.organizationId, issuer: p.issuer, jwks_uri: p.jwksUri, domains: p.domains.join(' '), scopes: scopesColumn(p.scopes), created_at: p.createdAt, created_by: p.createdBy })
        .onConflict((oc) => oc.columns(['organization_id', 'issuer']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async listOfOrganization(organizationId) {
      const rows = await db.selectFrom('identity_providers').selectAll().where('organization_id', '=', organizationId).orderBy('created_at').orderBy('id').execute();
      return rows.map((r) => ({ ...toTrustedIdentityProvider(r), createdAt: r.created_at, createdBy: r.created_by }));
    },

    async find(organizationId, id) {
      const r = await db.selectFrom('identity_providers').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
      return r && { ...toTrustedIdentityProvider(r), createdAt: r.created_at, createdBy: r.created_by };
    },

    hold: (id) => holdIdentityProvider(db, id),

    async delete(id) {
      const result = await db.deleteFrom('identity_providers').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async revokeGrantsOf(identityProviderId, at, of = {}) {
      let query = db.selectFrom('grants').select(['id', 'client_id', 'user_id']).where('identity_provider_id', '=', identityProviderId).where('revoked_at', 'is', null);
      if (of.userId !== undefined) query = query.where('user_id', '=', of.userId);
      if (of.clientId !== undefined) query = query.where('client_id', '=', of.clientId);
      const grants = await query.orderBy('created_at').orderBy('id').execute();
      for (const g of grants) await revokeGrant(db, g.id, at);
      return grants.map((g) => ({ id: g.id, clientId: g.client_id, userId: g.user_id }));
    },

    async listActiveGrants(identityProviderId) {
      const rows = await db
        .selectFrom('grants as g')
        .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
        .innerJoin('users as u', 'u.id', 'g.user_id')
        .select(['g.id', 'g.client_id', 'g.user_id', 'g.scopes', 'g.created_at', 'c.name as client_name', 'u.name as user_name', 'u.email as user_email'])
        // Such a grant issues access tokens only (no refresh token), so its newest access token,
        // by the access_tokens_grant index, dates its last use.
        .select((eb) => eb.selectFrom('access_tokens as a').select((a) => a.fn.max('a.created_at').as('at')).whereRef('a.grant_id', '=', 'g.id').as('last_token'))
        .where('g.identity_provider_id', '=', identityProviderId)
        .where('g.revoked_at', 'is', null)
        .orderBy('g.created_at')
        .orderBy('g.id')
        .execute();
      return rows.map((r) => ({
        grantId: r.id,
        clientId: r.client_id,
        clientName: r.client_name,
        userId: r.user_id,
        userName: r.user_name,
        userEmail: r.user_email,
        scopes: scopesFromColumn(r.scopes) ?? [],
        createdAt: Number(r.created_at),
        lastTokenAt: r.last_token === null || r.last_token === undefined ? null : Number(r.last_token),
      }));
    },

    async findLink(issuer, subject) {
      const r = await db.selectFrom('identity_links').selectAll().where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
      return r && toLink(r);
    },

    async insertLink(l) {
      const result = await db
        .insertInto('identity_links')
        .values({ issuer: l.issuer, subject: l.subject, user_id: l.userId, created_at: l.createdAt, created_by: l.createdBy })
        .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async deleteLink(issuer, subject) {
      const result = await db.deleteFrom('identity_links').where('issuer', '=', issuer).where('subject', '=', subject).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}

function toLink(r: { issuer: string; subject: string; user_id: string; created_at: number; created_by: string | null }): IdentityLink {
  return { issuer: r.issuer, subject: r.subject, userId: r.user_id, createdAt: Number(r.created_at), createdBy: r.created_by };
}
