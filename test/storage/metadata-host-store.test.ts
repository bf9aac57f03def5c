// The MetadataHostStore contract (src/services/clients/store.ts, docs/rules.md#cimd-policy) on every
// backend: a decision per host, replaced by a later one, listed by host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../src/services/context.ts';
import { createServiceContext } from '../../src/storage/stores/index.ts';
import { testServiceOptions } from '../helpers/password-hashing.ts';
import { backends, createTestDatabase, type TestDatabase } from '../helpers/backends.ts';

describe.each(backends)('MetadataHostStore contract on $name', ({ name, available }) => {
  let database: TestDatabase;
  let ctx: ServiceContext;
  beforeAll(async () => {
    if (!available) return;
    database = await createTestDatabase(name);
    ctx = createServiceContext(database.handle.db, () => 5000, testServiceOptions);
  });
  afterAll(async () => database?.drop());

  it.skipIf(!available)('find: undefined for a host nobody decided about; decide then find gives the decision back', async () => {
    expect(await ctx.stores.metadataHosts.find('nobody.example.com')).toBeUndefined();
    const decision = { host: 'agent.example.com', decision: 'trusted' as const, decidedBy: null, decidedAt: 1000 };
    await ctx.stores.metadataHosts.decide(decision);
    expect(await ctx.stores.metadataHosts.find('agent.example.com')).toEqual(decision);
  });

  it.skipIf(!available)('decide: a later decision about the same host replaces the earlier one; list is by host', async () => {
    await ctx.stores.metadataHosts.decide({ host: 'b.example.com:8443', decision: 'trusted', decidedBy: null, decidedAt: 1 });
    await ctx.stores.metadataHosts.decide({ host: 'b.example.com:8443', decision: 'distrusted', decidedBy: null, decidedAt: 2 });
    expect(await ctx.stores.metadataHosts.find('b.example.com:8443')).toEqual({ host: 'b.example.com:8443', decision: 'distrusted', decidedBy: null, decidedAt: 2 });
    expect((await ctx.stores.metadataHosts.list()).map((d) => d.host)).toEqual(['agent.example.com', 'b.example.com:8443']);
  });
});
