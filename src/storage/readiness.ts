// The readiness port (services/readiness.ts) over an opened database.
import { sql } from 'kysely';
import type { Readiness } from '../services/readiness.ts';
import type { DatabaseHandle } from './database.ts';
import { isUpToDate } from './migrator.ts';

export function createReadiness(handle: DatabaseHandle): Readiness {
  return {
    ping: async () => {
      await sql`select 1`.execute(handle.db);
    },
    migrationsApplied: () => isUpToDate(handle),
  };
}
