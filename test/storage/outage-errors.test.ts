// Issue 12 item 2: every way a database can be unavailable reaches the stores as one error,
// StoreUnavailable, which the surfaces answer 503; other database errors stay what they are.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { StoreTablesMissing, StoreUnavailable } from '../../src/services/store-unavailable.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { isDatabaseUnavailable } from '../../src/storage/unavailable.ts';
import { backends, createTestDatabase, postgresUrl } from '../helpers/backends.ts';
import { freePort } from '../helpers/ports.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['PostgreSQL admin shutdown (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['PostgreSQL starting up or shutting down (57P03)', withCode('57P03', 'the database system is shutting down')],
    ['PostgreSQL connection failure (08006)', withCode('08006')],
    ['PostgreSQL too many connections (53300)', withCode('53300')],
    ['a connection lost mid-query', new Error('Connection terminated unexpectedly')],
    ['the pool waited past its timeout', new Error('timeout exceeded when trying to connect')],
    ['SQLite locked past busy_timeout', withCode('SQLITE_BUSY', 'database is locked')],
    ['SQLite snapshot busy', withCode('SQLITE_BUSY_SNAPSHOT')],
  ])('recognises %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a SQLite constraint', withCode('SQLITE_CONSTRAINT_UNIQUE')],
    ['a syntax error', withCode('42601')],
    ['any other error', new Error('boom')],
    ['a value that is not an error', 'ECONNREFUSED'],
  ])('leaves %s alone', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

// Issue 34 item 7c: a restore drops each table and makes it again under running instances.
describe.each(backends)('a missing table ($name)', ({ name, available }) => {
  it.skipIf(!available)('fails with StoreTablesMissing, a StoreUnavailable, where any other failed statement stays as it was', async () => {
    const database = await createTestDatabase(name);
    try {
      const missing = sql`select * from webhook_deliveries_being_restored`.execute(database.handle.db);
      await expect(missing).rejects.toBeInstanceOf(StoreTablesMissing);
      await expect(missing).rejects.toBeInstanceOf(StoreUnavailable);
      await expect(sql`select no_such_column from audit_events`.execute(database.handle.db)).rejects.not.toBeInstanceOf(StoreUnavailable);
    } finally {
      await database.drop();
    }
  });
});

describe.skipIf(postgresUrl === undefined)('PostgreSQL pool', () => {
  it('fails with StoreUnavailable when nothing listens on the address', async () => {
    const handle = openDatabase(`postgres://postgres@127.0.0.1:${await freePort()}/postgres`);
    try {
      await expect(sql`select 1`.execute(handle.db)).rejects.toBeInstanceOf(StoreUnavailable);
    } finally {
      await handle.close();
    }
  });

  it('fails with StoreUnavailable, not a wait without end, when every connection stays busy past the connect timeout', async () => {
    const handle = openDatabase(postgresUrl!, { poolSize: 1, connectTimeoutMs: 300 });
    try {
      let release!: () => void;
      let taken!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const connectionTaken = new Promise<void>((resolve) => (taken = resolve));
      const busy = handle.db.transaction().execute(async (tx) => {
        await sql`select 1`.execute(tx);
        taken();
        await held;
      });
      await connectionTaken;
      await expect(sql`select 1`.execute(handle.db)).rejects.toBeInstanceOf(StoreUnavailable);
      release();
      await busy;
      // The pool serves again once the connection is back.
      await expect(sql`select 1 as one`.execute(handle.db)).resolves.toMatchObject({ rows: [{ one: 1 }] });
    } finally {
      await handle.close();
    }
  });
});
