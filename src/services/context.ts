import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { ServiceStores } from './stores.ts';

/** What the application services need: their stores and a clock. */
export interface ServiceContext {
  stores: ServiceStores;
  clock: () => number;
  /**
   * Direct database access, for the services not yet behind a store (eslint.config.js lists
   * them). It goes when the last of them has moved.
   */
  db: Kysely<Database>;
}
