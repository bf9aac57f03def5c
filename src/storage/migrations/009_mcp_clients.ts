// MCP clients (docs/rules.md#mcp-agents).
// RFC 8707 resource indicators (§10.1): an authorization covers resources, and each token
// is bound to some of them. NULL stands for the default resource ({BASE_URL}/v2), so every
// row written before this migration keeps meaning what it meant, with no backfill.
// Client ID Metadata Documents (§10.3): an admin's decision about a document host.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['authorization_codes', 'access_tokens', 'refresh_tokens']) {
    await db.schema.alterTable(table).addColumn('resources', 'text').execute();
  }
  await db.schema
    .createTable('client_metadata_hosts')
    .addColumn('host', 'text', (c) => c.primaryKey())
    .addColumn('decision', 'text', (c) => c.notNull().check(sql`decision in ('trusted', 'distrusted')`))
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', 'bigint', (c) => c.notNull())
    .execute();
}
