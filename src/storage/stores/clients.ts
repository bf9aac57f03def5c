// The client-lifecycle store (src/services/clients/store.ts) over oauth_clients,
// client_secrets, authorization_requests, grants and audit_events.
import { domainToUnicode } from 'node:url';
import { sql, type Kysely, type SqlBool, type Updateable } from 'kysely';
import { isDocumentClientId } from '../../oauth/client-metadata.ts';
import { scopesColumn, scopesFromColumn } from '../columns.ts';
import type { ClientChanges, ClientStore, GrantingIdentityProvider, StoredClient } from '../../services/clients/store.ts';
import { listAudit } from '../repositories/audit.ts';
import { findClientRow, toClientRecord, type ClientRow } from '../repositories/clients.ts';
import { activeGrantsQuery, revokeGrant } from '../repositories/grants.ts';
import type { Database, OAuthClientsTable } from '../schema.ts';

/** The core's view of the client (toClientRecord) and what only the application keeps of it. */
function toStoredClient(row: ClientRow): StoredClient {
  return {
    ...toClientRecord(row),
    logoUrl: row.logo_url,
    reviewNote: row.review_note,
    reviewedBy: row.reviewed_by,
    reviewedAt: row.reviewed_at,
    proposedRedirectUris: row.proposed_redirect_uris === null ? [] : (JSON.parse(row.proposed_redirect_uris) as string[]),
    proposedScopes: scopesFromColumn(row.proposed_scopes) ?? [],
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toColumns(c: ClientChanges): Updateable<OAuthClientsTable> {
  const set: Updateable<OAuthClientsTable> = {};
  if (c.name !== undefined) set.name = c.name;
  if (c.description !== undefined) set.description = c.description;
  if (c.homepageUrl !== undefined) set.homepage_url = c.homepageUrl;
  if (c.logoUrl !== undefined) set.logo_url = c.logoUrl;
  if (c.state !== undefined) set.state = c.state;
  if (c.redirectUris !== undefined) set.redirect_uris = JSON.stringify(c.redirectUris);
  if (c.scopes !== undefined) set.scopes = scopesColumn(c.scopes);
  if (c.reviewNote !== undefined) set.review_note = c.reviewNote;
  if (c.reviewedBy !== undefined) set.reviewed_by = c.reviewedBy;
  if (c.reviewedAt !== undefined) set.reviewed_at = c.reviewedAt;
  if (c.resourceServer !== undefined) set.is_resource_server = c.resourceServer ? 1 : 0;
  if (c.requirePushedAuthorizationRequests !== undefined) set.require_pushed_authorization_requests = c.requirePushedAuthorizationRequests ? 1 : 0;
  if (c.dpopBoundAccessTokens !== undefined) set.dpop_bound_access_tokens = c.dpopBoundAccessTokens ? 1 : 0;
  if (c.fapi2 !== undefined) set.fapi2 = c.fapi2 ? 1 : 0;
  if (c.tokenEndpointAuthMethod !== undefined) set.token_endpoint_auth_method = c.tokenEndpointAuthMethod;
  if (c.jwks !== undefined) set.jwks = c.jwks === null ? null : JSON.stringify(c.jwks);
  if (c.idTokenSignedResponseAlg !== undefined) set.id_token_signed_response_alg = c.idTokenSignedResponseAlg;
  if (c.postLogoutRedirectUris !== undefined) set.post_logout_redirect_uris = c.postLogoutRedirectUris.length > 0 ? JSON.stringify(c.postLogoutRedirectUris) : null;
  if (c.proposedRedirectUris !== undefined) set.proposed_redirect_uris = c.proposedRedirectUris.length > 0 ? JSON.stringify(c.proposedRedirectUris) : null;
  if (c.proposedScopes !== undefined) set.proposed_scopes = c.proposedScopes.length > 0 ? scopesColumn(c.proposedScopes) : null;
  if (c.updatedAt !== undefined) set.updated_at = c.updatedAt;
  return set;
}

/** The origin of a URI, as the URL standard writes it; "null" for one without (a custom scheme) or one that does not parse. */
function originOfUri(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return 'null';
  }
}

/**
 * LIKE patterns that every redirect_uris column holding a URI on `origin` matches once
 * lower-cased: the column is a JSON array, so each URI follows a quote. The host as written
 * in a URI may be the Unicode form of the origin's IDNA one; a capital or a default port
 * written out still match, and what else matches is told apart by comparing origins.
 */
function redirectOriginPatterns(origin: string): string[] {
  const like = (text: string) => `%"${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  const { protocol, hostname, port } = new URL(origin);
  const unicode = `${protocol}//${domainToUnicode(hostname) || hostname}${port === '' ? '' : `:${port}`}`;
  return [...new Set([like(origin), like(unicode)])];
}

/** docs/rules.md#team-authorization: the team a grant acts for; null when it acts for its user. */
/** docs/integrating.md#enterprise-managed-agents: the identity provider that made the grant, if one did. */
function grantedBy(identityProviderId: string | null, organizationName: string | null): GrantingIdentityProvider | null {
  return identityProviderId === null ? null : { identityProviderId, organizationName };
}

function teamOfGrant(teamId: string | null, teamName: string | null): { id: string; name: string } | null {
  // A deleted team's grants were revoked with it; its id stands in should one remain.
  return teamId === null ? null : { id: teamId, name: teamName ?? `team ${teamId}` };
}

/** The value that raises the version in an UPDATE's SET (docs/rules.md#review-versions). */
const nextVersion = () => sql<number>`version + 1`;

export function createClientStore(db: Kysely<Database>): ClientStore {
  return {
    async insert(c) {
      await db
        .insertInto('oauth_clients')
        .values({
          id: c.id,
          name: c.name,
          description: c.description,
          homepage_url: c.homepageUrl,
          logo_url: c.logoUrl,
          redirect_uris: JSON.stringify(c.redirectUris),
          owner_id: c.ownerId,
          kind: c.kind,
          scopes: scopesColumn(c.scopes),
          state: c.state,
          review_note: null,
          reviewed_by: null,
          reviewed_at: null,
          is_resource_server: 0,
          require_pushed_authorization_requests: c.requirePushedAuthorizationRequests === true ? 1 : 0,
          dpop_bound_access_tokens: c.dpopBoundAccessTokens === true ? 1 : 0,
          fapi2: c.fapi2 === true ? 1 : 0,
          token_endpoint_auth_method: c.tokenEndpointAuthMethod ?? null,
          jwks: c.jwks == null ? null : JSON.stringify(c.jwks),
          id_token_signed_response_alg: c.idTokenSignedResponseAlg ?? null,
          post_logout_redirect_uris: c.postLogoutRedirectUris === undefined || c.postLogoutRedirectUris.length === 0 ? null : JSON.stringify(c.postLogoutRedirectUris),
          proposed_redirect_uris: null,
          proposed_scopes: null,
          created_at: c.createdAt,
          updated_at: c.createdAt,
        })
        .execute();
    },

    async find(id) {
      const row = await findClientRow(db, id);
      return row && toStoredClient(row);
    },

    async list(filter) {
      let q = db.selectFrom('oauth_clients').selectAll().orderBy('created_at', 'desc');
      if (filter.ownerId !== undefined) q = q.where('owner_id', '=', filter.ownerId);
      if (filter.state !== undefined) q = q.where('state', '=', filter.state);
      return (await q.execute()).map(toStoredClient);
    },

    async hasApprovedRedirectOrigin(origin, { documentClients }) {
      if (origin === 'null' || originOfUri(origin) !== origin) return false;
      const rows = await db
        .selectFrom('oauth_clients')
        .select(['id', 'redirect_uris'])
        .where('state', '=', 'approved')
        .where((eb) => eb.or(redirectOriginPatterns(origin).map((pattern) => sql<SqlBool>`lower(redirect_uris) like ${pattern} escape '\\'`)))
        .execute();
      return rows.some((row) => (documentClients || !isDocumentClientId(row.id)) && (JSON.parse(row.redirect_uris) as string[]).some((uri) => originOfUri(uri) === origin));
    },

    async lock(id, now, options = {}) {
      let update = db
        .updateTable('oauth_clients')
        .set(options.raiseVersion ? { updated_at: now, version: nextVersion() } : { updated_at: now })
        .where('id', '=', id);
      if (options.expectedVersion !== undefined) update = update.where('version', '=', options.expectedVersion);
      const row = await update.returningAll().executeTakeFirst();
      return row && toStoredClient(row);
    },

    async update(id, changes, options = {}) {
      const set = toColumns(changes);
      if (options.raiseVersion) Object.assign(set, { version: nextVersion() });
      if (Object.keys(set).length === 0) return (await findClientRow(db, id)) !== undefined;
      const result = await db.updateTable('oauth_clients').set(set).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async countScopelessRequests(clientId, since) {
      const row = await db
        .selectFrom('authorization_requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('client_id', '=', clientId)
        .where('had_scope', '=', 0)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async listSecrets(clientId) {
      const rows = await db
        .selectFrom('client_secrets')
        .select(['id', 'last_four', 'created_at', 'last_used_at'])
        .where('client_id', '=', clientId)
        .where('removed_at', 'is', null)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({ id: r.id, lastFour: r.last_four, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
    },

    async insertSecret(s) {
      await db
        .insertInto('client_secrets')
        .values({ id: s.id, client_id: s.clientId, secret_hash: s.hash, last_four: s.lastFour, created_at: s.createdAt, last_used_at: null, removed_at: null })
        .execute();
    },

    async removeSecret(secretId, at) {
      await db.updateTable('client_secrets').set({ removed_at: at }).where('id', '=', secretId).execute();
    },

    async listActiveGrantsOfUser(userId) {
      const rows = await db
        .selectFrom('grants as g')
        .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
        .leftJoin('teams as t', 't.id', 'g.team_id')
        .leftJoin('identity_providers as ip', 'ip.id', 'g.identity_provider_id')
        .leftJoin('organizations as o', 'o.id', 'ip.organization_id')
        .select(['g.id', 'g.client_id', 'g.scopes', 'g.created_at', 'g.team_id', 't.name as team_name', 'g.identity_provider_id', 'o.name as organization_name', 'c.name', 'c.homepage_url'])
        // The newest refresh token of the grant, by its grant_id index: when the application last
        // exchanged a code or refreshed, read here instead of written on every API call. Tokens
        // are issued in pairs, and a pair's access token is deleted long before its refresh
        // token, so the refresh tokens alone date the newest issue.
        .select((eb) => eb.selectFrom('refresh_tokens as r').select((r) => r.fn.max('r.created_at').as('at')).whereRef('r.grant_id', '=', 'g.id').as('last_token'))
        // An identity provider's grant issues access tokens only: its newest one dates it.
        .select((eb) =>
          eb
            .selectFrom('access_tokens as a')
            .select((a) => a.fn.max('a.created_at').as('at'))
            .whereRef('a.grant_id', '=', 'g.id')
            .where('g.identity_provider_id', 'is not', null)
            .as('last_access_token'),
        )
        .where('g.user_id', '=', userId)
        .where('g.revoked_at', 'is', null)
        .orderBy('g.created_at', 'asc')
        .execute();
      return rows.map((r) => {
        const last = r.last_token ?? r.last_access_token;
        return {
          grantId: r.id,
          clientId: r.client_id,
          clientName: r.name,
          homepageUrl: r.homepage_url,
          scopes: scopesFromColumn(r.scopes),
          team: teamOfGrant(r.team_id, r.team_name),
          grantedBy: grantedBy(r.identity_provider_id, r.organization_name),
          createdAt: r.created_at,
          lastTokenAt: last === null || last === undefined ? null : Number(last),
        };
      });
    },

    async listActiveGrantsFor(userId, clientId) {
      return (await activeGrantsQuery(db, userId, clientId).execute()).map((g) => ({ id: g.id, teamId: g.team_id, identityProviderId: g.identity_provider_id }));
    },

    revokeGrant: (grantId, at) => revokeGrant(db, grantId, at),

    async findGrantOfUser(userId, grantId) {
      const row = await db
        .selectFrom('grants as g')
        .innerJoin('oauth_clients as c', 'c.id', 'g.client_id')
        .leftJoin('teams as t', 't.id', 'g.team_id')
        .leftJoin('identity_providers as ip', 'ip.id', 'g.identity_provider_id')
        .leftJoin('organizations as o', 'o.id', 'ip.organization_id')
        .select(['g.id', 'g.client_id', 'g.team_id', 'g.revoked_at', 'c.name', 't.name as team_name', 'g.identity_provider_id', 'o.name as organization_name'])
        .where('g.id', '=', grantId)
        .where('g.user_id', '=', userId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return { id: row.id, clientId: row.client_id, clientName: row.name, team: teamOfGrant(row.team_id, row.team_name), grantedBy: grantedBy(row.identity_provider_id, row.organization_name), revokedAt: row.revoked_at };
    },

    async listEvents(clientId, limit) {
      const events = await listAudit(db, { clientId, limit });
      const ids = [...new Set(events.map((e) => e.actorId).filter((id): id is string => id !== null))];
      const users = ids.length === 0 ? [] : await db.selectFrom('users').select(['id', 'name', 'email', 'is_admin']).where('id', 'in', ids).execute();
      const byId = new Map(users.map((u) => [u.id, { id: u.id, name: u.name, email: u.email, admin: u.is_admin === 1 }]));
      return events.map((e) => ({ ...e, actor: e.actorId === null ? null : (byId.get(e.actorId) ?? null) }));
    },
  };
}
