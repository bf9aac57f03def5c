// The migrator on PostgreSQL looks only at its own schema (src/storage/schema-introspector.ts).
// Kysely's own introspector read every schema of the database, so a schema dropped by
// another application (or another test run) during a migration failed it with
// `schema "…" does not exist`: 21 of 30 migrations failed that way under the churn below.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
import { migrateToLatest } from '../../src/storage/migrator.ts';
import { dropSchema, postgresUrl } from '../helpers/backends.ts';
import { randomBytes } from 'node:crypto';

describe.skipIf(postgresUrl === undefined)('migrations on postgres beside other schemas', () => {
  it('migrate succeeds while other schemas of the same database are created and dropped', async () => {
    const churner = new pg.Client({ connectionString: postgresUrl });
    await churner.connect();
    const prefix = `churn_${randomBytes(4).toString('hex')}`;
    let stop = false;
    let churned = 0;
    const churning = (async () => {
      while (!stop) {
        const schema = `${prefix}_${churned++}`;
        await churner.query(`create schema ${schema}; create table ${schema}.t (a int, b int)`);
        await churner.query(`drop schema ${schema} cascade`);
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 10; i++) {
        const schema = `t_${randomBytes(6).toString('hex')}`;
        await churner.query(`create schema ${schema}`);
        const handle = openDatabase(postgresUrl!, { schema });
        try {
          expect(await migrateToLatest(handle)).toContain('001_initial');
        } catch (error) {
          failures.push((error as Error).message);
        } finally {
          await handle.close();
          await dropSchema(schema);
        }
      }
    } finally {
      stop = true;
      await churning;
      await churner.end();
    }
    expect(churned, 'other schemas came and went during the migrations').toBeGreaterThan(10);
    expect(failures).toEqual([]);
  });
});
