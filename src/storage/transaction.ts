// Runs fn in a transaction, or in the caller's when it already is one (ARCHITECTURE.md#transactions-are-explicit):
// a service that needs several writes to land together works inside a larger one too.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute((trx: Transaction<Database>) => fn(trx));
}
