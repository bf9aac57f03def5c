// MetadataHostStore (services/clients/store.ts) over client_metadata_hosts (docs/rules.md#cimd-policy).
import type { Kysely, Selectable } from 'kysely';
import type { MetadataHostDecision, MetadataHostStore } from '../../services/clients/store.ts';
import type { ClientMetadataHostsTable, Database } from '../schema.ts';

const toDecision = (r: Selectable<ClientMetadataHostsTable>): MetadataHostDecision => ({ host: r.host, decision: r.decision, decidedBy: r.decided_by, decidedAt: r.decided_at });

export function createMetadataHostStore(db: Kysely<Database>): MetadataHostStore {
  return {
    find: async (host) => {
      const row = await db.selectFrom('client_metadata_hosts').selectAll().where('host', '=', host).executeTakeFirst();
      return row && toDecision(row);
    },
    decide: async (d) => {
      const values = { host: d.host, decision: d.decision, decided_by: d.decidedBy, decided_at: d.decidedAt };
      await db
        .insertInto('client_metadata_hosts')
        .values(values)
        .onConflict((oc) => oc.column('host').doUpdateSet({ decision: values.decision, decided_by: values.decided_by, decided_at: values.decided_at }))
        .execute();
    },
    list: async () => (await db.selectFrom('client_metadata_hosts').selectAll().orderBy('host').execute()).map(toDecision),
  };
}
