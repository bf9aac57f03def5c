// oauth_clients and client_secrets.
import type { Selectable } from 'kysely';
import type { ClientRecord } from '../../oauth/storage.ts';
import { scopesFromColumn } from '../columns.ts';
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
    scopes: scopesFromColumn(row.scopes),
    resourceServer: row.is_resource_server === 1,
  };
}

const selectClient = prepare((db, p: { id: string }) => db.selectFrom('oauth_clients').selectAll().where('id', '=', p.id));

export async function findClientRow(db: Executor, id: string): Promise<ClientRow | undefined> {
  return (await selectClient.run(db, { id })).rows[0];
}
