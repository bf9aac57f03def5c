// access_tokens and refresh_tokens, stored by SHA-256 hash only (docs/rules.md#token-formats).
// The writes and the refresh token reads are the OAuth store's (stores/oauth.ts).
import type { Kysely, Selectable } from 'kysely';
import type { AccessTokenWithClient } from '../../oauth/storage.ts';
import { resourcesFromColumn, scopesFromColumn } from '../columns.ts';
import { prepare } from '../prepared.ts';
import type { AccessTokensTable, Database } from '../schema.ts';
import type { Executor } from './executor.ts';

type AccessTokensRow = Selectable<AccessTokensTable>;

/**
 * The token and its client's current state in one indexed read (docs/rules.md#client-states); the
 * platform API's access read extends this same query with the path's team or organization.
 */
export const accessTokenWithClient = (db: Kysely<Database>, hash: string) =>
  db
    .selectFrom('access_tokens as a')
    .innerJoin('oauth_clients as c', 'c.id', 'a.client_id')
    // docs/rules.md#team-authorization: the team a token acts for is its grant's.
    .innerJoin('grants as g', 'g.id', 'a.grant_id')
    // docs/rules.md#enterprise-managed-reach: so is the organization, through the identity provider that made it.
    .leftJoin('identity_providers as ip', 'ip.id', 'g.identity_provider_id')
    .select([
      'a.token_hash',
      'a.grant_id',
      'a.code_hash',
      'a.client_id',
      'a.user_id',
      'a.scopes',
      'a.resources',
      'a.dpop_jkt',
      'a.created_at',
      'a.expires_at',
      'a.revoked_at',
      'c.state',
      'g.team_id as grant_team_id',
      'g.identity_provider_id as grant_identity_provider_id',
      'ip.organization_id as grant_organization_id',
    ])
    .where('a.token_hash', '=', hash);

type AccessRow = Pick<AccessTokensRow, 'token_hash' | 'grant_id' | 'code_hash' | 'client_id' | 'user_id' | 'scopes' | 'resources' | 'dpop_jkt' | 'created_at' | 'expires_at' | 'revoked_at'> & {
  state: AccessTokenWithClient['clientState'];
  grant_team_id: string | null;
  grant_identity_provider_id: string | null;
  grant_organization_id: string | null;
};

export function toAccessTokenWithClient(row: AccessRow): AccessTokenWithClient {
  return {
    hash: row.token_hash,
    grantId: row.grant_id,
    codeHash: row.code_hash,
    clientId: row.client_id,
    userId: row.user_id,
    scopes: scopesFromColumn(row.scopes),
    resources: resourcesFromColumn(row.resources),
    ...(row.dpop_jkt === null ? {} : { dpopJkt: row.dpop_jkt }),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    clientState: row.state,
    ...(row.grant_team_id === null ? {} : { teamId: row.grant_team_id }),
    // An identity provider no longer there leaves null, never "no organization": its token is refused.
    ...(row.grant_identity_provider_id === null ? {} : { organizationId: row.grant_organization_id }),
  };
}

const selectAccessToken = prepare((db, p: { hash: string }) => accessTokenWithClient(db, p.hash));

export async function findAccessToken(db: Executor, hash: string): Promise<AccessTokenWithClient | undefined> {
  const [row] = (await selectAccessToken.run(db, { hash })).rows;
  return row && toAccessTokenWithClient(row);
}
