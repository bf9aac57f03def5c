// On PostgreSQL the hot statements (src/storage/prepared.ts) run as named prepared
// statements, so the server parses and plans each once per connection
// (src/storage/named-statements.ts); every other statement is sent as plain text.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthStore } from './stores.ts';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/backends.ts';
import { accessTokenRecord, grantRecord, seedClient, seedUser } from './seed.ts';

describe.skipIf(postgresUrl === undefined)('named statements on postgres', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    // One connection, so the session that prepared the statements is the one asked.
    database = await createTestDatabase('postgres', 1);
  });
  afterAll(async () => database?.drop());

  const prepared = async () =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(database.handle.db)).rows;

  it('a hot statement is prepared once on the connection and reused; ad-hoc statements are not prepared', async () => {
    const { db } = database.handle;
    const store = createOAuthStore(db);
    const userId = await seedUser(db);
    const clientId = await seedClient(db, userId);
    const grant = grantRecord(userId, clientId);
    await store.createGrant(grant);
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
});
