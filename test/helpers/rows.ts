// The few places where a test outside test/storage must see or break the database itself,
// because no port can show or produce what the test is about: what is at rest, rows nobody
// was handed a token for, consistency across tables after a crash, a broken table. Every
// other read or arrangement goes through the stores (./stores.ts), so a rename of a table
// or a column is one edit here and in the storage contract suite.
import type { DatabaseHandle } from '../../src/storage/database.ts';

type Db = DatabaseHandle['db'];

/**
 * README, Security: secrets are stored only hashed. Every row of these tables as JSON: the
 * subject is what is at rest, which no port returns as it is stored.
 */
export async function tableDumps(db: Db, tables: readonly ('access_tokens' | 'refresh_tokens' | 'authorization_codes' | 'client_secrets' | 'audit_events' | 'grants')[]): Promise<Record<string, string>> {
  const dumps = await Promise.all(tables.map(async (table) => [table, JSON.stringify(await db.selectFrom(table).selectAll().execute())] as const));
  return Object.fromEntries(dumps);
}
