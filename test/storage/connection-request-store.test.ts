// The contract of ConnectionRequestStore (src/platform/connection-requests/store.ts), on both
// backends: a request reads back with its client's name while it waits, is found no more once
// expired or used, is used once and by its own user only (ARCHITECTURE.md#single-use-is-atomic:
// of concurrent uses exactly one wins), and goes with its user or its client.
import { describe, expect, it } from 'vitest';
import type { ConnectionRequest } from '../../src/platform/connection-requests/store.ts';
import { backends } from '../helpers/backends.ts';
import { seedClient, seedUser, T0, uniqueId, useServiceStores } from './seed.ts';

describe.each(backends)('connection request store on $name (docs/rules.md#connect-pages)', ({ name, available }) => {
  const suite = useServiceStores(name, available);
  const store = () => suite.stores.api.connectionRequests;

  async function request(overrides: Partial<ConnectionRequest> = {}): Promise<ConnectionRequest> {
    const db = suite.database.handle.db;
    const userId = overrides.userId ?? (await seedUser(db));
    const made: ConnectionRequest = {
      tokenHash: uniqueId('hash'),
      userId,
      clientId: await seedClient(db, await seedUser(db)),
      kind: 'conferencing',
      provider: 'zoom',
      returnTo: 'https://app.example.com/ok',
      onErrorReturnTo: 'https://app.example.com/failed',
      createdAt: T0,
      expiresAt: T0 + 600_000,
      ...overrides,
    };
    await store().insert(made);
    return made;
  }

  it.skipIf(!available)('findLive: a waiting request with its client\'s name; none for an unknown hash or once it expired', async () => {
    const made = await request({ kind: 'calendar', provider: 'google', onErrorReturnTo: null });
    expect(await store().findLive(made.tokenHash, T0 + 1)).toEqual({ ...made, clientName: 'Calendar Sync' });
    expect(await store().findLive(made.tokenHash, made.expiresAt)).toBeUndefined();
    expect(await store().findLive(uniqueId('hash'), T0)).toBeUndefined();
    const bare = await request({ kind: 'calendar', provider: 'office365', returnTo: null, onErrorReturnTo: null });
    expect(await store().findLive(bare.tokenHash, T0)).toMatchObject({ returnTo: null, onErrorReturnTo: null });
  });

  it.skipIf(!available)('consume: returns the request once, for its own user; then it is found no more and used no more', async () => {
    const made = await request();
    expect(await store().consume(made.tokenHash, await seedUser(suite.database.handle.db), T0 + 1)).toBeUndefined();
    expect(await store().consume(made.tokenHash, made.userId, T0 + 2)).toEqual(made);
    expect(await store().consume(made.tokenHash, made.userId, T0 + 3)).toBeUndefined();
    expect(await store().findLive(made.tokenHash, T0 + 3)).toBeUndefined();
  });

  it.skipIf(!available)('consume: an expired request is not used', async () => {
    const made = await request({ expiresAt: T0 + 10 });
    expect(await store().consume(made.tokenHash, made.userId, T0 + 10)).toBeUndefined();
  });

  it.skipIf(!available)('consume: of concurrent uses exactly one gets the request', async () => {
    for (let round = 0; round < 10; round++) {
      const made = await request();
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => store().consume(made.tokenHash, made.userId, T0 + i)));
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    }
  });

  it.skipIf(!available)('a use inside a transaction that rolls back leaves the request waiting', async () => {
    const made = await request();
    await expect(
      suite.stores.transaction(async (tx) => {
        expect(await tx.api.connectionRequests.consume(made.tokenHash, made.userId, T0 + 1)).toEqual(made);
        throw new Error('the connection was refused');
      }),
    ).rejects.toThrow('the connection was refused');
    expect(await store().findLive(made.tokenHash, T0 + 2)).toMatchObject({ tokenHash: made.tokenHash });
  });

  it.skipIf(!available)('a request goes with its user, and with its client', async () => {
    const db = suite.database.handle.db;
    const ofUser = await request();
    const ofClient = await request();
    await db.deleteFrom('users').where('id', '=', ofUser.userId).execute();
    await db.deleteFrom('oauth_clients').where('id', '=', ofClient.clientId).execute();
    expect(await db.selectFrom('connection_requests').select('token_hash').where('token_hash', 'in', [ofUser.tokenHash, ofClient.tokenHash]).execute()).toEqual([]);
  });
});
