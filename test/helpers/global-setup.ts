// Once per run: the notices that PostgreSQL and Redis suites are skipped, and the dropping of the
// PostgreSQL test schemas after every test file has finished. Dropping one while another
// file migrates races Kysely's introspection, which asks has_schema_privilege() of every
// schema it sees and fails with `schema "t_…" does not exist` when one vanishes under it.
// Each run drops only the schemas it created, so parallel runs leave each other be.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export function setup(): () => Promise<void> {
  // Here rather than in backends.ts: every test file imports that in its own worker, and a
  // notice there is printed once per file.
  if (process.env.TEST_POSTGRES_URL === undefined) {
    console.warn('PostgreSQL suites skipped: set TEST_POSTGRES_URL=postgres://... to run them (.ci/run does).');
  }
  if (process.env.TEST_REDIS_URL === undefined) {
    console.warn('Redis suites skipped: set TEST_REDIS_URL=redis://... to run them (.ci/run does).');
  }
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-schemas-'));
  const log = join(dir, 'schemas.txt');
  process.env.GATEHOUSE_TEST_SCHEMA_LOG = log;
  return async () => {
    const url = process.env.TEST_POSTGRES_URL;
    let names: string[] = [];
    try {
      names = readFileSync(log, 'utf8').split('\n').filter((n) => /^t_[a-z0-9_]+$/.test(n));
    } catch {
      // no PostgreSQL suite ran
    }
    if (url !== undefined && names.length > 0) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      for (const name of names) await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
