// The storage backends a suite runs on: SQLite always, PostgreSQL when TEST_POSTGRES_URL
// is set (.ci/run sets it). Without it the PostgreSQL suites are reported as skipped, and the
// run's global setup says so once (test/helpers/global-setup.ts).
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { KeySealer, makeSigningKeySet } from '../../src/oauth/signing-keys.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { migrateToLatest, migrateUpTo } from '../../src/storage/migrator.ts';
import { createSigningKeyStore } from '../../src/storage/stores/signing-keys.ts';

const run = promisify(execFile);

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

/**
 * docs/operating.md#signing-keys: the secret every test instance seals its signing keys with: the
 * same for all, as every instance of one deployment must use the one its keys were made with.
 */
export const TEST_SIGNING_KEYS_SECRET = 'test signing keys secret, the same for every instance';

export interface TestDatabaseOptions {
  /** The size of the PostgreSQL pool. */
  poolSize?: number;
  /** Migrated only that far: the database as an older release left it (no signing keys). */
  upTo?: string;
  /**
   * The database as an instance's first start finds it, with no ID token signing keys yet: for
   * the tests of the first start. Otherwise it holds the set a first start would have made,
   * sealed under TEST_SIGNING_KEYS_SECRET.
   */
  firstStart?: boolean;
}

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The DATABASE_URL a child process would use to reach the same data. */
  url: string;
  /** Extra environment for a child process (PostgreSQL schema). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database: a temporary SQLite file or a new PostgreSQL schema.
 *
 * Migrating every test's database from nothing cost the suite a second or more per
 * PostgreSQL schema on a busy machine, and the first start of every test server made an RSA
 * key (a fifth of a second of CPU, some 200 times a run). Each worker migrates one database of
 * each kind through the real migrator and adds the first signing key set, then copies it: the
 * SQLite file as it is, the PostgreSQL schema as pg_dump writes it (structure, the migrator's
 * rows and the keys), under the new name. Where pg_dump is missing or refuses, every schema is
 * migrated as before.
 */
export async function createTestDatabase(backend: Backend['name'], options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const { poolSize, upTo } = options;
  const fromTemplate = upTo === undefined;
  /** After the copy of the template, or in its place: the database the options ask for. */
  const finish = async (handle: DatabaseHandle, copied: boolean) => {
    if (copied) {
      if (options.firstStart) await handle.db.deleteFrom('signing_keys').execute();
      return;
    }
    if (upTo !== undefined) return migrateUpTo(handle, upTo);
    await migrateToLatest(handle);
    if (!options.firstStart) await addFirstSigningKeys(handle);
  };
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'));
    const file = join(dir, 'test.db');
    const template = fromTemplate ? await sqliteTemplate() : undefined;
    if (template !== undefined) copyFileSync(template, file);
    const handle = openDatabase(`sqlite:${file}`);
    await finish(handle, template !== undefined);
    return {
      handle,
      url: `sqlite:${file}`,
      env: {},
      async drop() {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const script = fromTemplate ? await postgresTemplate() : undefined;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(script === undefined ? `CREATE SCHEMA ${schema}` : script.replaceAll(TEMPLATE_NAME, schema));
  await admin.end();
  const handle = openDatabase(postgresUrl!, { schema, ...(poolSize ? { poolSize } : {}) });
  await finish(handle, script !== undefined);
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

/** The set of signing keys an instance's first start makes (docs/operating.md#signing-keys). */
async function addFirstSigningKeys(handle: DatabaseHandle): Promise<void> {
  await createSigningKeyStore(handle.db).addSigningKeys(await makeSigningKeySet(new KeySealer(TEST_SIGNING_KEYS_SECRET), 1, Date.now()));
}

/** This worker's migrated SQLite file with its first signing keys, made once; closed, so that a copy is whole. */
let sqliteFile: Promise<string> | undefined;
function sqliteTemplate(): Promise<string> {
  sqliteFile ??= (async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'gatehouse-template-')), 'template.db');
    const handle = openDatabase(`sqlite:${file}`);
    await migrateToLatest(handle);
    await addFirstSigningKeys(handle);
    await handle.close();
    return file;
  })();
  return sqliteFile;
}

/** Stands for the schema's name in the script of a migrated PostgreSQL schema. */
const TEMPLATE_NAME = `t_template_${randomBytes(8).toString('hex')}`;

/** The SQL that makes a migrated schema named TEMPLATE_NAME with its first signing keys, made once per worker; undefined without pg_dump. */
let postgresScript: Promise<string | undefined> | undefined;
function postgresTemplate(): Promise<string | undefined> {
  postgresScript ??= (async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${TEMPLATE_NAME}`);
    await admin.end();
    const handle = openDatabase(postgresUrl!, { schema: TEMPLATE_NAME });
    await migrateToLatest(handle);
    await addFirstSigningKeys(handle);
    await handle.close();
    try {
      const dump = await run('pg_dump', [`--dbname=${postgresUrl}`, `--schema=${TEMPLATE_NAME}`, '--no-owner', '--no-privileges', '--inserts'], { maxBuffer: 16 * 1024 * 1024 });
      // psql's meta-commands (\restrict) are not SQL.
      return dump.stdout.split('\n').filter((line) => !line.startsWith('\\')).join('\n');
    } catch {
      return undefined;
    } finally {
      await dropSchema(TEMPLATE_NAME);
    }
  })();
  return postgresScript;
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
