// OAuthStore.transaction under concurrency, on every backend: each transaction is all or
// nothing on its own, and answers only once what it wrote is committed. On SQLite the
// transactions of one event-loop turn share one commit (src/storage/group-commit.ts): these
// are the properties that sharing must keep.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrantRecord, OAuthStore } from '../../src/oauth/storage.ts';
import { openDatabase, type DatabaseHandle } from '../../src/storage/database.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';
import { accessTokenRecord, grantRecord, refreshTokenRecord, seedClient, seedUser, T0 } from './seed.ts';
import { createOAuthStore } from './stores.ts';

describe.each(backends)('concurrent transactions on $name', ({ name, available }) => {
  let database: TestDatabase;
  let store: OAuthStore;
  /** A second connection to the same data: what another process would see. */
  let other: DatabaseHandle;
  let otherStore: OAuthStore;
  let grant: GrantRecord;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    store = createOAuthStore(database.handle.db);
    other = openDatabase(database.url);
    otherStore = createOAuthStore(other.db);
    const userId = await seedUser(database.handle.db);
    const clientId = await seedClient(database.handle.db, userId);
    grant = grantRecord(userId, clientId);
    await store.createGrant(grant);
  });
  afterAll(async () => {
    await other?.close();
    await database?.drop();
  });

  it.skipIf(!available)('a transaction that throws leaves none of its writes; those beside it keep all of theirs', async () => {
    const taken = accessTokenRecord(grant);
    await store.createAccessToken(taken);
    const runs = Array.from({ length: 24 }, (_, i) => {
      const access = accessTokenRecord(grant);
      const refresh = refreshTokenRecord(grant);
      // Every third fails: by throwing after its writes, or on the database's own refusal.
      const fate = i % 3 === 0 ? 'throws' : i % 3 === 1 ? 'duplicate' : 'commits';
      const outcome = store.transaction(async (tx) => {
        await tx.createRefreshToken(refresh);
        await tx.audit.append({ type: 'token.issued', clientId: grant.clientId, userId: grant.userId, data: { run: i } }, T0);
        if (fate === 'throws') throw new Error(`run ${i} refused`);
        if (fate === 'duplicate') await tx.createAccessToken({ ...access, hash: taken.hash });
        else await tx.createAccessToken(access);
      });
      return { fate, access, refresh, outcome: outcome.then(() => 'committed', () => 'failed') };
    });
    for (const run of runs) {
      expect(await run.outcome).toBe(run.fate === 'commits' ? 'committed' : 'failed');
      const committed = run.fate === 'commits';
      expect(await otherStore.findRefreshToken(run.refresh.hash) !== undefined).toBe(committed);
      expect(await otherStore.findAccessToken(run.access.hash) !== undefined).toBe(committed);
    }
    expect((await otherStore.findAccessToken(taken.hash))?.grantId).toBe(grant.id);
  });

  it.skipIf(!available)('a transaction returns only once another connection can read what it wrote', async () => {
    const seen = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const access = accessTokenRecord(grant);
        await store.transaction((tx) => tx.createAccessToken(access));
        return (await otherStore.findAccessToken(access.hash)) !== undefined;
      }),
    );
    expect(seen).toEqual(Array(12).fill(true));
  });

  it.skipIf(!available)('a statement outside a transaction, run while others commit, returns only once it is readable elsewhere', async () => {
    const inside = accessTokenRecord(grant);
    const outside = accessTokenRecord(grant);
    const [, visible] = await Promise.all([
      store.transaction((tx) => tx.createAccessToken(inside)),
      store.createAccessToken(outside).then(async () => (await otherStore.findAccessToken(outside.hash)) !== undefined),
    ]);
    expect(visible).toBe(true);
  });

  it.skipIf(!available || name !== 'sqlite')('a process killed mid-write keeps every transaction it acknowledged, each whole', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/storage/fixtures/transaction-writer.ts', database.url, grant.userId, grant.clientId, grant.id], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acknowledged: number[] = [];
    const lines = createInterface({ input: child.stdout });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      lines.on('line', (line) => {
        acknowledged.push(Number(line));
        if (acknowledged.length === 400) resolve();
      });
      child.once('exit', (code) => reject(new Error(`writer exited (${code}) after ${acknowledged.length} transactions`)));
    });
    child.kill('SIGKILL');
    await exited;

    const rows = async (table: 'access_tokens' | 'refresh_tokens', key: 'token_hash' | 'id', prefix: string) =>
      new Set(
        (await other.db.selectFrom(table).select(key).where(key, 'like', `${prefix}%`).execute()).map((r) => Number(String(Object.values(r)[0]).slice(prefix.length))),
      );
    const access = await rows('access_tokens', 'token_hash', 'crash-access-');
    const refresh = await rows('refresh_tokens', 'id', 'crash-refresh-');
    expect(acknowledged.filter((n) => !access.has(n) || !refresh.has(n))).toEqual([]);
    expect([...access].sort((a, b) => a - b)).toEqual([...refresh].sort((a, b) => a - b));
  });

});
