import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';

/** What the application services need: the database and a clock. */
export interface ServiceContext {
  db: Kysely<Database>;
  clock: () => number;
}
