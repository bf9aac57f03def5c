// On PostgreSQL the hot statements (src/storage/prepared.ts) run as named prepared
// statements, so the server parses and plans each once per connection
// (src/storage/named-statements.ts); every other statement is sent as plain text.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthStore } from './stores.ts';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/backends.ts';
import { accessTokenRecord, codeRecord, grantRecord, refreshTokenRecord, seedClient, seedUser, T0 } from './seed.ts';

describe.skipIf(postgresUrl === undefined)('named statements on postgres', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    // One connection, so the session that prepared the statements is the one asked.
    database = await createTestDatabase('postgres', { poolSize: 1 });
  });
  afterAll(async () => database?.drop());

  /** The store over the one connection, and a grant of a new user for a new client. */
  async function withGrant() {
    const { db } = database.handle;
    const store = createOAuthStore(db);
    const userId = await seedUser(db);
    const clientId = await seedClient(db, userId);
    const grant = grantRecord(userId, clientId);
    await store.createGrant(grant);
    return { db, store, grant, clientId };
  }

  const prepared = async () =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(database.handle.db)).rows;

  it('a hot statement is prepared once on the connection and reused; ad-hoc statements are not prepared', async () => {
    const { store, grant } = await withGrant();
    const token = accessTokenRecord(grant);
    await store.createAccessToken(token);

    await store.findAccessToken(token.hash);
    const afterFirst = (await prepared()).filter((s) => s.statement.includes('from "access_tokens"'));
    expect(afterFirst).toHaveLength(1);
    expect(afterFirst[0]!.name).toMatch(/^gatehouse_\d+$/);

    expect(await store.findAccessToken(token.hash)).toMatchObject({ hash: token.hash, clientState: 'approved' });
    const statements = await prepared();
    expect(statements.filter((s) => s.statement.includes('from "access_tokens"'))).toEqual(afterFirst);
    // createGrant is built per call, not compiled once: sent as text, never named.
    expect(statements.some((s) => s.statement.includes('insert into "grants"'))).toBe(false);
  });

  it('a column a migration adds while the server runs breaks no prepared statement (no result type is fixed by a *)', async () => {
    const { db, store, grant, clientId } = await withGrant();
    const [first, second] = [codeRecord(grant), codeRecord(grant)];
    await store.createCode(first);
    await store.createCode(second);
    const refresh = refreshTokenRecord(grant);
    await store.createRefreshToken(refresh);
    // Prepared on this connection before the migration.
    expect(await store.consumeCode(first.hash, T0 + 1)).toMatchObject({ hash: first.hash, consumedAt: T0 + 1 });
    expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
    expect(await store.findClient(clientId)).toMatchObject({ id: clientId });

    for (const table of ['authorization_codes', 'refresh_tokens', 'oauth_clients']) await sql.raw(`alter table ${table} add column added_later integer`).execute(db);

    expect(await store.consumeCode(second.hash, T0 + 2)).toMatchObject({ hash: second.hash, consumedAt: T0 + 2 });
    expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
    expect(await store.findClient(clientId)).toMatchObject({ id: clientId });
  });

  it('a connection whose prepared statement a migration outdated fails that once and is replaced', async () => {
    const { db, store, grant } = await withGrant();
    const refresh = refreshTokenRecord(grant);
    await store.createRefreshToken(refresh);
    expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);

    // A column the statement returns changes its type: the prepared plan's result no longer fits.
    await sql`alter table refresh_tokens alter column successor_box type varchar(4000)`.execute(db);

    await expect(store.findRefreshToken(refresh.hash)).rejects.toMatchObject({ code: '0A000' });
    expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
    expect(await store.findRefreshToken(refresh.hash)).toEqual(refresh);
  });
});
