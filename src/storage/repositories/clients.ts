// oauth_clients and client_secrets.
import type { Selectable } from 'kysely';
import type { ClientRecord, SecretRecord } from '../../oauth/storage.ts';
import { deserializeScopes } from '../../oauth/scopes.ts';
import type { OAuthClientsTable } from '../schema.ts';
import { prepare } from '../prepared.ts';
import type { Executor } from './executor.ts';

export type ClientRow = Selectable<OAuthClientsTable>;

export function toClientRecord(row: ClientRow): ClientRecord {
  return {
    id: row.id,
    name: row.name,
    homepageUrl: row.homepage_url,
    kind: row.kind,
    state: row.state,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    scopes: deserializeScopes(row.scopes),
    resourceServer: row.is_resource_server === 1,
  };
}

const selectClient = prepare((db, p: { id: string }) => db.selectFrom('oauth_clients').selectAll().where('id', '=', p.id));

export async function findClientRow(db: Executor, id: string): Promise<ClientRow | undefined> {
  return (await selectClient.run(db, { id })).rows[0];
}

const selectActiveSecrets = prepare((db, p: { clientId: string }) =>
  db.selectFrom('client_secrets').select(['id', 'client_id', 'secret_hash', 'last_used_at']).where('client_id', '=', p.clientId).where('removed_at', 'is', null),
);

export async function listActiveSecrets(db: Executor, clientId: string): Promise<SecretRecord[]> {
  const { rows } = await selectActiveSecrets.run(db, { clientId });
  return rows.map((r) => ({ id: r.id, clientId: r.client_id, hash: r.secret_hash, lastUsedAt: r.last_used_at }));
}

export async function markSecretUsed(db: Executor, secretId: string, at: number): Promise<void> {
  await db.updateTable('client_secrets').set({ last_used_at: at }).where('id', '=', secretId).execute();
}
