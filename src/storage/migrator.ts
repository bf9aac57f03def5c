// One ordered list of migrations for both dialects, applied by Kysely's migrator.
import { Migrator, type Migration } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import * as initial from './migrations/001_initial.ts';

type DialectMigration = { up: (db: Parameters<Migration['up']>[0], dialect: DatabaseHandle['dialect']) => Promise<void> };

const migrations: Record<string, DialectMigration> = {
  '001_initial': initial,
};

function migrator(handle: DatabaseHandle): Migrator {
  return new Migrator({
    db: handle.db,
    provider: {
      async getMigrations() {
        return Object.fromEntries(
          Object.entries(migrations).map(([name, m]) => [name, { up: (db) => m.up(db, handle.dialect) }]),
        );
      },
    },
  });
}

/** Applies pending migrations; returns the names applied. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const { error, results } = await migrator(handle).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied (for readiness checks). */
export async function isUpToDate(handle: DatabaseHandle): Promise<boolean> {
  const all = await migrator(handle).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
