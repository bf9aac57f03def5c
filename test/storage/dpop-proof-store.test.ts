// DpopProofStore (src/oauth/dpop.ts) on every backend: a proof key is recorded once, and of
// concurrent records of one key exactly one wins (RFC 9449 §11.1; ARCHITECTURE.md#single-use-is-atomic).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DpopProofStore } from '../../src/oauth/dpop.ts';
import { createDpopProofStore } from './stores.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';

describe.each(backends)('DpopProofStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let store: DpopProofStore;

  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name, { poolSize: 8 });
    store = createDpopProofStore(database.handle.db);
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('recordProof: true the first time, false for the same key after, writing nothing', async () => {
    expect(await store.recordProof('key-once', 1_000)).toBe(true);
    expect(await store.recordProof('key-once', 2_000)).toBe(false);
    expect(await store.recordProof('key-other', 1_000)).toBe(true);
  });

  it.skipIf(!available)('recordProof: of ten concurrent records of one key, exactly one is true', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => store.recordProof('key-raced', 1_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
