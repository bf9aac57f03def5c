// What every command needs: settings, the services over an opened and migrated database.
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';
import { Option } from 'commander';
import { loadConfig, type Config } from '../config/index.ts';
import type { ServiceContext } from '../services/context.ts';
import { openDatabase, type DatabaseHandle } from '../storage/database.ts';
import { migrateToLatest } from '../storage/migrator.ts';
import { createServiceContext } from '../storage/stores/index.ts';

export interface CliRuntime {
  config(): Config;
  /** Opens the database, applies pending migrations, runs fn, closes. */
  withServices<T>(fn: (services: ServiceContext) => Promise<T>): Promise<T>;
  /** Opens the database, applies pending migrations, closes; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Copies the database (SQLite) to file without migrating it; returns the pages copied. */
  backup(file: string): Promise<number>;
  readStdin(): string;
}

async function withDatabase<T>(fn: (database: DatabaseHandle) => Promise<T>, options: { mustExist?: boolean } = {}): Promise<T> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { ...options, connectTimeoutMs: config.databaseConnectTimeoutMs });
  for (const warning of database.warnings) process.stderr.write(`gatehouse: ${warning}\n`);
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

export const runtime: CliRuntime = {
  config: () => loadConfig(),
  withServices: (fn) => withDatabase(async (database) => {
    await migrateToLatest(database);
    return fn(createServiceContext(database.db, Date.now));
  }),
  migrate: () => withDatabase(migrateToLatest),
  // A backup of a database that is not there would be an empty one: refused instead.
  backup: (file) => withDatabase((database) => database.backup(file), { mustExist: true }),
  // Not process.stdin: creating it puts a pipe into non-blocking mode, and the read then
  // fails with EAGAIN whenever the writer is slower than the command (a password manager).
  readStdin: () => (isatty(0) ? '' : readFileSync(0, 'utf8')),
};

export function jsonOption(): Option {
  return new Option('--json', 'machine-readable output');
}

