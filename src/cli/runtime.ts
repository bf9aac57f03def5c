// What every command needs: settings, the services over an opened and migrated database.
import { readFileSync } from 'node:fs';
import { Option } from 'commander';
import { loadConfig, type Config } from '../config/index.ts';
import type { ServiceContext } from '../services/context.ts';
import { openDatabase, type DatabaseHandle } from '../storage/database.ts';
import { migrateToLatest } from '../storage/migrator.ts';
import { createServiceContext } from '../storage/stores/index.ts';

export interface CliRuntime {
  config(): Config;
  /** Opens the database, applies pending migrations (unless told not to), runs fn, closes. */
  withServices<T>(fn: (services: ServiceContext, database: DatabaseHandle) => Promise<T>, options?: { migrate?: boolean }): Promise<T>;
  readStdin(): string;
}

export const runtime: CliRuntime = {
  config: () => loadConfig(),
  async withServices(fn, options) {
    const database = openDatabase(runtime.config().databaseUrl);
    try {
      if (options?.migrate !== false) await migrateToLatest(database);
      return await fn(createServiceContext(database.db, Date.now), database);
    } finally {
      await database.close();
    }
  },
  readStdin: () => (process.stdin.isTTY ? '' : readFileSync(0, 'utf8')),
};

export function jsonOption(): Option {
  return new Option('--json', 'machine-readable output');
}

