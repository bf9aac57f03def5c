// The storage backends a suite runs on: SQLite always, PostgreSQL when TEST_POSTGRES_URL
// is set (.ci/run sets it). Without it the PostgreSQL suites are reported as skipped, and the
// run's global setup says so once (test/helpers/global-setup.ts).
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrator.ts';

export const postgresUrl = process.env.TEST_POSTGRES_URL;
export const redisUrl = process.env.TEST_REDIS_URL;

export interface Backend {
  name: 'sqlite' | 'postgres';
  available: boolean;
}

export const backends: Backend[] = [
  { name: 'sqlite', available: true },
  { name: 'postgres', available: postgresUrl !== undefined },
];

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The DATABASE_URL a child process would use to reach the same data. */
  url: string;
  /** Extra environment for a child process (PostgreSQL schema). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database: a temporary SQLite file or a new PostgreSQL schema. With
 * `upTo`, migrated only that far: the database as an older release left it.
 */
export async function createTestDatabase(backend: Backend['name'], poolSize?: number, upTo?: string): Promise<TestDatabase> {
  const migrate = (handle: DatabaseHandle) => (upTo === undefined ? migrateToLatest(handle) : migrateUpTo(handle, upTo));
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
    const handle = openDatabase(url);
    await migrate(handle);
    return {
      handle,
      url,
      env: {},
      async drop() {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const handle = openDatabase(postgresUrl!, { schema, ...(poolSize ? { poolSize } : {}) });
  await migrate(handle);
  const url = `${postgresUrl}${postgresUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    handle,
    url,
    env: {},
    async drop() {
      await handle.close();
      await dropSchema(schema);
    },
  };
}

/**
 * Drops a test schema: at the end of the run when the run's global setup collects them
 * (test/helpers/global-setup.ts says why), at once otherwise.
 */
export async function dropSchema(schema: string): Promise<void> {
  const log = process.env.GATEHOUSE_TEST_SCHEMA_LOG;
  if (log !== undefined) {
    appendFileSync(log, `${schema}\n`);
    return;
  }
  const c = new pg.Client({ connectionString: postgresUrl });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}
