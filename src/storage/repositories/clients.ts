// oauth_clients and client_secrets.
import type { Selectable } from 'kysely';
import type { ClientRecord, SecretRecord } from '../../oauth/storage.ts';
import { authMethodFromColumn, jwksFromColumn, scopesFromColumn } from '../columns.ts';
import type { OAuthClientsTable } from '../schema.ts';
import { prepare } from '../prepared.ts';
import type { Executor } from './executor.ts';

export type ClientRow = Selectable<OAuthClientsTable>;

/** The columns of a ClientRecord: what the protocol core reads of a client. */
export const CLIENT_RECORD_COLUMNS = ['id', 'name', 'homepage_url', 'kind', 'state', 'redirect_uris', 'scopes', 'is_resource_server', 'description', 'owner_id', 'require_pushed_authorization_requests', 'dpop_bound_access_tokens', 'fapi2', 'token_endpoint_auth_method', 'jwks', 'id_token_signed_response_alg', 'post_logout_redirect_uris'] as const;

/** Every field the row holds is set, the optional ones of ClientRecord too (the client store builds on it). */
export function toClientRecord(row: Pick<ClientRow, (typeof CLIENT_RECORD_COLUMNS)[number]>): ClientRecord & Required<Pick<ClientRecord, 'dpopBoundAccessTokens' | 'fapi2' | 'tokenEndpointAuthMethod' | 'jwks'>> & { idTokenSignedResponseAlg: string | null; postLogoutRedirectUris: string[] } {
  return {
    id: row.id,
    name: row.name,
    homepageUrl: row.homepage_url,
    kind: row.kind,
    state: row.state,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    scopes: scopesFromColumn(row.scopes),
    resourceServer: row.is_resource_server === 1,
    description: row.description,
    ownerId: row.owner_id,
    requirePushedAuthorizationRequests: row.require_pushed_authorization_requests === 1,
    dpopBoundAccessTokens: row.dpop_bound_access_tokens === 1,
    fapi2: row.fapi2 === 1,
    tokenEndpointAuthMethod: authMethodFromColumn(row.token_endpoint_auth_method),
    jwks: jwksFromColumn(row.jwks),
    idTokenSignedResponseAlg: row.id_token_signed_response_alg,
    postLogoutRedirectUris: row.post_logout_redirect_uris === null ? [] : (JSON.parse(row.post_logout_redirect_uris) as string[]),
  };
}

const selectClient = prepare((db, p: { id: string }) => db.selectFrom('oauth_clients').selectAll().where('id', '=', p.id));

export async function findClientRow(db: Executor, id: string): Promise<ClientRow | undefined> {
  return (await selectClient.run(db, { id })).rows[0];
}

const selectClientRecord = prepare((db, p: { id: string }) => db.selectFrom('oauth_clients').select(CLIENT_RECORD_COLUMNS).where('id', '=', p.id));

/** The client as the protocol core sees it, reading only those columns. */
export async function findClientRecord(db: Executor, id: string): Promise<ClientRecord | undefined> {
  const [row] = (await selectClientRecord.run(db, { id })).rows;
  return row && toClientRecord(row);
}

/** A row per active secret (or one with null secret columns when there is none). */
const selectClientWithSecrets = prepare((db, p: { id: string }) =>
  db
    .selectFrom('oauth_clients as c')
    .leftJoin('client_secrets as s', (j) => j.onRef('s.client_id', '=', 'c.id').on('s.removed_at', 'is', null))
    .select(CLIENT_RECORD_COLUMNS.map((column) => `c.${column}` as const))
    .select(['s.id as secret_id', 's.secret_hash', 's.last_used_at'])
    .where('c.id', '=', p.id),
);

export async function findClientWithSecrets(db: Executor, id: string): Promise<{ client: ClientRecord; secrets: SecretRecord[] } | undefined> {
  const { rows } = await selectClientWithSecrets.run(db, { id });
  if (rows.length === 0) return undefined;
  const secrets = rows.flatMap((r) => (r.secret_id === null || r.secret_hash === null ? [] : [{ id: r.secret_id, clientId: id, hash: r.secret_hash, lastUsedAt: r.last_used_at }]));
  return { client: toClientRecord(rows[0]!), secrets };
}
